package claude

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The MCP tier: the real Claude Code is the MCP client of servers that
// run behind "airlock mcp run" (the Go text-message fixture of e2e/mcp and
// the real @modelcontextprotocol/server-everything), and the fake model
// calls their tools. It is judged by what happened: what the fake model
// received as each tool_result, whether the upstream sent anything, and
// the journal.

// mcpNodeModules returns AIRLOCK_E2E_MCP_NODE_MODULES, with the tiers'
// convention: without it the test fails under CI and skips elsewhere.
func mcpNodeModules(t *testing.T) string {
	t.Helper()
	nm := os.Getenv("AIRLOCK_E2E_MCP_NODE_MODULES")
	entry := filepath.Join(nm, "@modelcontextprotocol/server-everything/dist/index.js")
	if _, err := os.Stat(entry); nm != "" && err == nil {
		return nm
	}
	msg := "AIRLOCK_E2E_MCP_NODE_MODULES does not name node_modules with @modelcontextprotocol/server-everything: " +
		"the MCP tier with Claude Code needs the npm packages pinned in .ci/npm/mcp (.ci/run installs them; docs/E2E.md)"
	if inCI() {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// buildGo builds pkg into dir/name.
func buildGo(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out := filepath.Join(dir, name)
	cmd := exec.Command(goBin, "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// mcpPolicy is the proxies' policy (--config): the text fixture as the
// bench configures it, but its sink confirmed out of band (held in the
// queue, the channel that works in print mode), and server-everything
// with a source that echoes and a neutral long-running operation.
const mcpPolicy = `mcp:
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
          confirm: out-of-band
          quarantine_after_source: 10m
    everything:
      tools:
        echo: {class: source, label: echo tool}
        trigger-long-running-operation: {class: neutral}
`

// TestClaudeMCP drives two proxied servers from the real Claude Code.
func TestClaudeMCP(t *testing.T) {
	claude := claudeBinary(t)
	nm := mcpNodeModules(t)
	dir := t.TempDir()
	airlock := buildGo(t, dir, "airlock", "github.com/airlock-dev/airlock/cmd/airlock")
	// "airlock mcp run" starts the proxy binary installed next to it.
	buildGo(t, dir, "airlock-mcp", "github.com/airlock-dev/airlock/cmd/airlock-mcp")
	textserver := buildGo(t, dir, "textserver", "github.com/airlock-dev/airlock/e2e/mcp/testdata/textserver")

	w := newWorld(t)
	policy := filepath.Join(w.root, "mcp-policy.yaml")
	w.writeFile(policy, mcpPolicy)
	sent := filepath.Join(w.root, "sent.jsonl")
	config := map[string]any{"mcpServers": map[string]any{
		"texts": map[string]any{"command": airlock,
			"args": []string{"mcp", "run", "--config", policy, "--name", "texts", "--", textserver},
			"env":  map[string]string{"TEXTSERVER_SENT": sent}},
		"everything": map[string]any{"command": airlock,
			"args": []string{"mcp", "run", "--config", policy, "--name", "everything", "--",
				"node", filepath.Join(nm, "@modelcontextprotocol/server-everything/dist/index.js"), "stdio"}},
	}}
	b, _ := json.Marshal(config)
	mcpConfig := filepath.Join(w.root, "mcp.json")
	w.writeFile(mcpConfig, string(b))

	const hostile = "look\u202eevil\x1b[31mred\u200bhidden"
	steps := []step{
		{ID: "neutral", Tool: "mcp__texts__echo", Input: map[string]any{"message": "neutral-ping-42"}},
		{ID: "progress", Tool: "mcp__everything__trigger-long-running-operation", Input: map[string]any{"duration": 1, "steps": 2}},
		{ID: "spoof", Tool: "mcp__texts__read_messages", Input: map[string]any{}},
		{ID: "escape", Tool: "mcp__everything__echo", Input: map[string]any{"message": hostile}},
		{ID: "sink", Tool: "mcp__texts__send_message", Input: map[string]any{"to": "Bob", "body": "the door code is 4711"}},
		{Text: "done"},
	}
	// airlock's hooks are installed too, in unattended mode, where the
	// hook would hold every call to a server the user's policy does not
	// list: for servers behind a proxy this agent started, the proxy's
	// decision is the only one (package proxied).
	install(t, w, airlock)
	api := newFakeAPI(t, steps)
	s := w.runClaude(claude, api, "Task: read my texts and answer them.", []string{"AIRLOCK_MODE=unattended"},
		"--mcp-config", mcpConfig, "--strict-mcp-config", "--allowedTools", "mcp__texts,mcp__everything")

	result := func(id string) toolResult {
		t.Helper()
		for _, st := range steps {
			if st.ID == id {
				r, ok := api.result(st)
				if !ok {
					t.Fatalf("%s: Claude Code sent no tool_result for %s\nstderr: %s", id, st.Tool, s.stderr)
				}
				return r
			}
		}
		t.Fatalf("no step %s", id)
		return toolResult{}
	}

	// A neutral call is forwarded and its result reaches the model.
	if r := result("neutral"); r.IsError || r.Content != "neutral-ping-42" {
		t.Errorf("neutral call: %+v, want the echo", r)
	}
	// Claude Code sends a numeric progress token: the call completes (it
	// used to kill airlock-mcp with "progress token 2 is of type float64").
	if r := result("progress"); r.IsError || !strings.Contains(r.Content, "Long running operation completed") {
		t.Errorf("long-running call with progress: %+v", r)
	}
	// The spoof renders as one quotation from a sender not in contacts;
	// nothing of it is attributed to Alice.
	r := result("spoof")
	lines := strings.Split(r.Content, "\n")
	if r.IsError || len(lines) != 3 || !strings.HasPrefix(lines[1], "«message from a sender not in contacts» ") ||
		!strings.Contains(lines[1], "received from Alice") || !strings.HasPrefix(lines[0], "«message from Alice» Morning!") {
		t.Errorf("spoofed read as the model saw it:\n%s", r.Content)
	}
	// Control, bidi and zero-width characters do not reach the model;
	// the text is quoted with its provenance.
	r = result("escape")
	if r.IsError || strings.ContainsAny(r.Content, "\u202e\x1b\u200b") || !strings.Contains(r.Content, "«untrusted content from echo tool»") || !strings.Contains(r.Content, "evil") {
		t.Errorf("hostile echo as the model saw it: %q", r.Content)
	}
	// The sink after untrusted content is held: the model is told so with
	// a queue id, and the text server never sent anything.
	r = result("sink")
	if !r.IsError || !strings.Contains(r.Content, "airlock is holding texts/send_message") || !strings.Contains(r.Content, "queue id") {
		t.Errorf("held sink as the model saw it: %+v", r)
	}
	if b, err := os.ReadFile(sent); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		t.Errorf("the text server sent a message: %s", b)
	}
	// The journal agrees: the held call waits in the queue.
	out, err := w.run(nil, airlock, "queue", "list", "--json")
	if err != nil || !strings.Contains(out, "send_message") {
		t.Errorf("airlock queue list: %v\n%s", err, out)
	}
	// The hook deferred each MCP call to the proxy rather than deciding
	// it a second time.
	n := 0
	_ = filepath.WalkDir(filepath.Join(w.home, ".local", "state"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			b, _ := os.ReadFile(path)
			n += strings.Count(string(b), `"rule":"mcp.proxied"`)
		}
		return nil
	})
	if n < len(steps)-1 {
		t.Errorf("the journal has %d hook decisions deferred to the proxy, want at least %d", n, len(steps)-1)
	}
	if strings.Contains(s.stderr, "panic:") {
		t.Errorf("a process panicked:\n%s", s.stderr)
	}
}
