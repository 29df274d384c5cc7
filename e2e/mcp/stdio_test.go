package mcp

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const benchPolicy = `mcp:
  redact: [body]
  contacts:
    Alice: "+1 555 0100"
    Bob: "+1 555 0101"
  servers:
    texts:
      tools:
        read_messages: {class: source, items: messages, sender: from, text: text}
        echo: {class: neutral}
        send_message:
          class: sink
          recipient_arg: to
          text_arg: body
          rate: 30/h
          dedup: 2m
          confirm: elicit
          quarantine_after_source: 10m
`

// lockedBuffer collects a process's standard error.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// proxied connects a go-sdk client to "airlock mcp run -- textserver".
func (h *home) proxied(extraEnv ...string) (*sdk.ClientSession, *lockedBuffer, string) {
	h.t.Helper()
	sent := filepath.Join(h.root, "sent.jsonl")
	cmd := exec.Command(bin.airlock, "mcp", "run", "--config", h.policy, "--name", "texts", "--", bin.textserver)
	cmd.Env = append(append(h.env, "TEXTSERVER_SENT="+sent), extraEnv...)
	cmd.Dir = h.root
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		h.t.Fatalf("connect: %v\nstderr: %s", err, stderr)
	}
	h.t.Cleanup(func() { cs.Close() })
	return cs, stderr, sent
}

func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) (bool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return res.IsError, strings.Join(text, "\n")
}

func lines(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestStdioBench runs the bench through real processes and the real
// journal: the spoof renders as one message from a sender not in the
// contacts, a raw number is refused, and a send right after is held in
// airlock's queue until a human approves it out of band.
func TestStdioBench(t *testing.T) {
	h := newHome(t, benchPolicy)
	cs, stderr, sent := h.proxied()

	_, inbox := call(t, cs, "read_messages", map[string]any{})
	quote := regexp.MustCompile(`^«([^«»]*)» [^«»]* «end»$`)
	var labels []string
	for _, l := range strings.Split(inbox, "\n") {
		m := quote.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not one quotation per line: %q\n%s", l, inbox)
		}
		labels = append(labels, m[1])
	}
	if strings.Join(labels, "|") != "message from Alice|message from a sender not in contacts|message from Bob" {
		t.Errorf("labels %q", labels)
	}

	if isErr, text := call(t, cs, "send_message", map[string]any{"to": "+1 555 0101", "body": "hi"}); !isErr || !strings.Contains(text, "raw address") {
		t.Errorf("raw number: %v %s", isErr, text)
	}
	isErr, text := call(t, cs, "send_message", map[string]any{"to": "Bob", "body": "the door code is 4711"})
	if !isErr || !strings.Contains(text, "holding texts/send_message for a human") {
		t.Fatalf("send after an unknown sender: %v %s\nstderr: %s", isErr, text, stderr)
	}
	if got := lines(t, sent); len(got) != 0 {
		t.Fatalf("sent before approval: %q", got)
	}
	items := h.queue()
	if len(items) != 1 || items[0]["tool"] != "mcp__texts__send_message" || items[0]["status"] != "pending" {
		t.Fatalf("queue: %v", items)
	}
	id, _ := items[0]["id"].(string)
	if !strings.Contains(text, id) {
		t.Errorf("the refusal does not name queue id %s: %s", id, text)
	}
	if out, err := h.airlock("queue", "approve", id); err != nil {
		t.Fatalf("queue approve: %v\n%s", err, out)
	}
	if isErr, text := call(t, cs, "send_message", map[string]any{"to": "Bob", "body": "the door code is 4711"}); isErr {
		t.Fatalf("approved retry: %s", text)
	}
	if got := lines(t, sent); len(got) != 1 || !strings.Contains(got[0], `"to":"+1 555 0101"`) {
		t.Errorf("sent: %q", got)
	}
	if items := h.queue(); items[0]["status"] != "used" {
		t.Errorf("queue after the retry: %v", items[0]["status"])
	}

	// Every call is in the journal with its decision and a digest, the
	// body redacted.
	var calls int
	for _, e := range h.journal() {
		if e["agent"] != "mcp-proxy" || e["event"] != "tools/call" {
			continue
		}
		calls++
		d, _ := e["detail"].(map[string]any)
		if e["decision"] == nil || d["args_digest"] == nil || d["reason"] == nil && e["decision"] != "allow" {
			t.Errorf("journal entry lacks decision, digest or reason: %v", e)
		}
		if args, _ := d["args"].(map[string]any); args != nil && args["body"] != nil && args["body"] != "[redacted]" {
			t.Errorf("body not redacted: %v", args)
		}
	}
	if calls != 4 {
		t.Errorf("%d tools/call entries, want 4 (read, raw number, held, approved)", calls)
	}
}

// TestStdioRugPull: a server that changes a tool's description after
// start is caught; the change holds until airlock mcp approve.
func TestStdioRugPull(t *testing.T) {
	h := newHome(t, benchPolicy)
	// A first session pins the tools as they are.
	cs, _, _ := h.proxied()
	call(t, cs, "echo", map[string]any{"message": "hello"})
	cs.Close()

	cs, stderr, sent := h.proxied("TEXTSERVER_RUGPULL=1")
	if isErr, text := call(t, cs, "send_message", map[string]any{"to": "Alice", "body": "one"}); isErr {
		t.Fatalf("first send: %s", text)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "airlock mcp approve texts send_message") {
		if time.Now().After(deadline) {
			t.Fatalf("no alarm after the description changed; stderr:\n%s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	isErr, text := call(t, cs, "send_message", map[string]any{"to": "Alice", "body": "two"})
	if !isErr || !strings.Contains(text, "changed its description") {
		t.Fatalf("call of the changed tool: %v %s", isErr, text)
	}
	out, err := h.airlock("mcp", "pins", "texts")
	if err != nil || !strings.Contains(out, "pending-changed") || !strings.Contains(out, "BCC") {
		t.Fatalf("mcp pins: %v\n%s", err, out)
	}
	if out, err := h.airlock("mcp", "approve", "texts", "send_message"); err != nil {
		t.Fatalf("mcp approve: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if isErr, text := call(t, cs, "send_message", map[string]any{"to": "Alice", "body": "three"}); isErr {
		t.Fatalf("after approve: %s", text)
	}
	if n := len(lines(t, sent)); n != 2 {
		t.Errorf("sent %d, want 2", n)
	}
}
