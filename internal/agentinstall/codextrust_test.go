package agentinstall

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCodexHashKnown(t *testing.T) {
	// Recorded from codex-cli 0.171.0 "codex app-server" hooks/list.
	m := "*"
	timeout := int64(30)
	h := CodexHook{Event: "PreToolUse", Matcher: &m, Command: "/usr/local/bin/airlock hook codex --event PreToolUse", Timeout: &timeout}
	if got, want := h.Hash(), "sha256:2a7e83ded4df5d88c97f31d27daab6aadf4214e8fdd0dc5739f9d4c589ca1065"; got != want {
		t.Fatalf("hash = %s, want %s", got, want)
	}
	if got := CodexHookKey("/h/hooks.json", "PreToolUse", 1, 0); got != "/h/hooks.json:pre_tool_use:1:0" {
		t.Fatalf("key = %s", got)
	}
}

// TestCodexHashAgainstAppServer checks the hash and key airlock computes
// against what a real Codex reports, for hooks with odd commands,
// matchers, timeouts and positions. It runs when AIRLOCK_E2E_CODEX names
// a codex binary (.ci/run sets it with the agent tiers' pinned install).
func TestCodexHashAgainstAppServer(t *testing.T) {
	bin := os.Getenv("AIRLOCK_E2E_CODEX")
	if bin == "" {
		t.Skip("AIRLOCK_E2E_CODEX is not set")
	}
	home := t.TempDir()
	hooks := `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo user hook"}]},
      {"matcher": "*", "hooks": [
        {"type": "command", "command": "'/opt/my dir/air\"lock' hook codex --event PreToolUse", "timeout": 30},
        {"type": "command", "command": "/x/airlock hook codex <&> \u2028 tab\there", "timeout": 0, "statusMessage": "checking"}
      ]},
      {"hooks": [{"type": "command", "command": "/x/airlock hook codex --event PreToolUse", "timeout": 7, "async": true}]}
    ],
    "PostToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "/x/airlock hook codex --event PostToolUse"}]}],
    "UserPromptSubmit": [{"matcher": "ignored", "hooks": [{"type": "command", "command": "/x/airlock hook codex --event UserPromptSubmit", "timeout": 5}]}]
  }
}`
	hooksFile := filepath.Join(home, "hooks.json")
	if err := os.WriteFile(hooksFile, []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := codexTrustFor(hooksFile, []byte(hooks))
	if err != nil {
		t.Fatal(err)
	}
	got := codexAppServerHashes(t, bin, home)
	if len(want) != 5 {
		t.Fatalf("airlock found %d of its hooks, want 5", len(want))
	}
	for _, w := range want {
		if got[w.key] != w.hash {
			t.Errorf("%s: codex says %q, airlock computes %q", w.key, got[w.key], w.hash)
		}
	}
}

func codexAppServerHashes(t *testing.T, bin, home string) map[string]string {
	t.Helper()
	hooks, err := CodexHooks(context.Background(), bin, home, home, append(os.Environ(), "HOME="+home), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, h := range hooks {
		got[h.Key] = h.CurrentHash
		got["trust:"+h.Key] = h.TrustStatus
	}
	return got
}

// TestCodexInstallIsTrusted installs with airlock's own installer into a
// Codex home holding the user's config and hooks, and asks the real Codex
// whether it trusts the hook: it must, or Codex would skip it silently.
func TestCodexInstallIsTrusted(t *testing.T) {
	bin := os.Getenv("AIRLOCK_E2E_CODEX")
	if bin == "" {
		t.Skip("AIRLOCK_E2E_CODEX is not set")
	}
	home := t.TempDir()
	copyTree(t, filepath.Join("testdata", "codex", "home", ".codex"), home)
	env := Env{Home: t.TempDir(), Exe: "/opt/air lock/airlock", Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return home
		}
		return ""
	}}
	doInstall(t, codex(), env, User)
	got := codexAppServerHashes(t, bin, home)
	trusted := 0
	for k, v := range got {
		if len(k) > 6 && k[:6] == "trust:" && isOursKey(t, home, k[6:]) {
			if v != "trusted" {
				t.Errorf("%s: trustStatus %q", k[6:], v)
			}
			trusted++
		}
	}
	if trusted != 1 {
		t.Fatalf("codex lists %d airlock hooks, want 1: %v", trusted, got)
	}
}

func isOursKey(t *testing.T, home, key string) bool {
	want, err := codexTrustFor(filepath.Join(home, "hooks.json"), mustRead(t, filepath.Join(home, "hooks.json")))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if w.key == key {
			return true
		}
	}
	return false
}
