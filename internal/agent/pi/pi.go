package pi

import (
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Name is the agent's name on the command line.
const Name = "pi"

// Event is the one event the shim forwards.
const Event = "tool_call"

// Tools is Pi's tool table (its dist/core/tools schemas). bash runs in
// Pi's working directory and takes no other one.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"bash":  {Class: toolcall.Shell, Command: []string{"command"}},
		"read":  {Class: toolcall.Read, Fields: []string{"path"}, Read: readPath("path", false)},
		"write": {Class: toolcall.Write, Fields: []string{"path", "content"}, Read: readWrite},
		"edit":  {Class: toolcall.Write, Fields: []string{"path", "edits", "oldText", "newText"}, Read: readEdit},
		"grep":  {Class: toolcall.Read, Fields: []string{"path"}, Read: readPath("path", true)},
		"find":  {Class: toolcall.Read, Fields: []string{"path"}, Read: readPath("path", true)},
		"ls":    {Class: toolcall.Read, Fields: []string{"path"}, Read: readPath("path", true)},
	}
})

// Input is what the shim sends.
type Input struct {
	Event      string          `json:"event"`
	ToolName   string          `json:"toolName"`
	ToolCallID string          `json:"toolCallId"`
	Input      json.RawMessage `json:"input"`
	Cwd        string          `json:"cwd"`
	SessionID  string          `json:"sessionId"`
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
	req := &hookrun.Request{Native: Event, Event: hookrun.PreToolUse, Session: in.SessionID, Cwd: in.Cwd,
		ToolUseID: in.ToolCallID, Input: in.Input, Raw: raw}
	return req, hookrun.ToolCall(req, Name, in.ToolName, Tools(), nil)
}

// Encode answers allow or deny, always on exit 0: the shim blocks on a
// deny and throws on anything it cannot read.
func (adapter) Encode(_ *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if res.Deny {
		return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "deny", Reason: res.Reason})
	}
	return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "allow"})
}

// unicodeSpace reports whether Pi turns r into a plain space in a path
// (its path-utils' UNICODE_SPACES).
func unicodeSpace(r rune) bool {
	return r == '\u00A0' || r >= '\u2000' && r <= '\u200A' || r == '\u202F' || r == '\u205F' || r == '\u3000'
}

// Path is a path argument as Pi resolves it before it touches the file:
// one leading "@" dropped, Unicode spaces made plain ("~" is left for
// the policy, which expands it the same way).
func Path(p string) string {
	p = strings.TrimPrefix(p, "@")
	return strings.Map(func(r rune) rune {
		if unicodeSpace(r) {
			return ' '
		}
		return r
	}, p)
}

// readPath reads a tool's one path field; optional tools (grep, find,
// ls) default to the working directory, as Pi does (".").
func readPath(field string, optional bool) func(toolcall.Input, *toolcall.Call) error {
	return func(in toolcall.Input, c *toolcall.Call) error {
		p, ok, err := in.One(c.Tool, field)
		if err != nil {
			return err
		}
		if !ok || p == "" {
			if !optional {
				return &toolcall.FieldError{Tool: c.Tool, Field: field}
			}
			p = "."
		}
		c.Paths = []string{Path(p)}
		return nil
	}
}

// readWrite reads write: one file and its whole new content.
func readWrite(in toolcall.Input, c *toolcall.Call) error {
	if err := readPath("path", false)(in, c); err != nil {
		return err
	}
	var content string
	if raw, ok := in["content"]; !ok || json.Unmarshal(raw, &content) != nil {
		return &toolcall.FieldError{Tool: c.Tool, Field: "content"}
	}
	c.Content = content
	c.Edits = []policy.Edit{{Whole: true, New: content}}
	return nil
}

// readEdit reads edit: one file and a list of exact replacements, in the
// form Pi documents ("edits") and the older one it still accepts
// (oldText and newText beside path, appended to the list). Replacements
// that are not plain strings leave what the file becomes unknown
// (Edits nil), which self-protection judges by the path alone.
func readEdit(in toolcall.Input, c *toolcall.Call) error {
	if err := readPath("path", false)(in, c); err != nil {
		return err
	}
	type edit struct {
		OldText *string `json:"oldText"`
		NewText *string `json:"newText"`
	}
	var edits []edit
	known := true
	if raw, ok := in["edits"]; ok {
		if json.Unmarshal(raw, &edits) != nil {
			// Pi parses a string holding a JSON list too; anything else
			// it rejects. Either way the replacements are not known here.
			var s string
			if json.Unmarshal(raw, &s) != nil || json.Unmarshal([]byte(s), &edits) != nil {
				known, edits = false, nil
			}
		}
	}
	var old, nu string
	okOld := in["oldText"] != nil && json.Unmarshal(in["oldText"], &old) == nil
	okNew := in["newText"] != nil && json.Unmarshal(in["newText"], &nu) == nil
	if okOld && okNew {
		edits = append(edits, edit{OldText: &old, NewText: &nu})
	} else if okNew {
		known = false
		c.Content = nu
	}
	if len(edits) == 0 && known {
		return &toolcall.FieldError{Tool: c.Tool, Field: "edits"}
	}
	var text []string
	for _, e := range edits {
		if e.OldText == nil || e.NewText == nil {
			known = false
		}
		if e.NewText != nil {
			text = append(text, *e.NewText)
		}
	}
	if len(text) > 0 {
		c.Content = strings.Join(text, "\n")
	}
	if !known {
		return nil
	}
	for _, e := range edits {
		c.Edits = append(c.Edits, policy.Edit{Old: *e.OldText, New: *e.NewText})
	}
	return nil
}
