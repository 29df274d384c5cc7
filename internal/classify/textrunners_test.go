package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/shell"
)

// Programs that run commands written in their own text (tmux, screen, m4,
// make -f -, Tcl and expect, gdb, entr, run-parts, sudoedit, EXINIT,
// sqlite3's edit()) and that read files named in their own text (m4's
// include, yq's load, cpp's #include) are rated by what that text runs or
// reads; text airlock cannot read is opaque; their ordinary runs stay
// local.
func TestTextRunners(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"x.tcl":   "puts [exec git push origin main]\n",
		"ok.tcl":  "puts [expr 1+2]\n",
		"rp/a":    "#!/bin/sh\ngit push origin main\n",
		"ok/a":    "#!/bin/sh\necho hi\n",
		"push.m4": "esyscmd(`git push origin main')\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := Classifier{Limits: shell.DefaultLimits, FS: DirFS(dir)}
	const ext, opq, local = "external", "opaque", "local"
	for _, tc := range []struct{ cmd, want string }{
		// tmux and screen.
		{"tmux new -d 'git push origin main'", ext},
		{"tmux new-session -d -s x git push origin main", ext},
		{"tmux split-window -h 'git push origin main'", ext},
		{"tmux neww git push origin main", ext},
		{"tmux run-shell 'git push origin main'", ext},
		{"tmux run -b 'git push origin main'", ext},
		{"tmux if-shell true 'run-shell \"git push origin main\"'", ext},
		{"tmux send-keys -t x 'git push origin main' Enter", ext},
		{"tmux send -t x git Space push Space origin Space main C-m", ext},
		{"tmux -c 'git push origin main'", ext},
		{"tmux new -d \\; send-keys 'git push origin main' Enter", ext},
		{"tmux source-file x.conf", opq},
		{"tmux send-keys -H 67 69", opq},
		{"screen -dm git push origin main", ext},
		{"screen -dmS x git push origin main", ext},
		{"screen -S x -X stuff 'git push origin main\\n'", ext},
		{"screen -S x -X exec git push origin main", ext},
		{"screen -c x.rc", opq},
		{"screen -D -m git push origin main", ext},
		{"screen -S x -D -m git push origin main", ext},
		{"tmux new -d -s dev 'npm run dev'", local},
		{"tmux send-keys -t dev 'ls' Enter", local},
		{"tmux ls", local},
		{"tmux attach -t dev", local},
		// Every session of the human's ends (FINDINGS-10 X1, userstate.go);
		// one named session is ordinary.
		{"tmux kill-server", "shared+destructive"},
		{"tmux kill-session -t dev", local},
		{"screen -S dev -X quit", local},
		{"screen -X quit", "shared+destructive"},
		{"screen -r dev", local},
		{"screen -ls", local},
		{"screen -dmS dev npm run dev", local},
		// m4.
		{"echo 'syscmd(git push origin main)' | m4", ext},
		{"echo 'esyscmd(git push origin main)' | m4", ext},
		{"echo \"esys\\`'cmd(git push origin main)\" | m4", ext},
		{"m4 push.m4", ext},
		{"m4 -D 'X=esyscmd(git push origin main)'", ext},
		{"echo 'indir(x)' | m4", opq},
		{"echo 'changequote([,])' | m4", opq},
		{"m4 < unknown.m4", opq},
		{"m4 missing.m4", local},
		{"printf 'esyscmd(x)' > gen.m4; m4 gen.m4", opq},
		{"echo 'hello' | m4", local},
		{"echo 'include(notes.txt)' | m4", local},
		// make's makefile on standard input, and -E.
		{"make -f - <<< $'x:\\n\\tgit push origin main'", ext},
		{"printf 'x: ; git push origin main\\n' | make -f - x", ext},
		{"make -E 'x: ; git push origin main' x", opq},
		{"make -f - < Makefile.in", opq},
		{"make -f - <<< $'x:\\n\\techo hi'", local},
		// Tcl and expect.
		{"tclsh <<< 'exec git push origin main'", ext},
		{"tclsh x.tcl", ext},
		{"expect -c 'spawn git push origin main'", ext},
		{"expect -c 'exec git push origin main'", ext},
		{"echo 'exec git push origin main' | expect", ext},
		{"tclsh <<< 'eval $cmd'", opq},
		{"tclsh <<< 'exec $prog'", opq},
		{"tclsh missing.tcl", local},
		{"cp x.tcl gen.tcl && tclsh gen.tcl", opq},
		{"tclsh ok.tcl", local},
		{"tclsh <<< 'puts [expr 1+2]'", local},
		// gdb.
		{"gdb -batch -ex '!git push origin main'", ext},
		{"gdb -batch -ex 'shell git push origin main'", ext},
		{"gdb -ex 'pipe bt | git push origin main'", ext},
		{"gdb -batch -ex 'python import os'", opq},
		{"gdb -x cmds.gdb ./prog", opq},
		{"gdb -batch -ex bt ./prog core", local},
		// entr, run-parts, sudoedit, EXINIT.
		{"entr git push origin main <<< src/m.py", ext},
		{"entr -s 'git push origin main' <<< src/m.py", ext},
		{"ls src/*.py | entr -r python3 src/m.py", local},
		{"run-parts rp", ext},
		{"run-parts missing", opq},
		{"run-parts ok", local},
		{"run-parts --test rp", local},
		{"SUDO_EDITOR='git push origin main' sudoedit /etc/hosts", ext},
		{"sudoedit /etc/hosts", local},
		{"EXINIT='!git push origin main' ex -s f", ext},
		{"VIMINIT='!git push origin main' vim f", ext},
		{"EXINIT='set ai' ex -s f", local},
		// sqlite3's edit().
		{`sqlite3 :memory: "select edit('x','git push origin main')"`, ext},
		{`sqlite3 :memory: "select edit('x', editor)"`, opq},
		{`sqlite3 :memory: "select edit('x','vim')"`, local},
		{`sqlite3 app.db "select credit from t"`, local},
		// yq's load and cpp's #include name files they read.
		{`yq -n 'load(env(F))'`, opq},
		{`yq -n 'load("config.yaml") | .a'`, local},
		{`yq '.a.b' config.yaml`, local},
		{`echo '#include FOO' | cpp -P`, opq},
		{`echo '#include <stdio.h>' | cpp -P`, local},
	} {
		r := c.Command(tc.cmd)
		var got string
		switch {
		case r.Tier == External:
			got = ext
		case r.Effect.Opaque:
			got = opq
		case r.Tier == Local && !r.Effect.Destructive:
			got = local
		default:
			got = r.Effect.Label()
		}
		if got != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.cmd, got, r.Effect.Label(), tc.want)
		}
	}
}

// The substitutions, writes and quits of vim's and ex's -c commands are
// harmless; expressions, shell escapes and vim script are not.
func TestVimCommandsRead(t *testing.T) {
	c := Classifier{Limits: shell.DefaultLimits}
	for _, tc := range []struct {
		cmd    string
		opaque bool
	}{
		{"ex -sc '%s/foo/bar/g|x' src/m.py", false},
		{"vim -c ':%s/a/b/g' -c ':wq' src/m.py", false},
		{"vim -es -c 'g/^#/d' -c wq f", false},
		{"ex -sc '1,$s#a#b#ge|wq' f", false},
		{"ex -sc 'g/x/s/a/b/|x' f", false},
		{"vim -c 'set ts=4' -c wq f", false},
		{"ex -sc '%s/a/\\=system(\"ls\")/|x' f", true},
		{"ex -sc 'r !ls|x' f", true},
		{"ex -sc 'source s.vim|x' f", true},
		{"vim -c 'call system(\"ls\")' f", true},
		{"ex -sc 'py3 import os|x' f", true},
		{"ex -sc 'g/x/s/a/b/|call system(\"ls\")' f", true},
		{"ex -sc '%!sort|x' f", true},
		{"vim -c 'w /tmp/other' f", true},
	} {
		r := c.Command(tc.cmd)
		if r.Effect.Opaque != tc.opaque {
			t.Errorf("%s: opaque %v (%s), want %v", tc.cmd, r.Effect.Opaque, r.Effect.Label(), tc.opaque)
		}
	}
}
