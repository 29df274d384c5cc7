package teamtest

import (
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	teamsync "github.com/airlock-dev/airlock/internal/team/sync"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// TestItemOverTheServersLimit: against the real server (its limit of
// 1 MiB per held item), a held item larger than that as JSON is given up once,
// with a journaled reason and a not-shipped event, while the items held
// before and after it reach the team queue; later rounds do not push it
// again and keep the rest flowing.
func TestItemOverTheServersLimit(t *testing.T) {
	ts := startTeam(t)
	a := newHome(t, ts, "laptop-a")
	hold := func(cmd string) string {
		r, err := a.j.Record(&vocab.Event{Time: time.Now().UTC(), Agent: "claude-code", Name: "PreToolUse", Session: "s-laptop-a", Cwd: a.proj, Tool: "Bash",
			Action:  &vocab.Action{Kind: vocab.Shell, Tool: "Bash", Command: cmd, Cwd: a.proj},
			Verdict: &vocab.VerdictRecord{Decision: vocab.Defer, Rule: "table.external", Effect: "external", Mode: vocab.Unattended}})
		if err != nil || r.QueueID == "" {
			t.Fatalf("record: %+v %v", r, err)
		}
		return r.QueueID
	}
	hold("git push origin before")
	// Under the journal's line limit as the journal writes it, over the
	// server's per item as JSON crosses the wire (each "<" is six bytes
	// there: \u003c).
	big := hold("git push origin main # " + strings.Repeat("<", 400<<10))
	hold("git push origin after")
	r := a.once(t)
	if r.Items != 2 || len(r.NotShipped) != 1 || r.NotShipped[0].Item != big || !strings.Contains(r.NotShipped[0].Reason, "413") {
		t.Fatalf("round: items %d, not shipped %+v", r.Items, r.NotShipped)
	}
	if n := ts.count(t, "laptop-a"); n != 2 {
		t.Fatalf("the server holds %d items, want the 2 small ones", n)
	}
	seen := false
	for _, ev := range a.evs {
		seen = seen || ev.Kind == "not-shipped" && ev.Item == big
	}
	if !seen {
		t.Errorf("no not-shipped event for %s: %+v", big, a.evs)
	}
	n := 0
	a.j.Each(func(e *journal.Entry) error {
		if e.Event == teamsync.EventNotShipped && e.Ref == big {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d %s lines for %s, want 1", n, teamsync.EventNotShipped, big)
	}
	if it := a.item(t, big); it.Status != journal.Pending {
		t.Errorf("the large item is %s on the machine, want pending", it.Status)
	}
	hold("git push origin third")
	if r := a.once(t); r.Items != 1 || len(r.NotShipped) != 0 {
		t.Fatalf("the next round: %+v", r)
	}
	if n := ts.count(t, "laptop-a"); n != 3 {
		t.Fatalf("the server holds %d items after the next round, want 3", n)
	}
	a.verify(t)
}
