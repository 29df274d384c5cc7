package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentConfigTable runs every entry of the agent-configuration table
// (selfagentcfg.go): a change to the entry at user scope is refused like
// the hook settings; at project scope it is asked about in interactive
// mode and held in unattended mode, never allowed; a change to the
// entry's neighbour is neither. Each change is tried through the file
// tools and several shell spellings.
func TestAgentConfigTable(t *testing.T) {
	f := newFixture(t)
	p := f.load()
	home, proj := f.env["HOME"], f.path("proj")
	for _, e := range agentConfigs {
		if e.scope == scopeProject && !strings.HasPrefix(e.rel, ".") {
			t.Errorf("%s %s: a project entry must start with \".\" (namesAgentConfig looks for it)", e.agent, e.rel)
		}
		base := home
		if e.scope == scopeProject {
			base = proj
		}
		hit := e.rel
		if e.dir {
			hit += "/x/plugin.json"
		}
		abs := filepath.Join(base, hit)
		rel := hit
		if e.scope == scopeUser {
			rel = "~/" + hit
		}
		q := "'" + strings.ReplaceAll(rel, "~/", home+"/") + "'"
		changes := map[string]Action{
			"Write":      {Kind: Write, Tool: "Write", Paths: []string{abs}, Cwd: proj},
			"Edit":       {Kind: Write, Tool: "Edit", Paths: []string{abs}, Cwd: proj},
			"redirect":   shellIn(`echo '{"mcpServers":{"x":{"command":"sh"}}}' > `+q, proj),
			"cp":         shellIn("cp /tmp/evil.json "+q, proj),
			"tee":        shellIn("tee "+q+" < /tmp/evil.json", proj),
			"bash -c":    shellIn(`bash -c "cat /tmp/evil.json > `+q+`"`, proj),
			"sed -i":     shellIn("sed -i s/a/b/ "+q, proj),
			"python":     shellIn(`python3 -c "open('`+strings.Trim(q, "'")+`','w').write('{}')"`, proj),
			"mv parent":  shellIn("mv '"+filepath.Dir(strings.Trim(q, "'"))+"' /tmp/x", proj),
			"rm -rf dir": shellIn("rm -rf '"+filepath.Dir(filepath.Join(base, e.rel))+"'", proj),
		}
		if e.scope == scopeUser {
			for name, a := range changes {
				if name == "rm -rf dir" && filepath.Dir(filepath.Join(base, e.rel)) == home {
					continue // rm -rf ~ is refused by the destruction rows, not here
				}
				v := p.DecideIn(Interactive, a)
				if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
					t.Errorf("%s %s (%s): got %s by %s, want a refusal", e.agent, e.rel, name, v.Decision, v.Rule)
				}
			}
		} else {
			for name, a := range changes {
				if name == "rm -rf dir" && filepath.Dir(filepath.Join(base, e.rel)) == proj {
					continue
				}
				vi := p.DecideIn(Interactive, a)
				vu := p.DecideIn(Unattended, a)
				if vi.Decision < Ask || vu.Decision < Defer || vi.Decision == Allow {
					t.Errorf("%s %s (%s): got %s by %s (interactive), %s by %s (unattended); want ask and a hold", e.agent, e.rel, name, vi.Decision, vi.Rule, vu.Decision, vu.Rule)
				}
				if name == "Write" && (vi.Decision != Ask || vi.Rule != RuleAgentConfig || vu.Decision != Defer) {
					t.Errorf("%s %s (Write): got %s by %s / %s, want ask by %s / defer", e.agent, e.rel, vi.Decision, vi.Rule, vu.Decision, RuleAgentConfig)
				}
			}
		}
		// The negative example: the neighbour is ordinary.
		nb := filepath.Join(base, e.miss)
		for _, a := range []Action{
			{Kind: Write, Tool: "Write", Paths: []string{nb}, Cwd: proj},
			shellIn("echo x > '"+nb+"'", proj),
			shellIn("cat '"+filepath.Join(base, e.rel)+"'", proj),
		} {
			v := p.DecideIn(Interactive, a)
			if v.Rule == RuleAgentConfig || v.Rule == RuleProtectedPath && strings.Contains(v.Message, "configuration that makes it run") {
				t.Errorf("%s %s: the neighbour %s (%s %s) got %s by %s: %s", e.agent, e.rel, e.miss, a.Tool, a.Command, v.Decision, v.Rule, v.Message)
			}
		}
	}
	// What was already protected stays refused at both scopes: Claude's
	// settings (mcpServers, apiKeyHelper, statusLine), Codex's
	// config.toml (mcp_servers), Gemini's settings (mcpServers) and
	// extensions, OpenCode's config and plugins.
	for _, path := range []string{
		home + "/.claude/settings.json", proj + "/.claude/settings.json", home + "/.codex/config.toml",
		home + "/.gemini/settings.json", proj + "/.gemini/settings.json", proj + "/.gemini/extensions/x/gemini-extension.json",
		home + "/.config/opencode/opencode.json", proj + "/opencode.json", proj + "/.opencode/plugin/x.js", home + "/.qwen/settings.json",
	} {
		if v := p.DecideIn(Unattended, Action{Kind: Write, Tool: "Write", Paths: []string{path}, Cwd: proj}); v.Decision != Deny {
			t.Errorf("Write %s: got %s by %s, want deny", path, v.Decision, v.Rule)
		}
	}
}

func shellIn(cmd, cwd string) Action {
	return Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: cwd}
}

// TestAgentConfigNotLoosened: an allow rule of the user's own cannot let
// a project's MCP definition through silently; and a command that both
// publishes and writes .mcp.json keeps the stricter verdict.
func TestAgentConfigNotLoosened(t *testing.T) {
	f := newFixture(t)
	f.userFile("version: 1\nrules:\n  - id: allow-echo\n    match: {command: echo}\n    decision: allow\n")
	p, err := Load(f.options())
	if err != nil {
		t.Fatal(err)
	}
	proj := f.path("proj")
	if v := p.DecideIn(Interactive, shellIn("echo {} > .mcp.json", proj)); v.Decision != Ask {
		t.Errorf("allowed echo into .mcp.json: got %s by %s, want ask", v.Decision, v.Rule)
	}
	if v := p.DecideIn(Interactive, shellIn("echo {} > .mcp.json && git push", proj)); v.Decision < Ask {
		t.Errorf("push beside .mcp.json: got %s by %s", v.Decision, v.Rule)
	}
}
