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

// BenchmarkObserveOff is a PostToolUse of a Read with the gate off: the
// policy is loaded (here from one user file) to learn that, and nothing
// else is read or written.
func BenchmarkObserveOff(b *testing.B) {
	h, _, _, _, _ := benchSetup(b, "gate: {enabled: false}\n")
	g := New(h.getenv, func() time.Time { return h.clock })
	ev := h.event("PostToolUse", "Read", map[string]any{"file_path": h.abs("internal/x.go")})
	load := func() (*policy.Policy, error) { return policy.Load(policy.Options{Getenv: h.getenv, Cwd: h.proj}) }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Observe(ev, load)
	}
}

// BenchmarkObserveRead is a PostToolUse of a Read with the gate on: one
// locked read-modify-write of the session's state.
func BenchmarkObserveRead(b *testing.B) {
	h, _, _, _, _ := benchSetup(b, enabled)
	g := New(h.getenv, func() time.Time { return h.clock })
	ev := h.event("PostToolUse", "Read", map[string]any{"file_path": h.abs("internal/x.go")})
	load := func() (*policy.Policy, error) { return policy.Load(policy.Options{Getenv: h.getenv, Cwd: h.proj}) }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if w := g.Observe(ev, load); w != "" {
			b.Fatal(w)
		}
	}
}
