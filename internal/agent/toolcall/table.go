package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/airlock-dev/airlock/internal/policy"
)

// ErrField is wrapped by every FieldError.
var ErrField = errors.New("missing or invalid field")

// FieldError says which field of a listed tool's input is missing or is
// not what the table expects.
type FieldError struct {
	// Tool is the agent's tool name.
	Tool string
	// Field is the input field (the first name the table accepts).
	Field string
	// Detail adds what the translator saw.
	Detail string
}

func (e *FieldError) Error() string {
	msg := fmt.Sprintf("%v tool_input.%s for tool %s", ErrField, e.Field, e.Tool)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *FieldError) Unwrap() error { return ErrField }

// Input is a tool's input object, field by field.
type Input map[string]json.RawMessage

// Str is the first of names that holds a non-empty JSON string.
func (in Input) Str(names ...string) (string, bool) {
	for _, n := range names {
		var s string
		if raw, ok := in[n]; ok && json.Unmarshal(raw, &s) == nil && s != "" {
			return s, true
		}
	}
	return "", false
}

// Strs is the first of names that holds a JSON array of strings (or one
// string), without empty ones.
func (in Input) Strs(names ...string) ([]string, bool) {
	for _, n := range names {
		raw, ok := in[n]
		if !ok {
			continue
		}
		var list []string
		if json.Unmarshal(raw, &list) != nil {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				continue
			}
			list = []string{s}
		}
		out := list[:0]
		for _, s := range list {
			if s != "" {
				out = append(out, s)
			}
		}
		if len(out) > 0 {
			return out, true
		}
	}
	return nil, false
}

// Bool is the first of names that holds a JSON true (or "true").
func (in Input) Bool(names ...string) bool {
	for _, n := range names {
		raw := bytes.TrimSpace(in[n])
		if string(raw) == "true" || string(raw) == `"true"` {
			return true
		}
	}
	return false
}

// Spec says how to read one tool's input. Each field list names the input
// fields that may hold the value, first present wins, so one Spec serves
// an agent that renamed a field between versions.
type Spec struct {
	Class Class
	// Command holds a Shell call's command; Dir the directory it runs in,
	// when the tool takes one.
	Command, Dir []string
	// Path holds the one file of a Read or Write; Paths a list of them.
	Path, Paths []string
	// OptionalPath: a Read without a path reads the working directory
	// (a search tool).
	OptionalPath bool
	// URL holds a Fetch's URL, which is then required; a Fetch whose
	// Spec names no URL field is a web search.
	URL []string
	// Content holds a Write's whole new content; Old and New one
	// replacement, All whether it replaces every occurrence.
	Content, Old, New, All []string
	// Read, when set, reads the input instead of the fields above (a
	// patch, a tool with sub-commands).
	Read func(in Input, c *Call) error
}

// Table maps an agent's tool names onto Specs.
type Table map[string]Spec

// MCPNamer recognises an agent's spelling of an MCP tool.
type MCPNamer func(tool string) (server, name string, ok bool)

// Translate reads one tool call. A tool the table does not list and mcp
// does not recognise is Unknown; input must be a JSON object (an empty
// input is an empty object).
func (t Table) Translate(tool string, input json.RawMessage, cwd string, mcp MCPNamer) (Call, error) {
	c := Call{Tool: tool}
	var in Input
	if len(bytes.TrimSpace(input)) > 0 {
		if err := json.Unmarshal(input, &in); err != nil {
			return c, &FieldError{Tool: tool, Field: "(input)", Detail: "want a JSON object: " + err.Error()}
		}
	}
	if in == nil {
		in = Input{}
	}
	spec, listed := t[tool]
	if !listed {
		if mcp != nil {
			if server, name, ok := mcp(tool); ok {
				c.Class, c.Server, c.Name = MCP, server, name
				c.Args = input
				return c, nil
			}
		}
		return c, nil // Unknown
	}
	c.Class = spec.Class
	if spec.Read != nil {
		err := spec.Read(in, &c)
		return c, err
	}
	need := func(names []string) (string, error) {
		if s, ok := in.Str(names...); ok {
			return s, nil
		}
		field := "?"
		if len(names) > 0 {
			field = names[0]
		}
		return "", &FieldError{Tool: tool, Field: field}
	}
	var err error
	switch spec.Class {
	case Shell:
		c.Command, err = need(spec.Command)
		c.Dir, _ = in.Str(spec.Dir...)
	case Read, Write:
		switch {
		case len(spec.Paths) > 0:
			if ps, ok := in.Strs(spec.Paths...); ok {
				c.Paths = ps
			} else if !spec.OptionalPath {
				err = &FieldError{Tool: tool, Field: spec.Paths[0]}
			}
		case len(spec.Path) > 0:
			if p, ok := in.Str(spec.Path...); ok {
				c.Paths = []string{p}
			} else if !spec.OptionalPath {
				err = &FieldError{Tool: tool, Field: spec.Path[0]}
			}
		}
		if spec.OptionalPath && len(c.Paths) == 0 {
			c.Paths = []string{cwd}
		}
		if spec.Class == Write {
			c.Edits, c.Content = spec.edits(in)
		}
	case Fetch:
		// A fetch tool's URL is required when the table names its field;
		// a web search has none.
		if len(spec.URL) > 0 {
			c.URL, err = need(spec.URL)
		}
	}
	return c, err
}

// edits reads what a Write puts in its file, when the Spec says where.
func (s *Spec) edits(in Input) ([]policy.Edit, string) {
	if len(s.Content) > 0 {
		if raw, ok := firstString(in, s.Content); ok {
			return []policy.Edit{{Whole: true, New: raw}}, raw
		}
	}
	if len(s.Old) > 0 && len(s.New) > 0 {
		old, okOld := firstString(in, s.Old)
		nu, okNew := firstString(in, s.New)
		if okOld && okNew {
			return []policy.Edit{{Old: old, New: nu, All: in.Bool(s.All...)}}, nu
		}
		if okNew {
			return nil, nu
		}
	}
	return nil, ""
}

// firstString is the first of names holding a JSON string, empty allowed
// (an empty file is a content).
func firstString(in Input, names []string) (string, bool) {
	for _, n := range names {
		var s string
		if raw, ok := in[n]; ok && json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	return "", false
}

// ArgvSpec is the Spec of a shell tool whose command field is either
// shell text or an argv array (Codex's shell tool, ["bash","-lc","…"]):
// an array is quoted back into shell text word by word, so the classifier
// reads exactly the words that will run.
func ArgvSpec(fields ...string) Spec {
	return Spec{Class: Shell, Read: func(in Input, c *Call) error {
		if s, ok := in.Str(fields...); ok {
			c.Command = s
			return nil
		}
		for _, f := range fields {
			var argv []string
			if raw, ok := in[f]; ok && json.Unmarshal(raw, &argv) == nil && len(argv) > 0 {
				c.Command = ShellJoin(argv)
				return nil
			}
		}
		return &FieldError{Tool: c.Tool, Field: fields[0]}
	}}
}

// ShellJoin quotes argv as POSIX shell words.
func ShellJoin(argv []string) string {
	var b bytes.Buffer
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !bytes.ContainsAny([]byte(w), " \t\n\"'\\$`!*?[]{}()<>|&;#~=%^") {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		for _, r := range w {
			if r == '\'' {
				b.WriteString(`'\''`)
			} else {
				b.WriteRune(r)
			}
		}
		b.WriteByte('\'')
	}
	return b.String()
}
