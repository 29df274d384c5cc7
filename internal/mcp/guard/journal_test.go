package guard

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// TestJournalHistory runs the out-of-band approval through the real
// journal: a held sink call appears in the queue, a human approves it,
// the verbatim retry goes through once and the queue shows it used.
func TestJournalHistory(t *testing.T) {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: benchPolicy(t, 0, ""), History: Journal{J: j}}
	record := func(o Outcome, ref string) vocab.Receipt {
		t.Helper()
		d, _ := json.Marshal(o.Detail)
		r, err := j.Record(&vocab.Event{Time: time.Now(), Agent: Agent, Name: "tools/call", Tool: "mcp__texts__send_message", Ref: ref,
			Action: &policy.Action{Kind: policy.LocalTool, Tool: "mcp__texts__send_message"}, Verdict: o.Verdict.Record(), Detail: d})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	d, _ := json.Marshal(Detail{Server: "texts", Tool: "read_messages", Class: "source", Phase: "result", Untrusted: true})
	if _, err := j.Record(&vocab.Event{Time: time.Now(), Agent: Agent, Name: "tools/result", Tool: "mcp__texts__read_messages", Detail: d}); err != nil {
		t.Fatal(err)
	}
	o := g.Check(policy.Interactive, send("Bob", "hi"))
	if o.Verdict.Decision != policy.Ask || o.Verdict.Rule != RuleQuarantine {
		t.Fatalf("got %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
	o.Verdict.Decision, o.Detail.Decision, o.Detail.Channel, o.Detail.Answer = policy.Defer, "defer", "out-of-band", "held"
	r := record(o, "")
	if r.QueueID == "" {
		t.Fatal("the held call got no queue id")
	}
	if _, err := j.Settle(journal.EventApprove, r.QueueID, "fine", 0); err != nil {
		t.Fatal(err)
	}
	o = g.Check(policy.Interactive, send("Bob", "hi"))
	if o.Verdict.Decision != policy.Allow || o.Approval != r.QueueID {
		t.Fatalf("approved retry: %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
	o.Detail.Sent = true
	record(o, o.Approval)
	items, err := j.Queue(time.Now())
	if err != nil || len(items) != 1 || items[0].Status != journal.Used {
		t.Fatalf("queue: %v %v", items, err)
	}
	if o := g.Check(policy.Interactive, send("Bob", "hi")); o.Verdict.Decision == policy.Allow {
		t.Error("the approval was used twice")
	}
}
