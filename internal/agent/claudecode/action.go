package claudecode

import (
	"encoding/json"
	"errors"

	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Tools is Claude Code's tool table (agent-hooks.md §1.6). Agents that
// speak Claude Code's format (Factory, Qwen Code, Copilot's PascalCase
// events) start from it. A tool missing here is unknown, and unknown
// tools get the policy's "unknown" decision; PowerShell among them, since
// its text is not POSIX shell and airlock cannot read it.
var Tools = toolcall.Table{
	"Bash":  {Class: toolcall.Shell, Command: []string{"command"}},
	"Write": {Class: toolcall.Write, Path: []string{"file_path"}, Content: []string{"content"}},
	"Edit": {Class: toolcall.Write, Path: []string{"file_path"},
		Old: []string{"old_string"}, New: []string{"new_string"}, All: []string{"replace_all"}},
	"MultiEdit":    {Class: toolcall.Write, Read: readMultiEdit},
	"NotebookEdit": {Class: toolcall.Write, Path: []string{"notebook_path"}},
	"Read":         {Class: toolcall.Read, Path: []string{"file_path"}},
	"NotebookRead": {Class: toolcall.Read, Path: []string{"notebook_path"}},
	// Grep prints file content, so it reads like Read does; without a
	// path it searches the working directory.
	"Grep":      {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
	"WebFetch":  {Class: toolcall.Fetch, URL: []string{"url"}},
	"WebSearch": {Class: toolcall.Fetch, Query: []string{"query"}},

	// Tools that stay on this machine and change nothing others see, or
	// that hand work to a sub-agent whose own tool calls come through the
	// hook again.
	"Glob": local, "LS": local, "TodoWrite": local, "TodoRead": local, "Task": local, "Agent": local,
	"AskUserQuestion": local, "ExitPlanMode": local, "EnterPlanMode": local, "Skill": local,
	"SlashCommand": local, "BashOutput": local, "KillShell": local, "KillBash": local,
	"TaskOutput": local, "TaskStop": local, "Monitor": local,
	"TaskCreate": local, "TaskUpdate": local, "TaskList": local, "TaskGet": local,
}

var local = toolcall.Spec{Class: toolcall.Local}

// MCPName recognises Claude Code's MCP tool names, mcp__server__tool.
func MCPName(tool string) (server, name string, ok bool) {
	return toolcall.SplitMCP(tool, "mcp__", "__")
}

// readMultiEdit reads a MultiEdit: one file, a list of replacements.
func readMultiEdit(in toolcall.Input, c *toolcall.Call) error {
	p, ok := in.Str("file_path")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "file_path"}
	}
	c.Paths = []string{p}
	var edits []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	}
	if raw, ok := in["edits"]; ok && json.Unmarshal(raw, &edits) == nil && len(edits) > 0 {
		parts := ""
		for i, e := range edits {
			c.Edits = append(c.Edits, policy.Edit{Old: e.OldString, New: e.NewString, All: e.ReplaceAll})
			if i > 0 {
				parts += "\n"
			}
			parts += e.NewString
		}
		c.Content = parts
	}
	return nil
}

// ToAction turns a PreToolUse event into the action the policy decides
// (agent-hooks.md §1.6), through Claude Code's tool table. A tool_input
// without the field its tool needs is an InputError: the hook then
// blocks, as it must not guess.
func ToAction(in *Input) (policy.Action, error) {
	c, err := Tools.Translate(in.ToolName, in.ToolInput, in.Cwd, MCPName)
	a := c.Action(in.Cwd)
	if err != nil {
		var fe *toolcall.FieldError
		if errors.As(err, &fe) && fe.Field != "(input)" {
			return a, &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "tool_input." + fe.Field, Detail: "for tool " + in.ToolName}
		}
		return a, &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "tool_input", Detail: err.Error()}
	}
	return a, nil
}
