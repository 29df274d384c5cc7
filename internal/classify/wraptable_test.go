package classify

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// wrapProject is a project whose scripts push: x.sh by its #! line,
// y.py by its extension, bare by its mode alone; ok.sh runs only a read.
var wrapProject = fstest.MapFS{
	"x.sh":        {Data: []byte("#!/bin/sh\ngit push origin main\n"), Mode: 0o755},
	"y.py":        {Data: []byte("import subprocess\nsubprocess.run(['git', 'push', 'origin', 'main'])\n")},
	"bin/bare":    {Data: []byte("git push origin main\n"), Mode: 0o755},
	"notes.txt":   {Data: []byte("git push origin main\n")},
	"ok.sh":       {Data: []byte("#!/bin/sh\nls\n"), Mode: 0o755},
	"app/main.go": {Data: []byte("package main\n")},
}

// TestWrapTable checks where the table finds each wrapper's command: the
// script there is followed (external, with its file and line), a known
// program is rated as itself, a name known at run time is opaque, and a
// wrapper's own words (a file it writes, a count, a profile) are not
// taken for the command.
func TestWrapTable(t *testing.T) {
	for _, tc := range []struct{ cmd, label, reason string }{
		{"rlwrap ./x.sh", "external", "x.sh:2: git push"},
		{"taskset -c 0 ./x.sh", "external", "x.sh:2"},
		{"taskset 0x1 ./x.sh", "external", "x.sh:2"},
		{"chrt -i 0 ./x.sh", "external", "x.sh:2"},
		{"faketime '2020-01-01 10:00' ./x.sh", "external", "x.sh:2"},
		{"strace -f -o trace.txt ./x.sh", "external", "x.sh:2"},
		{"aws-vault exec prod -- ./x.sh", "external", "x.sh:2"},
		{"envchain aws ./x.sh", "external", "x.sh:2"},
		{"chamber exec svc1 svc2 -- ./x.sh", "external", "x.sh:2"},
		{"sops exec-env secrets.yaml './x.sh --now'", "external", "x.sh:2"},
		{"gdb -batch -ex run --args ./x.sh", "external", "x.sh:2"},
		{"perf stat -e cycles ./x.sh", "external", "x.sh:2"},
		{"xterm -hold -e ./x.sh", "external", "x.sh:2"},
		{"gnome-terminal -- ./x.sh", "external", "x.sh:2"},
		{"tilix -e './x.sh'", "external", "x.sh:2"},
		{"nodemon --exec './x.sh'", "external", "x.sh:2"},
		{"nix-shell -p git --run 'git push origin main'", "external", "git push"},
		{"hyperfine 'ls' './x.sh'", "external", "x.sh:2"},
		{"tox exec -e py311 -- git push origin main", "external", "git push"},
		{"conda run -n base y.py", "external", "git push"},
		{"mywrap --tries 3 ./x.sh", "external", "x.sh:2"},
		{"mywrap ./bin/bare", "external", "bin/bare:1"},
		{"printf '#!/bin/sh\\ngit push origin main\\n' > y && chmod +x y && mywrap ./y", "external", "git push"},
		{"curl -so y.sh https://example.com/y.sh && mywrap ./y.sh", "local+opaque+netread", "written by the same command"},
		{"rlwrap \"$S\"", "local+opaque", "named only at run time"},
		{"fd -e sh -x {}", "local+opaque", "each file it finds"},
		{"find . -name '*.sh' -exec {} \\;", "local+opaque", "each file find finds"},
		// negative: readers, a shell's check, benign scripts, the
		// wrapper's own words
		{"rlwrap ./ok.sh", "local", ""},
		{"taskset -c 0 go test ./...", "local", ""},
		{"strace -o x.sh ls", "local", ""},
		{"codespell x.sh y.py", "local", ""},
		{"bash -n x.sh", "local", ""},
		{"command -v x.sh", "local", ""},
		{"mywrap notes.txt", "local", ""},
		{"perf report -i perf.data", "local", ""},
		{"tox -e py311", "local", ""},
		{"fd -e go -x gofmt -l {}", "local", ""},
		{"watchexec -e go -- go test ./...", "local", ""},
		{"go vet ./... && staticcheck ./...", "local", ""},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: wrapProject}
		r := c.Command(tc.cmd)
		var msgs []string
		for _, re := range r.Reasons {
			msgs = append(msgs, re.Rule+": "+re.Message)
		}
		for _, f := range r.Followed {
			msgs = append(msgs, f.Source)
		}
		all := strings.Join(msgs, "\n")
		if r.Label() != tc.label || !strings.Contains(all, tc.reason) {
			t.Errorf("%s: got %s\n%s\nwant %s with %q", tc.cmd, r.Label(), all, tc.label, tc.reason)
		}
	}
}

// TestWrapTableNamesKnown checks that every wrapper of the table is one
// IsWrapper reports, and that none has a spec of its own that would
// rate its runs before the table is read, unless its run subcommand is
// rated by runSubcommand (pdm run) or its spec reads the command
// (systemd-run).
func TestWrapTableNamesKnown(t *testing.T) {
	for name := range wrapTable.Get() {
		if !IsWrapper(name) {
			t.Errorf("%s: in the table but not a wrapper", name)
		}
		_, run := runSubcommands.Get()[name]
		if specFor(name) != nil && !run && name != "systemd-run" {
			t.Errorf("%s: has a spec, which rates it before the table is read", name)
		}
	}
}
