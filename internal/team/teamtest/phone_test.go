package teamtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/notify"
	"github.com/airlock-dev/airlock/internal/notify/ntfytest"
	"github.com/airlock-dev/airlock/internal/team/teamnotify"
)

// TestPhoneApprovalReachesTheMachine: the phone channel pointed at the
// team server. A's held push is sent to the team's topic; the phone's
// Approve is settled in the team queue as the phone's reviewer; after
// one sync A's retry runs once on that signed decision, and a second
// retry is held; B's identical command stays held.
func TestPhoneApprovalReachesTheMachine(t *testing.T) {
	ts := startTeam(t)
	phone := ts.reviewer("alice-phone")
	a, b := newHome(t, ts, "laptop-a"), newHome(t, ts, "ci-runner-b")
	const push = "git push origin main"
	_, idA := a.hook(t, push)
	_, idB := b.hook(t, push)
	a.once(t)
	b.once(t)

	ntfy := ntfytest.New()
	t.Cleanup(ntfy.Close)
	file := filepath.Join(t.TempDir(), "team-notify.yaml")
	if err := os.WriteFile(file, []byte("notify:\n  ntfy:\n    server: "+ntfy.URL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := teamnotify.LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	var events []notify.Event
	w, err := notify.NewQueue(cfg, teamnotify.New(ts.url(), phone, nil), notify.Options{StateDir: t.TempDir(), Name: teamnotify.Name,
		Report: func(ev notify.Event) { events = append(events, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Once(context.Background()); err != nil {
		t.Fatal(err)
	}
	var sentA *ntfytest.Message
	for _, m := range ntfy.Messages("") {
		if strings.Contains(m.Message, "item laptop-a:"+idA) {
			sentA = m
		}
	}
	if sentA == nil || len(ntfy.Messages("")) != 2 {
		t.Fatalf("A's item was not sent, or not one message per machine: %+v", ntfy.Messages(""))
	}
	// Press A's Approve (the last message with buttons may be B's).
	var approve string
	for _, act := range sentA.Actions {
		if act.Label == "Approve" {
			approve = act.Body
		}
	}
	ntfy.Publish(strings.TrimPrefix(sentA.Actions[0].URL, ntfy.URL+"/"), approve)
	if err := w.Once(context.Background()); err != nil {
		t.Fatal(err)
	}

	if r := a.once(t); r.Applied != 1 || r.Refused != 0 {
		t.Fatalf("A's sync after the press: %+v %+v (watcher: %+v)", r, a.evs, events)
	}
	if it := a.item(t, idA); it.Status != journal.Approved || it.Settled.Team == nil || it.Settled.Team.Reviewer != "alice-phone" {
		t.Fatalf("A's item: %s %+v", it.Status, it.Settled)
	}
	if used, _ := a.hook(t, push); used != idA {
		t.Fatalf("A's retry was not let through on the phone's approval of %s", idA)
	}
	if used, again := a.hook(t, push); used != "" || again == "" {
		t.Fatalf("A's second retry: used %q held %q", used, again)
	}
	if r := b.once(t); r.Applied+r.Refused != 0 {
		t.Fatalf("B pulled A's decision: %+v", r)
	}
	if it := b.item(t, idB); it.Status != journal.Pending {
		t.Fatalf("B's item is %s", it.Status)
	}
	if n := a.teamActs(t); len(n) != 1 {
		t.Fatalf("A's team acts: %v", n)
	}
	a.verify(t)
}
