// Package kiro is the adapter for Kiro CLI's hooks (documented:
// kiro.dev/docs/cli/hooks; ../shared/agents/README.md §1.2). The event is
// {hook_event_name, cwd, tool_name, tool_input}; Kiro reads no decision
// from standard output: exit status 2 blocks the tool and shows standard
// error to the model, anything else lets it run. So a deny is the reason
// on standard error and exit 2, and nothing else is ever printed on
// standard output (Kiro adds a userPromptSubmit hook's output to the
// model's context).
//
// Kiro names MCP tools @server/tool.
package kiro

import (
	"encoding/json"
	"fmt"
	"github.com/airlock-dev/airlock/internal/policy"
	"io"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "kiro"

// Tools is Kiro's tool table, by tool name and by the short alias hook
// matchers use. use_aws calls a cloud API airlock cannot judge: unknown.
var Tools = sync.OnceValue(func() toolcall.Table {
	shell := toolcall.Spec{Class: toolcall.Shell, Command: []string{"command"}, Dir: []string{"working_dir"},
		Closed: true, Others: []string{"summary"}}
	write := toolcall.Spec{Class: toolcall.Write, Read: readWrite}
	read := toolcall.Spec{Class: toolcall.Read, Read: readRead, Closed: true,
		Fields: []string{"path", "image_paths", "operations"},
		Others: []string{"mode", "start_line", "end_line", "depth", "pattern", "context_lines", "summary"}}
	return toolcall.Table{
		"execute_bash": shell, "execute_cmd": shell, "shell": shell,
		"fs_write": write, "write": write,
		"fs_read": read, "read": read,
		"web_fetch":  {Class: toolcall.Fetch, URL: []string{"url"}},
		"web_search": {Class: toolcall.Fetch},
		"todo_list":  {Class: toolcall.Local}, "thinking": {Class: toolcall.Local},
		"introspect": {Class: toolcall.Local},
	}
})

// readWrite reads fs_write: create, str_replace, insert or append on one
// path.
func readWrite(in toolcall.Input, c *toolcall.Call) error {
	p, ok := in.Str("path")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "path"}
	}
	c.Paths = []string{p}
	cmd, _ := in.Str("command")
	nu, _ := in.Str("new_str", "file_text")
	c.Content = nu
	if cmd == "create" {
		if s, ok := in.Str("file_text"); ok {
			c.Edits = []policy.Edit{{Whole: true, New: s}}
		}
	}
	return nil
}

// readRead reads fs_read: one path, images, or a list of operations each
// on one. Every one of them is judged: a Kiro version that reads path
// and operations together reads the union.
func readRead(in toolcall.Input, c *toolcall.Call) error {
	ps, err := in.Union(c.Tool, "path", "image_paths")
	if err != nil {
		return err
	}
	c.Paths = ps
	if raw, ok := in["operations"]; ok && string(raw) != "null" {
		var ops []toolcall.Input
		if json.Unmarshal(raw, &ops) != nil {
			return &toolcall.FieldError{Tool: c.Tool, Field: "operations", Detail: "want a list of objects"}
		}
		for _, o := range ops {
			more, err := o.Union(c.Tool, "path", "image_paths")
			if err != nil {
				return err
			}
			c.Paths = append(c.Paths, more...)
		}
	}
	if len(c.Paths) == 0 {
		return &toolcall.FieldError{Tool: c.Tool, Field: "path"}
	}
	return nil
}

// MCPName recognises @server/tool.
func MCPName(tool string) (server, name string, ok bool) { return toolcall.SplitMCP(tool, "@", "/") }

// Events maps Kiro's events onto the decision core's.
func Events(name string) string {
	switch name {
	case "preToolUse":
		return hookrun.PreToolUse
	case "postToolUse":
		return hookrun.PostToolUse
	case "agentSpawn":
		return hookrun.SessionStart
	case "userPromptSubmit":
		return hookrun.UserPromptSubmit
	case "stop":
		return hookrun.Stop
	}
	return ""
}

type adapter struct{ hookrun.ClaudeFormat }

// New is the adapter.
func New() hookrun.Adapter {
	return &adapter{hookrun.ClaudeFormat{Agent: Name, Tools: Tools(), MCP: MCPName, Events: Events}}
}

// Encode denies with exit 2 and the reason on standard error; anything
// else exits 0 silently.
func (a *adapter) Encode(_ *hookrun.Request, res *hookrun.Result, _, stderr io.Writer) int {
	if !res.Deny {
		return 0
	}
	fmt.Fprintln(stderr, res.Reason)
	return 2
}
