package gate

import (
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// benchSetup is a session with a gated file already cleared, a prompt and
// some ledger entries, as in the middle of real work.
func benchSetup(b *testing.B, policyText string) (*harness, *policy.Policy, *Event, policy.Action, policy.Verdict) {
	b.Helper()
	t := &testing.T{}
	h := newHarness(t, policyText)
	h.t = t
	h.prompt("Rename Foo to Bar and keep the tests green.")
	for i := 0; i < 20; i++ {
		h.observe("Read", map[string]any{"file_path": h.abs("internal/gate/gate.go")})
		h.observe("Grep", map[string]any{"pattern": "Foo"})
	}
	in := edit(h.abs("internal/x.go"))
	h.pre("Edit", in)
	p := h.load()
	a := action("Edit", h.proj, in)
	v := p.Decide(a)
	return h, p, h.event("PreToolUse", "Edit", in), a, v
}

// BenchmarkPreAllowedEdit is the gate's cost on an edit it lets through:
// one lock, one read of the session's state, no write.
func BenchmarkPreAllowedEdit(b *testing.B) {
	h, p, ev, a, v := benchSetup(b, enabled)
	g := New(h.getenv, func() time.Time { return h.clock })
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vv := v
		if out := g.Pre(p, ev, &a, &vv); out.Denied || out.Warning != "" {
			b.Fatalf("denied or warned: %+v", out)
		}
	}
}

// BenchmarkPreOff is the gate's cost when the policy leaves it off: it
// must touch no file.
func BenchmarkPreOff(b *testing.B) {
	h, p, ev, a, v := benchSetup(b, "gate: {enabled: false}\n")
	g := New(h.getenv, func() time.Time { return h.clock })
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vv := v
		g.Pre(p, ev, &a, &vv)
	}
}
