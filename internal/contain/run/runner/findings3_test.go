//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"strings"
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
	t.Run("M3 M5 protected paths that did not exist at the start", func(t *testing.T) {
		// Fixed: each gets an empty read-only placeholder for the run,
		// removed after it; a file at the project's top (.mcp.json), where
		// a placeholder would be taken for the project's own file, is set
		// aside for review after the run.
		needBwrap(t)
		w := newWorld(t, 0, 0)
		inside := map[string]string{
			"~/.claude/CLAUDE.md":          "echo injected >> " + w.home + "/.claude/CLAUDE.md",
			"~/.claude/skills/x/SKILL.md":  "mkdir -p " + w.home + "/.claude/skills/x && echo x > " + w.home + "/.claude/skills/x/SKILL.md",
			"~/.claude/agents/a.md":        "mkdir -p " + w.home + "/.claude/agents && echo x > " + w.home + "/.claude/agents/a.md",
			".claude/commands/x.md":        "mkdir -p .claude/commands && echo x > .claude/commands/x.md",
			".claude/hooks/x.sh":           "mkdir -p .claude/hooks && echo x > .claude/hooks/x.sh",
			".vscode/tasks.json":           "mkdir -p .vscode && echo '{\"runOn\":\"folderOpen\"}' > .vscode/tasks.json",
			".airlock/policy.yaml":         "mkdir -p .airlock && echo 'mode: interactive' > .airlock/policy.yaml",
			".airlock moved away":          "mv .airlock .airlock2",
			".github/workflows (ordinary)": "mkdir -p .github/workflows && echo 'on: push' > .github/workflows/ci.yml && echo workflow-ok",
			".mcp.json":                    "echo '{}' > .mcp.json",
		}
		var script []string
		for _, c := range inside {
			script = append(script, "("+c+") 2>/dev/null")
		}
		st, out := runIn(t, w, newDoor(), "cd "+w.project+"; "+strings.Join(script, "; ")+"; true")
		if st != 0 || !strings.Contains(out, "workflow-ok") {
			t.Errorf("ordinary work in .github failed (exit %d):\n%s", st, out)
		}
		for _, p := range []string{w.home + "/.claude/CLAUDE.md", w.home + "/.claude/skills", w.home + "/.claude/agents",
			w.project + "/.claude/commands", w.project + "/.claude/hooks", w.project + "/.vscode", w.project + "/.airlock", w.project + "/.airlock2", w.project + "/.github/hooks"} {
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("%s is on the host after the run", p)
			}
		}
		if _, err := os.Stat(w.project + "/.github/workflows/ci.yml"); err != nil {
			t.Errorf("the workflow written inside is not on the host: %v", err)
		}
		// Created inside, it is set aside for review after the run
		// (setaside.go), not left in force.
		if !strings.Contains(out, ".mcp.json was created during the run") {
			t.Errorf("no word about .mcp.json after the run:\n%s", out)
		}
		if _, err := os.Lstat(w.project + "/.mcp.json"); err == nil {
			t.Errorf(".mcp.json made inside is in force on the host after the run")
		}
	})
}
