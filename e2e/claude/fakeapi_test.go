package claude

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// step is one scripted model turn: a tool call (Tool and Input), or, when
// Tool is empty, the final text Text.
type step struct {
	// ID names the tool call (it becomes the tool_use id "toolu_<ID>").
	ID    string
	Tool  string
	Input map[string]any
	Text  string
}

// toolUseID is the id the fake model gives a step's tool call.
func (s step) toolUseID() string { return "toolu_" + s.ID }

// toolResult is what Claude Code sent back to the model for one tool call.
type toolResult struct {
	ID      string
	Content string
	IsError bool
}

// fakeAPI is a loopback stand-in for the Anthropic Messages API
// (agent-hooks.md §5). It answers each main-loop request with the next
// scripted step as a streamed tool_use, and records the tool results and
// the raw requests Claude Code sent, so tests assert on what the real
// client did rather than on what the script hoped.
type fakeAPI struct {
	t      *testing.T
	script []step
	// scripts, when set, replaces script: each conversation follows the
	// script whose key its first user message contains, so that several
	// claude processes (the stories of a loop) share one fake.
	scripts map[string][]step
	srv     *httptest.Server

	mu      sync.Mutex
	results map[string]toolResult
	// firstUser is the first user message of the conversations that
	// followed each key of scripts, as the model was shown it.
	firstUser map[string]string
	requests  []string // raw bodies of /v1/messages requests
	other     []string // other paths asked for and unscripted conversations, for diagnostics
}

// newFakeAPI starts the fake on 127.0.0.1; it stops when the test ends.
func newFakeAPI(t *testing.T, script []step) *fakeAPI {
	f := &fakeAPI{t: t, script: script, results: map[string]toolResult{}, firstUser: map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		f.srv.Close()
		if t.Failed() {
			t.Log(f.diagnostics())
		}
	})
	return f
}

// newFakeAPIByPrompt starts a fake that picks a conversation's script by
// a key its first user message contains (see fakeAPI.scripts).
func newFakeAPIByPrompt(t *testing.T, scripts map[string][]step) *fakeAPI {
	f := newFakeAPI(t, nil)
	f.scripts = scripts
	return f
}

// URL is the base URL to give Claude Code as ANTHROPIC_BASE_URL.
func (f *fakeAPI) URL() string { return f.srv.URL }

// request is the part of a Messages API request the fake reads.
type request struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []wireMessage     `json:"messages"`
}

// wireMessage is one message of a request's conversation.
type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// block is one content block of a message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, map[string]any{"input_tokens": 10})
		return
	case r.Method != http.MethodPost || r.URL.Path != "/v1/messages":
		f.mu.Lock()
		f.other = append(f.other, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "fake API: bad request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, string(body))
	script := f.script
	if f.scripts != nil && len(req.Tools) > 0 {
		script = f.pick(req.Messages)
	}
	turns := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turns++
		}
		var blocks []block
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // plain string content
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				f.results[b.ToolUseID] = toolResult{ID: b.ToolUseID, Content: resultText(b.Content), IsError: b.IsError}
			}
		}
	}
	f.mu.Unlock()

	// A request without tools is not the agent loop (a title or a summary):
	// answer it with text and do not advance the script.
	next := step{Text: "ok"}
	if len(req.Tools) > 0 {
		next = step{Text: "done"}
		// The script position is the number of assistant turns already in
		// the conversation, so a retried request gets the same answer.
		if turns < len(script) {
			next = script[turns]
		}
	}
	msgID := fmt.Sprintf("msg_fake_%03d", turns)
	if !req.Stream {
		writeJSON(w, message(msgID, req.Model, next))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for _, ev := range events(msgID, req.Model, next) {
		data, _ := json.Marshal(ev)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], data)
	}
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// pick returns the script whose key the conversation's first user message
// contains, and records that message; f.mu is held. A conversation no key
// matches gets no script (the final text at once), and is listed in the
// diagnostics.
func (f *fakeAPI) pick(messages []wireMessage) []step {
	if len(messages) == 0 || messages[0].Role != "user" {
		f.other = append(f.other, "a conversation that does not start with a user message")
		return nil
	}
	text := resultText(messages[0].Content)
	keys := make([]string, 0, len(f.scripts))
	for k := range f.scripts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.Contains(text, k) {
			f.firstUser[k] = text
			return f.scripts[k]
		}
	}
	f.other = append(f.other, "a conversation no script key matches: "+tail(text, 200))
	return nil
}

// userMessage returns the first user message of the conversation that
// followed the script with this key (see newFakeAPIByPrompt).
func (f *fakeAPI) userMessage(key string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	text, ok := f.firstUser[key]
	return text, ok
}

// resultText flattens a tool_result's content: a string, or text blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func usage() map[string]any { return map[string]any{"input_tokens": 10, "output_tokens": 5} }

// message is the non-streamed answer for one step.
func message(id, model string, s step) map[string]any {
	content := []any{map[string]any{"type": "text", "text": s.Text}}
	stop := "end_turn"
	if s.Tool != "" {
		content = []any{map[string]any{"type": "tool_use", "id": s.toolUseID(), "name": s.Tool, "input": s.Input}}
		stop = "tool_use"
	}
	return map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage()}
}

// events is the SSE event sequence for one step (agent-hooks.md §5).
func events(id, model string, s step) []map[string]any {
	start := map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage()}}
	var blockStart, delta map[string]any
	stop := "end_turn"
	if s.Tool != "" {
		input, _ := json.Marshal(s.Input)
		blockStart = map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": s.toolUseID(), "name": s.Tool, "input": map[string]any{}}}
		delta = map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}}
		stop = "tool_use"
	} else {
		blockStart = map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}}
		delta = map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": s.Text}}
	}
	return []map[string]any{
		start, blockStart, delta,
		{"type": "content_block_stop", "index": 0},
		{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}},
		{"type": "message_stop"},
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// result returns what Claude Code sent back for a step's tool call.
func (f *fakeAPI) result(s step) (toolResult, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.results[s.toolUseID()]
	return r, ok
}

// sawText reports whether any request to the model contained s: what the
// model was shown (the prompt, the session context a hook added).
func (f *fakeAPI) sawText(s string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, body := range f.requests {
		if strings.Contains(body, s) {
			return true
		}
	}
	return false
}

// diagnostics describes what the fake saw, for a failing test's log.
func (f *fakeAPI) diagnostics() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "fake API: %d /v1/messages request(s), other paths %q\n", len(f.requests), f.other)
	for id, r := range f.results {
		fmt.Fprintf(&b, "  tool result %s (is_error %v): %.300s\n", id, r.IsError, r.Content)
	}
	return b.String()
}
