// Package toolcall is the one translator every agent adapter feeds: an
// adapter reads its agent's tool call with a Table of that agent's tool
// names (shell, file write and edit, read, fetch, MCP), gets a Call, and
// the Call becomes the policy.Action that every rule decides
// (self-protection, the MCP guard, the gate). Two agents that call the
// same thing by different names get the same Action, so no rule has to
// know which agent asked.
//
// A tool name a Table does not list is Unknown: the policy's "unknown"
// decision, never a local tool. A listed tool whose input lacks the field
// the Table names is an error, and the adapter refuses the call: airlock
// does not guess what a tool was given.
package toolcall

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/policy"
)

// Class is what a tool does, as far as airlock's rules care.
type Class int8

// The classes of tool.
const (
	// Unknown is a tool the agent's table does not list, or one whose
	// effect airlock cannot read (a PowerShell tool, a cloud API tool).
	Unknown Class = iota
	// Shell runs Call.Command in a POSIX shell.
	Shell
	// Write creates, changes or deletes Call.Paths.
	Write
	// Read reads Call.Paths and changes nothing.
	Read
	// Fetch reads Call.URL (or searches the web when it is empty).
	Fetch
	// MCP calls Call.Server's tool Call.Name with Call.Args.
	MCP
	// Local stays on this machine and changes nothing others see
	// (planning, a to-do list, a sub-agent whose own calls come through
	// the hook again).
	Local
)

var classNames = [...]string{"unknown", "shell", "write", "read", "fetch", "mcp", "local"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class(?)"
}

// Call is one tool call, normalised: what an adapter's table made of the
// agent's tool name and input.
type Call struct {
	Class Class
	// Tool is the agent's own name for the tool, kept for messages and
	// the journal.
	Tool string
	// Command is a Shell call's shell text.
	Command string
	// Paths are the files a Read or Write touches, absolute or relative to
	// the agent's working directory.
	Paths []string
	// URL is what a Fetch reads; Query what a web search sends.
	URL, Query string
	// Content is the new text a Write puts in its files, for the
	// classifier (files that run later).
	Content string
	// Edits are what a Write does to its one file, when the input says
	// exactly: nil means not known (self-protection then judges the file
	// by its path alone, which refuses more, never less).
	Edits []policy.Edit
	// Dir is the directory a Shell call runs in, when the tool takes one
	// (absolute, or relative to the agent's working directory).
	Dir string
	// Server and Name name an MCP tool; Args are its arguments.
	Server, Name string
	Args         json.RawMessage
}

// Action is the policy action of the call, run in cwd.
func (c *Call) Action(cwd string) policy.Action {
	a := policy.Action{Tool: c.Tool, Cwd: cwd}
	if c.Dir != "" {
		// The call runs there: its relative paths and its cd-less
		// commands are read from there.
		if filepath.IsAbs(c.Dir) || cwd == "" {
			a.Cwd = filepath.Clean(c.Dir)
		} else {
			a.Cwd = filepath.Join(cwd, c.Dir)
		}
	}
	switch c.Class {
	case Shell:
		a.Kind, a.Command = policy.Shell, c.Command
	case Write:
		a.Kind, a.Paths, a.Content, a.Edits = policy.Write, c.Paths, c.Content, c.Edits
	case Read:
		a.Kind, a.Paths = policy.Read, c.Paths
	case Fetch:
		a.Kind, a.URL, a.Query = policy.Fetch, c.URL, c.Query
	case Local:
		a.Kind = policy.LocalTool
	case MCP:
		// The MCP guard decides it by server and tool; for the table it
		// is a tool airlock does not know.
		a.Kind = policy.UnknownTool
		a.Tool = policy.ToolName(c.Server, c.Name)
	default:
		a.Kind = policy.UnknownTool
	}
	return a
}

// Claude is the call spelled as Claude Code would send it: the tool name
// and input the MCP guard, the gate and the journal's write excerpt read
// (mcp__server__tool with its arguments, Bash, Read, Write, MultiEdit,
// WebFetch). A call with no such spelling keeps the agent's name and
// input: those readers then see a tool they do not know, and they only
// ever refuse.
func (c *Call) Claude(input json.RawMessage) (string, json.RawMessage) {
	var v any
	name := ""
	switch c.Class {
	case Shell:
		name, v = "Bash", map[string]string{"command": c.Command}
	case Read:
		if len(c.Paths) == 1 {
			name, v = "Read", map[string]string{"file_path": c.Paths[0]}
		}
	case Fetch:
		if c.URL != "" {
			name, v = "WebFetch", map[string]string{"url": c.URL}
		}
	case Write:
		if len(c.Paths) != 1 {
			break
		}
		if len(c.Edits) == 1 && c.Edits[0].Whole {
			name, v = "Write", map[string]string{"file_path": c.Paths[0], "content": c.Edits[0].New}
			break
		}
		type edit struct {
			Old        string `json:"old_string"`
			New        string `json:"new_string"`
			ReplaceAll bool   `json:"replace_all,omitempty"`
		}
		edits := make([]edit, 0, len(c.Edits))
		for _, e := range c.Edits {
			if e.Whole {
				edits = nil
				break
			}
			edits = append(edits, edit{e.Old, e.New, e.All})
		}
		if len(edits) > 0 {
			name, v = "MultiEdit", map[string]any{"file_path": c.Paths[0], "edits": edits}
		}
	case MCP:
		args := c.Args
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		return policy.ToolName(c.Server, c.Name), args
	}
	if name == "" {
		return c.Tool, input
	}
	b, err := json.Marshal(v)
	if err != nil {
		return c.Tool, input
	}
	return name, b
}

// SplitMCP cuts an MCP tool name written with sep between server and tool
// ("mcp__server__tool" has prefix "mcp__" and sep "__"). ok is false when
// the name is not one.
func SplitMCP(name, prefix, sep string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, prefix)
	if !found {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, sep)
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}
