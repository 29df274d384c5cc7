package policy

import (
	"path/filepath"
	"testing"
)

// TestPiAuggieConfigProtected: Pi's extension directories and settings
// and Auggie's settings files are refused to the agent at both scopes
// (they hold airlock's hook, or load code that runs outside it), also
// where PI_CODING_AGENT_DIR moves Pi's directory; their neighbours
// (sessions, prompts, Auggie's commands) and reading the extension stay
// ordinary work.
func TestPiAuggieConfigProtected(t *testing.T) {
	f := newFixture(t)
	f.env["PI_CODING_AGENT_DIR"] = f.path("pidir")
	p := f.load()
	home, proj := f.env["HOME"], f.path("proj")
	refused := []Action{
		{Kind: Write, Tool: "write", Paths: []string{filepath.Join(home, ".pi/agent/extensions/airlock.ts")}, Cwd: proj},
		{Kind: Write, Tool: "write", Paths: []string{filepath.Join(home, ".pi/agent/extensions/other/index.ts")}, Cwd: proj},
		{Kind: Write, Tool: "edit", Paths: []string{".pi/extensions/airlock.ts"}, Cwd: proj},
		{Kind: Write, Tool: "write", Paths: []string{filepath.Join(home, ".pi/agent/settings.json")}, Cwd: proj},
		{Kind: Write, Tool: "write", Paths: []string{".pi/settings.json"}, Cwd: proj},
		{Kind: Write, Tool: "write", Paths: []string{filepath.Join(f.path("pidir"), "extensions/airlock.ts")}, Cwd: proj},
		{Kind: Write, Tool: "save-file", Paths: []string{filepath.Join(home, ".augment/settings.json")}, Cwd: proj},
		{Kind: Write, Tool: "save-file", Paths: []string{".augment/settings.json"}, Cwd: proj},
		{Kind: Write, Tool: "save-file", Paths: []string{"sub/.augment/settings.local.json"}, Cwd: proj},
		shellIn("rm -f ~/.pi/agent/extensions/airlock.ts", proj),
		shellIn("rm -rf .pi/extensions", proj),
		shellIn(`echo '{"extensions":["/tmp/x.ts"]}' > .pi/settings.json`, proj),
		shellIn("echo x > $PI_CODING_AGENT_DIR/extensions/airlock.ts", proj),
		shellIn("sed -i s/hooks/x/ ~/.augment/settings.json", proj),
	}
	for _, a := range refused {
		if v := p.DecideIn(Interactive, a); v.Decision != Deny || v.Rule != RuleProtectedPath {
			t.Errorf("%s %v %q: got %s by %s, want deny by %s", a.Tool, a.Paths, a.Command, v.Decision, v.Rule, RuleProtectedPath)
		}
	}
	ordinary := []Action{
		{Kind: Write, Tool: "write", Paths: []string{filepath.Join(home, ".pi/agent/sessions/s.jsonl")}, Cwd: proj},
		{Kind: Write, Tool: "write", Paths: []string{".pi/prompts/review.md"}, Cwd: proj},
		{Kind: Write, Tool: "save-file", Paths: []string{".augment/commands/x.md"}, Cwd: proj},
		{Kind: Write, Tool: "write", Paths: []string{"src/extensions/airlock.ts"}, Cwd: proj},
		{Kind: Read, Tool: "read", Paths: []string{".pi/extensions/airlock.ts"}, Cwd: proj},
		shellIn("cat ~/.augment/settings.json", proj),
	}
	for _, a := range ordinary {
		if v := p.DecideIn(Interactive, a); v.Rule == RuleProtectedPath || v.Rule == RuleAgentConfig || v.Decision == Deny {
			t.Errorf("%s %v %q: got %s by %s, want ordinary work", a.Tool, a.Paths, a.Command, v.Decision, v.Rule)
		}
	}
}
