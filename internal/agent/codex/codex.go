// Package codex is the adapter for OpenAI Codex CLI's hooks (observed on
// 0.171.0, ../shared/agents/README.md §1.2): Claude Code's format in and
// out. Codex reports its shell tool as "Bash" with tool_input.command;
// file edits come as apply_patch; MCP tools as mcp__server__tool.
//
// What Codex does on failure decides the shape of this adapter: a hook
// that crashes, times out, prints what Codex cannot parse, or answers
// "ask" lets the command run. So the reply is exactly the deny shape
// Codex was seen to obey, held calls are denied with their queue item
// (never "ask"), and hookrun bounds every event by its Deadline.
package codex

import (
	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"sync"
)

// Name is the agent's name on the command line.
const Name = "codex"

// Tools is Codex's tool table. Shell arrives as "Bash"; the raw tool
// names (exec_command, shell) are listed too, for versions that pass
// them through, with an argv array quoted back into shell text.
// write_stdin types into a running command, which airlock cannot read:
// it stays unknown.
//
// The shell tools take a working directory (workdir): the command is
// judged there, and an approval binds to it. Their Specs are closed: a
// field not listed (an environment, a shell to run the text with) makes
// the call unknown, because it may change what runs or where.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"Bash":               shellSpec(toolcall.Spec{Class: toolcall.Shell, Command: []string{"command"}}),
		"exec_command":       shellSpec(toolcall.ArgvSpec("cmd", "command")),
		"shell":              shellSpec(toolcall.ArgvSpec("command")),
		"local_shell":        shellSpec(toolcall.ArgvSpec("command")),
		"apply_patch":        closed(toolcall.PatchSpec("command", "input", "patch")),
		"ApplyPatch":         closed(toolcall.PatchSpec("command", "input", "patch")),
		"web_search":         {Class: toolcall.Fetch},
		"view_image":         {Class: toolcall.Read, Path: []string{"path"}},
		"update_plan":        {Class: toolcall.Local},
		"request_user_input": {Class: toolcall.Local},
	}
})

// harmless are the fields of Codex's shell and patch tools that change
// neither what runs nor where: how long to wait, how much output to keep,
// why the model asks, and sandbox requests (airlock judges every command
// as if no sandbox held it).
var harmless = []string{"description", "timeout", "timeout_ms", "yield_time_ms", "max_output_tokens",
	"justification", "with_escalated_permissions", "sandbox_permissions", "prefix_rule", "login", "tty"}

// shellSpec is a Codex shell tool: run in its workdir, closed.
func shellSpec(s toolcall.Spec) toolcall.Spec {
	s.Dir = []string{"workdir"}
	return closed(s)
}

func closed(s toolcall.Spec) toolcall.Spec {
	s.Closed, s.Others = true, harmless
	return s
}

// Events maps Codex's events onto the decision core's.
func Events(name string) string {
	switch name {
	case "PreToolUse":
		return hookrun.PreToolUse
	case "PostToolUse":
		return hookrun.PostToolUse
	case "SessionStart":
		return hookrun.SessionStart
	case "UserPromptSubmit":
		return hookrun.UserPromptSubmit
	case "Stop":
		return hookrun.Stop
	}
	return ""
}

// New is the adapter.
func New() hookrun.Adapter {
	return &hookrun.ClaudeFormat{Agent: Name, Tools: Tools(), MCP: claudecode.MCPName, Events: Events}
}
