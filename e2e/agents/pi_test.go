package agents

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/e2e/fakemodel"
)

// pi is Pi (@mariozechner/pi-coding-agent), pointed at the fake model
// through its models.json as an OpenAI-compatible provider, and run in
// print mode. Its airlock hook is the extension `airlock install pi`
// writes; when the binary the extension runs is gone, the extension
// throws and Pi blocks the call (fails closed).
var pi = cli{
	name: "pi", envVar: "AIRLOCK_E2E_PI",
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		writeJSON(t, w, filepath.Join(w.home, ".pi", "agent", "models.json"), map[string]any{
			"providers": map[string]any{"fake": map[string]any{
				"baseUrl": api.URL() + "/v1", "api": "openai-completions", "apiKey": "dummy",
				"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
				"models": []any{map[string]any{"id": "fake-model"}}}}})
		return []string{bin, "-p", "--provider", "fake", "--model", "fake-model", prompt},
			[]string{"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1"}
	},
}

// auggie is Augment Code's Auggie CLI, pointed at the fake's stand-in
// for Augment's own backend (its "tenant URL", from the session in
// AUGMENT_SESSION_AUTH), and run in print mode. The fake's get-models
// answer turns on the tenant switch for hooks (enable_hooks), without
// which Auggie runs no hook at all. Auggie runs the call when its hook
// cannot start (fails open), as it does when the hook crashes or times
// out.
var auggie = cli{
	name: "auggie", envVar: "AIRLOCK_E2E_AUGGIE", failsOpen: true,
	prepare: func(t *testing.T, w *world, api *fakemodel.Server, bin, prompt string) ([]string, []string) {
		session, _ := json.Marshal(map[string]any{"accessToken": "dummy", "tenantURL": api.URL() + "/", "scopes": []string{"read", "write"}})
		return []string{bin, "-p", prompt}, []string{"AUGMENT_SESSION_AUTH=" + string(session)}
	},
}

// TestPi is the Pi tier: a push (plain and disguised) and a POST are held
// with their queue items while the local write goes through; without its
// binary the extension refuses every call; without airlock every call
// runs.
func TestPi(t *testing.T) { testTier(t, pi) }

// TestAuggie is the Auggie tier, the same scenarios as TestPi.
func TestAuggie(t *testing.T) { testTier(t, auggie) }

// testTier runs one CLI's scenarios, like TestAgents does for each of its
// CLIs; a tier of its own can be run alone (go test -run TestPi).
func testTier(t *testing.T, c cli) {
	bin := tool(t, c.envVar, false)
	airlock := buildAirlock(t, t.TempDir())
	t.Run("guarded", func(t *testing.T) { testGuarded(t, c, bin, airlock) })
	t.Run("hook-missing", func(t *testing.T) { testHookMissing(t, c, bin, airlock) })
	t.Run("control-without-airlock", func(t *testing.T) { testControl(t, c, bin) })
}
