package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// benchPolicy is the text-message bench's configuration with n contacts
// named Contact01… plus Alice and Bob.
func benchPolicy(t testing.TB, n int, extra string) *policy.Policy {
	t.Helper()
	var b strings.Builder
	b.WriteString("mcp:\n  redact: [body]\n  contacts:\n    Alice: \"+1 555 0100\"\n    Bob: \"+1 555 0101\"\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    Contact%02d: \"+1 555 1%03d\"\n", i, i)
	}
	b.WriteString(`  servers:
    texts:
      tools:
        read_messages: {class: source, items: messages, sender: from, text: text}
        send_message:
          class: sink
          recipient_arg: to
          text_arg: body
          rate: 30/h
          dedup: 2m
          confirm: elicit
          quarantine_after_source: 10m
` + extra)
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Load(policy.Options{Getenv: func(k string) string {
		if k == "AIRLOCK_POLICY" {
			return file
		}
		return ""
	}, MCP: mcpconfig.Schema})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// clock is a settable time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)} }
func send(to, body string) Call {
	return Call{Server: "texts", Tool: "send_message", Args: args("to", to, "body", body)}
}
func args(kv ...string) json.RawMessage {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return b
}

// run decides c and records it as the proxy would: a sink that is let
// through counts as sent.
func run(t *testing.T, g *Guard, mem *Memory, c Call) Outcome {
	t.Helper()
	o := g.Check(policy.Interactive, c)
	if o.Verdict.Decision == policy.Allow && o.Class == mcpconfig.ClassSink {
		o.Detail.Sent = true
	}
	d, _ := json.Marshal(o.Detail)
	if _, err := mem.Record(&vocab.Event{Time: g.Now(), Verdict: o.Verdict.Record(), Detail: d}); err != nil {
		t.Fatal(err)
	}
	return o
}

// readUntrusted records a source result with content from a sender not in
// the contacts (and from writers who are).
func readUntrusted(t *testing.T, g *Guard, mem *Memory, writers ...string) {
	t.Helper()
	d, _ := json.Marshal(Detail{Server: "texts", Tool: "read_messages", Class: "source", Phase: "result", Untrusted: true, Writers: writers})
	if _, err := mem.Record(&vocab.Event{Time: g.Now(), Detail: d}); err != nil {
		t.Fatal(err)
	}
}

func TestRateLimit(t *testing.T) {
	c := newClock()
	mem := &Memory{}
	g := &Guard{Policy: benchPolicy(t, 40, ""), History: mem, Now: c.now}
	for i := 1; i <= 30; i++ {
		o := run(t, g, mem, send("Alice", fmt.Sprintf("message %d", i)))
		if o.Verdict.Decision != policy.Allow {
			t.Fatalf("send %d: %s by %s: %s", i, o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message)
		}
		c.add(time.Minute)
	}
	o := run(t, g, mem, send("Alice", "message 31"))
	if o.Verdict.Decision != policy.Deny || o.Verdict.Rule != RuleRate {
		t.Fatalf("31st send: %s by %s, want deny by %s", o.Verdict.Decision, o.Verdict.Rule, RuleRate)
	}
	if !strings.Contains(o.Verdict.Message, "30/h") || !strings.Contains(o.Verdict.Message, "09:00:00") && !strings.Contains(o.Verdict.Message, "10:00:00") {
		t.Errorf("message does not say the limit and when: %q", o.Verdict.Message)
	}
	// The first send leaves the hour at 10:00; then one more fits.
	c.t = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	if o := run(t, g, mem, send("Alice", "message 32")); o.Verdict.Decision != policy.Allow {
		t.Errorf("after the window: %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
}

func TestDedup(t *testing.T) {
	c := newClock()
	mem := &Memory{}
	g := &Guard{Policy: benchPolicy(t, 30, ""), History: mem, Now: c.now}
	if o := run(t, g, mem, send("Contact01", "see you at 6")); o.Verdict.Decision != policy.Allow {
		t.Fatalf("first: %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
	c.add(90 * time.Second)
	if o := run(t, g, mem, send("contact01", "see you at 6")); o.Verdict.Decision != policy.Deny || o.Verdict.Rule != RuleDedup {
		t.Fatalf("repeat within 2m: %s by %s, want deny by %s", o.Verdict.Decision, o.Verdict.Rule, RuleDedup)
	}
	c.add(31 * time.Second)
	if o := run(t, g, mem, send("Contact01", "see you at 6")); o.Verdict.Decision != policy.Allow {
		t.Errorf("repeat after 2m: %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
	// The same text to 30 different contacts within the 2 minutes: all
	// allowed (a fresh journal, so that the rate is not what is tested).
	mem = &Memory{}
	g.History = mem
	for i := 1; i <= 30; i++ {
		if o := run(t, g, mem, send(fmt.Sprintf("Contact%02d", i), "see you at 6")); o.Verdict.Decision != policy.Allow {
			t.Fatalf("same text to Contact%02d: %s by %s: %s", i, o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message)
		}
	}
}

func TestRecipients(t *testing.T) {
	g := &Guard{Policy: benchPolicy(t, 0, ""), History: &Memory{}}
	tests := []struct {
		name     string
		call     Call
		decision policy.Decision
		rule     string
		message  string
		forward  string
	}{
		{"contact by name", send("alice", "hi"), policy.Allow, "", "", `{"body":"hi","to":"+1 555 0100"}`},
		{"raw number", send("+1 555 0100", "hi"), policy.Deny, RuleRecipient, "raw address", ""},
		{"raw number not in book", send("+33612345678", "hi"), policy.Deny, RuleRecipient, "Permitted: Alice, Bob.", ""},
		{"email address", send("eve@example.com", "hi"), policy.Deny, RuleRecipient, "raw address", ""},
		{"name not in book", send("Mallory", "hi"), policy.Deny, RuleRecipient, `"Mallory" is not in airlock's contact book`, ""},
		{"missing recipient", Call{Server: "texts", Tool: "send_message", Args: args("body", "hi")}, policy.Deny, RuleRecipient, "needs \"to\"", ""},
		{"recipient list", Call{Server: "texts", Tool: "send_message", Args: json.RawMessage(`{"to":["Alice","Bob"],"body":"hi"}`)}, policy.Allow, "", "", `{"body":"hi","to":["+1 555 0100","+1 555 0101"]}`},
		{"list with a stranger", Call{Server: "texts", Tool: "send_message", Args: json.RawMessage(`{"to":["Alice","Mallory"],"body":"hi"}`)}, policy.Deny, RuleRecipient, "Mallory", ""},
		{"not an object", Call{Server: "texts", Tool: "send_message", Args: json.RawMessage(`["Alice"]`)}, policy.Deny, RuleArgs, "not a JSON object", ""},
		{"a yes in the arguments counts for nothing", Call{Server: "texts", Tool: "send_message", Args: json.RawMessage(`{"to":"Mallory","body":"hi","confirmed":"yes","approved":true}`)}, policy.Deny, RuleRecipient, "Mallory", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := g.Check(policy.Interactive, tt.call)
			if o.Verdict.Decision != tt.decision || tt.rule != "" && o.Verdict.Rule != tt.rule || !strings.Contains(o.Verdict.Message, tt.message) {
				t.Errorf("got %s by %s: %q", o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message)
			}
			if tt.forward != "" && string(o.Forward) != tt.forward {
				t.Errorf("forward = %s, want %s", o.Forward, tt.forward)
			}
			if o.Detail.Decision != tt.decision.String() || o.Detail.ArgsDigest == "" {
				t.Errorf("detail = %+v", o.Detail)
			}
		})
	}
}

func TestPermittedListsOnlyShortBooks(t *testing.T) {
	g := &Guard{Policy: benchPolicy(t, 30, ""), History: &Memory{}}
	o := g.Check(policy.Interactive, send("Mallory", "hi"))
	if strings.Contains(o.Verdict.Message, "Contact01") || !strings.Contains(o.Verdict.Message, "32 names") {
		t.Errorf("a long book is listed: %q", o.Verdict.Message)
	}
}

func TestQuarantine(t *testing.T) {
	tests := []struct {
		name    string
		extra   string
		writers []string
		after   time.Duration
		to      string
		want    policy.Decision
	}{
		{"send right after an unknown sender needs confirmation", "", nil, time.Second, "Bob", policy.Ask},
		{"still within the window", "", nil, 9 * time.Minute, "Bob", policy.Ask},
		{"after the window", "", nil, 10 * time.Minute, "Bob", policy.Allow},
		{"reply to a writer without the exception", "", []string{"Alice"}, time.Second, "Alice", policy.Ask},
		{"reply to a writer with the exception", "          reply_to_writer: true\n", []string{"Alice"}, time.Second, "Alice", policy.Allow},
		{"exception does not cover others", "          reply_to_writer: true\n", []string{"Alice"}, time.Second, "Bob", policy.Ask},
		{"quarantine off", "          dedup: 2m\n", nil, time.Second, "Bob", policy.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := tt.extra
			if tt.name == "quarantine off" {
				extra = ""
			}
			p := benchPolicy(t, 0, extra)
			if tt.name == "quarantine off" {
				m, err := mcpconfig.Of(p)
				if err != nil {
					t.Fatal(err)
				}
				cfg, _ := m.Tool("texts", "send_message")
				cfg.Quarantine = 0
			}
			c := newClock()
			mem := &Memory{}
			g := &Guard{Policy: p, History: mem, Now: c.now}
			readUntrusted(t, g, mem, tt.writers...)
			c.add(tt.after)
			o := g.Check(policy.Interactive, send(tt.to, "the door code is 4711"))
			if o.Verdict.Decision != tt.want {
				t.Errorf("got %s by %s: %s", o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message)
			}
			if tt.want == policy.Ask && (o.Verdict.Rule != RuleQuarantine || o.Channel != mcpconfig.ConfirmElicit || o.Text != "the door code is 4711") {
				t.Errorf("ask by %s on %s with text %q", o.Verdict.Rule, o.Channel, o.Text)
			}
		})
	}
}

func TestOutOfBandApproval(t *testing.T) {
	c := newClock()
	mem := &Memory{}
	g := &Guard{Policy: benchPolicy(t, 0, ""), History: mem, Now: c.now}
	readUntrusted(t, g, mem)
	c.add(time.Second)
	o := g.Check(policy.Interactive, send("Bob", "hello"))
	if o.Verdict.Decision != policy.Ask {
		t.Fatalf("got %s", o.Verdict.Decision)
	}
	// Held out of band, as the proxy does without elicitation.
	o.Verdict.Decision = policy.Defer
	o.Detail.Decision, o.Detail.Channel, o.Detail.Answer = "defer", "out-of-band", "held"
	d, _ := json.Marshal(o.Detail)
	r, err := mem.Record(&vocab.Event{Time: c.now(), Verdict: o.Verdict.Record(), Detail: d})
	if err != nil || r.QueueID == "" {
		t.Fatalf("held: %v %q", err, r.QueueID)
	}
	// Different arguments are not approved by it.
	mem.Approve(r.QueueID, c.now())
	if o := g.Check(policy.Interactive, send("Bob", "hello!")); o.Verdict.Decision != policy.Ask {
		t.Errorf("other text: %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
	o = g.Check(policy.Interactive, send("Bob", "hello"))
	if o.Verdict.Decision != policy.Allow || o.Approval != r.QueueID || o.Verdict.Rule != RuleApproved {
		t.Fatalf("approved retry: %s by %s (%q)", o.Verdict.Decision, o.Verdict.Rule, o.Approval)
	}
	// Using it consumes it.
	o.Detail.Sent = true
	d, _ = json.Marshal(o.Detail)
	if _, err := mem.Record(&vocab.Event{Time: c.now(), Ref: o.Approval, Verdict: o.Verdict.Record(), Detail: d}); err != nil {
		t.Fatal(err)
	}
	if o := g.Check(policy.Interactive, send("Bob", "hello")); o.Verdict.Decision == policy.Allow {
		t.Errorf("an approval was used twice")
	}
}

type brokenHistory struct{}

func (brokenHistory) Since(time.Time) ([]Past, error) { return nil, errors.New("disk on fire") }

func TestHistoryErrorFailsClosed(t *testing.T) {
	g := &Guard{Policy: benchPolicy(t, 0, ""), History: brokenHistory{}}
	if o := g.Check(policy.Interactive, send("Alice", "hi")); o.Verdict.Decision != policy.Deny || o.Verdict.Rule != RuleHistory {
		t.Errorf("got %s by %s", o.Verdict.Decision, o.Verdict.Rule)
	}
}

// TestConfigMistakeFailsClosed: a policy loaded without the "mcp:"
// schema keeps the section as written; when it has a mistake the guard
// refuses every call, to every tool, rather than guessing (an unknown
// key could be a misspelt rate limit).
func TestConfigMistakeFailsClosed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "policy.yaml")
	text := "mcp:\n  servers:\n    texts:\n      default: neutral\n      tools:\n        send_message: {class: sink, recipient_arg: to, rat: 1/h}\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Load(policy.Options{Getenv: func(k string) string {
		if k == "AIRLOCK_POLICY" {
			return file
		}
		return ""
	}})
	if err != nil {
		t.Fatalf("without the schema the section is kept as written, yet Load said %v", err)
	}
	g := &Guard{Policy: p, History: &Memory{}}
	for _, c := range []Call{send("Alice", "hi"), {Server: "texts", Tool: "read_messages"}, {Server: "web", Tool: "fetch"}} {
		o := g.Check(policy.Interactive, c)
		if o.Verdict.Decision != policy.Deny || o.Verdict.Rule != RuleConfig || !strings.Contains(o.Verdict.Message, file+":6") || o.Config != nil {
			t.Errorf("%s/%s: %s by %s (%s)", c.Server, c.Tool, o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message)
		}
	}
	if v, _, _ := g.Hook(policy.Interactive, "mcp__texts__read_messages", nil); v.Decision != policy.Deny {
		t.Errorf("the hook's path: %s by %s", v.Decision, v.Rule)
	}
}

func TestUnknownToolsFollowTheTable(t *testing.T) {
	g := &Guard{Policy: benchPolicy(t, 0, ""), History: &Memory{}}
	tests := []struct {
		mode   policy.Mode
		server string
		tool   string
		want   policy.Decision
	}{
		{policy.Interactive, "web", "fetch", policy.Ask},
		{policy.Unattended, "web", "fetch", policy.Defer},
		{policy.Unattended, "texts", "read_messages", policy.Allow},
		{policy.Interactive, "texts", "unlisted", policy.Ask},
	}
	for _, tt := range tests {
		o := g.Check(tt.mode, Call{Server: tt.server, Tool: tt.tool})
		if o.Verdict.Decision != tt.want {
			t.Errorf("%s %s/%s: %s by %s", tt.mode, tt.server, tt.tool, o.Verdict.Decision, o.Verdict.Rule)
		}
	}
}

func TestRedaction(t *testing.T) {
	g := &Guard{Policy: benchPolicy(t, 0, ""), History: &Memory{}}
	o := g.Check(policy.Interactive, Call{Server: "texts", Tool: "send_message", Args: json.RawMessage(`{"to":"Alice","body":"secret door code","meta":{"body":"x"},"long":"` + strings.Repeat("a", 300) + `"}`)})
	s := string(o.Detail.Args)
	if strings.Contains(s, "secret") || strings.Count(s, "[redacted]") != 2 || strings.Contains(s, strings.Repeat("a", 201)) {
		t.Errorf("args in the journal: %s", s)
	}
	keyed := &Guard{Policy: g.Policy, History: &Memory{}, Key: []byte("k")}
	o2 := keyed.Check(policy.Interactive, send("Alice", "secret door code"))
	o1 := g.Check(policy.Interactive, send("Alice", "secret door code"))
	if o1.Detail.ArgsDigest == o2.Detail.ArgsDigest || !strings.HasPrefix(o2.Detail.ArgsDigest, "hmac-sha256:") {
		t.Errorf("digests %s %s", o1.Detail.ArgsDigest, o2.Detail.ArgsDigest)
	}
}

func TestHook(t *testing.T) {
	tests := []struct {
		name  string
		mode  policy.Mode
		setup func(t *testing.T, g *Guard, mem *Memory)
		tool  string
		input string
		want  policy.Decision
		sent  bool
	}{
		{"not an MCP tool", policy.Interactive, nil, "Bash", `{}`, 0, false},
		{"allowed send", policy.Interactive, nil, "mcp__texts__send_message", `{"to":"Alice","body":"hi"}`, policy.Allow, true},
		{"raw number", policy.Interactive, nil, "mcp__texts__send_message", `{"to":"+15550100","body":"hi"}`, policy.Deny, false},
		{"quarantine asks when a human watches", policy.Interactive, func(t *testing.T, g *Guard, mem *Memory) { readUntrusted(t, g, mem) }, "mcp__texts__send_message", `{"to":"Alice","body":"hi"}`, policy.Ask, true},
		{"quarantine defers otherwise", policy.Unattended, func(t *testing.T, g *Guard, mem *Memory) { readUntrusted(t, g, mem) }, "mcp__texts__send_message", `{"to":"Alice","body":"hi"}`, policy.Defer, false},
		{"source call quarantines", policy.Interactive, func(t *testing.T, g *Guard, mem *Memory) {
			v, d, _ := g.Hook(policy.Interactive, "mcp__texts__read_messages", json.RawMessage(`{}`))
			if v.Decision != policy.Allow || !d.Untrusted {
				t.Fatalf("source: %s %+v", v.Decision, d)
			}
			b, _ := json.Marshal(d)
			mem.Record(&vocab.Event{Time: g.Now(), Verdict: v.Record(), Detail: b})
		}, "mcp__texts__send_message", `{"to":"Alice","body":"hi"}`, policy.Ask, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			mem := &Memory{}
			g := &Guard{Policy: benchPolicy(t, 0, ""), History: mem, Now: c.now}
			if tt.setup != nil {
				tt.setup(t, g, mem)
			}
			v, d, ok := g.Hook(tt.mode, tt.tool, json.RawMessage(tt.input))
			if !strings.HasPrefix(tt.tool, "mcp__") {
				if ok {
					t.Error("Hook took a non-MCP tool")
				}
				return
			}
			if !ok || v.Decision != tt.want || d.Sent != tt.sent || d.Decision != tt.want.String() {
				t.Errorf("got %s (ok %v), detail %+v", v.Decision, ok, d)
			}
		})
	}
}

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadKey(dir)
	if err != nil || len(k1) != 32 {
		t.Fatal(k1, err)
	}
	k2, err := LoadKey(dir)
	if err != nil || string(k1) != string(k2) {
		t.Fatal("key changed")
	}
	if fi, _ := os.Stat(filepath.Join(dir, KeyFile)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if k, err := LoadKey(""); k != nil || err != nil {
		t.Errorf("no state dir: %v %v", k, err)
	}
}
