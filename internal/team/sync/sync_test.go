package sync

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// machine is one airlock home joined to a server.
type machine struct {
	name  string
	state string
	j     *journal.Journal
	s     *Syncer
	evs   []Event
}

func join(t *testing.T, f *fakeServer, name string) *machine {
	t.Helper()
	token := "tok-" + name + "-0123456789abcdef"
	f.addMachine(name, token)
	m := &machine{name: name, state: t.TempDir()}
	c, err := Join(context.Background(), JoinOptions{StateDir: m.state, Server: f.url(), Token: token, Pin: wire.Fingerprint(f.pub)})
	if err != nil {
		t.Fatal(err)
	}
	if c.Machine != name {
		t.Fatalf("joined as %q, want %q", c.Machine, name)
	}
	if m.j, err = journal.Open(journal.DirIn(m.state)); err != nil {
		t.Fatal(err)
	}
	m.newSyncer(t)
	return m
}

func (m *machine) newSyncer(t *testing.T) {
	t.Helper()
	s, err := New(Options{StateDir: m.state, Journal: m.j, Report: func(ev Event) { m.evs = append(m.evs, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	m.s = s
}

// hold records a deferred git push, as the hook would, and returns its
// queue id.
func (m *machine) hold(t *testing.T, cmd string) string {
	t.Helper()
	r, err := m.j.Record(&vocab.Event{Time: time.Now().UTC(), Agent: "claude-code", Name: "PreToolUse", Session: "s1", Cwd: "/work/proj", Tool: "Bash",
		Action:  &vocab.Action{Kind: vocab.Shell, Tool: "Bash", Command: cmd, Cwd: "/work/proj"},
		Verdict: &vocab.VerdictRecord{Decision: vocab.Defer, Rule: "table.external", Effect: "external", Message: "held for review"}})
	if err != nil || r.QueueID == "" {
		t.Fatalf("hold: %+v %v", r, err)
	}
	return r.QueueID
}

func (m *machine) once(t *testing.T) Result {
	t.Helper()
	r, err := m.s.Once(context.Background())
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return r
}

func (m *machine) item(t *testing.T, id string) *journal.Item {
	t.Helper()
	items, err := m.j.Queue(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	it, err := journal.Find(items, id)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// events counts the journal's events of one name.
func (m *machine) events(t *testing.T, name string) int {
	t.Helper()
	n := 0
	if err := m.j.Each(func(e *journal.Entry) error {
		if e.Event == name {
			n++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func (m *machine) lines(t *testing.T) int {
	t.Helper()
	n := 0
	m.j.Each(func(*journal.Entry) error { n++; return nil })
	return n
}

// TestJoinPinsTheServerKey: join writes the membership 0600 in the
// secrets directory with the key's fingerprint; --pin with another
// fingerprint, a server of another protocol version, and (without --pin)
// a server whose key changed since are refused and write nothing.
func TestJoinPinsTheServerKey(t *testing.T) {
	f := newFake(t)
	f.addMachine("laptop-a", "tok-a-0123456789abcdef")
	state := t.TempDir()
	ctx := context.Background()

	_, err := Join(ctx, JoinOptions{StateDir: state, Server: f.url(), Token: "tok-a-0123456789abcdef", Pin: "SHA256:not-the-key"})
	if !errors.Is(err, ErrPinMismatch) {
		t.Fatalf("a wrong --pin: %v", err)
	}
	if _, err := os.Stat(ConfigPath(state)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused join wrote %s: %v", ConfigPath(state), err)
	}
	if _, err := Join(ctx, JoinOptions{StateDir: state, Server: f.url(), Token: "wrong"}); err == nil || !strings.Contains(err.Error(), "not accepted") {
		t.Fatalf("a wrong token: %v", err)
	}
	c, err := Join(ctx, JoinOptions{StateDir: state, Server: f.url() + "/", Token: "tok-a-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Fingerprint != wire.Fingerprint(f.pub) || c.Machine != "laptop-a" || c.Server != f.url() {
		t.Fatalf("config: %+v", c)
	}
	st, err := os.Stat(ConfigPath(state))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v %v", ConfigPath(state), st.Mode(), err)
	}
	if d, _ := os.Stat(filepath.Dir(ConfigPath(state))); d.Mode().Perm() != 0o700 {
		t.Fatalf("the secrets directory is %v", d.Mode().Perm())
	}
	got, err := LoadConfig(state)
	if err != nil || got.Token != "tok-a-0123456789abcdef" || got.ServerKey != wire.EncodeKey(f.pub) {
		t.Fatalf("LoadConfig: %+v %v", got, err)
	}

	// The server comes back with another key: not pinned silently.
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	f.mu.Lock()
	f.pub, f.priv = pub, priv
	f.mu.Unlock()
	if _, err := Join(ctx, JoinOptions{StateDir: state, Server: f.url(), Token: "tok-a-0123456789abcdef"}); !errors.Is(err, ErrPinMismatch) {
		t.Fatalf("a changed key without --pin: %v", err)
	}
	if again, _ := LoadConfig(state); again.ServerKey != got.ServerKey {
		t.Fatal("a refused re-join replaced the pinned key")
	}
	if _, err := Join(ctx, JoinOptions{StateDir: state, Server: f.url(), Token: "tok-a-0123456789abcdef", Pin: wire.Fingerprint(pub)}); err != nil {
		t.Fatalf("re-join with --pin of the new key: %v", err)
	}

	f.mu.Lock()
	f.version = wire.Version + 1
	f.mu.Unlock()
	if _, err := Join(ctx, JoinOptions{StateDir: t.TempDir(), Server: f.url(), Token: "tok-a-0123456789abcdef"}); err == nil || !strings.Contains(err.Error(), "protocol version") {
		t.Fatalf("another protocol version: %v", err)
	}
	for _, bad := range []string{"ftp://x", "example.org", "http://x/?q=1"} {
		if _, err := Join(ctx, JoinOptions{StateDir: t.TempDir(), Server: bad, Token: "t"}); err == nil {
			t.Errorf("server %q accepted", bad)
		}
	}
}

// TestSyncShipsAndApplies: a held item reaches the server with its held
// line's hash; a reviewer's approval comes back and is written as a
// human act with the channel team and the reviewer's name; the server
// hears it was approved, then used; ten more syncs apply nothing again.
func TestSyncShipsAndApplies(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	id := a.hold(t, "git push origin main")
	a.hold(t, "git push origin other")
	if r := a.once(t); r.Items != 2 || r.New != 2 {
		t.Fatalf("first round: %+v", r)
	}
	it, ok := f.item("laptop-a", id)
	if !ok || it.Command != "git push origin main" || it.HeldHash == "" || it.Repo != "proj" || it.Decision != "defer" {
		t.Fatalf("shipped item: %+v %v", it, ok)
	}
	d := f.decide("laptop-a", id, it.HeldHash, wire.Approve, "alice")
	if r := a.once(t); r.Applied != 1 || r.Refused != 0 {
		t.Fatalf("round with a decision: %+v (%+v)", r, a.evs)
	}
	got := a.item(t, id)
	if got.Status != journal.Approved || got.Settled.Team == nil || got.Settled.Team.Reviewer != "alice" ||
		got.Settled.Team.DecisionID != d.DecisionID || got.Settled.Team.ServerSig != d.Sig || got.Settled.Team.Channel != "team" {
		t.Fatalf("item after the decision: %s %+v", got.Status, got.Settled)
	}
	s := f.settled("laptop-a", id)
	if len(s) != 1 || s[0].Status != "approved" || s[0].Channel != "team" || s[0].DecisionID != d.DecisionID || s[0].Reviewer != "alice" {
		t.Fatalf("the server heard %+v", s)
	}
	before := a.lines(t)
	for i := 0; i < 10; i++ {
		if r := a.once(t); r.Applied != 0 || r.Refused != 0 || r.New != 0 {
			t.Fatalf("repeat %d: %+v", i, r)
		}
	}
	if after := a.lines(t); after != before {
		t.Fatalf("ten repeated syncs wrote %d journal lines", after-before)
	}
	// Pulled again from the start (cursors lost): applied once all the same.
	if err := os.Remove(filepath.Join(a.state, StateDir, "cursors.json")); err != nil {
		t.Fatal(err)
	}
	if r := a.once(t); r.Applied != 0 || r.Skipped != 1 || r.Refused != 0 {
		t.Fatalf("after losing the cursors: %+v", r)
	}
	if n := a.events(t, journal.EventApprove); n != 1 {
		t.Fatalf("%d approvals in the journal, want 1", n)
	}
	if audit, err := a.j.Verify(); err != nil || !audit.OK() {
		t.Fatalf("verify: %+v %v", audit, err)
	}
}

// TestForgedDecisionsAreRefused: a decision signed by a key other than
// the pinned one (an impostor on loopback where the server was), a
// decision the real server signed for another machine, one for an item
// this machine does not have, and one whose held line does not match are
// each refused, journaled and reported; the item stays pending.
func TestForgedDecisionsAreRefused(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	join(t, f, "laptop-b")
	id := a.hold(t, "git push origin main")
	a.once(t)
	it, _ := f.item("laptop-a", id)

	// Signed for laptop-b, listed to laptop-a.
	forB := wire.Decision{DecisionID: "dec-b", Machine: "laptop-b", ItemID: id, HeldHash: it.HeldHash, Verdict: wire.Approve,
		Reviewer: "alice", Time: "2026-02-23T09:00:00Z"}
	wire.Sign(f.priv, &forB)
	f.deliver("laptop-a", forB)
	// Signed by another key.
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	forged := wire.Decision{DecisionID: "dec-forged", Machine: "laptop-a", ItemID: id, HeldHash: it.HeldHash, Verdict: wire.Approve,
		Reviewer: "alice", Time: "2026-02-23T09:00:00Z"}
	wire.Sign(other, &forged)
	f.deliver("laptop-a", forged)
	// Signed right, but the signature no longer covers what is sent.
	tampered := f.decide("laptop-a", id, it.HeldHash, wire.Reject, "bob")
	f.mu.Lock()
	f.decisions[len(f.decisions)-1].d.Verdict = wire.Approve
	f.mu.Unlock()
	// Right key, but an item and a hash this machine does not have.
	f.decide("laptop-a", "0badf00d", it.HeldHash, wire.Approve, "alice")
	f.decide("laptop-a", id, strings.Repeat("ab", 32), wire.Approve, "alice")

	r := a.once(t)
	if r.Applied != 0 || r.Refused != 5 {
		t.Fatalf("round: %+v %+v", r, a.evs)
	}
	if got := a.item(t, id); got.Status != journal.Pending {
		t.Fatalf("item is %s after forged decisions", got.Status)
	}
	if n := a.events(t, journal.EventTeamRefused); n != 5 {
		t.Fatalf("%d refusals journaled, want 5", n)
	}
	var reasons []string
	for _, ev := range a.evs {
		if ev.Kind == "refused" {
			reasons = append(reasons, ev.Decision+": "+ev.Message)
		}
	}
	for _, want := range []string{"dec-b: team decision: signed for another machine", "dec-forged: team decision: the signature does not verify",
		tampered.DecisionID + ": team decision: the signature", "no held item", "no longer hashes"} {
		if !strings.Contains(strings.Join(reasons, "\n"), want) {
			t.Errorf("no refusal saying %q in %q", want, reasons)
		}
	}
	// The server hears of the refusals about this machine's item.
	s := f.settled("laptop-a", id)
	if len(s) != 1 || s[0].Status != "refused" || s[0].Refused == "" {
		t.Errorf("the server heard %+v", s)
	}
	// Pulled again from the start: each refusal is known, none written twice.
	if err := os.Remove(filepath.Join(a.state, StateDir, "cursors.json")); err != nil {
		t.Fatal(err)
	}
	if r := a.once(t); r.Refused != 0 || r.Skipped != 5 || r.Applied != 0 {
		t.Fatalf("pulled again: %+v", r)
	}
	if n := a.events(t, journal.EventTeamRefused); n != 5 {
		t.Fatalf("%d refusals journaled after pulling again, want 5", n)
	}

	// An impostor where the server was: the same token, its own key.
	imp := newFake(t)
	imp.addMachine("laptop-a", "tok-laptop-a-0123456789abcdef")
	imp.decide("laptop-a", id, it.HeldHash, wire.Approve, "mallory")
	cfg, _ := LoadConfig(a.state)
	cfg.Server = imp.url()
	if err := SaveConfig(a.state, cfg); err != nil {
		t.Fatal(err)
	}
	a.newSyncer(t)
	a.evs = nil
	if r := a.once(t); r.Applied != 0 || r.Refused != 1 {
		t.Fatalf("impostor round: %+v", r)
	}
	warned := false
	for _, ev := range a.evs {
		warned = warned || ev.Kind == "warning" && strings.Contains(ev.Message, "other than the one pinned")
	}
	if !warned {
		t.Errorf("no warning about the impostor's key: %+v", a.evs)
	}
	if got := a.item(t, id); got.Status != journal.Pending {
		t.Fatalf("item is %s after the impostor", got.Status)
	}
}

// TestLocalClaimsDoNotCount: what the agent could write on the machine
// itself does not settle anything: a line appended to the journal by hand
// (no MAC), a file in sync's directory claiming a decision, cursors moved
// back. Only the pinned server's signed decision does.
func TestLocalClaimsDoNotCount(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	id := a.hold(t, "git push origin main")
	a.once(t)
	it, _ := f.item("laptop-a", id)

	exp := time.Now().Add(time.Hour)
	if err := a.j.Append(&journal.Entry{Event: journal.EventApprove, Ref: id, HeldHash: it.HeldHash, Expires: &exp,
		Team: &journal.TeamAct{Channel: "team", Reviewer: "alice", DecisionID: "dec-1", ServerSig: "x", ServerKey: wire.Fingerprint(f.pub)}}); err != nil {
		t.Fatal(err)
	}
	claim := wire.Decision{DecisionID: "dec-1", Machine: "laptop-a", ItemID: id, HeldHash: it.HeldHash, Verdict: wire.Approve, Reviewer: "alice", Time: "2026-02-23T09:00:00Z"}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	wire.Sign(other, &claim)
	b, _ := json.Marshal(wire.Decisions{Decisions: []wire.Decision{claim}, Next: 1})
	os.WriteFile(filepath.Join(a.state, StateDir, "decisions.json"), b, 0o600)
	os.WriteFile(filepath.Join(a.state, StateDir, "cursors.json"), []byte(`{"server":"`+f.url()+`","machine":"laptop-a","shipped":0,"pulled":0}`), 0o600)

	r := a.once(t)
	if r.Applied != 0 {
		t.Fatalf("round: %+v", r)
	}
	if got := a.item(t, id); got.Status != journal.Pending {
		t.Fatalf("item is %s after local claims", got.Status)
	}
	for _, s := range f.settled("laptop-a", id) {
		if s.Status == "approved" {
			t.Fatalf("the hand-written approval was reported to the team: %+v", s)
		}
	}
	// The real decision still applies, once.
	f.decide("laptop-a", id, it.HeldHash, wire.Approve, "alice")
	if r := a.once(t); r.Applied != 1 {
		t.Fatalf("the real decision: %+v", r)
	}
}

// TestSettledHereFirst: an item a local human settled before the team's
// decision arrived keeps the local decision; the team's is refused and
// the server told why.
func TestSettledHereFirst(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	id := a.hold(t, "git push origin main")
	a.once(t)
	it, _ := f.item("laptop-a", id)
	if _, err := a.j.Settle(journal.EventReject, id, "not today", 0); err != nil {
		t.Fatal(err)
	}
	f.decide("laptop-a", id, it.HeldHash, wire.Approve, "alice")
	if r := a.once(t); r.Applied != 0 || r.Refused != 1 {
		t.Fatalf("round: %+v", r)
	}
	if got := a.item(t, id); got.Status != journal.Rejected || got.Settled.Team != nil {
		t.Fatalf("item: %s %+v", got.Status, got.Settled)
	}
	var statuses []string
	for _, s := range f.settled("laptop-a", id) {
		statuses = append(statuses, s.Status+"/"+s.Channel)
		if s.Status == "refused" && !strings.Contains(s.Refused, "already settled here") {
			t.Errorf("refusal reason: %q", s.Refused)
		}
	}
	if strings.Join(statuses, " ") != "rejected/cli refused/team" {
		t.Errorf("the server heard %v", statuses)
	}
}

// TestOfflineCatchesUp: while the server is down a round fails and keeps
// its cursors; the journal keeps holding; back up, one round ships
// everything held meanwhile, once.
func TestOfflineCatchesUp(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	a.hold(t, "git push origin main")
	a.once(t)
	f.setDown(true)
	for i := 0; i < 30; i++ {
		a.hold(t, "git push origin b"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	if _, err := a.s.Once(context.Background()); err == nil {
		t.Fatal("a round against a server that is down succeeded")
	}
	f.setDown(false)
	r := a.once(t)
	if r.Items != 30 || r.New != 30 || f.itemCount() != 31 {
		t.Fatalf("catching up: %+v, the server has %d items", r, f.itemCount())
	}
	if r := a.once(t); r.Items != 0 {
		t.Fatalf("shipped again: %+v", r)
	}
}

// TestPushesAreBatched: a small batch size ships a long backlog in
// several pushes, none lost.
func TestPushesAreBatched(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	for i := 0; i < 25; i++ {
		a.hold(t, "git push origin x"+string(rune('a'+i)))
	}
	s, err := New(Options{StateDir: a.state, Journal: a.j, Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Once(context.Background())
	if err != nil || r.Items != 25 || f.itemCount() != 25 || f.pushes < 7 {
		t.Fatalf("%+v %v: %d items in %d pushes", r, err, f.itemCount(), f.pushes)
	}
}

// TestRefusalsCannotHoldUpTheRest: a server that will not take a
// refusal (400) gets everything else all the same, and sync moves on
// with a warning instead of retrying the refusal for ever.
func TestRefusalsCannotHoldUpTheRest(t *testing.T) {
	f := newFake(t)
	f.strict = true
	a := join(t, f, "laptop-a")
	a.hold(t, "git push origin main")
	a.once(t)
	f.decide("laptop-a", "0badf00d", "x", wire.Approve, "alice")
	a.hold(t, "git push origin two")
	r := a.once(t)
	if r.Refused != 1 || r.Items != 1 || f.itemCount() != 2 {
		t.Fatalf("round: %+v, the server has %d items", r, f.itemCount())
	}
	warned := false
	for _, ev := range a.evs {
		warned = warned || ev.Kind == "warning" && strings.Contains(ev.Message, "did not take 1 refused")
	}
	if !warned {
		t.Errorf("no warning: %+v", a.evs)
	}
	a.hold(t, "git push origin three")
	if r := a.once(t); r.Items != 1 || f.itemCount() != 3 {
		t.Fatalf("the next round: %+v", r)
	}
}

// TestExpiredApprovalsAreReported: an approval that runs out unused is
// reported once as expired, at its expiry, by the round after it ran out
// (no journal line records it; the queue's clock does).
func TestExpiredApprovalsAreReported(t *testing.T) {
	f := newFake(t)
	a := join(t, f, "laptop-a")
	now := time.Date(2026, 2, 23, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a.j.Now = clock
	s, err := New(Options{StateDir: a.state, Journal: a.j, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	a.s = s
	id := a.hold(t, "git push origin main")
	other := a.hold(t, "git push origin other")
	a.once(t)
	it, _ := f.item("laptop-a", id)
	f.decide("laptop-a", id, it.HeldHash, wire.Approve, "alice") // the default: 24 h
	if _, err := a.j.Settle(journal.EventApprove, other, "", 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	a.once(t)
	now = now.Add(3 * time.Hour)
	r := a.once(t)
	if r.Settlements != 1 {
		t.Fatalf("three hours on: %+v", r)
	}
	got := f.settled("laptop-a", other)
	if len(got) != 2 || got[1].Status != "expired" || !got[1].Time.Equal(time.Date(2026, 2, 23, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("the server heard %+v", got)
	}
	if r := a.once(t); r.Settlements != 0 {
		t.Fatalf("reported again: %+v", r)
	}
	now = now.Add(48 * time.Hour)
	if r := a.once(t); r.Settlements != 1 || len(f.settled("laptop-a", id)) != 2 {
		t.Fatalf("the team's approval expiring: %+v %+v", r, f.settled("laptop-a", id))
	}
}
