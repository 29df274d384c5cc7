// Package cline is the adapter for Cline's hooks (documented:
// docs.cline.bot hook reference; ../shared/agents/README.md §1.2). Each
// event is {clineVersion, hookName, timestamp, taskId, workspaceRoots,
// userId} with one object named after the event, e.g.
// preToolUse:{toolName, parameters}; every parameter is a string. The
// reply is {"cancel":true,"errorMessage":…} to refuse and
// {"cancel":false} otherwise, for every event.
package cline

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "cline"

// Tools is Cline's tool table. replace_in_file's diff is SEARCH/REPLACE
// blocks: its new text is read, the edits are not. browser_action is a
// fetch when it launches a URL; its other actions (click, type) can
// submit a page's forms and stay unknown. access_mcp_resource reads from
// a server airlock does not judge: unknown.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"execute_command":            {Class: toolcall.Shell, Command: []string{"command"}},
		"write_to_file":              {Class: toolcall.Write, Path: []string{"path"}, Content: []string{"content"}},
		"replace_in_file":            {Class: toolcall.Write, Path: []string{"path"}, New: []string{"diff"}, Old: []string{"-"}},
		"read_file":                  {Class: toolcall.Read, Path: []string{"path"}},
		"list_files":                 {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"search_files":               {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"list_code_definition_names": {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"web_fetch":                  {Class: toolcall.Fetch, URL: []string{"url"}},
		"browser_action":             {Class: toolcall.Fetch, Read: readBrowser},
		"use_mcp_tool":               {Class: toolcall.MCP, Read: readMCP},
		"ask_followup_question":      {Class: toolcall.Local}, "attempt_completion": {Class: toolcall.Local, Read: readCompletion},
		"new_task": {Class: toolcall.Local}, "plan_mode_respond": {Class: toolcall.Local},
		"focus_chain": {Class: toolcall.Local}, "load_mcp_documentation": {Class: toolcall.Local},
	}
})

// readReplace reads replace_in_file: one path, and its diff as the new
// text (the replacements and what they replace; Edits stay unknown).
func readReplace(in toolcall.Input, c *toolcall.Call) error {
	p, ok := in.Str("path")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "path"}
	}
	c.Paths = []string{p}
	c.Content, _ = in.Str("diff")
	return nil
}

// readCompletion reads attempt_completion, which may carry a command to
// show the result: then it is that command.
func readCompletion(in toolcall.Input, c *toolcall.Call) error {
	if cmd, ok := in.Str("command"); ok {
		c.Class, c.Command = toolcall.Shell, cmd
	}
	return nil
}

// readBrowser reads browser_action.
func readBrowser(in toolcall.Input, c *toolcall.Call) error {
	action, _ := in.Str("action")
	u, ok := in.Str("url")
	if action == "launch" && ok {
		c.URL = u
		return nil
	}
	c.Class = toolcall.Unknown
	return nil
}

// readMCP reads use_mcp_tool: the server, the tool, and its arguments as
// a JSON text.
func readMCP(in toolcall.Input, c *toolcall.Call) error {
	server, ok := in.Str("server_name")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "server_name"}
	}
	name, ok := in.Str("tool_name")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "tool_name"}
	}
	c.Server, c.Name, c.Args = server, name, json.RawMessage("{}")
	if s, ok := in.Str("arguments"); ok {
		if !hookrun.IsObject(json.RawMessage(s)) || !json.Valid([]byte(s)) {
			return &toolcall.FieldError{Tool: c.Tool, Field: "arguments", Detail: "want a JSON object"}
		}
		c.Args = json.RawMessage(s)
	}
	return nil
}

// Events maps Cline's events onto the decision core's.
func Events(name string) string {
	switch name {
	case "PreToolUse":
		return hookrun.PreToolUse
	case "PostToolUse":
		return hookrun.PostToolUse
	case "TaskStart":
		return hookrun.SessionStart
	case "UserPromptSubmit":
		return hookrun.UserPromptSubmit
	case "TaskComplete":
		return hookrun.Stop
	case "TaskCancel":
		return hookrun.SessionEnd
	}
	return ""
}

// Input is Cline's event.
type Input struct {
	HookName       string   `json:"hookName"`
	TaskID         string   `json:"taskId"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	PreToolUse     *struct {
		ToolName   string          `json:"toolName"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"preToolUse"`
	UserPromptSubmit *struct {
		Prompt string `json:"prompt"`
	} `json:"userPromptSubmit"`
}

// Reply is Cline's reply to every event.
type Reply struct {
	Cancel       bool   `json:"cancel"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: PreToolUse, or an unknown event. A malformed TaskStart is not
// cancelled: that would stop the user's task, not a tool call.
func (adapter) Blocks(event string) bool { return event == "" || event == "PreToolUse" }

// Decode reads one event.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if r, err := hookrun.CheckEvent(Name, "hookName", in.HookName, event); err != nil {
		return r, err
	}
	req := &hookrun.Request{Native: in.HookName, Event: Events(in.HookName), Session: in.TaskID, Raw: raw}
	if len(in.WorkspaceRoots) > 0 {
		req.Cwd = in.WorkspaceRoots[0]
	}
	if in.UserPromptSubmit != nil {
		req.Prompt = in.UserPromptSubmit.Prompt
	}
	if req.Event != hookrun.PreToolUse {
		return req, nil
	}
	if in.PreToolUse == nil {
		return nil, hookrun.Malformed(Name, "PreToolUse without preToolUse")
	}
	req.Input = in.PreToolUse.Parameters
	if len(req.Input) == 0 {
		req.Input = json.RawMessage("{}")
	}
	return req, hookrun.ToolCall(req, Name, in.PreToolUse.ToolName, Tools(), nil)
}

// Encode cancels, or lets Cline continue.
func (adapter) Encode(_ *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if res.Deny {
		return hookrun.WriteJSON(stdout, stderr, Reply{Cancel: true, ErrorMessage: res.Reason})
	}
	return hookrun.WriteJSON(stdout, stderr, Reply{})
}
