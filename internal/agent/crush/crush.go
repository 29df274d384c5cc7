// Package crush is the adapter for Crush's hooks (charmbracelet/crush,
// npm @charmland/crush; its docs/hooks/README.md and internal/hooks; seen
// refusing a push with a Crush built from its source, docs/AGENTS.md).
// Crush runs the commands of "hooks": {"PreToolUse": [...]} in crush.json
// before every tool call of its top-level agent, with
//
//	{"event":"PreToolUse","session_id":…,"cwd":…,"tool_name":"bash","tool_input":{…}}
//
// on standard input, and reads the answer two ways: exit status 2 blocks
// the call with standard error as the reason (standard output is then
// ignored); exit 0 has standard output parsed as {"decision":"deny"|
// "allow", "reason", "context", …}. Every other exit status, a timeout,
// output it cannot parse and a reply that carries hookSpecificOutput
// without a decision it knows are "no opinion": the call runs.
//
// So a refusal here is belt and braces: {"decision":"deny","reason":…} on
// standard output, the reason on standard error, and exit status 2. The
// exit status alone blocks whatever Crush makes of standard output (a
// reply it cannot parse is no opinion, and the call would run); the JSON
// blocks in a Crush that reads standard output whatever the status, and
// says the same thing as the status, so no reading of the two disagrees.
// A go panic exits 2 as well.
//
// A call airlock lets through gets no decision at all: "allow" would
// pre-approve it and skip Crush's own permission prompt, and airlock only
// ever withholds permission. Crush's sub-agents (the agent tool's task
// agent, agentic_fetch) run their own tools without hooks, so those tools
// are unknown here: held, never read as local.
package crush

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Name is the agent's name on the command line.
const Name = "crush"

// Event is the one event Crush has, and the one airlock installs.
const Event = "PreToolUse"

// ExitBlock is the exit status with which Crush blocks a tool call.
const ExitBlock = 2

// Tools is Crush's tool table. bash may name the directory it runs in
// (working_dir); a field it does not list makes the call unknown. The
// lsp_ tools that rename or replace across files, download (a URL
// written to a file), the sub-agent tools and the MCP resource tools are
// left unknown.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"bash": {Class: toolcall.Shell, Command: []string{"command"}, Dir: []string{"working_dir"},
			Closed: true, Others: []string{"description", "run_in_background", "auto_background_after"}},
		"edit": {Class: toolcall.Write, Path: []string{"file_path"},
			Old: []string{"old_string"}, New: []string{"new_string"}, All: []string{"replace_all"}},
		"multiedit":          {Class: toolcall.Write, Read: readMultiEdit, Fields: []string{"file_path", "edits"}},
		"write":              {Class: toolcall.Write, Path: []string{"file_path"}, Content: []string{"content"}},
		"view":               {Class: toolcall.Read, Path: []string{"file_path"}},
		"ls":                 {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"grep":               {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"glob":               {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"fetch":              {Class: toolcall.Fetch, URL: []string{"url"}},
		"web_fetch":          {Class: toolcall.Fetch, URL: []string{"url"}},
		"web_search":         {Class: toolcall.Fetch},
		"sourcegraph":        {Class: toolcall.Fetch},
		"todos":              {Class: toolcall.Local},
		"question":           {Class: toolcall.Local},
		"job_output":         {Class: toolcall.Local},
		"job_kill":           {Class: toolcall.Local},
		"lsp_diagnostics":    {Class: toolcall.Local},
		"lsp_references":     {Class: toolcall.Local},
		"lsp_definition":     {Class: toolcall.Local},
		"lsp_symbols":        {Class: toolcall.Local},
		"lsp_call_hierarchy": {Class: toolcall.Local},
		"lsp_restart":        {Class: toolcall.Local},
		"crush_info":         {Class: toolcall.Local},
		"crush_logs":         {Class: toolcall.Local},
	}
})

// MCPName recognises Crush's spelling of an MCP tool, mcp_server_tool.
// A server whose name holds "_" cannot be told from its tool's: the cut
// is made at the first "_" (docs/AGENTS.md says to name servers without
// one).
func MCPName(tool string) (server, name string, ok bool) {
	return toolcall.SplitMCP(tool, "mcp_", "_")
}

// Input is Crush's event.
type Input struct {
	Event     string          `json:"event"`
	SessionID string          `json:"session_id"`
	Cwd       string          `json:"cwd"`
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// Reply is what airlock prints for a refusal or a note.
type Reply struct {
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Context  string `json:"context,omitempty"`
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: Crush has one event, a tool call; anything else installed is
// not airlock's line.
func (adapter) Blocks(event string) bool { return event == "" || canonical(event) == Event }

// canonical is Crush's spelling of an event name: case does not matter,
// and snake_case is accepted (pre_tool_use).
func canonical(event string) string {
	if strings.EqualFold(strings.ReplaceAll(event, "_", ""), Event) {
		return Event
	}
	return event
}

// Decode reads one event.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if event != "" {
		event = canonical(event)
	}
	if r, err := hookrun.CheckEvent(Name, "event", canonical(in.Event), event); err != nil {
		return r, err
	}
	if canonical(in.Event) != Event {
		return &hookrun.Request{Native: in.Event}, hookrun.Malformed(Name, "event %q, want %s", in.Event, Event)
	}
	req := &hookrun.Request{Native: Event, Event: hookrun.PreToolUse, Session: in.SessionID, Cwd: in.Cwd,
		Input: in.ToolInput, Raw: raw}
	return req, hookrun.ToolCall(req, Name, in.ToolName, Tools(), MCPName)
}

// Encode refuses three ways at once (see the package comment), or says
// nothing but a note: silence is "no opinion", and Crush's own
// permission flow goes on.
func (adapter) Encode(_ *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if !res.Deny {
		if res.Context == "" {
			return 0
		}
		return hookrun.WriteJSON(stdout, stderr, Reply{Context: res.Context})
	}
	hookrun.WriteJSON(stdout, stderr, Reply{Decision: "deny", Reason: res.Reason})
	fmt.Fprintln(stderr, res.Reason)
	return ExitBlock
}

// readMultiEdit reads multiedit: one file, a list of replacements.
func readMultiEdit(in toolcall.Input, c *toolcall.Call) error {
	p, ok := in.Str("file_path")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "file_path"}
	}
	c.Paths = []string{p}
	var edits []struct {
		OldString  *string `json:"old_string"`
		NewString  *string `json:"new_string"`
		ReplaceAll bool    `json:"replace_all"`
	}
	if raw, ok := in["edits"]; !ok || json.Unmarshal(raw, &edits) != nil {
		return &toolcall.FieldError{Tool: c.Tool, Field: "edits"}
	}
	var text []string
	exact := true
	for _, e := range edits {
		if e.NewString != nil {
			text = append(text, *e.NewString)
		}
		if e.OldString == nil || e.NewString == nil {
			// Not an exact replacement: what the file becomes is not known.
			exact = false
			continue
		}
		c.Edits = append(c.Edits, policy.Edit{Old: *e.OldString, New: *e.NewString, All: e.ReplaceAll})
	}
	if !exact {
		c.Edits = nil
	}
	c.Content = strings.Join(text, "\n")
	return nil
}
