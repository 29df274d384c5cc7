package policy

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agentinstall"
)

// TestAgentHookFilesProtected takes every file "airlock install AGENT"
// writes, for every agent and scope, from the installers themselves (so
// that a new installer is covered the day it is added), and checks that
// an agent can neither write, edit, overwrite from the shell nor remove
// it: each one would take airlock's hook out of that agent.
func TestAgentHookFilesProtected(t *testing.T) {
	f := newFixture(t)
	f.projectFile("mode: interactive\n")
	// Kiro installs into existing agent files only.
	f.write("home/.kiro/agents/default.json", "{}\n")
	f.write("proj/.kiro/agents/app.json", "{}\n")
	p := f.load()
	home, proj := f.env["HOME"], f.path("proj")
	env := agentinstall.Env{Home: home, Project: proj, Exe: "/opt/airlock/bin/airlock",
		Getenv: func(k string) string { return f.env[k] }}

	var files []string
	for _, a := range agentinstall.Agents() {
		for _, scope := range a.Scopes {
			plan, err := a.Install(env, scope)
			if err != nil {
				t.Fatalf("%s %s: %v", a.Name, scope, err)
			}
			for _, fc := range plan.Files {
				files = append(files, fc.Path)
			}
		}
	}
	if len(files) < 17 {
		t.Fatalf("only %d files from the installers: %v", len(files), files)
	}
	for _, file := range files {
		rel := file
		if r, err := filepath.Rel(proj, file); err == nil && !strings.HasPrefix(r, "..") {
			rel = r // as an agent in the project names it
		}
		for name, a := range map[string]Action{
			"Write":     {Kind: Write, Tool: "Write", Paths: []string{file}, Cwd: proj},
			"Edit":      {Kind: Write, Tool: "Edit", Paths: []string{rel}, Cwd: proj},
			"redirect":  {Kind: Shell, Tool: "Bash", Command: "echo '{}' > '" + file + "'", Cwd: proj},
			"rm":        {Kind: Shell, Tool: "Bash", Command: "rm -f " + rel, Cwd: proj},
			"sed -i":    {Kind: Shell, Tool: "Bash", Command: "sed -i s/airlock/true/ '" + file + "'", Cwd: proj},
			"rm parent": {Kind: Shell, Tool: "Bash", Command: "rm -rf '" + filepath.Dir(file) + "'", Cwd: proj},
		} {
			v := p.DecideIn(Interactive, a)
			if v.Decision != Deny || v.Rule != RuleProtectedPath {
				t.Errorf("%s %s: got %s by %s, want deny by %s", name, file, v.Decision, v.Rule, RuleProtectedPath)
			}
		}
	}
}

// TestAgentHookFilesProtectedFromEnv checks the places CODEX_HOME and
// XDG_CONFIG_HOME move the hook files to.
func TestAgentHookFilesProtectedFromEnv(t *testing.T) {
	f := newFixture(t)
	f.env["CODEX_HOME"] = f.path("codexhome")
	f.env["XDG_CONFIG_HOME"] = f.path("xdg")
	p := f.load()
	env := agentinstall.Env{Home: f.env["HOME"], Exe: "/opt/airlock/bin/airlock", Getenv: func(k string) string { return f.env[k] }}
	var files []string
	for _, name := range []string{"codex", "opencode", "goose", "crush"} {
		a, _ := agentinstall.Lookup(name)
		plan, err := a.Install(env, agentinstall.User)
		if err != nil {
			t.Fatal(err)
		}
		for _, fc := range plan.Files {
			files = append(files, fc.Path)
		}
	}
	for _, file := range files {
		if !strings.HasPrefix(file, f.path("codexhome")) && !strings.HasPrefix(file, f.path("xdg")) {
			t.Fatalf("%s is not where the environment says", file)
		}
		v := p.DecideIn(Interactive, Action{Kind: Write, Tool: "Write", Paths: []string{file}, Cwd: f.path("proj")})
		if v.Decision != Deny || v.Rule != RuleProtectedPath {
			t.Errorf("Write %s: got %s by %s", file, v.Decision, v.Rule)
		}
	}
}

// TestAgentConfigFilesProtected takes every place the lists above say an
// agent reads its hooks, plugins, extensions or policies from, in the
// project and in the home directory, and checks that an agent can write
// neither the place nor a file inside it; then the places an adversarial
// review found missing, so that a list shrunk by mistake fails here.
func TestAgentConfigFilesProtected(t *testing.T) {
	f := newFixture(t)
	f.env["COPILOT_HOME"] = f.path("copilothome")
	p := f.load()
	home, proj := f.env["HOME"], f.path("proj")
	var files []string
	inside := func(base, rel string, dir bool) {
		if dir {
			files = append(files, filepath.Join(base, rel, "x", "zz.js"), filepath.Join(base, rel, "zz.json"))
		} else {
			files = append(files, filepath.Join(base, rel))
		}
	}
	for _, tl := range projectTails {
		if tl.kind == kindHooks {
			inside(proj, tl.rel, tl.dir)
			inside(filepath.Join(proj, "sub"), tl.rel, tl.dir)
		}
	}
	for _, tg := range homeTargets {
		if tg.kind == kindHooks {
			inside(home, tg.rel, tg.dir)
		}
	}
	for _, rel := range []string{
		"proj/.opencode/plugin/zz.js", "proj/.opencode/plugins/zz.js", "proj/opencode.json", "proj/opencode.jsonc",
		"proj/.opencode/opencode.json", "proj/.opencode/tool/zz.ts", "proj/.gemini/extensions/x/hooks/hooks.json",
		"proj/.gemini/extensions/x/gemini-extension.json", "proj/.gemini/policies/x.toml", "proj/.goose/hooks.json",
		"home/.gemini/extensions/x/hooks/hooks.json", "home/.gemini/extensions/x/gemini-extension.json",
		"home/.gemini/policies/x.toml", "home/.copilot/config.json", "home/.kiro/settings/cli.json",
		"home/.config/opencode/plugin/zz.js", "copilothome/config.json", "copilothome/hooks/x.json",
	} {
		files = append(files, f.path(rel))
	}
	for _, file := range files {
		for name, a := range map[string]Action{
			"Write":    {Kind: Write, Tool: "Write", Paths: []string{file}, Cwd: proj},
			"redirect": {Kind: Shell, Tool: "Bash", Command: "echo x > '" + file + "'", Cwd: proj},
			"cp":       {Kind: Shell, Tool: "Bash", Command: "cp /tmp/zz '" + file + "'", Cwd: proj},
		} {
			v := p.DecideIn(Unattended, a)
			if v.Decision != Deny || v.Rule != RuleProtectedPath {
				t.Errorf("%s %s: got %s by %s, want deny by %s", name, file, v.Decision, v.Rule, RuleProtectedPath)
			}
		}
	}
}

// TestCrushFilesProtected: Crush's configuration files, wherever its
// variables move them, cannot be changed (they hold its hooks); their
// neighbours and lookalikes can.
func TestCrushFilesProtected(t *testing.T) {
	f := newFixture(t)
	f.env["CRUSH_GLOBAL_CONFIG"] = f.path("crushcfg")
	f.env["CRUSH_GLOBAL_DATA"] = f.path("crushdata")
	f.env["XDG_DATA_HOME"] = f.path("xdgdata")
	p := f.load()
	proj := f.path("proj")
	write := func(file string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Write, Tool: "Write", Paths: []string{file}, Cwd: proj})
	}
	shell := func(cmd string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj})
	}
	for _, rel := range []string{"proj/crush.json", "proj/.crush.json", "proj/crushrc", "proj/.crushrc", "proj/sub/crush.json",
		"proj/.crush/crush.json", "crushcfg/crush.json", "crushcfg/crushrc", "crushdata/crush.json", "xdgdata/crush/crush.json",
		"home/.local/share/crush/crush.json", "home/.config/crush/crush.json", "home/.config/crush/hooks/guard.sh"} {
		file := f.path(rel)
		if v := write(file); v.Decision != Deny || v.Rule != RuleProtectedPath {
			t.Errorf("Write %s: got %s by %s, want deny by %s", rel, v.Decision, v.Rule, RuleProtectedPath)
		}
		if v := shell("echo '{}' > '" + file + "'"); v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("redirect to %s: got %s by %s, want a refusal", rel, v.Decision, v.Rule)
		}
	}
	for _, rel := range []string{"proj/crush.json.example", "proj/docs/crush.md", "proj/.crush/crush.db", "proj/crushrc.d/x",
		"crushdata/crush.db", "xdgdata/crush/crush.db", "home/.local/share/crush/logs/crush.log"} {
		file := f.path(rel)
		if v := write(file); v.Decision != Allow {
			t.Errorf("Write %s (a neighbour): got %s by %s, want allow", rel, v.Decision, v.Rule)
		}
	}
}
