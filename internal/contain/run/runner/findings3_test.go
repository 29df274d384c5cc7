//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindings3Open holds the runner's open findings of
// docs/FINDINGS-3.md, skipped until the lead turns each on while fixing it.
func TestFindings3Open(t *testing.T) {
	t.Run("M1 the project's .claude directory renamed away", func(t *testing.T) {
		// Fixed: the directory holding a protected file of the project is
		// bound read-only with it.
		needBwrap(t)
		w := newWorld(t, 0, 0)
		dir := filepath.Dir(w.projSettings)
		st, out := runIn(t, w, newDoor(), "mv "+dir+" "+dir+".bak")
		if _, err := os.Stat(w.projSettings); err != nil {
			t.Fatalf("after `mv .claude .claude.bak` inside (exit %d) the project's settings are gone from their path: %v\n%s", st, err, out)
		}
	})
	t.Run("M2 git configuration and hooks that run outside later", func(t *testing.T) {
		// Fixed: .git/config, .git/hooks and .git/info are read-only inside.
		needBwrap(t)
		w := newWorld(t, 0, 0)
		hook := filepath.Join(w.project, ".git/hooks/pre-commit")
		st, out := runIn(t, w, newDoor(), "mkdir -p "+filepath.Dir(hook)+" && printf '#!/bin/sh\\necho planted\\n' > "+hook+" && echo '[core]' >> "+filepath.Join(w.project, ".git/config"))
		if _, err := os.Stat(hook); err == nil {
			t.Fatalf("a git hook written inside (exit %d) is on the host, where the human's next commit runs it\n%s", st, out)
		}
	})
}
