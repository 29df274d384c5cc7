package guard

import (
	"runtime"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/mcp/proxied"
	"github.com/airlock-dev/airlock/internal/policy"
)

// TestHookDefersToProxy: a call the hook would hold (a tool the policy
// does not list, in unattended mode) is left to the proxy this agent
// started for the server, and decided by the hook again once that proxy
// has stopped.
func TestHookDefersToProxy(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process tree is read on Linux only")
	}
	p := benchPolicy(t, 0, "")
	p.Mode = policy.Unattended
	p.Paths.StateDir = t.TempDir()
	mem := &Memory{}
	call := func() policy.Verdict {
		v := policy.Verdict{}
		ForHook(mem, time.Now, p, Caller{}, "mcp__texts__delete_everything", args(), &v)
		return v
	}
	if v := call(); v.Decision == policy.Allow {
		t.Fatalf("without a proxy the hook allowed an unlisted tool: %+v", v)
	}
	release, err := proxied.Register(p.Paths.StateDir, "texts", "")
	if err != nil {
		t.Fatal(err)
	}
	if v := call(); v.Decision != policy.Allow || v.Rule != RuleProxied {
		t.Errorf("with this agent's proxy running: %+v, want allow by %s", v, RuleProxied)
	}
	release()
	if v := call(); v.Decision == policy.Allow {
		t.Errorf("after the proxy stopped the hook allowed an unlisted tool: %+v", v)
	}
}
