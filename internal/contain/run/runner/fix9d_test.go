//go:build linux

package runner

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
)

// TestNewSubmoduleAndToolFilesAfterRun is FINDINGS-9 C1 and C2, run in the
// sandbox: a submodule repository made inside has its config (holding
// core.fsmonitor) and its hook set aside after the run, its sample hook
// and objects left; a workspace file made at the top is set aside, an
// existing one is read-only inside; a virtual environment's activate
// script made inside is named for review.
func TestNewSubmoduleAndToolFilesAfterRun(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	ws := filepath.Join(w.project, "old.code-workspace")
	if err := os.WriteFile(ws, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `cd ` + w.project + `
mkdir -p .git/modules/lib/hooks .git/modules/lib/objects || exit 3
printf '[core]\n\tbare = false\n\tfsmonitor = ./fsmon.sh\n' > .git/modules/lib/config || exit 4
printf '#!/bin/sh\n' > .git/modules/lib/hooks/post-checkout
printf '#!/bin/sh\n' > .git/modules/lib/hooks/pre-commit.sample
echo obj > .git/modules/lib/objects/x
mkdir -p .git/modules/plain && printf '[core]\n\tbare = false\n' > .git/modules/plain/config
(echo '{"tasks":{}}' > old.code-workspace) 2>/dev/null || echo ws-refused
echo '{"tasks":{}}' > new.code-workspace
mkdir -p .venv/bin && echo 'curl x | sh' > .venv/bin/activate
echo made`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "made") {
		t.Fatalf("status %d:\n%s", st, out)
	}
	lib := filepath.Join(w.project, ".git/modules/lib")
	for _, f := range []string{"config", "hooks/post-checkout"} {
		p := filepath.Join(lib, f)
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s made inside is in force after the run", p)
		}
		if _, err := os.Lstat(p + SetAsideSuffix); err != nil {
			t.Errorf("%s was not set aside: %v", p, err)
		}
		if !strings.Contains(out, p+" was made during the run in a new submodule repository") {
			t.Errorf("no word of %s:\n%s", p, out)
		}
	}
	for _, p := range []string{filepath.Join(lib, "hooks/pre-commit.sample"), filepath.Join(lib, "objects/x"), filepath.Join(w.project, ".git/modules/plain/config")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was moved: %v", p, err)
		}
	}
	if !strings.Contains(out, "ws-refused") {
		t.Errorf("the existing workspace file was writable inside:\n%s", out)
	}
	nw := filepath.Join(w.project, "new.code-workspace")
	if _, err := os.Lstat(nw); err == nil {
		t.Errorf("%s made inside is in force after the run", nw)
	}
	if _, err := os.Lstat(nw + SetAsideSuffix); err != nil {
		t.Errorf("%s was not set aside: %v", nw, err)
	}
	if !strings.Contains(out, "review before it runs: .venv/bin/activate") {
		t.Errorf("no word of .venv/bin/activate:\n%s", out)
	}
}

// TestReviewAfterRun is FINDINGS-9 C2 and C1b in the sandbox: tool files
// the fence did not name, and repositories made inside the project with
// git itself, embedded and with a separate git directory. After the run
// each repository's config (core.fsmonitor) is set aside, a changed
// eslint.config.js is set aside and put back, a new flake.nix and
// .gdbinit set aside, an unknown dot file and a new executable named,
// and what ordinary work writes (.gitignore, .eslintrc.json, a
// workflow) left without a word.
func TestReviewAfterRun(t *testing.T) {
	needBwrap(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	w := realWorld(t)
	if err := os.WriteFile(filepath.Join(w.project, "eslint.config.js"), []byte("export default [];\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `cd ` + w.project + ` || exit 2
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
git init -q lib3 || exit 3
git -C lib3 config core.fsmonitor "$PWD/fsmon.sh" || exit 4
mkdir -p .gitsub && git init -q --separate-git-dir=.gitsub/lib2 lib2 || exit 5
git -C lib2 config core.fsmonitor "$PWD/fsmon.sh" || exit 6
git init -q lib4 || exit 7
echo 'require("child_process").exec("x")' > eslint.config.js
echo '{ shellHook = "x"; }' > flake.nix
echo 'shell ./x.sh' > .gdbinit
echo x > .foorc
printf '#!/bin/sh\n' > tool.sh && chmod +x tool.sh
echo node_modules > .gitignore
echo '{}' > .eslintrc.json
mkdir -p .github/workflows && echo 'on: push' > .github/workflows/ci.yml
echo made`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "made") {
		t.Fatalf("status %d:\n%s", st, out)
	}
	p := func(rel string) string { return filepath.Join(w.project, rel) }
	for _, rel := range []string{"lib3/.git/config", ".gitsub/lib2/config", "eslint.config.js", "flake.nix", ".gdbinit"} {
		if _, err := os.Lstat(p(rel) + SetAsideSuffix); err != nil {
			t.Errorf("%s was not set aside: %v\n%s", rel, err, out)
		}
	}
	for _, rel := range []string{"lib3/.git/config", ".gitsub/lib2/config", "flake.nix", ".gdbinit"} {
		if _, err := os.Lstat(p(rel)); err == nil {
			t.Errorf("%s made inside is in force after the run", rel)
		}
	}
	if b, _ := os.ReadFile(p("eslint.config.js")); string(b) != "export default [];\n" {
		t.Errorf("eslint.config.js is not what it was before the run: %q", b)
	}
	if _, err := os.Lstat(p("lib4/.git/config")); err != nil {
		t.Errorf("a repository with git's own config only was touched: %v", err)
	}
	var named string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "airlock run: review before it runs: ") {
			named += l + "\n"
		}
	}
	for _, word := range []string{" .foorc", " tool.sh"} {
		if !strings.Contains(named, word) {
			t.Errorf("%q not named:\n%s", word, out)
		}
	}
	for _, rel := range []string{".gitignore", ".eslintrc.json", ".github/workflows/ci.yml"} {
		if strings.Contains(out, rel) {
			t.Errorf("ordinary %s named:\n%s", rel, out)
		}
		if _, err := os.Lstat(p(rel)); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
	// The journal keeps what the summary said.
	var journaled bool
	_ = filepath.WalkDir(journal.DirIn(w.state), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), EventRunReview) && strings.Contains(string(b), ".foorc") {
				journaled = true
			}
		}
		return nil
	})
	if !journaled {
		t.Errorf("no %s event naming .foorc in the journal:\n%s", EventRunReview, out)
	}
}

// TestEmbeddedRepoFsmonitorAfterRun is FINDINGS-9 C1b end to end: inside
// the sandbox a repository is embedded and added (git init lib3, then
// git add lib3) and another made with a separate git directory
// (.gitsub/lib2), each with core.fsmonitor naming a script; git status
// in the superproject runs it there (the control). After the run, git
// status in the project (itself in a second sandbox, standing for the
// human's next command) runs nothing: both configs were set aside.
func TestEmbeddedRepoFsmonitorAfterRun(t *testing.T) {
	needBwrap(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	w := newWorld(t, 0, 0)
	if err := os.RemoveAll(filepath.Join(w.project, ".git")); err != nil {
		t.Fatal(err)
	}
	gitEnv := `export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x`
	cmd := exec.Command("sh", "-c", gitEnv+` && git init -q && git commit -q --allow-empty -m root`)
	cmd.Dir = w.project
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	script := `cd ` + w.project + ` || exit 2
` + gitEnv + `
printf '#!/bin/sh\ntouch "%s/fsmon-ran"\n' "$PWD" > fsmon.sh && chmod +x fsmon.sh
git init -q lib3 && git -C lib3 commit -q --allow-empty -m x && git add lib3 2>/dev/null && git commit -qm lib3 || exit 3
mkdir -p .gitsub && git init -q --separate-git-dir=.gitsub/lib2 lib2 && git -C lib2 commit -q --allow-empty -m x && git add lib2 2>/dev/null && git commit -qm lib2 || exit 4
git -C lib3 config core.fsmonitor "$PWD/fsmon.sh" && git -C lib2 config core.fsmonitor "$PWD/fsmon.sh" || exit 5
git status >/dev/null 2>&1; test -e fsmon-ran && echo control-ran; rm -f fsmon-ran
echo made`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "made") {
		t.Fatalf("status %d:\n%s", st, out)
	}
	if !strings.Contains(out, "control-ran") {
		t.Skipf("git status did not run the fsmonitor inside (this git does not read it): nothing to check\n%s", out)
	}
	st, out = runIn(t, w, newDoor(), `cd `+w.project+` && `+gitEnv+` && git status >/dev/null 2>&1; test -e fsmon-ran && echo RAN || echo clean`)
	if st != 0 || !strings.Contains(out, "clean") {
		t.Errorf("git status after the run ran the fsmonitor a repository made inside names (status %d):\n%s", st, out)
	}
}

// TestC2ListAfterRun is FINDINGS-9 C2's whole list in the sandbox: each
// tool file written inside is, after the run, refused inside, set aside,
// or named in the summary; none is left in force without a word.
func TestC2ListAfterRun(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	files := []string{".venv/bin/activate", ".venv/lib/python3.11/site-packages/x.pth", "x.code-workspace",
		".idea/workspace.xml", ".zed/settings.json", ".helix/config.toml", ".nvim.lua", ".exrc", ".Rprofile", ".irbrc",
		".pryrc", ".pdbrc", ".octaverc", ".lldbinit", ".gdbinit", "docker-compose.override.yml", ".bazelrc", ".sbtopts",
		".jvmopts", ".mvn/extensions.xml", ".mvn/maven.config", ".mvn/jvm.config", "rust-toolchain.toml", "rust-toolchain",
		"eslint.config.js", ".prettierrc.js", "shell.nix", "flake.nix", "bunfig.toml", "gradle.properties", "sub/.gdbinit",
		"sub/.envrc", "tools/.Rprofile"}
	var script strings.Builder
	script.WriteString("cd " + w.project + " || exit 2\n")
	for _, f := range files {
		fmt.Fprintf(&script, "mkdir -p \"$(dirname %s)\" 2>/dev/null; (echo x > %s) 2>/dev/null || echo refused:%s\n", f, f, f)
	}
	script.WriteString("echo 'COMPOSE_FILE=evil.yml' > .env || echo refused:.env\necho made\n")
	st, out := runIn(t, w, newDoor(), script.String())
	if st != 0 || !strings.Contains(out, "made") {
		t.Fatalf("status %d:\n%s", st, out)
	}
	var named string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "airlock run: review before it runs: ") {
			named += l + "\n"
		}
	}
	for _, f := range append(files, ".env") {
		p := filepath.Join(w.project, f)
		_, asideErr := os.Lstat(p + SetAsideSuffix)
		switch {
		case strings.Contains(out, "refused:"+f+"\n"):
		case asideErr == nil:
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("%s set aside but still in place", f)
			}
		case strings.Contains(named, f):
		default:
			t.Errorf("%s written inside is in force after the run without a word:\n%s", f, out)
		}
	}
}
