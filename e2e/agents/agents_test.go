package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/e2e/fakemodel"
)

// cli is one agent CLI as the tier drives it: where its binary comes
// from and how it is pointed at the fake model. airlock's hook goes in
// with `airlock install NAME`, as a user puts it there.
type cli struct {
	name   string
	envVar string
	// prepare writes the agent's configuration into the world's HOME, and
	// returns the command line and the extra environment of one
	// non-interactive run.
	prepare func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) (argv, env []string)
	// failsOpen is what the agent was observed to do when its hook
	// command cannot start: run the call (true) or refuse it (false).
	failsOpen bool
	// loop runs the airlock loop --agent scenario too. One agent is
	// enough to prove that the preset reaches a real CLI; Codex is the
	// quickest of the four (CI time is shared).
	loop bool
}

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
	name: "codex", failsOpen: true, loop: true, envVar: "AIRLOCK_E2E_CODEX",
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
}

var gemini = cli{
	name: "gemini", envVar: "AIRLOCK_E2E_GEMINI",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		settings := filepath.Join(w.home, ".gemini", "settings.json")
		if _, err := os.Stat(settings); err != nil {
			writeJSON(t, w, settings, map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
		}
		return []string{bin, "-p", prompt, "--approval-mode", "yolo", "--skip-trust", "-m", "fake-model", "-o", "stream-json"},
			[]string{"GOOGLE_GEMINI_BASE_URL=" + api.URL(), "GEMINI_API_KEY=dummy"}
	},
}

var copilot = cli{
	name: "copilot", envVar: "AIRLOCK_E2E_COPILOT",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		return []string{bin, "-p", prompt, "--allow-all-tools", "--output-format", "json"},
			[]string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + api.URL() + "/v1",
				"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=fake-model"}
	},
}

var opencode = cli{
	name: "opencode", envVar: "AIRLOCK_E2E_OPENCODE",
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
}

var clis = []cli{codex, gemini, copilot, opencode}
