package agents

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/e2e/fakemodel"
)

// cli is one agent CLI as the tier drives it: where its binary comes
// from, how it is pointed at the fake model, and how its pre-tool hook is
// configured.
type cli struct {
	name   string
	envVar string
	// prepare writes the agent's configuration into the world's HOME (and
	// project, where the agent reads it from there), and returns the
	// command line and the extra environment of one non-interactive run.
	prepare func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) (argv, env []string)
	// hook configures command as the agent's pre-tool hook, by hand, the
	// way the agent's own documentation shows; it returns extra flags the
	// run needs for the agent to honour the hook.
	hook func(t *testing.T, w *world, command string) (flags []string)
	// hookCommand is the command line of airlock's hook for this agent.
	hookCommand func(airlock string) string
	// probe, when set, checks that this airlock build has the agent's
	// adapter, and skips the guarded scenarios when it has not.
	probe func(t *testing.T, w *world, airlock string)
	// failsOpen is what the agent was observed to do when its hook
	// command cannot start: run the call (true) or refuse it (false).
	failsOpen bool
}

// claudeFormat is the hook command for agents that speak Claude Code's
// hook format (Codex; Copilot with PascalCase event names; the OpenCode
// shim, which translates to it).
func claudeFormat(airlock string) string {
	return shellQuote(airlock) + " hook claude-code --event PreToolUse"
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func writeJSON(t *testing.T, w *world, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	w.writeFile(path, string(b)+"\n")
}

// codexHome is Codex's configuration directory in the world.
func codexHome(w *world) string { return filepath.Join(w.home, ".codex") }

var codex = cli{
	name: "codex", failsOpen: true, hookCommand: claudeFormat, envVar: "AIRLOCK_E2E_CODEX",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		w.writeFile(filepath.Join(codexHome(w), "config.toml"), `model = "fake-model"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.fake]
name = "Fake"
base_url = "`+api.URL()+`/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
`)
		return []string{bin, "exec", "--json", "--skip-git-repo-check", prompt},
			[]string{"CODEX_HOME=" + codexHome(w), "FAKE_API_KEY=dummy"}
	},
	hook: func(t *testing.T, w *world, command string) []string {
		writeJSON(t, w, filepath.Join(codexHome(w), "hooks.json"), map[string]any{
			"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "*",
				"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 30}}}}}})
		// Codex runs only hooks whose hash the user trusted; without a trust
		// entry it skips them silently. The hand-made configuration has none.
		return []string{"--dangerously-bypass-hook-trust"}
	},
}

var gemini = cli{
	probe: func(t *testing.T, w *world, airlock string) {
		cmd := exec.Command(airlock, "hook", "gemini")
		cmd.Dir, cmd.Env = w.project, w.env()
		cmd.Stdin = strings.NewReader(`{"session_id":"probe","cwd":"` + w.project + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("this airlock has no Gemini adapter yet (airlock hook gemini: %v: %.200s)", err, out)
		}
	},
	name: "gemini", hookCommand: func(airlock string) string { return shellQuote(airlock) + " hook gemini" }, envVar: "AIRLOCK_E2E_GEMINI",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		settings := filepath.Join(w.home, ".gemini", "settings.json")
		if _, err := os.Stat(settings); err != nil {
			writeJSON(t, w, settings, map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
		}
		return []string{bin, "-p", prompt, "--approval-mode", "yolo", "--skip-trust", "-m", "fake-model", "-o", "stream-json"},
			[]string{"GOOGLE_GEMINI_BASE_URL=" + api.URL(), "GEMINI_API_KEY=dummy"}
	},
	hook: func(t *testing.T, w *world, command string) []string {
		writeJSON(t, w, filepath.Join(w.home, ".gemini", "settings.json"), map[string]any{
			"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
			"hooks": map[string]any{"BeforeTool": []any{map[string]any{"matcher": ".*",
				"hooks": []any{map[string]any{"name": "airlock", "type": "command", "command": command, "timeout": 30000}}}}}})
		return nil
	},
}

var copilot = cli{
	name: "copilot", hookCommand: claudeFormat, envVar: "AIRLOCK_E2E_COPILOT",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		return []string{bin, "-p", prompt, "--allow-all-tools", "--output-format", "json"},
			[]string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + api.URL() + "/v1",
				"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=fake-model"}
	},
	hook: func(t *testing.T, w *world, command string) []string {
		// The user's hooks folder: project hooks (.github/hooks) need the
		// folder trusted, and Copilot ignores them silently otherwise.
		writeJSON(t, w, filepath.Join(w.home, ".copilot", "hooks", "airlock.json"), map[string]any{
			"version": 1, "hooks": map[string]any{"PreToolUse": []any{map[string]any{"type": "command", "bash": command, "timeoutSec": 30}}}})
		return nil
	},
}

var opencode = cli{
	name: "opencode", hookCommand: claudeFormat, envVar: "AIRLOCK_E2E_OPENCODE",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		cfg := filepath.Join(w.home, ".config", "opencode")
		writeJSON(t, w, filepath.Join(cfg, "opencode.json"), map[string]any{
			"$schema": "https://opencode.ai/config.json",
			"provider": map[string]any{"fake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Fake",
				"options": map[string]any{"baseURL": api.URL() + "/v1", "apiKey": "dummy"},
				"models":  map[string]any{"fake-model": map[string]any{"name": "Fake model", "tool_call": true}}}},
			"model": "fake/fake-model", "permission": map[string]any{"bash": "allow", "edit": "allow"},
			"autoupdate": false, "share": "disabled"})
		// OpenCode installs its plugin package into its configuration folder
		// before it loads any plugin, and hangs offline without it: put the
		// pinned copy there, as a first online run would have.
		// It skips the install when node_modules exists and the folder's
		// package-lock.json lists the package, so both come from the pinned
		// install (.ci/npm/opencode-plugin).
		nm := tool(t, "AIRLOCK_E2E_OPENCODE_PLUGIN_NODE_MODULES", true)
		if err := os.Symlink(nm, filepath.Join(cfg, "node_modules")); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		for _, f := range []string{"package.json", "package-lock.json"} {
			b, err := os.ReadFile(filepath.Join(filepath.Dir(nm), f))
			if err != nil {
				t.Fatalf("OpenCode's plugin package: %v", err)
			}
			w.writeFile(filepath.Join(cfg, f), string(b))
		}
		return []string{bin, "run", "--format", "json", prompt},
			[]string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1"}
	},
	hook: func(t *testing.T, w *world, command string) []string {
		w.writeFile(filepath.Join(w.home, ".config", "opencode", "plugins", "airlock.js"), strings.ReplaceAll(opencodeShim, "@COMMAND@", jsString(command)))
		return nil
	},
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// opencodeShim is a hand-written stand-in for airlock's OpenCode plugin: it
// hands every tool call to a Claude-format hook command and throws (which
// blocks the call and shows the model the message) on a deny, on exit 2,
// and on any failure to get an answer.
const opencodeShim = `import { spawnSync } from "node:child_process";
const TOOLS = { bash: "Bash", write: "Write", edit: "Edit", read: "Read" };
export const Airlock = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const payload = { hook_event_name: "PreToolUse", session_id: input.sessionID, cwd: directory,
      tool_name: TOOLS[input.tool] || input.tool, tool_input: output.args, tool_use_id: input.callID };
    const r = spawnSync("sh", ["-c", @COMMAND@], { input: JSON.stringify(payload), encoding: "utf8", timeout: 30000 });
    if (r.error || r.status !== 0 && r.status !== 2) throw new Error("airlock hook failed, so the call is refused: " + (r.error || "exit status " + r.status));
    if (r.status === 2) throw new Error((r.stderr || "").trim() || "blocked by airlock");
    let out = {};
    try { out = JSON.parse(r.stdout || "{}"); } catch (e) { throw new Error("airlock hook answered something that is not JSON, so the call is refused"); }
    const d = out.hookSpecificOutput || {};
    if (d.permissionDecision === "deny" || d.permissionDecision === "ask" || d.permissionDecision === "defer")
      throw new Error(d.permissionDecisionReason || "blocked by airlock");
  },
});
`

var clis = []cli{codex, gemini, copilot, opencode}
