//go:build linux

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOrdinarySessionReview: a session of ordinary work in the sandbox
// (ignore and lint files, a workflow, a tracked script edited and
// committed, caches, a virtual environment, an application's .env)
// has nothing set aside after the run; the venv's scripts and a new
// executable are named, the rest not.
func TestOrdinarySessionReview(t *testing.T) {
	needBwrap(t)
	w := realWorld(t)
	// A real repository: the world's .git is a stand-in.
	if err := os.RemoveAll(filepath.Join(w.project, ".git")); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", w.project}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	for name, mode := range map[string]os.FileMode{"run.sh": 0o755, "eslint.config.js": 0o644} {
		if err := os.WriteFile(filepath.Join(w.project, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	script := `cd ` + w.project + ` || exit 2
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x
echo '*.pyc' >> .gitignore
echo '{"semi": false}' > .prettierrc
echo '{"root": true}' > .eslintrc.json
echo 'root = true' > .editorconfig
mkdir -p .github/workflows && echo 'on: push' > .github/workflows/ci.yml
mkdir -p src && echo 'print(1)' > src/app.py && python3 -c 'import py_compile; py_compile.compile("src/app.py")'
echo '#!/bin/sh' >> run.sh
mkdir -p .pytest_cache/v && echo x > .pytest_cache/v/x
mkdir -p node_modules/.bin && printf '#!/bin/sh\n' > node_modules/.bin/tool && chmod +x node_modules/.bin/tool
python3 -m venv --without-pip .venv || echo novenv
git add -A && git commit -qm work || exit 5
echo 'PORT=8080' > .env
printf '#!/bin/sh\n' > build.sh && chmod +x build.sh
echo done`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "done") {
		t.Fatalf("status %d:\n%s", st, out)
	}
	if strings.Contains(out, "set aside") {
		t.Errorf("ordinary work set aside:\n%s", out)
	}
	for _, rel := range []string{".gitignore", ".prettierrc", ".eslintrc.json", ".editorconfig", "ci.yml", "app.py", "pycache", ".pytest_cache", "node_modules", "run.sh", ".env"} {
		if strings.Contains(out, rel) {
			t.Errorf("ordinary %s named:\n%s", rel, out)
		}
	}
	if !strings.Contains(out, "review before it runs: build.sh") {
		t.Errorf("the new executable is not named:\n%s", out)
	}
	if _, err := os.Lstat(filepath.Join(w.project, ".env")); err != nil {
		t.Errorf(".env: %v", err)
	}
}
