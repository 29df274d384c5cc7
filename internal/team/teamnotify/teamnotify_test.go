package teamnotify

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/notify"
	"github.com/airlock-dev/airlock/internal/notify/ntfytest"
	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/server"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// team is a real team server on a real PostgreSQL, a fake ntfy server
// on loopback, a reviewer made for the phone, and the team watcher.
type team struct {
	t      *testing.T
	db     string
	srv    *server.Server
	api    *httptest.Server
	ntfy   *ntfytest.Server
	cfg    *notify.Config
	phone  string // the phone reviewer's token
	events []notify.Event
}

func newTeam(t *testing.T) *team {
	t.Helper()
	tm := &team{t: t, db: pgtest.DB(t), ntfy: ntfytest.New()}
	t.Cleanup(tm.ntfy.Close)
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tm.srv, err = server.Open(context.Background(), tm.db, server.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tm.srv.Close)
	tm.api = httptest.NewServer(tm.srv.Handler())
	t.Cleanup(tm.api.Close)
	tm.phone = tm.add(server.AddReviewer, "alice-phone")
	file := filepath.Join(t.TempDir(), "team-notify.yaml")
	if err := os.WriteFile(file, []byte("notify:\n  ntfy:\n    server: "+tm.ntfy.URL+"\n    approve_for: 1h\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if tm.cfg, err = LoadConfig(file); err != nil {
		t.Fatal(err)
	}
	return tm
}

func (tm *team) add(add func(context.Context, string, string) (string, error), name string) string {
	tm.t.Helper()
	tok, err := add(context.Background(), tm.db, name)
	if err != nil {
		tm.t.Fatal(err)
	}
	return tok
}

// watcher is the team watcher keeping its files in state.
func (tm *team) watcher(state string) *notify.Watcher {
	tm.t.Helper()
	w, err := notify.NewQueue(tm.cfg, New(tm.api.URL, tm.phone, nil), notify.Options{StateDir: state, Name: Name,
		Report: func(ev notify.Event) { tm.events = append(tm.events, ev) }})
	if err != nil {
		tm.t.Fatal(err)
	}
	return w
}

func (tm *team) once(w *notify.Watcher) {
	tm.t.Helper()
	if err := w.Once(context.Background()); err != nil {
		tm.t.Fatal(err)
	}
}

// hold pushes a held git push of machine (as that machine, with its
// token) and returns the item's key.
func (tm *team) hold(machineToken, id, cmd string) {
	tm.t.Helper()
	q := New(tm.api.URL, machineToken, nil)
	var res wire.PushResult
	p := wire.Push{Items: []wire.HeldItem{{ID: id, HeldHash: "sha256:" + id, Seq: 7, Time: time.Now().UTC(), Agent: "claude-code",
		Session: "sess-1234567890", Cwd: "/work/web", Repo: "web", Tool: "Bash", Kind: "shell", Command: cmd, Decision: "defer",
		Effect: "external", Reasons: []wire.Reason{{Rule: "git.push", Message: "git push publishes commits to a remote"}}}}}
	if err := q.do(context.Background(), "POST", "/push", p, &res); err != nil || res.NewItems != 1 {
		tm.t.Fatalf("push: %+v %v", res, err)
	}
}

// decisions are the signed decisions machine would pull.
func (tm *team) decisions(machine string) []wire.Decision {
	tm.t.Helper()
	ds, err := tm.srv.Store().Decisions(context.Background(), machine, 0, 100)
	if err != nil {
		tm.t.Fatal(err)
	}
	return ds.Decisions
}

func (tm *team) status(key string) string {
	tm.t.Helper()
	it, err := New(tm.api.URL, tm.phone, nil).Item(context.Background(), key, time.Now())
	if err != nil {
		tm.t.Fatal(err)
	}
	return string(it.Status)
}

// refused returns the messages of the refusals reported since from.
func (tm *team) refused(from int) []string {
	var out []string
	for _, ev := range tm.events[from:] {
		if ev.Kind == "refused" {
			out = append(out, ev.Message)
		}
	}
	return out
}

func approveBody(m *ntfytest.Message) string {
	for _, a := range m.Actions {
		if a.Label == "Approve" {
			return a.Body
		}
	}
	return ""
}

// A held item of machine A is published to the team's topic with the
// machine's watcher's message; a reply signed with another key is
// refused; bad stream lines are skipped; the phone's Approve settles the
// item once, as the phone's reviewer, in a decision the server signed
// for machine A; the same reply again does nothing.
func TestPhoneSettlesTeamItem(t *testing.T) {
	tm := newTeam(t)
	a := tm.add(server.AddMachine, "laptop-a")
	tm.hold(a, "9f2a41c0", "git push origin main")
	key := "laptop-a:9f2a41c0"

	// Another installation's watcher (its own reply key) sees the same
	// item: its buttons are what a forger holds.
	tm.once(tm.watcher(t.TempDir()))
	forged := approveBody(tm.ntfy.Messages("")[0])

	state := t.TempDir()
	w := tm.watcher(state)
	tm.once(w)
	tm.once(w) // nothing new
	msgs := tm.ntfy.Messages("")
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want one from each watcher: %+v", len(msgs), msgs)
	}
	m := msgs[1]
	for _, want := range []string{"$ git push origin main", "effect: external", "why: git push publishes commits to a remote", "in: /work/web",
		"item " + key, "Or: airlock team queue approve " + key} {
		if !strings.Contains(m.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, m.Message)
		}
	}
	if len(m.Actions) != 2 || m.Actions[0].Label != "Approve" || m.Actions[1].Label != "Reject" {
		t.Fatalf("buttons %+v", m.Actions)
	}
	if _, err := os.Stat(filepath.Join(state, "secrets", Name+".json")); err != nil {
		t.Errorf("the team watcher's key is not in secrets/%s.json: %v", Name, err)
	}
	reply := strings.TrimPrefix(m.Actions[0].URL, tm.ntfy.URL+"/")

	// A reply signed with another key, a reply about an item the team
	// does not have, a line over the limit and a line that is not JSON:
	// each refused and reported, and the watcher reads on.
	from := len(tm.events)
	tm.ntfy.Publish(reply, forged)
	tm.ntfy.Publish(reply, fmt.Sprintf(`{"airlock_reply":1,"id":"laptop-a:nosuch","decision":"approve","exp":%d,"nonce":"%s","mac":"%s"}`,
		time.Now().Add(time.Hour).Unix(), strings.Repeat("0", 32), strings.Repeat("0", 64)))
	tm.ntfy.PublishRaw(reply, []byte(`{"id":"{ID}","event":"message","message":"`+strings.Repeat("x", 70<<10)+`"}`))
	tm.ntfy.PublishRaw(reply, []byte("not json"))
	tm.once(w)
	got := tm.refused(from)
	if len(got) != 4 || !strings.Contains(got[0], "does not verify") || !strings.Contains(got[1], "not in the team queue") ||
		!strings.Contains(got[2], "over the limit") || !strings.Contains(got[3], "not JSON") {
		t.Fatalf("refusals %q", got)
	}
	if st := tm.status(key); st != "pending" || len(tm.decisions("laptop-a")) != 0 {
		t.Fatalf("after the forgeries: %s, %d decisions", st, len(tm.decisions("laptop-a")))
	}

	// The phone's press.
	if err := tm.ntfy.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	from = len(tm.events)
	tm.once(w)
	if got := tm.refused(from); len(got) != 0 {
		t.Fatalf("the press was refused: %q", got)
	}
	ds := tm.decisions("laptop-a")
	if len(ds) != 1 {
		t.Fatalf("%d decisions, want 1", len(ds))
	}
	d := ds[0]
	if d.Verdict != wire.Approve || d.Reviewer != "alice-phone" || d.ItemID != "9f2a41c0" || d.Note != notify.Note || d.TTLSeconds != 3600 {
		t.Fatalf("decision %+v", d)
	}
	// What machine A's sync checks before it applies a decision.
	if err := wire.Verify(tm.srv.PublicKey(), d, "laptop-a"); err != nil {
		t.Fatalf("the phone's decision does not verify for laptop-a: %v", err)
	}
	if st := tm.status(key); st != "approved" {
		t.Fatalf("status %s", st)
	}

	// The same reply again (a replay), then once more through a watcher
	// that lost its state: nothing new is decided.
	body := approveBody(m)
	tm.ntfy.Publish(reply, body)
	from = len(tm.events)
	tm.once(w)
	if got := tm.refused(from); len(got) != 1 || !strings.Contains(got[0], "replayed") {
		t.Fatalf("replay: refusals %q", got)
	}
	if err := os.RemoveAll(filepath.Join(state, Name)); err != nil {
		t.Fatal(err)
	}
	from = len(tm.events)
	tm.once(tm.watcher(state))
	if got := tm.refused(from); len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "already settled") {
		t.Fatalf("replay without state: refusals %q", got)
	}
	if n := len(tm.decisions("laptop-a")); n != 1 {
		t.Fatalf("%d decisions after the replays, want 1", n)
	}
}

// An item another reviewer settled first: the phone's press is reported
// and ignored, and the reviewer's decision stands.
func TestPhoneAfterAnotherReviewer(t *testing.T) {
	tm := newTeam(t)
	b := tm.add(server.AddMachine, "ci-b")
	bob := tm.add(server.AddReviewer, "bob")
	tm.hold(b, "q1", "npm publish")
	w := tm.watcher(t.TempDir())
	tm.once(w)
	if _, err := New(tm.api.URL, bob, nil).Settle(context.Background(), "ci-b:q1", notify.DecisionReject, "no", 0); err != nil {
		t.Fatal(err)
	}
	if err := tm.ntfy.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	from := len(tm.events)
	tm.once(w)
	if got := tm.refused(from); len(got) != 1 || !strings.Contains(got[0], "already settled") {
		t.Fatalf("refusals %q", got)
	}
	ds := tm.decisions("ci-b")
	if len(ds) != 1 || ds[0].Reviewer != "bob" || ds[0].Verdict != wire.Reject {
		t.Fatalf("decisions %+v", ds)
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"notify:\n  ntfy:\n    server: https://ntfy.example.org\n", ""},
		{"notify:\n  ntfy:\n    server: https://ntfy.example.org\nrules: []\n", `team-notify.yaml:4: unknown key: "rules"`},
		{"notify:\n  ntfy:\n    servr: https://ntfy.example.org\n", "team-notify.yaml:3"},
		{"", "empty"},
		{"notify:\n  ntfy:\n    server: http://ntfy.example.org\n", "plain http"},
	} {
		file := filepath.Join(dir, "team-notify.yaml")
		os.WriteFile(file, []byte(c.text), 0o600)
		cfg, err := LoadConfig(file)
		switch {
		case c.want == "" && (err != nil || cfg.Ntfy == nil || cfg.Ntfy.Server != "https://ntfy.example.org"):
			t.Errorf("%q: %+v %v", c.text, cfg, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want one saying %q", c.text, err, c.want)
		}
	}
}

// A server that fails the phone's settlement once (503, as while it
// restarts) gets it again: the press is not lost, and settles once.
func TestSettleRetriesAServerBlip(t *testing.T) {
	retryWait = time.Millisecond
	tm := newTeam(t)
	var failed atomic.Int32
	api := tm.srv.Handler()
	tm.api.Close()
	tm.api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/approve") && failed.CompareAndSwap(0, 1) {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(tm.api.Close)
	a := tm.add(server.AddMachine, "laptop-a")
	tm.hold(a, "q1", "git push origin main")
	w := tm.watcher(t.TempDir())
	tm.once(w)
	if err := tm.ntfy.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	from := len(tm.events)
	tm.once(w)
	if got := tm.refused(from); len(got) != 0 || failed.Load() != 1 {
		t.Fatalf("refusals %q after %d failures", got, failed.Load())
	}
	if ds := tm.decisions("laptop-a"); len(ds) != 1 || ds[0].Reviewer != "alice-phone" {
		t.Fatalf("decisions %+v", ds)
	}
}
