package opencode

import (
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/policy"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "opencode"

// Event is the one event the shim forwards.
const Event = "tool.execute.before"

// Tools is OpenCode's tool table. bash may name the directory it runs in
// (workdir).
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"bash":  {Class: toolcall.Shell, Command: []string{"command"}, Dir: []string{"workdir"}},
		"write": {Class: toolcall.Write, Path: []string{"filePath", "file_path"}, Content: []string{"content"}},
		"edit": {Class: toolcall.Write, Path: []string{"filePath", "file_path"},
			Old: []string{"oldString"}, New: []string{"newString"}, All: []string{"replaceAll"}},
		"multiedit":   {Class: toolcall.Write, Read: readMultiEdit},
		"patch":       toolcall.PatchSpec("patchText", "patch"),
		"apply_patch": toolcall.PatchSpec("patchText", "patch"),
		"read":        {Class: toolcall.Read, Path: []string{"filePath", "file_path"}},
		"list":        {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"grep":        {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"glob":        {Class: toolcall.Local},
		"webfetch":    {Class: toolcall.Fetch, URL: []string{"url"}},
		"websearch":   {Class: toolcall.Fetch},
		"codesearch":  {Class: toolcall.Fetch},
		"todowrite":   {Class: toolcall.Local},
		"todoread":    {Class: toolcall.Local},
		"task":        {Class: toolcall.Local},
		"skill":       {Class: toolcall.Local},
	}
})

// Input is what the shim sends.
type Input struct {
	Event     string          `json:"event"`
	Tool      string          `json:"tool"`
	SessionID string          `json:"sessionID"`
	CallID    string          `json:"callID"`
	Args      json.RawMessage `json:"args"`
	Directory string          `json:"directory"`
	Worktree  string          `json:"worktree"`
}

// Reply is what airlock answers.
type Reply struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: every event the shim sends is a tool call.
func (adapter) Blocks(string) bool { return true }

// Decode reads what the shim sent.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if in.Event == "" {
		in.Event = Event
	}
	if in.Event != Event || (event != "" && event != Event) {
		return nil, hookrun.Malformed(Name, "event %q, want %s", in.Event, Event)
	}
	cwd := in.Directory
	if cwd == "" {
		cwd = in.Worktree
	}
	req := &hookrun.Request{Native: Event, Event: hookrun.PreToolUse, Session: in.SessionID, Cwd: cwd,
		ToolUseID: in.CallID, Input: in.Args, Raw: raw}
	return req, hookrun.ToolCall(req, Name, in.Tool, Tools(), nil)
}

// Encode answers allow or deny, always on exit 0: the shim throws on
// anything but an allow it can read.
func (adapter) Encode(_ *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if res.Deny {
		return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "deny", Reason: res.Reason})
	}
	return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "allow"})
}

// readMultiEdit reads multiedit: one file, a list of replacements.
func readMultiEdit(in toolcall.Input, c *toolcall.Call) error {
	p, ok := in.Str("filePath", "file_path")
	if !ok {
		return &toolcall.FieldError{Tool: c.Tool, Field: "filePath"}
	}
	c.Paths = []string{p}
	var edits []struct {
		OldString  *string `json:"oldString"`
		NewString  *string `json:"newString"`
		ReplaceAll bool    `json:"replaceAll"`
	}
	if raw, ok := in["edits"]; !ok || json.Unmarshal(raw, &edits) != nil {
		return &toolcall.FieldError{Tool: c.Tool, Field: "edits"}
	}
	var text []string
	for _, e := range edits {
		if e.OldString == nil || e.NewString == nil {
			// Not an exact replacement: what the file becomes is not known.
			c.Edits = nil
			break
		}
		c.Edits = append(c.Edits, policy.Edit{Old: *e.OldString, New: *e.NewString, All: e.ReplaceAll})
	}
	for _, e := range edits {
		if e.NewString != nil {
			text = append(text, *e.NewString)
		}
	}
	c.Content = strings.Join(text, "\n")
	return nil
}
