//go:build linux

package cli

import (
	"testing"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// BenchmarkHookdSocketAllow: one allowed call after another through the
// service's socket (the server in this process, a connection per call as
// airlock-hook makes it): the handler's work plus the wire, the peer's
// credentials and the hand-off, without starting a process.
//
//	go test -run '^$' -bench HookdSocketAllow -benchtime 2000x ./internal/cli/
func BenchmarkHookdSocketAllow(b *testing.B) {
	home, _ := hookdEnvB(b)
	sock := home + "/.local/state/airlock/" + hookd.SocketName
	req := &hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
		Env: []string{"HOME=" + home}, Cwd: "/tmp", Stdin: []byte(event("go test ./... && git status"))}
	b.ReportAllocs()
	for b.Loop() {
		c, err := hookd.Dial(sock, "/proc/self/exe")
		if err != nil {
			b.Fatal(err)
		}
		r, err := c.Ask(req)
		c.Close()
		if err != nil || r.Kind != hookd.KindAnswer || r.Status != 0 {
			b.Fatalf("%v %+v", err, r)
		}
	}
}
