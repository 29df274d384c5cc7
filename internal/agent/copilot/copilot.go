// Package copilot is the adapter for GitHub Copilot CLI's hooks (observed
// on 1.0.102, ../shared/agents/README.md §1.2; docs: cli-hooks-reference).
// Copilot has two dialects, chosen by how the event's name is spelled in
// its hook file:
//
//   - camelCase (preToolUse, postToolUse, sessionStart,
//     userPromptSubmitted, ...): {sessionId, timestamp, cwd, toolName,
//     toolArgs} with Copilot's own tool names (bash, view, create, edit,
//     web_fetch, ...), answered {"permissionDecision":"deny",
//     "permissionDecisionReason":...};
//   - PascalCase (PreToolUse, ...): Claude Code's format, tool_name
//     "Bash", answered with Claude Code's hookSpecificOutput.
//
// A camelCase event does not carry its own name: the installer passes it
// with --event, and without one a toolName without a toolResult is read
// as a preToolUse.
//
// Copilot shows the model "hook exited with code 2" and not the reason
// when a hook exits 2, so every deny is JSON on exit 0. Copilot names MCP
// tools server-tool, which cannot be split reliably: they stay unknown,
// and the policy's "unknown" decision holds them.
package copilot

import (
	"encoding/json"
	"io"
	"maps"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "copilot"

// Tools is Copilot CLI's tool table. powershell is not POSIX shell and
// write_bash types into a running command: both stay unknown.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"bash":   {Class: toolcall.Shell, Command: []string{"command"}},
		"view":   {Class: toolcall.Read, Path: []string{"path"}},
		"create": {Class: toolcall.Write, Path: []string{"path"}, Content: []string{"file_text", "content"}},
		"edit": {Class: toolcall.Write, Path: []string{"path"},
			Old: []string{"old_str"}, New: []string{"new_str"}},
		"str_replace_editor": {Class: toolcall.Write, Read: readEditor},
		"grep":               {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"glob":               {Class: toolcall.Local},
		"web_fetch":          {Class: toolcall.Fetch, URL: []string{"url"}},
		"task":               {Class: toolcall.Local},
		"ask_user":           {Class: toolcall.Local},
		"report_intent":      {Class: toolcall.Local},
		"update_todo":        {Class: toolcall.Local},
		"read_bash":          {Class: toolcall.Local},
		"list_bash":          {Class: toolcall.Local},
		"stop_bash":          {Class: toolcall.Local},
	}
})

// readEditor reads the str_replace_editor tool: view reads, the other
// commands write.
func readEditor(in toolcall.Input, c *toolcall.Call) error {
	p, ok := in.Str("path")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "path"}
	}
	c.Paths = []string{p}
	cmd, _ := in.Str("command")
	switch cmd {
	case "view":
		c.Class = toolcall.Read
	case "create":
		if s, ok := in.Str("file_text"); ok {
			c.Content = s
		}
	default:
		// str_replace, insert: what the file holds around the new text is
		// not known, so Edits stay nil.
		if s, ok := in.Str("new_str", "file_text"); ok {
			c.Content = s
		}
	}
	return nil
}

// pascalTools is the PascalCase dialect's table: Claude Code's names,
// which Copilot sends there, and its own.
var pascalTools = sync.OnceValue(func() toolcall.Table {
	t := maps.Clone(Tools())
	maps.Copy(t, claudecode.Tools)
	return t
})

// camelEvents maps the camelCase events onto the decision core's.
func camelEvents(name string) string {
	switch name {
	case "preToolUse":
		return hookrun.PreToolUse
	case "postToolUse":
		return hookrun.PostToolUse
	case "sessionStart":
		return hookrun.SessionStart
	case "userPromptSubmitted":
		return hookrun.UserPromptSubmit
	case "agentStop":
		return hookrun.Stop
	case "sessionEnd":
		return hookrun.SessionEnd
	}
	return ""
}

var pascal = sync.OnceValue(func() *hookrun.ClaudeFormat {
	return &hookrun.ClaudeFormat{Agent: Name, Tools: pascalTools(), MCP: claudecode.MCPName, Events: pascalEvents}
})

// pascalEvents maps the PascalCase events onto the decision core's.
func pascalEvents(name string) string {
	return hookrun.ClaudeEvents(name)
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: the pre-tool events of both dialects, or an unknown one.
func (adapter) Blocks(event string) bool {
	return event == "" || event == "preToolUse" || event == "PreToolUse"
}

// camelInput is the camelCase dialect's event.
type camelInput struct {
	SessionID  string          `json:"sessionId"`
	Cwd        string          `json:"cwd"`
	ToolName   string          `json:"toolName"`
	ToolArgs   json.RawMessage `json:"toolArgs"`
	ToolResult json.RawMessage `json:"toolResult"`
	Prompt     string          `json:"prompt"`
	// HookEventName is set in the PascalCase dialect only.
	HookEventName string `json:"hook_event_name"`
}

// Decode reads either dialect.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in camelInput
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if in.HookEventName != "" || isPascal(event) {
		return pascal().Decode(event, data)
	}
	native := event
	if native == "" {
		if in.ToolName == "" || len(in.ToolResult) > 0 {
			return nil, hookrun.Malformed(Name, "a camelCase event without --event and without a tool call")
		}
		native = "preToolUse"
	}
	args := in.ToolArgs
	var s string
	if json.Unmarshal(args, &s) == nil {
		// The documentation says toolArgs is a JSON string; 1.0.102 sent
		// an object. Both are read.
		args = json.RawMessage(s)
	}
	req := &hookrun.Request{Native: native, Event: camelEvents(native), Session: in.SessionID, Cwd: in.Cwd,
		Input: args, Prompt: in.Prompt, Raw: raw}
	return req, hookrun.ToolCall(req, Name, in.ToolName, Tools(), nil)
}

func isPascal(event string) bool {
	return event != "" && strings.ToUpper(event[:1]) == event[:1]
}

// camelReply is the camelCase dialect's pre-tool reply.
type camelReply struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// Encode writes the deny in the dialect of the event, or nothing.
func (adapter) Encode(req *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if !res.Deny {
		return 0
	}
	if req != nil && isPascal(req.Native) {
		return hookrun.WriteJSON(stdout, stderr, hookrun.NewClaudeDeny(res.Reason))
	}
	// An input that could not be read is answered in the camelCase
	// shape, which Copilot reads in both dialects' hook files.
	return hookrun.WriteJSON(stdout, stderr, camelReply{PermissionDecision: "deny", PermissionDecisionReason: res.Reason})
}
