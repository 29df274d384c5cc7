package cli

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestClaudeSandboxFencesRunsList is FINDINGS-9 C3: install claude-code
// --contain denies writing every project file airlock run fences (git's
// config, hooks and modules, .npmrc, .vscode, …), not only the agents'.
func TestClaudeSandboxFencesRunsList(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	e := &env{getenv: getenv, getwd: func() (string, error) { return home, nil }}
	proj := filepath.Join(home, "proj")
	s := claudeSandboxSpec(e, filepath.Join(home, "bin", "airlock"), 7779, proj)
	for _, f := range []string{".git/config", ".git/hooks", ".git/info", ".git/modules", ".gitattributes", ".npmrc", ".yarnrc.yml",
		".curlrc", ".cargo", ".pnpmfile.cjs", "mise.toml", ".tool-versions", ".devcontainer", ".husky", ".pre-commit-config.yaml",
		"lefthook.yml", ".dir-locals.el", ".bashrc", ".vscode", ".mcp.json", ".claude/settings.json"} {
		if !slices.Contains(s.DenyWrite, "./"+f) {
			t.Errorf("denyWrite lacks ./%s", f)
		}
		if !slices.Contains(s.DenyWrite, filepath.Join(proj, f)) {
			t.Errorf("denyWrite lacks %s", filepath.Join(proj, f))
		}
	}
	// Ordinary project files stay writable.
	for _, f := range []string{"./src", "./package.json", "./.github", "./.git/objects", "./.git/refs"} {
		if slices.Contains(s.DenyWrite, f) {
			t.Errorf("denyWrite fences %s, ordinary work", f)
		}
	}
}
