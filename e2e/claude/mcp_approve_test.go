package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// approvePolicy is the proxy's policy (--config): a text server whose
// sink is confirmed out of band, so that after a message from a sender
// not in the contacts a send is held in airlock's queue.
const approvePolicy = `mcp:
  contacts:
    Alice: "+1 555 0100"
    Bob: "+1 555 0101"
  servers:
    texts:
      tools:
        read_messages: {class: source, items: messages, sender: from, text: text}
        send_message:
          class: sink
          recipient_arg: to
          text_arg: body
          confirm: out-of-band
          quarantine_after_source: 10m
`

// TestClaudeMCPApproveThroughService is the documented out-of-band flow
// with the default install: the hook line runs airlock-hook, which hands
// every call to the resident service. Claude Code calls a sink behind
// "airlock mcp run" that the proxy holds; a human runs "airlock queue
// approve"; the retry runs exactly once, and nothing tells the model the
// approval was used when it was not. The proxy is the one decider of its
// calls: the service recognises, from the kernel's facts about its
// client, that the hook's agent started the proxy (package proxied).
func TestClaudeMCPApproveThroughService(t *testing.T) {
	claude := claudeBinary(t)
	dir := t.TempDir()
	airlock := buildAirlock(t, dir)
	buildGo(t, dir, "airlock-mcp", "github.com/airlock-dev/airlock/cmd/airlock-mcp")
	textserver := buildGo(t, dir, "textserver", "github.com/airlock-dev/airlock/e2e/mcp/testdata/textserver")

	w := newWorld(t)
	policy := filepath.Join(w.root, "mcp-policy.yaml")
	w.writeFile(policy, approvePolicy)
	sent := filepath.Join(w.root, "sent.jsonl")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"texts": map[string]any{"command": airlock,
			"args": []string{"mcp", "run", "--config", policy, "--name", "texts", "--", textserver},
			"env":  map[string]string{"TEXTSERVER_SENT": sent}},
	}})
	mcpConfig := filepath.Join(w.root, "mcp.json")
	w.writeFile(mcpConfig, string(b))
	install(t, w, airlock)

	// The service airlock-hook would start on its first call, started
	// here so that every call of both sessions goes through it and its
	// log can be read.
	stateDir := filepath.Join(w.home, ".local", "state", "airlock")
	logFile := filepath.Join(w.root, "hookd.log")
	serviceLog, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer serviceLog.Close()
	service := exec.Command(airlock, "hookd", "--idle", "10m")
	service.Dir, service.Env = "/", w.env()
	service.Stdout, service.Stderr = serviceLog, serviceLog
	if err := service.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		service.Process.Signal(syscall.SIGTERM)
		service.Wait()
	})
	waitListening(t, filepath.Join(stateDir, "hookd.sock"), logFile)

	run := func(steps []step) (*fakeAPI, *session) {
		t.Helper()
		api := newFakeAPI(t, steps)
		s := w.runClaude(claude, api, "Task: read my texts and answer them.", []string{"AIRLOCK_MODE=unattended"},
			"--mcp-config", mcpConfig, "--strict-mcp-config", "--allowedTools", "mcp__texts")
		return api, s
	}
	result := func(api *fakeAPI, s *session, st step) toolResult {
		t.Helper()
		r, ok := api.result(st)
		if !ok {
			t.Fatalf("%s: Claude Code sent no tool_result for %s\nstderr: %s", st.ID, st.Tool, s.stderr)
		}
		return r
	}
	send := map[string]any{"to": "Bob", "body": "see you at eight"}
	sentLines := func() []string {
		b, _ := os.ReadFile(sent)
		if len(bytes.TrimSpace(b)) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}

	// Session 1: a message from a stranger, then the send is held by the
	// proxy, and by nothing else.
	read := step{ID: "read", Tool: "mcp__texts__read_messages", Input: map[string]any{}}
	held := step{ID: "held", Tool: "mcp__texts__send_message", Input: send}
	api1, s1 := run([]step{read, held, {Text: "done"}})
	if r := result(api1, s1, read); r.IsError {
		t.Fatalf("read_messages: %+v", r)
	}
	r := result(api1, s1, held)
	if !r.IsError || !strings.Contains(r.Content, "airlock is holding texts/send_message") {
		t.Fatalf("the send as the model saw it: %+v, want held by the proxy", r)
	}
	if got := sentLines(); len(got) != 0 {
		t.Fatalf("sent before a human approved: %q", got)
	}
	items := queueItems(t, w, airlock)
	if len(items) != 1 || items[0]["tool"] != "mcp__texts__send_message" || items[0]["status"] != "pending" {
		t.Fatalf("the queue holds %v, want the proxy's one held send (a second item is the hook judging the call too)", items)
	}
	id, _ := items[0]["id"].(string)
	if !strings.Contains(r.Content, id) {
		t.Errorf("the model was not told queue id %s: %s", id, r.Content)
	}

	// The human approves.
	if out, err := w.run(nil, airlock, "queue", "approve", id); err != nil {
		t.Fatalf("airlock queue approve %s: %v\n%s", id, err, out)
	}

	// Session 2: the retry runs, once; a second retry is held again.
	retry := step{ID: "retry", Tool: "mcp__texts__send_message", Input: send}
	again := step{ID: "again", Tool: "mcp__texts__send_message", Input: send}
	api2, s2 := run([]step{retry, again, {Text: "done"}})
	if r := result(api2, s2, retry); r.IsError {
		t.Errorf("the approved retry as the model saw it: %+v", r)
	}
	if r := result(api2, s2, again); !r.IsError {
		t.Errorf("a second retry on the same approval ran: %+v", r)
	}
	if got := sentLines(); len(got) != 1 || !strings.Contains(got[0], `"to":"+1 555 0101"`) {
		t.Errorf("the text server sent %q, want the approved message once, to Bob's number", got)
	}
	var status string
	for _, it := range queueItems(t, w, airlock, "--all") {
		if it["id"] == id {
			status, _ = it["status"].(string)
		}
	}
	if status != "used" {
		t.Errorf("queue item %s is %q after the retry, want used", id, status)
	}

	// Nothing said the approval was used when it was not, nor that the
	// hook held a call.
	for _, s := range []*session{s1, s2} {
		for _, h := range s.hookReplies {
			if h.Decision == "deny" || h.Decision == "ask" {
				t.Errorf("the hook judged a proxied call itself: %s", h.Raw)
			}
		}
		if strings.Contains(s.stderr, "panic:") {
			t.Errorf("a process panicked:\n%s", s.stderr)
		}
	}
	for _, api := range []*fakeAPI{api1, api2} {
		if api.sawText("already used") {
			t.Errorf("the model was told an approval was already used\n%s", api.diagnostics())
		}
	}
	// Every MCP call was the proxy's to decide: the hook journalled each
	// as deferred, through the service, which declined none.
	n := 0
	_ = filepath.WalkDir(stateDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			b, _ := os.ReadFile(path)
			for _, line := range strings.Split(string(b), "\n") {
				if strings.Contains(line, `"rule":"mcp.proxied"`) {
					n++
				}
			}
		}
		return nil
	})
	if n != 4 {
		t.Errorf("the journal has %d hook decisions left to the proxy, want 4 (one per MCP call)", n)
	}
	logged, _ := os.ReadFile(logFile)
	for _, line := range strings.Split(string(logged), "\n") {
		// waitListening's empty connections are declined as malformed;
		// airlock-hook sends none.
		if strings.Contains(line, "declined") && !strings.Contains(line, "malformed message") {
			t.Errorf("the service declined a call (it was decided in process): %s", line)
		}
	}
}

// queueItems is "airlock queue list --json".
func queueItems(t *testing.T, w *world, airlock string, flags ...string) []map[string]any {
	t.Helper()
	out, err := w.run(nil, airlock, append([]string{"queue", "list", "--json"}, flags...)...)
	if err != nil {
		t.Fatalf("airlock queue list: %v\n%s", err, out)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	return items
}

// waitListening waits until the service accepts connections on sock (a
// hang guard, not a speed check).
func waitListening(t *testing.T, sock, logFile string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock})
		syscall.Close(fd)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logFile)
			t.Fatalf("airlock hookd is not listening on %s: %v\n%s", sock, err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
