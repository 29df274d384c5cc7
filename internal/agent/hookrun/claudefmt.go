package hookrun

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// ClaudeFormat is the Adapter of an agent that speaks Claude Code's hook
// format (Codex, Factory Droid, Qwen Code, Copilot's PascalCase events):
// the same fields in, hookSpecificOutput.permissionDecision "deny" out,
// with the agent's own tool table.
//
// The reply carries exactly the fields every one of them was seen or
// documented to accept: a field an agent does not know may make it
// discard the reply, and Codex runs the command when it cannot read one.
// So a deny has no systemMessage, and a call that runs gets no output at
// all (no "allow": airlock only ever withholds permission).
type ClaudeFormat struct {
	// Agent is the adapter's name.
	Agent string
	// Tools is the agent's tool table; MCP spells its MCP tools.
	Tools toolcall.Table
	MCP   toolcall.MCPNamer
	// Events maps the agent's event names to the Claude Code names the
	// decision core knows; an event it maps to "" is recorded only, and
	// one mapped to PreToolUse is decided. A function (a switch), not a
	// map: a package-level map is built by every process's
	// initialisation, whichever agent it answers.
	Events func(name string) string
	// Deny is the agent's deny reply; nil means Claude Code's.
	Deny func(reason string) any
}

// Name is the agent's name.
func (f *ClaudeFormat) Name() string { return f.Agent }

// Blocks: the pre-tool event, or an event not known.
func (f *ClaudeFormat) Blocks(event string) bool {
	return event == "" || f.Events(event) == PreToolUse
}

// claudeInput is the part of Claude Code's format airlock reads.
type claudeInput struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	Prompt        string          `json:"prompt"`
}

// Decode reads one event.
func (f *ClaudeFormat) Decode(event string, data []byte) (*Request, error) {
	var in claudeInput
	raw, err := DecodeObject(f.Agent, data, &in)
	if err != nil {
		return nil, err
	}
	if r, err := CheckEvent(f.Agent, "hook_event_name", in.HookEventName, event); err != nil {
		return r, err
	}
	req := &Request{Native: in.HookEventName, Event: f.Events(in.HookEventName), Session: in.SessionID,
		Cwd: in.Cwd, ToolUseID: in.ToolUseID, Input: in.ToolInput, Prompt: in.Prompt, Raw: raw}
	return req, ToolCall(req, f.Agent, in.ToolName, f.Tools, f.MCP)
}

// ToolCall fills req.Call for the tool events and checks what deciding
// one needs: a tool name, an object input and a working directory.
func ToolCall(req *Request, agent, tool string, t toolcall.Table, mcp toolcall.MCPNamer) error {
	if req.Event != PreToolUse && req.Event != PostToolUse {
		return nil
	}
	if req.Event == PreToolUse {
		switch {
		case tool == "":
			return Malformed(agent, "missing tool name")
		case !IsObject(req.Input):
			return Malformed(agent, "the tool input is not a JSON object")
		case req.Cwd == "":
			// Relative paths cannot be resolved without it.
			return Malformed(agent, "missing working directory")
		}
	}
	c, err := t.Translate(tool, req.Input, req.Cwd, mcp)
	req.Call = c
	if err != nil && req.Event == PreToolUse {
		return &InputError{Agent: agent, Err: err}
	}
	return nil
}

// DecodeObject decodes one JSON object into v and returns it trimmed.
func DecodeObject(agent string, data []byte, v any) (json.RawMessage, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return nil, Malformed(agent, "want one JSON object on standard input")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if err := dec.Decode(v); err != nil {
		return nil, Malformed(agent, "%v", err)
	}
	if dec.More() {
		return nil, Malformed(agent, "more than one JSON value")
	}
	return json.RawMessage(t), nil
}

// IsObject reports whether raw is a JSON object.
func IsObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// ClaudeDeny is Claude Code's deny reply.
type ClaudeDeny struct {
	HookSpecificOutput claudeSpecific `json:"hookSpecificOutput"`
}

type claudeSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// NewClaudeDeny is the deny of a PreToolUse with reason.
func NewClaudeDeny(reason string) *ClaudeDeny {
	return &ClaudeDeny{claudeSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: reason}}
}

// Encode writes the deny, or nothing.
func (f *ClaudeFormat) Encode(req *Request, res *Result, stdout, stderr io.Writer) int {
	if !res.Deny {
		return 0
	}
	if f.Deny != nil {
		return WriteJSON(stdout, stderr, f.Deny(res.Reason))
	}
	return WriteJSON(stdout, stderr, NewClaudeDeny(res.Reason))
}

// ClaudeEvents maps Claude Code's own event names (PreToolUse, …) onto
// the decision core's: the agents that use Claude Code's names (Droid,
// Goose, Qwen Code, Copilot's PascalCase hooks) share it.
func ClaudeEvents(name string) string {
	switch name {
	case "PreToolUse":
		return PreToolUse
	case "PostToolUse":
		return PostToolUse
	case "SessionStart":
		return SessionStart
	case "UserPromptSubmit":
		return UserPromptSubmit
	case "Stop":
		return Stop
	case "SessionEnd":
		return SessionEnd
	}
	return ""
}
