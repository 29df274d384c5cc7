package policy

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/airlock-dev/airlock/internal/classify"
)

// fileDoc is one policy file as written, before compilation. Every field
// remembers its line so that later checks can name it.
type fileDoc struct {
	mode     *Mode
	modeLine int
	tables   [numModes]tablePatch
	rules    []ruleDoc
	gate     *gateDoc
	mcp      *mcpDoc
	snaps    *snapshotDoc
	// notify is the "notify:" section as written: internal/notify owns
	// its schema, so it is kept as a node for that package to decode.
	notify *yaml.Node
}

// tablePatch overrides some rows of one mode's table.
type tablePatch [numRows]struct {
	set  bool
	d    Decision
	line int
}

type ruleDoc struct {
	line     int
	id       string
	match    matchDoc
	decision Decision
	message  string
	examples []exampleDoc
}

type matchDoc struct {
	line        int
	command     []string
	tool        []string
	path        []string
	notPath     []string
	host        []string
	tier        *classify.Tier
	destructive *bool
	opaque      *bool
	networkRead *bool
}

// exampleDoc is an action a rule must or must not match. A plain string is
// a shell command.
type exampleDoc struct {
	line    int
	want    bool
	command string
	tool    string
	path    string
	url     string
}

// parseFile decodes one policy file strictly: unknown keys, wrong types
// and bad values are errors with their line.
func parseFile(name string, data []byte) (*fileDoc, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &FileError{File: name, Line: yamlLine(err), Err: fmt.Errorf("%w: not valid YAML: %v", ErrBadValue, err)}
	}
	doc := &fileDoc{}
	if len(root.Content) == 0 {
		return doc, nil // an empty file is a valid, empty policy
	}
	if err := doc.decode(root.Content[0]); err != nil {
		return nil, inFile(name, err)
	}
	return doc, nil
}

// yamlLine digs the line out of a yaml.v3 syntax error, which carries it
// only in its text ("yaml: line 3: ..."); 0 when absent.
func yamlLine(err error) int {
	var line int
	if _, scanErr := fmt.Sscanf(err.Error(), "yaml: line %d:", &line); scanErr != nil {
		return 0
	}
	return line
}

// fields walks a mapping node, calling the handler of each key and
// rejecting keys that have none. It goes on past a mistake, so that one
// run of "airlock policy check" names every mistake of a file, and
// returns them all (errors.Join).
func fields(n *yaml.Node, what string, handlers map[string]func(v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return errAt(n.Line, ErrBadValue, "%s must be a mapping", what)
	}
	var errs []error
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := handlers[k.Value]
		if !ok {
			errs = append(errs, errAt(k.Line, ErrUnknownKey, "%q in %s (want %s)", k.Value, what, keyList(handlers)))
			continue
		}
		if seen[k.Value] {
			errs = append(errs, errAt(k.Line, ErrBadValue, "%q given twice in %s", k.Value, what))
			continue
		}
		seen[k.Value] = true
		if err := h(v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func keyList(handlers map[string]func(*yaml.Node) error) string {
	keys := make([]string, 0, len(handlers))
	for k := range handlers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

func scalar(v *yaml.Node, what string) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", errAt(v.Line, ErrBadValue, "%s must be a single value", what)
	}
	return v.Value, nil
}

func boolean(v *yaml.Node, what string) (*bool, error) {
	s, err := scalar(v, what)
	if err != nil {
		return nil, err
	}
	switch s {
	case "true":
		b := true
		return &b, nil
	case "false":
		b := false
		return &b, nil
	}
	return nil, errAt(v.Line, ErrBadValue, "%s must be true or false, not %q", what, s)
}

// strings reads a list of strings; a single string counts as a list of one.
func stringList(v *yaml.Node, what string) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		if v.Value == "" {
			return nil, errAt(v.Line, ErrBadValue, "%s must not be empty", what)
		}
		return []string{v.Value}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, errAt(v.Line, ErrBadValue, "%s must be a string or a list of strings", what)
	}
	if len(v.Content) == 0 {
		return nil, errAt(v.Line, ErrBadValue, "%s must not be an empty list", what)
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Value == "" {
			return nil, errAt(item.Line, ErrBadValue, "each entry of %s must be a non-empty string", what)
		}
		out = append(out, item.Value)
	}
	return out, nil
}

func (d *fileDoc) decode(n *yaml.Node) error {
	return fields(n, "the policy file", map[string]func(*yaml.Node) error{
		"version": func(v *yaml.Node) error {
			if s, err := scalar(v, "version"); err != nil || s != "1" {
				return errAt(v.Line, ErrBadValue, "version must be 1")
			}
			return nil
		},
		"mode": func(v *yaml.Node) error {
			s, err := scalar(v, "mode")
			if err != nil {
				return err
			}
			m, err := ParseMode(s)
			if err != nil {
				return &lineError{line: v.Line, err: fmt.Errorf("%w: %v", ErrBadValue, err)}
			}
			d.mode, d.modeLine = &m, v.Line
			return nil
		},
		"table": func(v *yaml.Node) error {
			h := map[string]func(*yaml.Node) error{}
			for m := Mode(0); m < numModes; m++ {
				m := m
				h[m.String()] = func(v *yaml.Node) error { return d.tables[m].decode(v, m) }
			}
			return fields(v, "table", h)
		},
		"gate": func(v *yaml.Node) error {
			d.gate = &gateDoc{}
			return d.gate.decode(v)
		},
		"mcp": func(v *yaml.Node) error {
			d.mcp = &mcpDoc{}
			return d.mcp.decode(v)
		},
		"snapshots": func(v *yaml.Node) error {
			d.snaps = &snapshotDoc{}
			return d.snaps.decode(v)
		},
		"notify": func(v *yaml.Node) error {
			d.notify = v
			return nil
		},
		"rules": func(v *yaml.Node) error {
			if v.Kind != yaml.SequenceNode {
				return errAt(v.Line, ErrBadValue, "rules must be a list")
			}
			var errs []error
			seen := map[string]bool{}
			for _, item := range v.Content {
				r := ruleDoc{line: item.Line}
				if err := r.decode(item); err != nil {
					errs = append(errs, err)
					continue
				}
				if seen[r.id] {
					errs = append(errs, errAt(r.line, ErrBadValue, "rule id %q used twice", r.id))
					continue
				}
				seen[r.id] = true
				d.rules = append(d.rules, r)
			}
			return errors.Join(errs...)
		},
	})
}

func (t *tablePatch) decode(n *yaml.Node, m Mode) error {
	h := map[string]func(*yaml.Node) error{}
	for r := row(0); r < numRows; r++ {
		r := r
		if r == rowInside {
			continue // written inside the destructive entry
		}
		h[r.String()] = func(v *yaml.Node) error {
			if r == rowDestructive && v.Kind == yaml.MappingNode {
				return t.decodeDestructive(v, m)
			}
			s, err := scalar(v, "a table entry")
			if err != nil {
				return err
			}
			dec, err := ParseDecision(s)
			if err != nil {
				return &lineError{line: v.Line, err: fmt.Errorf("%w: %v", ErrBadValue, err)}
			}
			t[r].set, t[r].d, t[r].line = true, dec, v.Line
			if r == rowDestructive {
				// One decision for all destruction, wherever it lands:
				// the form that predates snapshots.
				t[rowInside].set, t[rowInside].d, t[rowInside].line = true, dec, v.Line
			}
			return nil
		}
	}
	return fields(n, "the "+m.String()+" table", h)
}

// decodeDestructive reads destructive: {inside_project: snapshot|ask|defer|deny,
// outside: ask|defer|deny}. Nothing destructive is allowed outright:
// inside the project the loosest choice is a snapshot first.
func (t *tablePatch) decodeDestructive(n *yaml.Node, m Mode) error {
	entry := func(r row, what string, allowed map[string]Decision) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := scalar(v, what)
			if err != nil {
				return err
			}
			dec, ok := allowed[s]
			if !ok {
				names := make([]string, 0, len(allowed))
				for k := range allowed {
					names = append(names, k)
				}
				sort.Strings(names)
				return errAt(v.Line, ErrBadValue, "%s must be one of %s, not %q", what, strings.Join(names, ", "), s)
			}
			t[r].set, t[r].d, t[r].line = true, dec, v.Line
			return nil
		}
	}
	held := map[string]Decision{"ask": Ask, "defer": Defer, "deny": Deny}
	inside := map[string]Decision{"snapshot": Warn, "ask": Ask, "defer": Defer, "deny": Deny}
	return fields(n, "the "+m.String()+" table's destructive entry", map[string]func(*yaml.Node) error{
		"inside_project": entry(rowInside, "inside_project", inside),
		"outside":        entry(rowDestructive, "outside", held),
	})
}

func (r *ruleDoc) decode(n *yaml.Node) error {
	var hasDecision, hasMatch bool
	err := fields(n, "a rule", map[string]func(*yaml.Node) error{
		"id": func(v *yaml.Node) (err error) {
			r.id, err = scalar(v, "id")
			return err
		},
		"match": func(v *yaml.Node) error {
			hasMatch = true
			r.match.line = v.Line
			return r.match.decode(v)
		},
		"decision": func(v *yaml.Node) error {
			s, err := scalar(v, "decision")
			if err != nil {
				return err
			}
			if r.decision, err = ParseDecision(s); err != nil {
				return &lineError{line: v.Line, err: fmt.Errorf("%w: %v", ErrBadValue, err)}
			}
			hasDecision = true
			return nil
		},
		"message": func(v *yaml.Node) (err error) {
			r.message, err = scalar(v, "message")
			return err
		},
		"examples": func(v *yaml.Node) error {
			return fields(v, "examples", map[string]func(*yaml.Node) error{
				"match":    func(v *yaml.Node) error { return r.decodeExamples(v, true) },
				"no_match": func(v *yaml.Node) error { return r.decodeExamples(v, false) },
			})
		},
	})
	switch {
	case err != nil:
		return err
	case r.id == "":
		return errAt(n.Line, ErrBadValue, "a rule needs an id")
	case !hasMatch:
		return errAt(n.Line, ErrBadValue, "rule %q needs a match", r.id)
	case !hasDecision:
		return errAt(n.Line, ErrBadValue, "rule %q needs a decision", r.id)
	}
	return nil
}

func (m *matchDoc) decode(n *yaml.Node) error {
	list := func(dst *[]string, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) (err error) {
			*dst, err = stringList(v, what)
			return err
		}
	}
	flag := func(dst **bool, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) (err error) {
			*dst, err = boolean(v, what)
			return err
		}
	}
	err := fields(n, "match", map[string]func(*yaml.Node) error{
		"command":  list(&m.command, "command"),
		"tool":     list(&m.tool, "tool"),
		"path":     list(&m.path, "path"),
		"not_path": list(&m.notPath, "not_path"),
		"host":     list(&m.host, "host"),
		"tier": func(v *yaml.Node) error {
			s, err := scalar(v, "tier")
			if err != nil {
				return err
			}
			t, err := classify.ParseTier(s)
			if err != nil {
				return &lineError{line: v.Line, err: fmt.Errorf("%w: %v", ErrBadValue, err)}
			}
			m.tier = &t
			return nil
		},
		"destructive":  flag(&m.destructive, "destructive"),
		"opaque":       flag(&m.opaque, "opaque"),
		"network_read": flag(&m.networkRead, "network_read"),
	})
	if err != nil {
		return err
	}
	if m.notPath != nil && m.path == nil {
		return errAt(n.Line, ErrBadValue, "not_path only narrows path; give path too")
	}
	if m.command == nil && m.tool == nil && m.path == nil && m.host == nil && m.tier == nil && m.destructive == nil && m.opaque == nil && m.networkRead == nil {
		return errAt(n.Line, ErrBadValue, "match needs at least one of command, tool, path, host, tier, destructive, opaque, network_read (use tool: \"*\" to match everything)")
	}
	return nil
}

func (r *ruleDoc) decodeExamples(v *yaml.Node, want bool) error {
	if v.Kind != yaml.SequenceNode {
		return errAt(v.Line, ErrBadValue, "examples must be a list")
	}
	var errs []error
	for _, item := range v.Content {
		ex := exampleDoc{line: item.Line, want: want}
		if item.Kind == yaml.ScalarNode {
			ex.command = item.Value
		} else {
			err := fields(item, "an example", map[string]func(*yaml.Node) error{
				"command": func(v *yaml.Node) (err error) { ex.command, err = scalar(v, "command"); return err },
				"tool":    func(v *yaml.Node) (err error) { ex.tool, err = scalar(v, "tool"); return err },
				"path":    func(v *yaml.Node) (err error) { ex.path, err = scalar(v, "path"); return err },
				"url":     func(v *yaml.Node) (err error) { ex.url, err = scalar(v, "url"); return err },
			})
			if err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if ex.command == "" && ex.tool == "" {
			errs = append(errs, errAt(item.Line, ErrBadValue, "an example needs a command or a tool"))
			continue
		}
		r.examples = append(r.examples, ex)
	}
	return errors.Join(errs...)
}
