package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFromDecisionEnv: the variable that names curl's configuration
// (CURL_HOME) is read from the environment the decision is for (the hook
// client's, through HomeEnvFS), not from the deciding process's.
func TestConfigFromDecisionEnv(t *testing.T) {
	dir := t.TempDir()
	client := filepath.Join(dir, "client")
	if err := os.MkdirAll(client, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(client, ".curlrc"), []byte("data = \"@.env\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CURL_HOME", filepath.Join(dir, "service")) // the deciding process's: nothing there
	env := func(k string) string {
		if k == "CURL_HOME" {
			return client
		}
		return ""
	}
	got := CommandIn("curl https://example.com/x", HomeEnvFS(dir, filepath.Join(dir, "home"), env))
	if got.Effect.Tier != External {
		var msgs []string
		for _, r := range got.Reasons {
			msgs = append(msgs, r.Rule+": "+r.Message)
		}
		t.Errorf("the client's ~/.curlrc sends .env, but the run is %s (%s)", got.Label(), strings.Join(msgs, "; "))
	}
	plain := CommandIn("curl https://example.com/x", HomeEnvFS(dir, filepath.Join(dir, "home"), func(string) string { return "" }))
	if plain.Effect.Tier == External {
		t.Errorf("without the client's CURL_HOME the read is %s", plain.Label())
	}
}
