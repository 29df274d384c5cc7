// Package qwen is the adapter for Qwen Code's hooks (documented: the
// qwen-code hooks guide; ../shared/agents/README.md §1.2). Qwen Code is a
// Gemini CLI fork that adopted Claude Code's hook schema: Claude Code's
// format in and out, with the tool names it inherited from Gemini CLI
// (run_shell_command, write_file, edit, read_file, ...). Claude Code's
// names are accepted too.
package qwen

import (
	"maps"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/gemini"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "qwen"

// Tools is Qwen Code's tool table: Gemini CLI's names, its own (edit,
// todo_write), and Claude Code's.
var Tools = sync.OnceValue(func() toolcall.Table {
	t := maps.Clone(claudecode.Tools)
	maps.Copy(t, gemini.Tools())
	maps.Copy(t, toolcall.Table{
		"edit": {Class: toolcall.Write, Path: []string{"file_path"},
			Old: []string{"old_string"}, New: []string{"new_string"}, All: []string{"replace_all"}},
		"todo_write": {Class: toolcall.Local},
	})
	return t
})

// Events are Claude Code's, as Qwen Code uses them.
func Events(name string) string {
	return hookrun.ClaudeEvents(name)
}

// New is the adapter.
func New() hookrun.Adapter {
	return &hookrun.ClaudeFormat{Agent: Name, Tools: Tools(), MCP: claudecode.MCPName, Events: Events}
}
