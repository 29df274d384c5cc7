package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/classify"
)

// adapterRows is, for every adapter under internal/agent, the program
// that starts the agent, the name airlock's installer knows it by ("" for
// Claude Code, installed apart) and the variables that move its
// configuration (and the hooks in it) besides HOME and XDG_CONFIG_HOME.
var adapterRows = map[string]struct {
	program, installer string
	moves              []string
}{
	"antigravity": {"agy", "antigravity", nil},
	"auggie":      {"auggie", "auggie", nil},
	"claudecode":  {"claude", "", []string{"CLAUDE_CONFIG_DIR"}},
	"cline":       {"cline", "cline", []string{"CLINE_DATA_DIR"}},
	"codex":       {"codex", "codex", []string{"CODEX_HOME"}},
	"copilot":     {"copilot", "copilot", []string{"COPILOT_HOME"}},
	"crush":       {"crush", "crush", []string{"CRUSH_GLOBAL_CONFIG", "CRUSH_GLOBAL_DATA"}},
	"cursor":      {"cursor-agent", "cursor", []string{"CURSOR_CONFIG_DIR"}},
	"factory":     {"droid", "factory", nil},
	"gemini":      {"gemini", "gemini", []string{"GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"}},
	"goose":       {"goose", "goose", []string{"GOOSE_MODE"}},
	"kiro":        {"kiro-cli", "kiro", nil},
	"opencode":    {"opencode", "opencode", []string{"OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR"}},
	"pi":          {"pi", "pi", []string{"PI_CODING_AGENT_DIR"}},
	"qwen":        {"qwen", "qwen", []string{"QWEN_HOME", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH"}},
}

// TestEveryAdapterHasItsRows checks that every agent airlock has an
// adapter for has its rows in each table that protects it: a program
// airlock knows as an agent, an installer name for the hookless check,
// its configuration-moving variables refused, its hook files refused
// (FINDINGS-5 L14: Qwen Code lacked the rows Gemini CLI had). A new
// adapter fails here until it has them.
func TestEveryAdapterHasItsRows(t *testing.T) {
	ents, err := os.ReadDir(filepath.Join("..", "agent"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() || e.Name() == "hookrun" || e.Name() == "toolcall" {
			continue // shared code of the adapters, not an agent
		}
		n++
		row, ok := adapterRows[e.Name()]
		if !ok {
			t.Errorf("internal/agent/%s has no row in adapterRows: give it its program, installer name and variables, and their table rows", e.Name())
			continue
		}
		if !classify.IsAgent(row.program) {
			t.Errorf("%s: classify does not know %s as an agent (agents.go agentGuards)", e.Name(), row.program)
		}
		if row.installer != "" {
			if got := installerOf(row.program); got != row.installer {
				t.Errorf("%s: installerOf(%q) = %q, want %q", e.Name(), row.program, got, row.installer)
			}
			if _, ok := agentinstall.Lookup(row.installer); !ok {
				t.Errorf("%s: the installer has no agent %q", e.Name(), row.installer)
			}
		}
		f := newFixture(t)
		f.userFile("mode: interactive\n")
		// Kiro keeps its hooks in each agent file, and airlock's
		// installer merges into the ones there are.
		f.write("home/.kiro/agents/default.json", "{}\n")
		f.write("proj/.kiro/agents/default.json", "{}\n")
		p := f.load()
		decide := func(cmd string) Verdict {
			return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj")})
		}
		for _, v := range append([]string{"HOME", "XDG_CONFIG_HOME"}, row.moves...) {
			for _, cmd := range []string{v + "=/tmp/elsewhere " + row.program + " -p hi", "export " + v + "=/tmp/elsewhere; " + row.program + " -p hi"} {
				if got := decide(cmd); got.Decision != Deny || !strings.HasPrefix(got.Rule, "self.") {
					t.Errorf("%s: %q was %s by %s; want a deny by self-protection (the variable moves the agent's hooks)", e.Name(), cmd, got.Decision, got.Rule)
				}
			}
			// Negative: the same variable for a program that is no agent.
			if got := decide(v + "=/tmp/elsewhere ls"); v != "HOME" && got.Decision == Deny {
				t.Errorf("%s: %s=… ls was denied by %s; only an agent's run is steered by it", e.Name(), v, got.Rule)
			}
		}
		var files []string
		if row.installer == "" {
			files = []string{f.path("home/.claude/settings.json")}
		} else {
			ag, _ := agentinstall.Lookup(row.installer)
			// The files "airlock install" writes its hook into.
			env := agentinstall.Env{Home: f.path("home"), Project: f.path("proj"), Exe: "/opt/airlock/bin/airlock", Getenv: func(k string) string { return f.env[k] }}
			for _, s := range ag.Scopes {
				plan, err := ag.Install(env, s)
				if err != nil {
					t.Errorf("%s: install plan for %s: %v", e.Name(), s, err)
					continue
				}
				for _, pf := range plan.Files {
					files = append(files, pf.Path)
				}
			}
		}
		if len(files) == 0 {
			t.Errorf("%s: no hook file to check", e.Name())
		}
		for _, file := range files {
			cmd := "echo '{}' > " + file
			if got := decide(cmd); got.Decision == Allow || got.Decision == Warn {
				t.Errorf("%s: %q was %s by %s; the agent's hook file must not be written unasked", e.Name(), cmd, got.Decision, got.Rule)
			}
			if got := decide("cat " + file); got.Decision == Deny {
				t.Errorf("%s: reading %s was denied by %s; only writes are refused", e.Name(), file, got.Rule)
			}
		}
	}
	if n != len(adapterRows) {
		t.Errorf("%d adapters under internal/agent, %d rows in adapterRows: a row for an adapter that is gone?", n, len(adapterRows))
	}
}

// TestQwenCodeRows runs close variants of FINDINGS-5 L14, positive and
// negative.
func TestQwenCodeRows(t *testing.T) {
	f := newFixture(t)
	f.userFile("mode: interactive\n")
	p := f.load()
	for _, c := range []struct {
		cmd  string
		deny bool
	}{
		{`QWEN_HOME=/tmp/q qwen -p hi`, true},
		{`export QWEN_CODE_SYSTEM_DEFAULTS_PATH=/tmp/x.json; qwen -p hi`, true},
		{`env QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/x.json qwen`, true},
		{`cp x.json /etc/qwen-code/system-defaults.json`, true},
		{`tee ~/.qwen/extensions/y/qwen-extension.json < x.json`, true},
		{`rm -rf ~/.qwen/extensions`, true},
		{`CURSOR_CONFIG_DIR=/tmp/c cursor-agent -p hi`, true},
		{`GEMINI_CLI_HOME=/tmp/g gemini -p hi`, true},
		// negative
		{`cat ~/.qwen/extensions/x/qwen-extension.json`, false},
		{`echo x > ~/.qwen/tmp/notes.txt`, false},
		{`QWEN_HOME=/tmp/q echo hi`, false},
		{`cat /etc/qwen-code/settings.json`, false},
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: f.path("proj")})
		denied := v.Decision == Deny && strings.HasPrefix(v.Rule, "self.")
		if denied != c.deny {
			t.Errorf("%q: %s by %s (%v); want denied by self-protection = %v", c.cmd, v.Decision, v.Rule, v.Message, c.deny)
		}
	}
}

// installHook installs airlock's hook for an installer's agent into the
// fixture, as "airlock install NAME" does.
func installHook(t *testing.T, f *fixture, name string, scope agentinstall.Scope) {
	t.Helper()
	ag, ok := agentinstall.Lookup(name)
	if !ok {
		t.Fatalf("no installer for %s", name)
	}
	env := agentinstall.Env{Home: f.path("home"), Project: f.path("proj"), Exe: "/opt/airlock/bin/airlock", Getenv: func(k string) string { return f.env[k] }}
	plan, err := ag.Install(env, scope)
	if err != nil {
		t.Fatalf("install %s: %v", name, err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatalf("install %s: %v", name, err)
	}
}

// TestHooklessAgent checks FINDINGS-5 L17: a known agent run whose
// airlock hook is not installed is held unattended (asked interactive),
// naming the install that fixes it; once installed, at either scope, the
// same run is the agent's own business again.
func TestHooklessAgent(t *testing.T) {
	f := newFixture(t)
	f.userFile("mode: interactive\n")
	f.write("home/.claude/settings.json", "{\"hooks\":{}}\n")
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	decide := func(mode Mode, cmd string) Verdict {
		return f.load().DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj")})
	}
	for _, c := range []struct{ cmd, installer string }{
		{"codex exec hi", "codex"},
		{"gemini -p hi", "gemini"},
		{"opencode run hi", "opencode"},
		{"cursor-agent -p hi", "cursor"},
		{"crush run hi", "crush"},
		{"goose run -t hi", "goose"},
		{"auggie --print hi", "auggie"},
		{"cline task hi", "cline"},
		{"kiro-cli chat hi", "kiro"},
		{"qwen -p hi", "qwen"},
		{"droid exec hi", "factory"},
		{"cd src && timeout 60 codex exec hi", "codex"},
	} {
		v := decide(Unattended, c.cmd)
		if v.Decision != Defer || v.Rule != RuleAgentHookless {
			t.Errorf("%q unattended: %s by %s; want held by %s", c.cmd, v.Decision, v.Rule, RuleAgentHookless)
			continue
		}
		if !strings.Contains(v.Message, "airlock install "+c.installer) {
			t.Errorf("%q: the reason %q does not name airlock install %s", c.cmd, v.Message, c.installer)
		}
		if v := decide(Interactive, c.cmd); v.Decision != Ask {
			t.Errorf("%q interactive: %s by %s; want ask", c.cmd, v.Decision, v.Rule)
		}
	}
	// Negative: what only prints, what is no agent, and an agent airlock
	// has no adapter for (held by classify as today, not by this rule).
	for _, cmd := range []string{"codex --version", "gemini --help", "echo codex exec hi", "grep -r gemini src"} {
		if v := decide(Unattended, cmd); v.Decision != Allow && v.Decision != Warn {
			t.Errorf("%q: %s by %s; it starts no agent", cmd, v.Decision, v.Rule)
		}
	}
	if v := decide(Unattended, "aider --yes-always"); v.Rule == RuleAgentHookless || !v.Decision.Holds() {
		t.Errorf("aider: %s by %s; want held as before, not by %s", v.Decision, v.Rule, RuleAgentHookless)
	}
	// Installed: codex at the user's scope, gemini at the project's.
	installHook(t, f, "codex", agentinstall.User)
	installHook(t, f, "gemini", agentinstall.Project)
	for _, cmd := range []string{"codex exec hi", "gemini -p hi"} {
		if v := decide(Unattended, cmd); v.Decision != Allow && v.Decision != Warn {
			t.Errorf("%q with airlock's hook installed: %s by %s (%s)", cmd, v.Decision, v.Rule, v.Message)
		}
	}
	if v := decide(Unattended, "opencode run hi"); v.Rule != RuleAgentHookless {
		t.Errorf("opencode, still without its hook: %s by %s", v.Decision, v.Rule)
	}
	// Told to drop its hooks: refused whatever is installed.
	installHook(t, f, "goose", agentinstall.User)
	if v := decide(Unattended, "goose run -t hi"); v.Decision != Allow && v.Decision != Warn {
		t.Errorf("goose with its hook: %s by %s", v.Decision, v.Rule)
	}
	if v := decide(Unattended, "goose run --no-hooks -t hi"); v.Decision != Deny || v.Rule != RuleAgentGuardOff {
		t.Errorf("goose --no-hooks: %s by %s; want denied by %s", v.Decision, v.Rule, RuleAgentGuardOff)
	}
}

// installEveryHook installs airlock's hook for every agent its installer
// knows at the user's scope: the machine of a human who uses these
// agents with airlock, where running one is ordinary work.
func installEveryHook(t *testing.T, f *fixture) {
	t.Helper()
	f.write("home/.kiro/agents/default.json", "{}\n")
	for _, name := range agentinstall.Names() {
		installHook(t, f, name, agentinstall.User)
	}
}
