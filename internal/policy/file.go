package policy

import (
	"errors"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/classify"

	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// fileDoc is one policy file as written, before compilation. Every field
// remembers its line so that later checks can name it.
type fileDoc struct {
	mode     *Mode
	modeLine int
	tables   [numModes]tablePatch
	rules    []ruleDoc
	gate     *gateDoc
	snaps    *snapshotDoc
	// mcp is the "mcp:" section as written, and mcpMerge what the MCP
	// firewall's schema made of it (nil without a schema): the firewall
	// owns its schema (internal/mcp/mcpconfig).
	mcp      *yaml.Node
	mcpMerge func(file string, authority bool) error
	// notify is the "notify:" section as written: internal/notify owns
	// its schema, so it is kept as a node for that package to decode.
	notify *yaml.Node
	// egress is the "egress:" section as written, and egressMerge what
	// the egress proxy's schema made of it (egresssection.go).
	egress      *yaml.Node
	egressMerge func(file string, authority bool) error
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
// and bad values are errors with their line. Its "mcp:" section is kept
// as written (see parseLayer).
func parseFile(name string, data []byte) (*fileDoc, error) { return parseLayer(name, data, nil, nil) }

// parseLayer is parseFile with the schema of the "mcp:" section, which
// the MCP firewall owns: mcp decodes that section (nil keeps it as
// written, unchecked).
func parseLayer(name string, data []byte, mcp MCPSchema, egress EgressSchema) (*fileDoc, error) {
	root, err := strictyaml.Parse(name, data)
	if err != nil {
		return nil, err
	}
	doc := &fileDoc{}
	if root == nil {
		return doc, nil // an empty file is a valid, empty policy
	}
	if err := doc.decode(root, mcp, egress); err != nil {
		return nil, strictyaml.InFile(name, err)
	}
	return doc, nil
}

func (d *fileDoc) decode(n *yaml.Node, mcp MCPSchema, egress EgressSchema) error {
	return strictyaml.Fields(n, "the policy file", map[string]func(*yaml.Node) error{
		"version": func(v *yaml.Node) error {
			if s, err := strictyaml.Scalar(v, "version"); err != nil || s != "1" {
				return strictyaml.At(v.Line, ErrBadValue, "version must be 1")
			}
			return nil
		},
		"mode": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "mode")
			if err != nil {
				return err
			}
			m, err := ParseMode(s)
			if err != nil {
				return strictyaml.BadValue(v.Line, err)
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
			return strictyaml.Fields(v, "table", h)
		},
		"gate": func(v *yaml.Node) error {
			d.gate = &gateDoc{}
			return d.gate.decode(v)
		},
		"mcp": func(v *yaml.Node) (err error) {
			d.mcp = v
			if mcp != nil {
				d.mcpMerge, err = mcp.Decode(v)
			}
			return err
		},
		"egress": func(v *yaml.Node) (err error) {
			d.egress = v
			if egress != nil {
				d.egressMerge, err = egress.Decode(v)
			}
			return err
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
				return strictyaml.At(v.Line, ErrBadValue, "rules must be a list")
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
					errs = append(errs, strictyaml.At(r.line, ErrBadValue, "rule id %q used twice", r.id))
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
			s, err := strictyaml.Scalar(v, "a table entry")
			if err != nil {
				return err
			}
			dec, err := parseDecision(s)
			if err != nil {
				return strictyaml.BadValue(v.Line, err)
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
	return strictyaml.Fields(n, "the "+m.String()+" table", h)
}

// decodeDestructive reads destructive: {inside_project: snapshot|ask|defer|deny,
// outside: ask|defer|deny}. Nothing destructive is allowed outright:
// inside the project the loosest choice is a snapshot first.
func (t *tablePatch) decodeDestructive(n *yaml.Node, m Mode) error {
	entry := func(r row, what string, allowed map[string]Decision) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, what)
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
				return strictyaml.At(v.Line, ErrBadValue, "%s must be one of %s, not %q", what, strings.Join(names, ", "), s)
			}
			t[r].set, t[r].d, t[r].line = true, dec, v.Line
			return nil
		}
	}
	held := map[string]Decision{"ask": Ask, "defer": Defer, "deny": Deny}
	inside := map[string]Decision{"snapshot": Warn, "ask": Ask, "defer": Defer, "deny": Deny}
	return strictyaml.Fields(n, "the "+m.String()+" table's destructive entry", map[string]func(*yaml.Node) error{
		"inside_project": entry(rowInside, "inside_project", inside),
		"outside":        entry(rowDestructive, "outside", held),
	})
}

func (r *ruleDoc) decode(n *yaml.Node) error {
	var hasDecision, hasMatch bool
	err := strictyaml.Fields(n, "a rule", map[string]func(*yaml.Node) error{
		"id": func(v *yaml.Node) (err error) {
			r.id, err = strictyaml.Scalar(v, "id")
			return err
		},
		"match": func(v *yaml.Node) error {
			hasMatch = true
			r.match.line = v.Line
			return r.match.decode(v)
		},
		"decision": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "decision")
			if err != nil {
				return err
			}
			if r.decision, err = parseDecision(s); err != nil {
				return strictyaml.BadValue(v.Line, err)
			}
			hasDecision = true
			return nil
		},
		"message": func(v *yaml.Node) (err error) {
			r.message, err = strictyaml.Scalar(v, "message")
			return err
		},
		"examples": func(v *yaml.Node) error {
			return strictyaml.Fields(v, "examples", map[string]func(*yaml.Node) error{
				"match":    func(v *yaml.Node) error { return r.decodeExamples(v, true) },
				"no_match": func(v *yaml.Node) error { return r.decodeExamples(v, false) },
			})
		},
	})
	switch {
	case err != nil:
		return err
	case r.id == "":
		return strictyaml.At(n.Line, ErrBadValue, "a rule needs an id")
	case !hasMatch:
		return strictyaml.At(n.Line, ErrBadValue, "rule %q needs a match", r.id)
	case !hasDecision:
		return strictyaml.At(n.Line, ErrBadValue, "rule %q needs a decision", r.id)
	}
	return nil
}

func (m *matchDoc) decode(n *yaml.Node) error {
	list := func(dst *[]string, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) (err error) {
			*dst, err = strictyaml.StringList(v, what)
			return err
		}
	}
	flag := func(dst **bool, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) (err error) {
			*dst, err = strictyaml.Bool(v, what)
			return err
		}
	}
	err := strictyaml.Fields(n, "match", map[string]func(*yaml.Node) error{
		"command":  list(&m.command, "command"),
		"tool":     list(&m.tool, "tool"),
		"path":     list(&m.path, "path"),
		"not_path": list(&m.notPath, "not_path"),
		"host":     list(&m.host, "host"),
		"tier": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "tier")
			if err != nil {
				return err
			}
			t, err := classify.ParseTier(s)
			if err != nil {
				return strictyaml.BadValue(v.Line, err)
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
		return strictyaml.At(n.Line, ErrBadValue, "not_path only narrows path; give path too")
	}
	if m.command == nil && m.tool == nil && m.path == nil && m.host == nil && m.tier == nil && m.destructive == nil && m.opaque == nil && m.networkRead == nil {
		return strictyaml.At(n.Line, ErrBadValue, "match needs at least one of command, tool, path, host, tier, destructive, opaque, network_read (use tool: \"*\" to match everything)")
	}
	return nil
}

func (r *ruleDoc) decodeExamples(v *yaml.Node, want bool) error {
	if v.Kind != yaml.SequenceNode {
		return strictyaml.At(v.Line, ErrBadValue, "examples must be a list")
	}
	var errs []error
	for _, item := range v.Content {
		ex := exampleDoc{line: item.Line, want: want}
		if item.Kind == yaml.ScalarNode {
			ex.command = item.Value
		} else {
			err := strictyaml.Fields(item, "an example", map[string]func(*yaml.Node) error{
				"command": func(v *yaml.Node) (err error) { ex.command, err = strictyaml.Scalar(v, "command"); return err },
				"tool":    func(v *yaml.Node) (err error) { ex.tool, err = strictyaml.Scalar(v, "tool"); return err },
				"path":    func(v *yaml.Node) (err error) { ex.path, err = strictyaml.Scalar(v, "path"); return err },
				"url":     func(v *yaml.Node) (err error) { ex.url, err = strictyaml.Scalar(v, "url"); return err },
			})
			if err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if ex.command == "" && ex.tool == "" {
			errs = append(errs, strictyaml.At(item.Line, ErrBadValue, "an example needs a command or a tool"))
			continue
		}
		r.examples = append(r.examples, ex)
	}
	return errors.Join(errs...)
}
