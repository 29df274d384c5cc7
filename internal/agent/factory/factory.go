// Package factory is the adapter for Factory's Droid CLI hooks
// (documented: docs.factory.ai hooks reference; ../shared/agents/README.md
// §1.2): Claude Code's format in and out, with Droid's tool names
// (Execute, Create, Edit, MultiEdit, Read, LS, Grep, Glob, FetchUrl,
// WebSearch, ApplyPatch, TodoWrite, Task). Claude Code's own names are
// accepted as well, since Droid loads Claude-style hook files.
package factory

import (
	"maps"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "factory"

// Tools is Droid's tool table on top of Claude Code's. Field names are
// read in both spellings Droid documents (file_path or path, old_str or
// old_string).
var Tools = sync.OnceValue(func() toolcall.Table {
	t := maps.Clone(claudecode.Tools)
	maps.Copy(t, toolcall.Table{
		"Execute": {Class: toolcall.Shell, Command: []string{"command"}},
		"Create":  {Class: toolcall.Write, Path: []string{"file_path", "path"}, Content: []string{"content"}},
		"Edit": {Class: toolcall.Write, Path: []string{"file_path", "path"},
			Old: []string{"old_string", "old_str"}, New: []string{"new_string", "new_str"}, All: []string{"replace_all"}},
		"Read":       {Class: toolcall.Read, Path: []string{"file_path", "path"}},
		"Grep":       {Class: toolcall.Read, Path: []string{"path", "folder"}, OptionalPath: true},
		"FetchUrl":   {Class: toolcall.Fetch, URL: []string{"url"}},
		"ApplyPatch": toolcall.PatchSpec("input", "patch", "command"),
	})
	return t
})

// Events are Claude Code's, as Droid uses them.
func Events(name string) string {
	return hookrun.ClaudeEvents(name)
}

// New is the adapter.
func New() hookrun.Adapter {
	return &hookrun.ClaudeFormat{Agent: Name, Tools: Tools(), MCP: claudecode.MCPName, Events: Events}
}
