package sync

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
)

// TestTooLargeItemIsGivenUp: a held item the server refuses as too large
// (413, over its limit per held item) is given up once, with a journaled
// reason and a "not-shipped" event, and the items around it, in the same
// push and in later rounds, reach the server; the next round does not
// push it again.
func TestTooLargeItemIsGivenUp(t *testing.T) {
	f := newFake(t)
	f.itemBytes = 4096
	a := join(t, f, "laptop-a")
	before := a.hold(t, "git push origin before")
	big := a.hold(t, "git push origin "+strings.Repeat("x", 8000))
	after := a.hold(t, "git push origin after")
	r := a.once(t)
	if r.Items != 2 || f.itemCount() != 2 {
		t.Fatalf("round: %+v; the server has %d items, want the 2 small ones", r, f.itemCount())
	}
	for _, id := range []string{before, after} {
		if _, ok := f.item("laptop-a", id); !ok {
			t.Errorf("item %s did not reach the server", id)
		}
	}
	if _, ok := f.item("laptop-a", big); ok {
		t.Fatalf("the large item reached a server that refuses it")
	}
	if len(r.NotShipped) != 1 || r.NotShipped[0].Item != big || !strings.Contains(r.NotShipped[0].Reason, "over the server's limit") {
		t.Errorf("the round's not_shipped: %+v", r.NotShipped)
	}
	var evs int
	for _, ev := range a.evs {
		if ev.Kind == "not-shipped" && ev.Item == big && strings.Contains(ev.Message, "stays held on this machine") {
			evs++
		}
	}
	if evs != 1 {
		t.Errorf("%d not-shipped events for %s: %+v", evs, big, a.evs)
	}
	var line *journal.Entry
	a.j.Each(func(e *journal.Entry) error {
		if e.Event == EventNotShipped {
			line = e
		}
		return nil
	})
	if line == nil || line.Ref != big || !strings.Contains(line.Note, "413") {
		t.Fatalf("no journal line giving up %s: %+v", big, line)
	}
	// It stays held here.
	if it := a.item(t, big); it.Status != journal.Pending {
		t.Errorf("the large item is %s here, want pending", it.Status)
	}
	// The next round neither pushes it again nor journals it again, and
	// a new item flows.
	pushes := f.pushes
	third := a.hold(t, "git push origin third")
	r = a.once(t)
	if r.Items != 1 || len(r.NotShipped) != 0 || f.pushes != pushes+1 {
		t.Errorf("the next round: %+v in %d pushes", r, f.pushes-pushes)
	}
	if _, ok := f.item("laptop-a", third); !ok {
		t.Errorf("the next item did not reach the server")
	}
	if n := a.events(t, EventNotShipped); n != 1 {
		t.Errorf("%d %s lines, want 1", n, EventNotShipped)
	}
}
