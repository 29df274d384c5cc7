package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// benchPolicy is a user's policy file of a few rules and sections.
const benchPolicy = `version: 1
mode: supervised
gate:
  enabled: true
rules:
  - id: fork
    match:
      command: ["git push personal"]
    decision: allow
    message: pushing to my fork is fine
  - id: env
    match:
      path: [".env"]
      not_path: [".env.example"]
    decision: deny
  - id: prod
    match:
      host: ["*.prod.example.com"]
    decision: defer
egress:
  passthrough: [api.example.com]
`

// benchHandlerOwnHome times the service's handler for an allowed call
// whose HOME is the service's own (an agent started by the same user, as
// in bench/hooktime), with the user's policy file when policy is set.
func benchHandlerOwnHome(b *testing.B, policy string) {
	home := b.TempDir()
	b.Setenv("HOME", home)
	if policy != "" {
		f := filepath.Join(home, ".config", "airlock", "policy.yaml")
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(policy), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	state := filepath.Join(home, ".local", "state", "airlock")
	h := hookdHandler(state)
	req := &hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
		Env: []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin"}, Cwd: "/tmp", Stdin: []byte(event("go test ./... && git status"))}
	b.ReportAllocs()
	for b.Loop() {
		done := make(chan *hookd.Response)
		go func() { done <- h(req) }()
		if r := <-done; r.Kind != hookd.KindAnswer || r.Status != 0 {
			b.Fatalf("%+v %s", r, r.Stderr)
		}
	}
}

// BenchmarkHookdHandlerOwnHome: the handler, the request's HOME the
// service's own, no policy file.
func BenchmarkHookdHandlerOwnHome(b *testing.B) { benchHandlerOwnHome(b, "") }

// BenchmarkHookdHandlerPolicyFile: the same with a user's policy file,
// which the service reads on every call.
func BenchmarkHookdHandlerPolicyFile(b *testing.B) { benchHandlerOwnHome(b, benchPolicy) }
