// Package fakemodel is a loopback stand-in for the model APIs that agent
// CLIs talk to, so that end-to-end tests can drive the real CLIs offline
// and without a key. One server speaks four dialects, picked by the
// request's path:
//
//   - OpenAI Responses, streamed (POST …/responses): Codex CLI;
//   - OpenAI Chat Completions, streamed or not (POST …/chat/completions):
//     Copilot CLI (bring-your-own-key mode) and OpenCode;
//   - Gemini generateContent and streamGenerateContent?alt=sse
//     (POST …/models/M:…): Gemini CLI;
//   - Augment Code's backend (POST …/chat-stream and the calls around
//     it, augment.go): Auggie.
//
// The model is scripted: a list of shell commands, one per turn. A request
// whose conversation holds n tool results is answered with a call of the
// client's shell tool running command n, or, once the list is used up,
// with the text "done". The tool's name and argument shape are picked from
// the tools the client offered, so one script drives every CLI. Every
// request and every tool result the client sent back is recorded, so a test
// can assert on what the real client did and what the model was shown
// (airlock's reason, its queue id), rather than on what the script hoped.
package fakemodel

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

// Result is one tool result a client sent back to the model.
type Result struct {
	// Turn is the index of the scripted command the result answers.
	Turn int
	// Command is that command.
	Command string
	// Text is every string inside the result, joined by newlines: the
	// tool's output, or the refusal the agent put in its place.
	Text string
}

// Server is the fake model API. Its zero value is not usable; start one
// with New.
type Server struct {
	script []string
	// scripts, when set, picks a conversation's script by a key its
	// request contains (see NewByPrompt).
	scripts map[string][]string
	srv     *httptest.Server

	mu       sync.Mutex
	results  map[int]Result
	requests []string
	other    []string
}

// New starts a fake on 127.0.0.1 that asks, turn by turn, for script's
// commands to run. It stops when the test ends, and logs what it saw if
// the test failed.
func New(t testing.TB, script []string) *Server {
	s := &Server{script: script, results: map[int]Result{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.srv.Close()
		if t.Failed() {
			t.Log(s.Diagnostics())
		}
	})
	return s
}

// NewByPrompt starts a fake whose conversations each follow the script
// whose key their request contains (a marker in the prompt, such as
// "[story one]"), so several agent processes can share one fake. A
// conversation no key matches is answered "done".
func NewByPrompt(t testing.TB, scripts map[string][]string) *Server {
	s := New(t, nil)
	s.scripts = scripts
	return s
}

// URL is the server's base URL, without a trailing slash or path.
func (s *Server) URL() string { return s.srv.URL }

// Results returns the tool results the clients sent back, by turn.
func (s *Server) Results() []Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Result, 0, len(s.results))
	for _, r := range s.results {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Turn < out[j].Turn })
	return out
}

// ResultFor returns the tool result that answered command.
func (s *Server) ResultFor(command string) (Result, bool) {
	for _, r := range s.Results() {
		if r.Command == command {
			return r, true
		}
	}
	return Result{}, false
}

// Requests returns the raw bodies of the model requests, in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// SawText reports whether any model request contained text: what the
// agent showed the model.
func (s *Server) SawText(text string) bool {
	for _, r := range s.Requests() {
		if strings.Contains(r, text) || strings.Contains(r, jsonEscaped(text)) {
			return true
		}
	}
	return false
}

// Diagnostics summarises what the fake saw, for a failing test's log.
func (s *Server) Diagnostics() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "fake model: %d model requests, %d tool results, other requests %q\n", len(s.requests), len(s.results), s.other)
	for i, r := range s.requests {
		fmt.Fprintf(&b, "request %d: %.1500s\n", i, r)
	}
	return b.String()
}

func jsonEscaped(text string) string {
	b, _ := json.Marshal(text)
	return strings.Trim(string(b), `"`)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	path := r.URL.Path
	if r.Method == http.MethodGet && strings.HasSuffix(strings.TrimSuffix(path, "/"), "/models") {
		// Some clients list the models before they start.
		writeJSON(w, map[string]any{
			"object": "list", "data": []any{map[string]any{"id": "fake-model", "object": "model", "owned_by": "fake"}},
			"models": []any{map[string]any{"name": "models/fake-model", "slug": "fake-model"}},
		})
		return
	}
	if r.Method != http.MethodPost {
		s.note(r.Method + " " + path)
		http.NotFound(w, r)
		return
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		// A compressed body cannot be read; say so rather than guess.
		s.note(fmt.Sprintf("POST %s with Content-Encoding %s", path, enc))
		http.Error(w, "fakemodel: compressed request bodies are not supported", http.StatusUnsupportedMediaType)
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		s.note(fmt.Sprintf("POST %s: body is not JSON: %v", path, err))
		http.Error(w, "fakemodel: body is not JSON", http.StatusBadRequest)
		return
	}
	var d dialect
	chatStream, handled := s.augmentPath(w, path)
	if handled {
		return
	}
	switch {
	case chatStream:
		d = augment{}
	case strings.HasSuffix(path, "/responses"):
		d = responses{}
	case strings.HasSuffix(path, "/chat/completions"):
		d = chat{}
	case strings.Contains(path, ":streamGenerateContent"), strings.Contains(path, ":generateContent"):
		d = gemini{stream: strings.Contains(path, ":stream")}
	case strings.Contains(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
		return
	default:
		s.note("POST " + path)
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, string(body))
	s.mu.Unlock()

	script := s.scriptFor(string(body))
	results := d.results(req)
	for i, text := range results {
		if i < len(script) {
			s.record(Result{Turn: i, Command: script[i], Text: text})
		}
	}
	tools := d.tools(req)
	if n := len(results); n < len(script) && len(tools) > 0 {
		name, args := shellCall(tools, script[n])
		d.call(w, req, fmt.Sprintf("call_%d", n), name, args)
		return
	}
	d.text(w, req, "done")
}

func (s *Server) scriptFor(body string) []string {
	if s.scripts == nil {
		return s.script
	}
	keys := make([]string, 0, len(s.scripts))
	for k := range s.scripts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.Contains(body, k) || strings.Contains(body, jsonEscaped(k)) {
			return s.scripts[k]
		}
	}
	return nil
}

func (s *Server) note(what string) {
	s.mu.Lock()
	s.other = append(s.other, what)
	s.mu.Unlock()
}

func (s *Server) record(r Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, seen := s.results[r.Turn]; !seen {
		s.results[r.Turn] = r
	}
}

// shellCall picks the client's shell tool among the offered names and
// shapes the command as that tool's arguments.
func shellCall(offered []string, command string) (string, map[string]any) {
	has := map[string]bool{}
	for _, n := range offered {
		has[n] = true
	}
	prefs := []struct {
		name string
		args map[string]any
	}{
		{"exec_command", map[string]any{"cmd": command}},
		{"shell_command", map[string]any{"command": command}},
		{"shell", map[string]any{"command": []string{"bash", "-lc", command}}},
		{"run_shell_command", map[string]any{"command": command, "description": "scripted step"}},
		{"bash", map[string]any{"command": command, "description": "scripted step"}},
		{"Bash", map[string]any{"command": command, "description": "scripted step"}},
		// Auggie's shell tool; its cwd is relative to the workspace root.
		{"launch-process", map[string]any{"command": command, "wait": true, "max_wait_seconds": 60, "cwd": "."}},
	}
	for _, p := range prefs {
		if has[p.name] {
			return p.name, p.args
		}
	}
	for _, n := range offered {
		l := strings.ToLower(n)
		if strings.Contains(l, "shell") || strings.Contains(l, "bash") || strings.Contains(l, "command") {
			return n, map[string]any{"command": command}
		}
	}
	return "bash", map[string]any{"command": command}
}

// strings flattens every string inside v, in order.
func flatten(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			flatten(e, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(x[k], out)
		}
	}
}

func text(v any) string {
	var parts []string
	flatten(v, &parts)
	return strings.Join(parts, "\n")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events and flushes after each.
type sse struct{ w http.ResponseWriter }

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (e sse) event(name string, data any) {
	var b strings.Builder
	if name != "" {
		fmt.Fprintf(&b, "event: %s\n", name)
	}
	if s, ok := data.(string); ok {
		fmt.Fprintf(&b, "data: %s\n\n", s)
	} else {
		j, _ := json.Marshal(data)
		fmt.Fprintf(&b, "data: %s\n\n", j)
	}
	_, _ = io.WriteString(e.w, b.String())
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}
