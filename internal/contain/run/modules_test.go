package run

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNewModuleFiles is FINDINGS-9 C1: a submodule repository made during
// the run has its config set aside when it holds a key git's own commands
// do not write (core.fsmonitor, include.path, core.hooksPath, submodule
// update commands), and every hook but git's samples; one that existed
// when the plan was made (fenced read-only inside) is left alone, and so
// is the plain config git init and git submodule write.
func TestNewModuleFiles(t *testing.T) {
	proj := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(proj, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n\tworktree = ../../../lib\n[remote \"origin\"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"
	write(".git/modules/old/config", plain+"[core]\n\tfsmonitor = ./x.sh\n")
	write(".git/modules/old/hooks/pre-commit", "#!/bin/sh\n")
	before := gitModules(filepath.Join(proj, ".git", "modules"), 0)
	want := []string{
		write(".git/modules/fsmon/config", plain+"[core]\n\tfsmonitor = \"$PWD/fsmon.sh\"\n"),
		write(".git/modules/inc/config", "[include]\n\tpath = ../../../x.cfg\n"),
		write(".git/modules/hp/config", "[core]\n\thooksPath = hk\n"),
		write(".git/modules/upd/config", "[submodule \"x\"]\n\tupdate = !./x.sh\n"),
		write(".git/modules/Case/config", "[Core]\n\tFSMonitor = x\n"),
		write(".git/modules/dotted/config", "[core.x]\n\tpager = x\n"),
		write(".git/modules/wt/config.worktree", "[core]\n\tfsmonitor = x\n"),
		write(".git/modules/hooked/hooks/post-checkout", "#!/bin/sh\n"),
		write(".git/modules/libs/nested/config", "[alias]\n\tst = !sh\n"),
	}
	write(".git/modules/wt/config", plain)
	write(".git/modules/hooked/config", plain)
	write(".git/modules/hooked/hooks/pre-commit.sample", "#!/bin/sh\n")
	write(".git/modules/clean/config", plain)
	write(".git/modules/clean/hooks/pre-push.sample", "#!/bin/sh\n")
	got := NewModuleFiles(proj, before)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("NewModuleFiles:\n got %v\nwant %v", got, want)
	}
	for _, g := range got {
		if strings.Contains(g, "/old/") || strings.Contains(g, "/clean/") || strings.HasSuffix(g, ".sample") {
			t.Errorf("%s set aside: it existed before, or is git's own", g)
		}
	}
}

// TestSeatbeltFencesProjectFiles: the macOS profile denies writing the
// project files the Linux plan fences (FINDINGS-9 C3), not the sources.
func TestSeatbeltFencesProjectFiles(t *testing.T) {
	env := map[string]string{"HOME": "/Users/me"}
	s := SeatbeltFor(Config{Getenv: func(k string) string { return env[k] }, Cwd: "/Users/me/src/proj", Executable: "/usr/local/bin/airlock"}, 7779)
	for _, f := range []string{".git/config", ".git/hooks", ".git/modules", ".npmrc", ".vscode", ".husky"} {
		if !slices.Contains(s.DenyWrite, "/Users/me/src/proj/"+f) {
			t.Errorf("the profile does not deny writing %s", f)
		}
	}
	if slices.Contains(s.DenyWrite, "/Users/me/src/proj/src") || slices.Contains(s.DenyWrite, "/Users/me/src/proj") {
		t.Error("the profile denies writing the sources")
	}
	// The table's patterns, as regular expressions.
	var rx []*regexp.Regexp
	for _, r := range s.DenyWriteRegex {
		rx = append(rx, regexp.MustCompile(r))
	}
	denied := func(p string) bool {
		return slices.ContainsFunc(rx, func(r *regexp.Regexp) bool { return r.MatchString(p) })
	}
	for _, p := range []string{"lib3/.git", "lib3/.git/config", "a/b/.git/hooks/pre-commit", "x.code-workspace", "sub/.envrc", "pkg/.vscode/tasks.json"} {
		if !denied("/Users/me/src/proj/" + p) {
			t.Errorf("the profile does not deny writing %s", p)
		}
	}
	for _, p := range []string{".git/objects/ab/cd", ".git/index", "src/x.code-workspace", "src/main.go", ".venv/bin/activate", "lib3/.gitignore", "x.code-workspace.bak"} {
		if denied("/Users/me/src/proj/" + p) {
			t.Errorf("the profile denies writing %s", p)
		}
	}
	prof, err := s.Profile()
	if err != nil || !strings.Contains(prof, `(regex #"^/Users/me/src/proj/.+/\.git(/.*)?$")`) {
		t.Errorf("profile %v:\n%s", err, prof)
	}
}
