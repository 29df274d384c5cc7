package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
)

// TestContained: the same command is held when the call is not
// contained and warned about when the entry point says it is; outward
// commands stay held; the adapter's own Action.Contained is not
// believed; the journal records which way each call was decided.
func TestContained(t *testing.T) {
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "journal"))
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	contained := false
	p := newPipeline(policy.Unattended, j, nil)
	p.Contained = func(*Request) bool { asked++; return contained }
	decide := func(cmd string, in bool) Outcome {
		contained = in
		return p.Decide(shell(cmd))
	}
	const opaque = `eval "$CMD"`
	if o := decide(opaque, false); o.Verdict.Decision != policy.Defer || o.Action.Contained {
		t.Errorf("uncontained %s: %s (%s), contained=%v; want defer", opaque, o.Verdict.Decision, o.Verdict.Rule, o.Action.Contained)
	}
	if o := decide(opaque, true); o.Verdict.Decision != policy.Warn || o.Verdict.Rule != policy.RuleContainedOpaque || !o.Action.Contained {
		t.Errorf("contained %s: %s (%s), contained=%v; want warn (%s)", opaque, o.Verdict.Decision, o.Verdict.Rule, o.Action.Contained, policy.RuleContainedOpaque)
	}
	for _, cmd := range []string{"git push origin main", "curl -X POST -d x=1 https://example.test/api"} {
		if o := decide(cmd, true); o.Verdict.Decision != policy.Defer {
			t.Errorf("contained %s: %s (%s); want defer", cmd, o.Verdict.Decision, o.Verdict.Rule)
		}
	}
	// The allowed path does not ask.
	n := asked
	if o := decide("go test ./...", true); o.Verdict.Decision != policy.Allow || asked != n {
		t.Errorf("go test: %s, asked %d more times", o.Verdict.Decision, asked-n)
	}
	// An adapter (or anything the agent wrote) that sets Action.Contained
	// itself is not believed: only the entry point's fact counts.
	contained = false
	r := shell(opaque)
	r.Action.Contained = true
	if o := p.Decide(r); o.Verdict.Decision != policy.Defer || o.Action.Contained {
		t.Errorf("a request claiming to be contained: %s (%s); want defer", o.Verdict.Decision, o.Verdict.Rule)
	}
	p.Contained = nil
	if o := p.Decide(r); o.Verdict.Decision != policy.Defer {
		t.Errorf("no containment fact, a request claiming it: %s (%s); want defer", o.Verdict.Decision, o.Verdict.Rule)
	}
	es, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		c := "-"
		if e.Contained {
			c = "contained"
		}
		got = append(got, e.Command+" "+e.Decision+" "+c)
	}
	want := []string{
		opaque + " defer -",
		opaque + " warn contained",
		"git push origin main defer -",
		"curl -X POST -d x=1 https://example.test/api defer -",
		"go test ./... allow -",
		opaque + " defer -",
		opaque + " defer -",
	}
	if len(got) != len(want) {
		t.Fatalf("journal:\n%q\nwant\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("journal line %d: %q, want %q", i, got[i], want[i])
		}
	}
}
