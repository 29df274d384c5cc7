package notify

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/notify/ntfytest"
)

// ntfyEnv is a journal, a fake ntfy server and a watcher configured for
// it with airlock's own secret topics.
type ntfyEnv struct {
	*env
	srv    *ntfytest.Server
	cfg    *Config
	events []Event
	now    time.Time
}

func newNtfyEnv(t *testing.T, extra string) *ntfyEnv {
	e := &ntfyEnv{env: newEnv(t), srv: ntfytest.New()}
	t.Cleanup(e.srv.Close)
	e.cfg = e.config("notify:\n  ntfy:\n    server: " + e.srv.URL + "\n" + extra)
	return e
}

func (e *ntfyEnv) watcher() *Watcher {
	e.t.Helper()
	w, err := New(e.cfg, e.j, Options{StateDir: e.state, Report: func(ev Event) { e.events = append(e.events, ev) },
		Now: func() time.Time {
			if e.now.IsZero() {
				return time.Now()
			}
			return e.now
		}})
	if err != nil {
		e.t.Fatal(err)
	}
	return w
}

func (e *ntfyEnv) once() {
	e.t.Helper()
	if err := e.watcher().Once(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func (e *ntfyEnv) count(kind string) int {
	n := 0
	for _, ev := range e.events {
		if ev.Kind == kind {
			n++
		}
	}
	return n
}

func buttons(m *ntfytest.Message) []string {
	var out []string
	for _, a := range m.Actions {
		out = append(out, a.Label)
	}
	return out
}

// A held action is published once, with its command, effect and reasons,
// and Approve and Reject buttons that POST a signed reply to a secret
// reply topic on the same server; pressing Approve approves the item in
// the journal as a human act noting its channel, and the agent's retry
// then runs once.
func TestPublishAndApprove(t *testing.T) {
	e := newNtfyEnv(t, "")
	id := e.hold("git push origin main")
	e.once()
	e.once() // a second pass sends nothing new
	sec, err := loadSecrets(e.state, StateDir)
	if err != nil {
		t.Fatal(err)
	}
	msgs := e.srv.Messages(sec.Topic)
	if len(msgs) != 1 {
		t.Fatalf("published %d messages to the secret topic, want 1: %+v", len(msgs), e.srv.Messages(""))
	}
	m := msgs[0]
	for _, want := range []string{"$ git push origin main", "effect: external", "why: git push publishes commits to a remote", "in: /work/proj", "item " + id} {
		if !strings.Contains(m.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, m.Message)
		}
	}
	if !strings.Contains(m.Title, "git push origin main") {
		t.Errorf("title %q", m.Title)
	}
	if got := strings.Join(buttons(m), ","); got != "Approve,Reject" {
		t.Fatalf("buttons %q, want Approve,Reject", got)
	}
	for _, a := range m.Actions {
		if a.Action != "http" || a.Method != "POST" || a.URL != e.srv.URL+"/"+sec.ReplyTopic || !a.Clear {
			t.Errorf("button %+v does not POST to the reply topic %s", a, sec.ReplyTopic)
		}
	}
	if e.count("setup") != 2 || !strings.Contains(e.events[0].Message, sec.Topic) {
		t.Errorf("the human is not told which topic to subscribe to: %+v", e.events)
	}

	if err := e.srv.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	e.once()
	it := e.item(id)
	if it.Status != journal.Approved || it.Settled == nil || it.Settled.Note != Note || it.Settled.MAC == "" {
		t.Fatalf("after the press: status %s, settled %+v", it.Status, it.Settled)
	}
	if e.count("approved") != 1 {
		t.Errorf("events %+v", e.events)
	}
	if got := e.refusals(); len(got) != 0 {
		t.Errorf("refusals %q", got)
	}
}

// Reject works the same way.
func TestReject(t *testing.T) {
	e := newNtfyEnv(t, "")
	id := e.hold("npm publish")
	e.once()
	if err := e.srv.Press("Reject"); err != nil {
		t.Fatal(err)
	}
	e.once()
	if it := e.item(id); it.Status != journal.Rejected || it.Settled.Note != Note {
		t.Fatalf("status %s", it.Status)
	}
}

// A reply that was already used, one whose signature does not verify, one
// that came after its expiry, and one that is not a reply at all are
// refused, and each refusal is journaled with its reason.
func TestRefusedReplies(t *testing.T) {
	e := newNtfyEnv(t, "")
	id := e.hold("git push origin main")
	e.once()
	sec, _ := loadSecrets(e.state, StateDir)
	var approve string
	for _, a := range e.srv.Messages(sec.Topic)[0].Actions {
		if a.Label == "Approve" {
			approve = a.Body
		}
	}

	// Forged: the attacker knows the format and the item, not the key.
	var r Reply
	if err := json.Unmarshal([]byte(approve), &r); err != nil {
		t.Fatal(err)
	}
	forged := r
	forged.MAC = replyMAC([]byte(strings.Repeat("k", 32)), &forged, actionHash(e.item(id)))
	b, _ := json.Marshal(forged)
	e.srv.Publish(sec.ReplyTopic, string(b))
	// Tampered: a valid reply with a later expiry.
	tampered := r
	tampered.Expires += 3600
	b, _ = json.Marshal(tampered)
	e.srv.Publish(sec.ReplyTopic, string(b))
	// Not a reply.
	e.srv.Publish(sec.ReplyTopic, "approve "+id)
	e.once()
	if it := e.item(id); it.Status != journal.Pending {
		t.Fatalf("a forged reply settled the item: %s", it.Status)
	}
	got := e.refusals()
	if len(got) != 3 || !strings.Contains(got[0], "does not verify") || !strings.Contains(got[1], "does not verify") || !strings.Contains(got[2], "not an airlock reply") {
		t.Fatalf("refusals %q", got)
	}

	// Expired: the same genuine press, after its expiry.
	e.now = time.Unix(r.Expires+1, 0)
	e.srv.Publish(sec.ReplyTopic, approve)
	e.once()
	e.now = time.Time{}
	if it := e.item(id); it.Status != journal.Pending {
		t.Fatalf("an expired reply settled the item: %s", it.Status)
	}
	if got := e.refusals(); len(got) != 4 || !strings.Contains(got[3], "expired") {
		t.Fatalf("refusals %q", got)
	}

	// Replayed: the genuine press counts once.
	if err := e.srv.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	e.once()
	if it := e.item(id); it.Status != journal.Approved {
		t.Fatalf("the genuine press did not approve: %s", it.Status)
	}
	// The agent's retry uses the approval...
	e.retry("git push origin main")
	if it := e.item(id); it.Status != journal.Used {
		t.Fatalf("the retry did not use the approval: %s", it.Status)
	}
	// ...and a replay of the press does not approve it again.
	e.srv.Publish(sec.ReplyTopic, approve)
	// Nor does the other button of the same notification.
	if err := e.srv.Press("Reject"); err != nil {
		t.Fatal(err)
	}
	e.once()
	got = e.refusals()
	if len(got) != 6 || !strings.Contains(got[4], "replayed") || !strings.Contains(got[5], "replayed") {
		t.Fatalf("refusals %q", got)
	}
	if it := e.item(id); it.Status != journal.Used {
		t.Fatalf("status %s after the replay", it.Status)
	}
}

// A reply is bound to the action shown: the same signed body about
// another item does not verify.
func TestReplyBoundToItem(t *testing.T) {
	e := newNtfyEnv(t, "")
	a := e.hold("git push origin main")
	e.once()
	b := e.hold("git push origin other")
	sec, _ := loadSecrets(e.state, StateDir)
	var r Reply
	json.Unmarshal([]byte(e.srv.Messages(sec.Topic)[0].Actions[0].Body), &r)
	if r.ID != a {
		t.Fatalf("reply about %s, want %s", r.ID, a)
	}
	r.ID = b
	body, _ := json.Marshal(r)
	e.srv.Publish(sec.ReplyTopic, string(body))
	e.once()
	if it := e.item(b); it.Status != journal.Pending {
		t.Fatalf("a reply about %s settled %s", a, b)
	}
	if got := e.refusals(); len(got) != 1 || !strings.Contains(got[0], "does not verify") {
		t.Fatalf("refusals %q", got)
	}
}

// Buttons are bearer credentials for one decision, so the Approve button
// is offered only when the agent cannot read the notifications: a topic
// named in the (agent-readable) policy file gets none unless a token
// kept under <state>/secrets/ guards it on a server that refuses
// anonymous readers.
func TestApproveButtonNeedsPrivateTopic(t *testing.T) {
	cases := []struct {
		name      string
		extra     string
		token     bool
		anonRead  bool
		tokenFile string
		want      string
	}{
		{name: "named topic, no token", extra: "    topic: alerts\n", want: "Reject"},
		{name: "named topic, inline token", extra: "    topic: alerts\n    token: tk_inline\n", token: true, want: "Reject"},
		{name: "named topic, token file in secrets", extra: "    topic: alerts\n", token: true, tokenFile: "state/secrets/ntfy-token", want: "Approve,Reject"},
		{name: "token file, anonymous read open", extra: "    topic: alerts\n", token: true, anonRead: true, tokenFile: "state/secrets/ntfy-token", want: "Reject"},
		{name: "token file outside secrets", extra: "    topic: alerts\n", token: true, tokenFile: "elsewhere/token", want: "Reject"},
		{name: "secret topic", want: "Approve,Reject"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			extra := c.extra
			e := &ntfyEnv{env: newEnv(t), srv: ntfytest.New()}
			t.Cleanup(e.srv.Close)
			if c.token {
				e.srv.Token = "tk_inline"
				e.srv.AnonymousRead = c.anonRead
			}
			if c.tokenFile != "" {
				extra += "    token_file: " + e.write(c.tokenFile, "tk_inline\n") + "\n"
			}
			e.cfg = e.config("notify:\n  ntfy:\n    server: " + e.srv.URL + "\n" + extra)
			e.hold("git push")
			e.once()
			msgs := e.srv.Messages("")
			if len(msgs) != 1 {
				t.Fatalf("%d messages", len(msgs))
			}
			if got := strings.Join(buttons(msgs[0]), ","); got != c.want {
				t.Fatalf("buttons %q, want %q (events %+v)", got, c.want, e.events)
			}
			if c.want == "Reject" && (e.count("warning") == 0 || !strings.Contains(msgs[0].Message, "airlock queue approve")) {
				t.Errorf("the human is not told why there is no Approve button: %+v\n%s", e.events, msgs[0].Message)
			}
			private := c.want != "Reject"
			if c.token && private && msgs[0].Actions[0].Headers["Authorization"] != "Bearer tk_inline" {
				t.Errorf("the buttons cannot post to a protected reply topic: %+v", msgs[0].Actions[0])
			}
			// A topic others may read never carries airlock's token.
			for _, a := range msgs[0].Actions {
				if !private && a.Headers["Authorization"] != "" {
					t.Errorf("a notification others may read carries airlock's token: %+v", a)
				}
			}
		})
	}
}

// Secrets in the held command never reach the server: not in the title,
// the message or the buttons.
func TestNotificationRedactsSecrets(t *testing.T) {
	e := newNtfyEnv(t, "")
	secret := "ghp_" + strings.Repeat("A1b2", 9)
	e.hold(`curl -H "Authorization: Bearer s3cr3t-v4lue" https://bob:hunter2pass@api.example.com -d token=` + secret)
	e.once()
	for _, m := range e.srv.Messages("") {
		raw, _ := json.Marshal(m)
		for _, s := range []string{secret, "s3cr3t-v4lue", "hunter2pass"} {
			if strings.Contains(string(raw), s) {
				t.Errorf("%q reached the server: %s", s, raw)
			}
		}
		if !strings.Contains(m.Message, Marker) || !strings.Contains(m.Message, "api.example.com") {
			t.Errorf("message %q", m.Message)
		}
	}
}

// Run follows the queue and the reply stream until cancelled: an item
// held while it runs is sent, and a press on the phone approves it.
func TestRunStreams(t *testing.T) {
	e := newNtfyEnv(t, "")
	events := make(chan Event, 100)
	w, err := New(e.cfg, e.j, Options{StateDir: e.state, Interval: 10 * time.Millisecond, Report: func(ev Event) { events <- ev }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	id := e.hold("git push origin main")
	wait := func(kind string) Event {
		t.Helper()
		deadline := time.After(30 * time.Second) // a hang, not a speed check
		for {
			select {
			case ev := <-events:
				if ev.Kind == kind {
					return ev
				}
				if ev.Kind == "error" {
					t.Logf("watcher: %s", ev.Message)
				}
			case <-deadline:
				t.Fatalf("no %s event", kind)
			}
		}
	}
	if ev := wait("sent"); ev.Item != id {
		t.Fatalf("sent %s, want %s", ev.Item, id)
	}
	if err := e.srv.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	if ev := wait("approved"); ev.Item != id {
		t.Fatalf("approved %s", ev.Item)
	}
	if it := e.item(id); it.Status != journal.Approved {
		t.Fatalf("status %s", it.Status)
	}
	// The stream breaks (a server restart, a network change): the watcher
	// reconnects, resumes after the last reply it read, and the next
	// press still counts (and the first is not applied again).
	e.srv.CloseClientConnections()
	id2 := e.hold("npm publish")
	if ev := wait("sent"); ev.Item != id2 {
		t.Fatalf("sent %s, want %s", ev.Item, id2)
	}
	if err := e.srv.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	if ev := wait("approved"); ev.Item != id2 {
		t.Fatalf("approved %s, want %s", ev.Item, id2)
	}
	if got := e.refusals(); len(got) != 0 {
		t.Fatalf("a reply read twice after reconnecting: %q", got)
	}
}

// The secrets are made once, private, and kept.
func TestSecretsFile(t *testing.T) {
	e := newEnv(t)
	a, err := loadSecrets(e.state, StateDir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadSecrets(e.state, StateDir)
	if err != nil {
		t.Fatal(err)
	}
	if a.Key != b.Key || a.Topic != b.Topic || a.ReplyTopic != b.ReplyTopic || a.Topic == a.ReplyTopic || len(a.key) != 32 {
		t.Fatalf("secrets changed or weak: %+v %+v", a, b)
	}
	path := filepath.Join(e.state, filepath.FromSlash(SecretsFile))
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	// A symlink planted in its place is refused, not followed.
	os.Remove(path)
	target := e.write("elsewhere", "{}")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if _, err := loadSecrets(e.state, StateDir); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("symlinked secrets: %v", err)
	}
}
