package fakemodel

import (
	"encoding/json"
	"net/http"
	"time"
)

// dialect is one model API's wire format: where a request lists the
// tools and the tool results, and how a reply is streamed.
type dialect interface {
	// tools returns the names of the tools the client offered.
	tools(req map[string]any) []string
	// results returns the text of each tool result in the conversation,
	// oldest first.
	results(req map[string]any) []string
	// call answers with one tool call.
	call(w http.ResponseWriter, req map[string]any, id, name string, args map[string]any)
	// text answers with a final text.
	text(w http.ResponseWriter, req map[string]any, s string)
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func usage() map[string]any {
	return map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
}

// responses is the OpenAI Responses API (Codex CLI).
type responses struct{}

func (responses) tools(req map[string]any) []string {
	var out []string
	for _, t := range list(req["tools"]) {
		m := obj(t)
		if n := str(m["name"]); n != "" {
			out = append(out, n)
		} else if ty := str(m["type"]); ty != "" {
			out = append(out, ty)
		}
	}
	return out
}

func (responses) results(req map[string]any) []string {
	var out []string
	for _, it := range list(req["input"]) {
		m := obj(it)
		switch str(m["type"]) {
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			out = append(out, text(m["output"]))
		}
	}
	return out
}

func (r responses) call(w http.ResponseWriter, req map[string]any, id, name string, args map[string]any) {
	a, _ := json.Marshal(args)
	r.reply(w, map[string]any{"type": "function_call", "id": "fc_" + id, "name": name, "arguments": string(a), "call_id": id})
}

func (r responses) text(w http.ResponseWriter, req map[string]any, s string) {
	item := map[string]any{"type": "message", "role": "assistant", "id": "msg_done",
		"content": []any{map[string]any{"type": "output_text", "text": s}}}
	r.reply(w, item)
}

func (responses) reply(w http.ResponseWriter, item map[string]any) {
	e := startSSE(w)
	id := "resp_fake"
	e.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	if item["type"] == "message" {
		e.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"delta": text(item["content"]), "item_id": item["id"], "output_index": 0, "content_index": 0})
	}
	e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	e.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": id, "status": "completed", "output": []any{item}, "usage": usage()}})
}

// chat is the OpenAI Chat Completions API (Copilot CLI, OpenCode).
type chat struct{}

func (chat) tools(req map[string]any) []string {
	var out []string
	for _, t := range list(req["tools"]) {
		if n := str(obj(obj(t)["function"])["name"]); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func (chat) results(req map[string]any) []string {
	var out []string
	for _, m := range list(req["messages"]) {
		if str(obj(m)["role"]) == "tool" {
			out = append(out, text(obj(m)["content"]))
		}
	}
	return out
}

func (c chat) call(w http.ResponseWriter, req map[string]any, id, name string, args map[string]any) {
	a, _ := json.Marshal(args)
	delta := map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
		"index": 0, "id": id, "type": "function", "function": map[string]any{"name": name, "arguments": string(a)}}}}
	c.reply(w, req, delta, "tool_calls")
}

func (c chat) text(w http.ResponseWriter, req map[string]any, s string) {
	c.reply(w, req, map[string]any{"role": "assistant", "content": s}, "stop")
}

func (chat) reply(w http.ResponseWriter, req map[string]any, delta map[string]any, finish string) {
	model := str(req["model"])
	if model == "" {
		model = "fake-model"
	}
	created := time.Now().Unix()
	use := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if stream, _ := req["stream"].(bool); !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": delta, "finish_reason": finish}}, "usage": use})
		return
	}
	base := func(choice map[string]any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{choice}}
	}
	e := startSSE(w)
	e.event("", base(map[string]any{"index": 0, "delta": delta, "finish_reason": nil}))
	last := base(map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish})
	last["usage"] = use
	e.event("", last)
	e.event("", "[DONE]")
}

// gemini is the Gemini API (Gemini CLI).
type gemini struct{ stream bool }

func (gemini) tools(req map[string]any) []string {
	var out []string
	for _, t := range list(req["tools"]) {
		for _, d := range list(obj(t)["functionDeclarations"]) {
			if n := str(obj(d)["name"]); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

func (gemini) results(req map[string]any) []string {
	var out []string
	for _, c := range list(req["contents"]) {
		for _, p := range list(obj(c)["parts"]) {
			if fr, ok := obj(p)["functionResponse"]; ok {
				out = append(out, text(obj(fr)["response"]))
			}
		}
	}
	return out
}

func (g gemini) call(w http.ResponseWriter, req map[string]any, id, name string, args map[string]any) {
	g.reply(w, []any{map[string]any{"functionCall": map[string]any{"name": name, "args": args}}})
}

func (g gemini) text(w http.ResponseWriter, req map[string]any, s string) {
	g.reply(w, []any{map[string]any{"text": s}})
}

func (g gemini) reply(w http.ResponseWriter, parts []any) {
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "fake-model",
	}
	if !g.stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w).event("", resp)
}
