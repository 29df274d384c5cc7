package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// augment is Augment Code's own backend API, which Auggie talks to (its
// "tenant URL", taken from the session it is given). Observed on Auggie
// 0.36.0 (docs/E2E.md): POST /get-models, /agents/list-remote-tools,
// /settings/…, /report-error and /chat-stream. The chat stream is one
// JSON object per line; a tool call is a node of type 5 carrying
// tool_use {tool_use_id, tool_name, input_json}, and a tool result comes
// back as a request node of type 1 (tool_result_node {content}), the
// older ones inside chat_history[].request_nodes.
type augment struct{}

// augmentPath reports whether a POST is one of Augment's endpoints, and
// answers the ones that are not the model itself.
func (s *Server) augmentPath(w http.ResponseWriter, path string) (chat, handled bool) {
	switch {
	case strings.HasSuffix(path, "/chat-stream"):
		return true, false
	case strings.HasSuffix(path, "/get-models"):
		// enable_hooks is the tenant's switch for Auggie's hooks: without it
		// Auggie never runs a hook, airlock's included.
		writeJSON(w, map[string]any{"default_model": "fake-model", "languages": []any{},
			"models":        []any{map[string]any{"name": "fake-model", "suggested_prefix_char_count": 100, "suggested_suffix_char_count": 100}},
			"feature_flags": map[string]any{"enable_hooks": true}})
		return false, true
	case strings.HasSuffix(path, "/agents/list-remote-tools"):
		writeJSON(w, map[string]any{"tools": []any{}})
		return false, true
	case strings.HasPrefix(path, "/settings/"), strings.HasSuffix(path, "/report-error"), strings.HasSuffix(path, "/record-request-events"):
		s.note("POST " + path)
		writeJSON(w, map[string]any{})
		return false, true
	}
	return false, false
}

func (augment) tools(req map[string]any) []string {
	var out []string
	for _, t := range list(req["tool_definitions"]) {
		if n := str(obj(t)["name"]); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func augmentResults(nodes []any, out *[]string) {
	for _, n := range nodes {
		if m := obj(n); m["type"] == float64(1) {
			*out = append(*out, text(obj(m["tool_result_node"])["content"]))
		}
	}
}

func (augment) results(req map[string]any) []string {
	var out []string
	for _, ex := range list(req["chat_history"]) {
		augmentResults(list(obj(ex)["request_nodes"]), &out)
	}
	augmentResults(list(req["nodes"]), &out)
	return out
}

func (a augment) call(w http.ResponseWriter, req map[string]any, id, name string, args map[string]any) {
	in, _ := json.Marshal(args)
	a.reply(w, map[string]any{"text": "", "stop_reason": 3, "nodes": []any{map[string]any{"id": 1, "type": 5, "content": "",
		"tool_use": map[string]any{"tool_use_id": "toolu_" + id, "tool_name": name, "input_json": string(in)}}}})
}

func (a augment) text(w http.ResponseWriter, req map[string]any, s string) {
	a.reply(w, map[string]any{"text": s, "nodes": []any{}, "stop_reason": 1})
}

func (augment) reply(w http.ResponseWriter, line map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(line)
	_, _ = w.Write(append(b, '\n'))
}
