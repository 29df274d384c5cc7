// Package auggie is the adapter for Auggie, Augment Code's CLI (npm
// @augmentcode/auggie, observed on 0.36.0 against a loopback stand-in of
// its backend; ../shared/agents/README.md "More agents and the status
// line"). Its hooks live in settings.json (~/.augment, .augment) in
// Claude Code's shape, and it obeys Claude Code's reply: a deny in
// hookSpecificOutput.permissionDecision refuses the call and its reason
// reaches the model (so does exit 2). The reply is therefore Claude
// Code's (hookrun.ClaudeFormat's encoder).
//
// The payload is not Claude Code's, so the decoder is Auggie's own:
//
//	{"hook_event_name":"PreToolUse",
//	 "conversation_id":"…",                 // the session
//	 "workspace_roots":["/abs/project"],    // no cwd field
//	 "tool_name":"launch-process",
//	 "tool_input":{"command":"git push","wait":true,"max_wait_seconds":600,"cwd":"."},
//	 "tool_output":"[undefined]","tool_error":null,
//	 "is_mcp_tool":false}
//
// Auggie's tools take paths "relative to the workspace root", and its
// shell tool a cwd relative to it, so the first workspace root is the
// working directory. A call Auggie marks as an MCP tool is unknown
// whatever its name (the payload does not say which server it belongs
// to), and the policy's "unknown" decision holds it.
//
// Auggie runs a hook that crashes, cannot start or times out as if it
// had allowed the call (observed), and its timeout is in milliseconds:
// the installer writes 30000.
package auggie

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Name is the agent's name on the command line.
const Name = "auggie"

// Tools is Auggie's tool table (the tool definitions 0.36.0 offers the
// model). write-process types into a running process's standard input,
// which may be a shell: it is not listed, so it is unknown and held.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"launch-process": {Class: toolcall.Shell, Command: []string{"command"}, Dir: []string{"cwd"},
			Closed: true, Others: []string{"wait", "max_wait_seconds", "keep_stdin_open"}},
		"kill-process":           {Class: toolcall.Local},
		"read-process":           {Class: toolcall.Local},
		"list-processes":         {Class: toolcall.Local},
		"web-fetch":              {Class: toolcall.Fetch, URL: []string{"url"}},
		"codebase-retrieval":     {Class: toolcall.Local},
		"remove-files":           toolcall.DeleteSpec("file_paths"),
		"save-file":              {Class: toolcall.Write, Path: []string{"path"}, Content: []string{"file_content"}},
		"apply_patch":            toolcall.PatchSpec("input"),
		"str-replace-editor":     {Class: toolcall.Write, Fields: []string{"command", "path", "str_replace_entries", "insert_line_entries"}, Read: readEditor},
		"view":                   {Class: toolcall.Read, Path: []string{"path"}},
		"view-session":           {Class: toolcall.Local},
		"view-range-untruncated": {Class: toolcall.Local},
		"search-untruncated":     {Class: toolcall.Local},
		"view_tasklist":          {Class: toolcall.Local},
		"reorganize_tasklist":    {Class: toolcall.Local},
		"update_tasks":           {Class: toolcall.Local},
		"add_tasks":              {Class: toolcall.Local},
	}
})

// Events are the ones airlock decides or records; Auggie also takes
// Cursor's names in its settings, but sends these.
func Events(name string) string {
	switch name {
	case "PreToolUse":
		return hookrun.PreToolUse
	case "PostToolUse":
		return hookrun.PostToolUse
	case "SessionStart":
		return hookrun.SessionStart
	case "PromptSubmit":
		return hookrun.UserPromptSubmit
	case "Stop":
		return hookrun.Stop
	case "SessionEnd":
		return hookrun.SessionEnd
	}
	return ""
}

// Input is the part of Auggie's payload airlock reads.
type Input struct {
	HookEventName  string          `json:"hook_event_name"`
	ConversationID string          `json:"conversation_id"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	IsMCPTool      bool            `json:"is_mcp_tool"`
	UserPrompt     string          `json:"user_prompt"`
}

type adapter struct{ *hookrun.ClaudeFormat }

// New is the adapter: Auggie's decoder, Claude Code's reply.
func New() hookrun.Adapter {
	return adapter{&hookrun.ClaudeFormat{Agent: Name, Events: Events}}
}

// Decode reads one event.
func (a adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if r, err := hookrun.CheckEvent(Name, "hook_event_name", in.HookEventName, event); err != nil {
		return r, err
	}
	cwd := ""
	if len(in.WorkspaceRoots) > 0 {
		cwd = in.WorkspaceRoots[0]
	}
	req := &hookrun.Request{Native: in.HookEventName, Event: Events(in.HookEventName), Session: in.ConversationID,
		Cwd: cwd, Input: in.ToolInput, Prompt: in.UserPrompt, Raw: raw}
	tools := Tools()
	if in.IsMCPTool {
		// Not one of Auggie's own tools, whatever it is called.
		tools = nil
	}
	return req, hookrun.ToolCall(req, Name, in.ToolName, tools, nil)
}

// readEditor reads str-replace-editor: one file, and either exact
// replacements (str_replace) or insertions at line numbers (insert),
// whose result is not known without the file.
func readEditor(in toolcall.Input, c *toolcall.Call) error {
	p, ok, err := in.One(c.Tool, "path")
	if err != nil {
		return err
	}
	if !ok || p == "" {
		return &toolcall.FieldError{Tool: c.Tool, Field: "path"}
	}
	c.Paths = []string{p}
	cmd, _, err := in.One(c.Tool, "command")
	if err != nil {
		return err
	}
	type entry struct {
		OldStr *string `json:"old_str"`
		NewStr *string `json:"new_str"`
	}
	var replace, insert []entry
	if raw, ok := in["str_replace_entries"]; ok && json.Unmarshal(raw, &replace) != nil {
		replace = nil
	}
	if raw, ok := in["insert_line_entries"]; ok && json.Unmarshal(raw, &insert) != nil {
		insert = nil
	}
	var text []string
	for _, e := range append(append([]entry(nil), replace...), insert...) {
		if e.NewStr != nil {
			text = append(text, *e.NewStr)
		}
	}
	c.Content = strings.Join(text, "\n")
	if cmd != "str_replace" || len(insert) > 0 || len(replace) == 0 {
		return nil // what the file becomes is not known: judged by its path
	}
	for _, e := range replace {
		if e.OldStr == nil || e.NewStr == nil {
			c.Edits = nil
			return nil
		}
		c.Edits = append(c.Edits, policy.Edit{Old: *e.OldStr, New: *e.NewStr})
	}
	return nil
}
