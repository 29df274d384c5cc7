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

// One is the value of the field names call the same thing, read the way
// the agent reads it: every one of names that is present counts, an empty
// string included (an agent may resolve an empty directory to its project
// root where airlock would skip it). Two present fields that disagree, or
// one that is not a string, are an error: airlock cannot know which one
// the agent obeys, so the call is refused rather than judged on a guess.
// ok is false when none is present.
func (in Input) One(tool string, names ...string) (value string, ok bool, err error) {
	from := ""
	for _, n := range names {
		raw, present := in[n]
		if !present || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false, &FieldError{Tool: tool, Field: n, Detail: "want a string"}
		}
		if ok && s != value {
			return "", false, &FieldError{Tool: tool, Field: from, Detail: fmt.Sprintf("%s and %s disagree (%q, %q): which one the agent obeys is not known", from, n, value, s)}
		}
		value, ok, from = s, true, n
	}
	return value, ok, nil
}

// Union is every non-empty string of every one of names (each a JSON
// array of strings or one string), in order, without repeats: fields that
// all name files the tool acts on are judged together, never the first
// alone.
func (in Input) Union(tool string, names ...string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		raw, ok := in[n]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		var list []string
		if json.Unmarshal(raw, &list) != nil {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return nil, &FieldError{Tool: tool, Field: n, Detail: "want a string or a list of strings"}
			}
			list = []string{s}
		}
		for _, s := range list {
			if s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
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
	// Spec names no URL field is a web search, and Query holds what it
	// searches for.
	URL, Query []string
	// Content holds a Write's whole new content; Old and New one
	// replacement, All whether it replaces every occurrence.
	Content, Old, New, All []string
	// Read, when set, reads the input instead of the fields above (a
	// patch, a tool with sub-commands); Fields then names what it reads.
	// A Shell Spec's Dir is still read after it.
	Read   func(in Input, c *Call) error
	Fields []string
	// Closed says the Spec knows every field the tool takes: the fields
	// above, Fields, and Others, which change neither where nor what the
	// tool acts on (a description, a timeout). Any other field may (a
	// working directory, an environment, a second list of files), so a
	// call that carries one is Unknown: held, never judged without it.
	Closed bool
	Others []string
}

// known reports whether field is one the Spec reads or knows to be
// harmless.
func (s *Spec) known(field string) bool {
	for _, list := range [...][]string{s.Command, s.Dir, s.Path, s.Paths, s.URL, s.Query, s.Content, s.Old, s.New, s.All, s.Fields, s.Others} {
		for _, f := range list {
			if f == field {
				return true
			}
		}
	}
	return false
}

// Table maps an agent's tool names onto Specs.
//
// The airlock binary links every agent's adapter, and Go builds a
// package-level map at start-up whichever agent is called: an adapter
// other than Claude Code's (the common hook) builds its Table on first
// use (sync.OnceValue), so that one agent's call does not pay for all
// the others' tables.
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
	if spec.Closed {
		for f := range in {
			if !spec.known(f) {
				// A field airlock does not read may move the call
				// elsewhere or widen it: what it does is not known.
				return c, nil // Unknown
			}
		}
	}
	c.Class = spec.Class
	if spec.Read != nil {
		err := spec.Read(in, &c)
		if err == nil && c.Class == Shell && len(spec.Dir) > 0 {
			c.Dir, _, err = in.One(tool, spec.Dir...)
		}
		return c, err
	}
	need := func(names []string) (string, error) {
		s, ok, err := in.One(tool, names...)
		if err != nil {
			return "", err
		}
		if ok && s != "" {
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
		if err == nil {
			c.Dir, _, err = in.One(tool, spec.Dir...)
		}
	case Read, Write:
		switch {
		case len(spec.Paths) > 0:
			// Every field that lists files is judged: an agent that
			// reads two of them reads the union.
			c.Paths, err = in.Union(tool, append(append([]string(nil), spec.Paths...), spec.Path...)...)
			if err == nil && len(c.Paths) == 0 && !spec.OptionalPath {
				err = &FieldError{Tool: tool, Field: spec.Paths[0]}
			}
		case len(spec.Path) > 0:
			var p string
			if p, err = need(spec.Path); err == nil {
				c.Paths = []string{p}
			} else if spec.OptionalPath && errors.Is(err, ErrField) && !conflict(err) {
				err = nil
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
		if q, ok := firstString(in, spec.Query); ok && len(spec.Query) > 0 {
			c.Query = q
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

// conflict reports whether err says two fields disagree (or one is not a
// string), which OptionalPath never excuses.
func conflict(err error) bool {
	var fe *FieldError
	return errors.As(err, &fe) && fe.Detail != ""
}

// ArgvSpec is the Spec of a shell tool whose command field is either
// shell text or an argv array (Codex's shell tool, ["bash","-lc","…"]):
// an array is quoted back into shell text word by word, so the classifier
// reads exactly the words that will run.
func ArgvSpec(fields ...string) Spec {
	return Spec{Class: Shell, Fields: fields, Read: func(in Input, c *Call) error {
		from := ""
		for _, f := range fields {
			raw, ok := in[f]
			if !ok || string(bytes.TrimSpace(raw)) == "null" {
				continue
			}
			var text string
			if json.Unmarshal(raw, &text) != nil {
				var argv []string
				if json.Unmarshal(raw, &argv) != nil || len(argv) == 0 {
					return &FieldError{Tool: c.Tool, Field: f, Detail: "want shell text or an argv array"}
				}
				text = ShellJoin(argv)
			}
			if from != "" && text != c.Command {
				// Two command fields: which one runs is not known.
				return &FieldError{Tool: c.Tool, Field: from, Detail: from + " and " + f + " disagree: which one the agent runs is not known"}
			}
			c.Command, from = text, f
		}
		if c.Command == "" {
			return &FieldError{Tool: c.Tool, Field: fields[0]}
		}
		return nil
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
