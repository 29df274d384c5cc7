// Package goose is the adapter for Goose's hooks (documented: the hooks
// module of aaif-goose/goose, PRs 9227 and 11120; ../shared/agents/README.md
// §1.2). The event is {event, session_id, tool_name, tool_input,
// working_dir}; the reply {"decision":"block","reason":…}, with nothing
// printed for a call airlock lets through.
//
// Goose's tools come from extensions, which are MCP servers, and are
// named extension__tool. The developer extension's shell and text editor
// are read as the shell and file writes they are; every other
// extension__tool is an MCP call to that extension.
package goose

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Name is the agent's name on the command line.
const Name = "goose"

// Tools is Goose's tool table: the developer extension's tools, with and
// without the extension prefix.
var Tools = sync.OnceValue(func() toolcall.Table {
	shell := toolcall.Spec{Class: toolcall.Shell, Command: []string{"command"}}
	editor := toolcall.Spec{Class: toolcall.Write, Read: readEditor}
	return toolcall.Table{
		"developer__shell": shell, "shell": shell,
		"developer__text_editor": editor, "text_editor": editor,
		"todo__todo_write": {Class: toolcall.Local}, "todo__todo_read": {Class: toolcall.Local},
	}
})

// readEditor reads the text editor: view reads, write replaces the whole
// file, str_replace and insert change part of it, undo_edit restores an
// earlier content (not known here).
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
	case "write":
		if s, ok := in.Str("file_text"); ok {
			c.Content, c.Edits = s, []policy.Edit{{Whole: true, New: s}}
		}
	case "str_replace":
		old, okOld := in.Str("old_str")
		nu, okNew := in.Str("new_str")
		c.Content = nu
		if okOld && okNew {
			c.Edits = []policy.Edit{{Old: old, New: nu}}
		}
	default:
		c.Content, _ = in.Str("new_str", "file_text")
	}
	return nil
}

// MCPName recognises extension__tool (and mcp__server__tool).
func MCPName(tool string) (server, name string, ok bool) {
	if s, n, ok := claudecode.MCPName(tool); ok {
		return s, n, true
	}
	return toolcall.SplitMCP(tool, "", "__")
}

// Events maps Goose's events onto the decision core's.
func Events(name string) string {
	return hookrun.ClaudeEvents(name)
}

// Input is Goose's event.
type Input struct {
	Event      string          `json:"event"`
	SessionID  string          `json:"session_id"`
	ToolName   string          `json:"tool_name"`
	ToolInput  json.RawMessage `json:"tool_input"`
	ToolCallID string          `json:"tool_call_id"`
	WorkingDir string          `json:"working_dir"`
	Cwd        string          `json:"cwd"`
	Prompt     string          `json:"prompt"`
}

// Reply is Goose's block reply.
type Reply struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: the pre-tool event, or an unknown one.
func (adapter) Blocks(event string) bool {
	return event == "" || Events(event) == hookrun.PreToolUse
}

// Decode reads one event.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if r, err := hookrun.CheckEvent(Name, "event", in.Event, event); err != nil {
		return r, err
	}
	cwd := in.WorkingDir
	if cwd == "" {
		cwd = in.Cwd
	}
	req := &hookrun.Request{Native: in.Event, Event: Events(in.Event), Session: in.SessionID, Cwd: cwd,
		ToolUseID: in.ToolCallID, Input: in.ToolInput, Prompt: in.Prompt, Raw: raw}
	return req, hookrun.ToolCall(req, Name, in.ToolName, Tools(), MCPName)
}

// Encode writes the block, or nothing.
func (adapter) Encode(_ *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if !res.Deny {
		return 0
	}
	return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "block", Reason: res.Reason})
}
