// Package gemini is the adapter for Google Gemini CLI's hooks (observed on
// 0.61.0, ../shared/agents/README.md §1.2; hooks reference at
// geminicli.com/docs/hooks/reference). The input has Claude Code's fields
// under Gemini's event names (BeforeTool, AfterTool, BeforeAgent, ...);
// the reply is {"decision":"deny","reason":...}, which the model sees as
// "Tool execution blocked: <reason>".
//
// Gemini runs the command when a hook crashes or times out, and a
// headless Gemini waits forever on "ask": held calls are denied with
// their queue item, and hookrun bounds every event by its Deadline.
package gemini

import (
	"encoding/json"
	"io"
	"regexp"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "gemini"

// Tools is Gemini CLI's tool table. run_shell_command may name the
// directory it runs in (dir_path). save_memory appends to a file every
// later session reads as instructions, so it is left unknown; so are the
// sub-agent tools, whose effect airlock cannot see.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"run_shell_command": {Class: toolcall.Shell, Command: []string{"command"}, Dir: []string{"dir_path", "directory"},
			Closed: true, Others: []string{"description", "is_background"}},
		"write_file": {Class: toolcall.Write, Path: []string{"file_path", "absolute_path"}, Content: []string{"content"}},
		"replace": {Class: toolcall.Write, Path: []string{"file_path", "absolute_path"},
			Old: []string{"old_string"}, New: []string{"new_string"}},
		"read_file": {Class: toolcall.Read, Path: []string{"file_path", "absolute_path"}},
		"read_many_files": {Class: toolcall.Read, Paths: []string{"paths", "include"}, OptionalPath: true,
			Closed: true, Others: []string{"exclude", "recursive", "useDefaultExcludes", "file_filtering_options"}},
		"list_directory":      {Class: toolcall.Read, Path: []string{"dir_path", "path"}, OptionalPath: true},
		"search_file_content": {Class: toolcall.Read, Path: []string{"dir_path", "path"}, OptionalPath: true},
		"grep_search":         {Class: toolcall.Read, Path: []string{"dir_path", "path"}, OptionalPath: true},
		"glob":                {Class: toolcall.Local},
		"web_fetch":           {Class: toolcall.Fetch, Read: readFetch},
		"google_web_search":   {Class: toolcall.Fetch},
		"write_todos":         {Class: toolcall.Local},
		"enter_plan_mode":     {Class: toolcall.Local},
		"exit_plan_mode":      {Class: toolcall.Local},
	}
})

var urlRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>]+`) })

// readFetch reads web_fetch, whose URLs are written inside its prompt. One
// URL is a Fetch of it; none or several cannot be judged as one request,
// so the call is unknown.
func readFetch(in toolcall.Input, c *toolcall.Call) error {
	if u, ok := in.Str("url"); ok {
		c.URL = u
		return nil
	}
	prompt, ok := in.Str("prompt")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "prompt"}
	}
	urls := map[string]bool{}
	for _, u := range urlRE().FindAllString(prompt, -1) {
		urls[u] = true
	}
	if len(urls) != 1 {
		c.Class = toolcall.Unknown
		return nil
	}
	for u := range urls {
		c.URL = u
	}
	return nil
}

// MCPName recognises Gemini's spelling of an MCP tool: server__tool (what
// Gemini names a tool two servers share) or Claude Code's mcp__server__tool.
// An MCP tool Gemini calls by its bare name is unknown, unless the event's
// mcp_context names its server.
func MCPName(tool string) (server, name string, ok bool) {
	if s, n, ok := claudecode.MCPName(tool); ok {
		return s, n, true
	}
	return toolcall.SplitMCP(tool, "", "__")
}

// Events maps Gemini's events onto the decision core's. BeforeAgent
// carries the user's prompt.
func Events(name string) string {
	switch name {
	case "BeforeTool":
		return hookrun.PreToolUse
	case "AfterTool":
		return hookrun.PostToolUse
	case "SessionStart":
		return hookrun.SessionStart
	case "BeforeAgent":
		return hookrun.UserPromptSubmit
	case "AfterAgent":
		return hookrun.Stop
	case "SessionEnd":
		return hookrun.SessionEnd
	}
	return ""
}

type adapter struct{ hookrun.ClaudeFormat }

// New is the adapter.
func New() hookrun.Adapter {
	return &adapter{hookrun.ClaudeFormat{Agent: Name, Tools: Tools(), MCP: MCPName, Events: Events,
		Deny: func(reason string) any { return Reply{Decision: "deny", Reason: reason} }}}
}

// Reply is Gemini's hook output.
type Reply struct {
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Decode reads the event; a tool call whose mcp_context names an MCP
// server is that server's tool, whatever Gemini called it.
func (a *adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	req, err := a.ClaudeFormat.Decode(event, data)
	if err != nil || req.Event != hookrun.PreToolUse {
		return req, err
	}
	var probe struct {
		MCP *struct {
			Server string `json:"server_name"`
			Tool   string `json:"tool_name"`
		} `json:"mcp_context"`
	}
	if json.Unmarshal(req.Raw, &probe) == nil && probe.MCP != nil && probe.MCP.Server != "" {
		name := probe.MCP.Tool
		if name == "" {
			name = req.Call.Tool
		}
		req.Call = toolcall.Call{Class: toolcall.MCP, Tool: req.Call.Tool, Server: probe.MCP.Server, Name: name, Args: req.Input}
	}
	return req, nil
}

// Encode writes the deny, or an empty object: Gemini parses standard
// output as JSON.
func (a *adapter) Encode(req *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if res.Deny {
		return a.ClaudeFormat.Encode(req, res, stdout, stderr)
	}
	return hookrun.WriteJSON(stdout, stderr, Reply{})
}
