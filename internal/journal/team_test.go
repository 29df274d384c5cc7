package journal

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// teamDecision is a decision for item id with hash hh, as sync hands it
// over once the server's signature verified.
func teamDecision(verdict, id, hh, decision string) TeamDecision {
	return TeamDecision{Verdict: verdict, ItemID: id, HeldHash: hh, Note: "ok by me",
		Act: TeamAct{Reviewer: "alice", DecisionID: decision, Decided: "2026-02-23T08:16:00Z", ServerSig: "c2ln", ServerKey: "SHA256:abc"}}
}

// outboxHeld returns the held items TeamOutbox ships, by id, with their
// held hashes.
func outboxHeld(t *testing.T, j *Journal) map[string]string {
	t.Helper()
	out, _, err := j.TeamOutbox(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, o := range out {
		if o.Kind == "held" {
			m[o.Item] = o.HeldHash
		}
	}
	return m
}

// A team approval is a human act with the channel "team": the agent's
// verbatim retry runs once, a second retry is held, the same decision
// applied again writes nothing, and the chain (MAC included) verifies.
func TestTeamApprovalAppliesOnce(t *testing.T) {
	j := open(t)
	now := t0
	j.Now = func() time.Time { return now }
	id := record(t, j, held("git push origin main", "/p")).QueueID
	hh := outboxHeld(t, j)[id]
	if hh == "" {
		t.Fatalf("the held item %s is not in the outbox", id)
	}
	it, err := j.SettleTeam(teamDecision(EventApprove, id, hh, "d-1"))
	if err != nil || it.Status != Approved || it.Settled.Team == nil || it.Settled.Team.Channel != ChannelTeam || it.Settled.MAC == "" {
		t.Fatalf("SettleTeam: %+v %v", it, err)
	}
	for i := 0; i < 10; i++ {
		if _, err := j.SettleTeam(teamDecision(EventApprove, id, hh, "d-1")); !errors.Is(err, ErrTeamApplied) {
			t.Fatalf("applying d-1 again (%d): %v", i, err)
		}
	}
	ev := held("git push origin main", "/p")
	if r := record(t, j, ev); r.Approval != id || ev.Verdict.Decision != policy.Allow {
		t.Fatalf("approved retry: %+v %v", r, ev.Verdict.Decision)
	}
	again := held("git push origin main", "/p")
	if r := record(t, j, again); r.Approval != "" || again.Verdict.Decision != policy.Defer {
		t.Fatalf("second retry: %+v %v", r, again.Verdict.Decision)
	}
	// Used, the decision is still known as applied, not refused.
	if _, err := j.SettleTeam(teamDecision(EventApprove, id, hh, "d-1")); !errors.Is(err, ErrTeamApplied) {
		t.Fatalf("applying d-1 after its use: %v", err)
	}
	items, _ := j.Queue(now)
	got, _ := Find(items, id)
	if got.Status != Used || got.Settled.Team.Reviewer != "alice" || got.Settled.Team.DecisionID != "d-1" {
		t.Fatalf("item: %+v settled %+v", got, got.Settled)
	}
	if s := settled(got); !strings.Contains(s, "alice") || !strings.Contains(s, "team") {
		t.Errorf("the item's settlement does not say who decided: %q", s)
	}
	mustVerify(t, j)
}

// The MAC covers the team record: the same line with another reviewer or
// decision does not verify.
func TestTeamRecordIsUnderTheMAC(t *testing.T) {
	j := open(t)
	id := record(t, j, held("git push", "/p")).QueueID
	it, err := j.SettleTeam(teamDecision(EventApprove, id, outboxHeld(t, j)[id], "d-1"))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := loadHumanKey(j.dir, false)
	e := *it.Settled
	if !validMAC(key, &e) {
		t.Fatal("the applied act does not verify")
	}
	for _, change := range []func(a *TeamAct){
		func(a *TeamAct) { a.Reviewer = "mallory" },
		func(a *TeamAct) { a.DecisionID = "d-2" },
		func(a *TeamAct) { a.ServerSig = "forged" },
	} {
		act := *e.Team
		change(&act)
		f := e
		f.Team = &act
		if validMAC(key, &f) {
			t.Errorf("a changed team record verifies: %+v", act)
		}
	}
}

// Refusals: an unknown item, a held line that changed, an item settled
// here first, a second team decision for a settled item. Each is
// journaled (EventTeamRefused, with the item), and leaves the item as it
// was.
func TestTeamDecisionsRefused(t *testing.T) {
	j := open(t)
	a := record(t, j, held("git push a", "/p")).QueueID
	b := record(t, j, held("git push b", "/p")).QueueID
	hashes := outboxHeld(t, j)
	if _, err := j.Settle(EventReject, b, "no", 0); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		d    TeamDecision
		want string
	}{
		{teamDecision(EventApprove, "0badf00d", hashes[a], "d-1"), "no held item"},
		{teamDecision(EventApprove, a, strings.Repeat("0", 64), "d-2"), "no longer hashes"},
		{teamDecision(EventApprove, b, hashes[b], "d-3"), "already settled here"},
	}
	for _, c := range cases {
		_, err := j.SettleTeam(c.d)
		if !errors.Is(err, ErrTeamRefused) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a refusal saying %q", c.d.Act.DecisionID, err, c.want)
		}
	}
	if _, err := j.SettleTeam(teamDecision(EventReject, a, hashes[a], "d-4")); err != nil {
		t.Fatal(err)
	}
	if _, err := j.SettleTeam(teamDecision(EventApprove, a, hashes[a], "d-5")); !errors.Is(err, ErrTeamRefused) || !strings.Contains(err.Error(), "team decision d-4") {
		t.Errorf("a second team decision: %v", err)
	}
	if err := j.RefuseTeam(teamDecision(EventApprove, a, hashes[a], "d-6"), "other-machine", "the signature does not verify"); err != nil {
		t.Fatal(err)
	}
	// Handed over again (a repeated sync), each refusal is known and
	// nothing more is written.
	for _, c := range cases {
		if _, err := j.SettleTeam(c.d); !errors.Is(err, ErrTeamSeen) {
			t.Errorf("%s again: %v", c.d.Act.DecisionID, err)
		}
	}
	if err := j.RefuseTeam(teamDecision(EventApprove, a, hashes[a], "d-6"), "other-machine", "the signature does not verify"); !errors.Is(err, ErrTeamSeen) {
		t.Errorf("d-6 again: %v", err)
	}
	items, _ := j.Queue(t0)
	if it, _ := Find(items, a); it.Status != Rejected || it.Settled.Team.DecisionID != "d-4" {
		t.Errorf("item a: %s %+v", it.Status, it.Settled)
	}
	var refused []TeamRefusal
	j.Each(func(e *Entry) error {
		if e.Event == EventTeamRefused {
			var r TeamRefusal
			if err := json.Unmarshal(e.Detail, &r); err != nil {
				t.Errorf("refusal detail: %v", err)
			}
			refused = append(refused, r)
		}
		return nil
	})
	if len(refused) != 5 || refused[0].Item != "0badf00d" || refused[4].Machine != "other-machine" || refused[4].DecisionID != "d-6" {
		t.Errorf("refusals journaled: %+v", refused)
	}
	// They are shipped as refusals, with the items they name.
	out, _, err := j.TeamOutbox(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range out {
		if o.Kind == "refused" {
			n++
		}
	}
	if n != 5 {
		t.Errorf("the outbox has %d refusals, want 5", n)
	}
	// The audit lists them (and they break nothing).
	audit := mustVerify(t, j)
	if len(audit.TeamRefused) != 5 || !strings.Contains(audit.TeamRefused[0].Detail, "team decision d-1 (Approve of 0badf00d by alice) refused: no held item") {
		t.Errorf("audit: %+v", audit.TeamRefused)
	}
}

// A line claiming a team approval that did not come through SettleTeam
// (appended by hand, so without the human key's MAC) does not count: the
// item stays pending, the retry is held, the team does not hear of it,
// and audit verify names it.
func TestHandWrittenTeamApprovalDoesNotCount(t *testing.T) {
	j := open(t)
	id := record(t, j, held("git push origin main", "/p")).QueueID
	hh := outboxHeld(t, j)[id]
	exp := t0.Add(time.Hour)
	forged := &Entry{Event: EventApprove, Ref: id, HeldHash: hh, Expires: &exp,
		Team: &TeamAct{Channel: ChannelTeam, Reviewer: "alice", DecisionID: "d-1", ServerSig: "c2ln", ServerKey: "SHA256:abc"}}
	if err := j.Append(forged); err != nil {
		t.Fatal(err)
	}
	ev := held("git push origin main", "/p")
	if r := record(t, j, ev); r.Approval != "" || ev.Verdict.Decision != policy.Defer {
		t.Fatalf("a hand-written approval let the retry through: %+v", r)
	}
	out, _, _ := j.TeamOutbox(0, 0)
	for _, o := range out {
		if o.Kind == "approved" {
			t.Errorf("the outbox ships the hand-written approval: %+v", o.Entry)
		}
	}
	a, err := j.Verify()
	if err != nil || len(a.Unauthenticated) != 1 {
		t.Fatalf("verify: %+v %v", a, err)
	}
	// The real decision still applies.
	if _, err := j.SettleTeam(teamDecision(EventApprove, id, hh, "d-1")); err != nil {
		t.Fatalf("the real decision after the forged line: %v", err)
	}
}

// The outbox pages: limit lines at a time, each page after the last,
// and nothing shipped twice or skipped.
func TestTeamOutboxPages(t *testing.T) {
	j := open(t)
	var ids []string
	for i := 0; i < 7; i++ {
		ids = append(ids, record(t, j, held("git push b"+string(rune('0'+i)), "/p")).QueueID)
		record(t, j, allowed("ls"))
	}
	if _, err := j.Settle(EventApprove, ids[2], "", time.Hour); err != nil {
		t.Fatal(err)
	}
	var got []string
	cursor := int64(0)
	for round := 0; round < 20; round++ {
		out, next, err := j.TeamOutbox(cursor, 3)
		if err != nil {
			t.Fatal(err)
		}
		if next < cursor {
			t.Fatalf("the cursor went back: %d after %d", next, cursor)
		}
		for _, o := range out {
			if o.Entry.Seq <= cursor {
				t.Fatalf("event %d shipped again after cursor %d", o.Entry.Seq, cursor)
			}
			got = append(got, o.Kind+":"+o.Item)
		}
		if next == cursor && len(out) == 0 {
			break
		}
		cursor = next
	}
	want := []string{}
	for _, id := range ids {
		want = append(want, "held:"+id)
	}
	want = append(want, "approved:"+ids[2])
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("shipped %v, want %v", got, want)
	}
}
