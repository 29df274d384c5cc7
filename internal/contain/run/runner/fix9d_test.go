//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if act := filepath.Join(w.project, ".venv/bin/activate"); !strings.Contains(out, act+" was made or changed during the run") {
		t.Errorf("no word of %s:\n%s", act, out)
	}
}
