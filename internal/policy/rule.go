package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/airlock-dev/airlock/internal/classify"

	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// Origin says which layer a rule or setting came from.
type Origin int8

// The layers, in the order they are applied.
const (
	// Builtin: airlock's own defaults.
	Builtin Origin = iota
	// User: the user's file, or the file named by AIRLOCK_POLICY.
	User
	// Project: the project's .airlock/policy.yaml.
	Project
)

var originNames = [...]string{"built-in", "user", "project"}

func (o Origin) String() string {
	if int(o) < len(originNames) {
		return originNames[o]
	}
	return "origin(?)"
}

// Rule is one compiled policy rule.
type Rule struct {
	// ID names the rule in verdicts and reports.
	ID string
	// Origin is the layer the rule came from.
	Origin Origin
	// File and Line locate the rule ("" and 0 for built-in rules).
	File string
	Line int
	// Decision is what the rule contributes when it matches.
	Decision Decision
	// Message says why, for the agent and the human.
	Message string
	// Examples are actions the rule must and must not match.
	Examples []Example
	// relaxes is set for an allow rule with the user's authority: when it
	// matches, it overrides the built-in defaults for that program run.
	relaxes bool
	m       matcher
}

// Example is an action a rule must (Match) or must not match.
type Example struct {
	Match  bool
	Action Action
	Line   int
}

// matcher holds the compiled conditions of a rule; every condition given
// must hold, and a list holds when any of its entries does.
type matcher struct {
	commands    []commandPattern
	tools       []string
	paths       []string
	notPaths    []string
	hosts       []string
	tier        *classify.Tier
	destructive *bool
	opaque      *bool
	networkRead *bool
}

// compileRule checks a rule as written and compiles it; home expands "~"
// in path globs.
func compileRule(d *ruleDoc, origin Origin, file, home string) (*Rule, error) {
	r := &Rule{ID: d.id, Origin: origin, File: file, Line: d.line, Decision: d.decision, Message: d.message}
	m := &r.m
	for _, c := range d.match.command {
		p, err := compileCommand(c)
		if err != nil {
			return nil, strictyaml.At(d.match.line, ErrBadValue, "rule %q: %v", d.id, err)
		}
		m.commands = append(m.commands, p)
	}
	m.tools, m.hosts = d.match.tool, d.match.host
	var err error
	if m.paths, err = compilePaths(d.match.path, home); err != nil {
		return nil, strictyaml.At(d.match.line, ErrBadValue, "rule %q: %v", d.id, err)
	}
	if m.notPaths, err = compilePaths(d.match.notPath, home); err != nil {
		return nil, strictyaml.At(d.match.line, ErrBadValue, "rule %q: %v", d.id, err)
	}
	m.tier, m.destructive, m.opaque, m.networkRead = d.match.tier, d.match.destructive, d.match.opaque, d.match.networkRead
	for _, ex := range d.examples {
		a := Action{Kind: Shell, Tool: "Bash", Command: ex.command, Cwd: "/"}
		if ex.tool != "" {
			a = exampleAction(ex.tool, ex.command, ex.path, ex.url)
		}
		r.Examples = append(r.Examples, Example{Match: ex.want, Action: a, Line: ex.line})
	}
	return r, nil
}

// compilePaths expands "~" and makes a relative glob match at any depth:
// ".env" means any file named .env, as in .gitignore.
func compilePaths(globs []string, home string) ([]string, error) {
	var out []string
	for _, g := range globs {
		g = expandHome(g, home)
		if !filepath.IsAbs(g) && !strings.HasPrefix(g, "**/") {
			g = "**/" + g
		}
		if !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("bad path glob %q", g)
		}
		out = append(out, g)
	}
	return out, nil
}

// exampleAction builds the action an example describes, inferring the kind
// from the tool name the way the Claude Code adapter does.
func exampleAction(tool, command, path, url string) Action {
	a := Action{Tool: tool, Command: command, URL: url, Cwd: "/"}
	if path != "" {
		a.Paths = []string{path}
	}
	switch {
	case command != "":
		a.Kind = Shell
	case url != "":
		a.Kind = Fetch
	case path != "" && (tool == "Read" || tool == "Grep" || tool == "Glob"):
		a.Kind = Read
	case path != "":
		a.Kind = Write
	default:
		a.Kind = UnknownTool
	}
	return a
}

// matches reports whether the rule applies to one subject. cwd and home
// resolve the paths of shell arguments.
func (m *matcher) matches(s *subject, cwd, home string) bool {
	if len(m.tools) > 0 && !anyWildcard(m.tools, s.tool) {
		return false
	}
	if len(m.commands) > 0 {
		if s.inv == nil || !anyCommand(m.commands, s.inv) {
			return false
		}
	}
	if m.tier != nil && (s.unknown || s.effect.Tier != *m.tier) {
		return false
	}
	if m.destructive != nil && s.effect.Destructive != *m.destructive {
		return false
	}
	if m.opaque != nil && s.effect.Opaque != *m.opaque {
		return false
	}
	if m.networkRead != nil && s.effect.NetworkRead != *m.networkRead {
		return false
	}
	if len(m.paths) > 0 {
		paths := s.paths
		if s.inv != nil {
			paths = shellPaths(s.inv, cwd, home)
		}
		if !m.anyPath(paths) {
			return false
		}
	}
	if len(m.hosts) > 0 {
		hosts := s.hosts
		if s.inv != nil {
			hosts = shellHosts(s.inv)
		}
		if !anyHost(m.hosts, hosts) {
			return false
		}
	}
	return true
}

func anyWildcard(patterns []string, s string) bool {
	for _, p := range patterns {
		if wildcard(p, s) {
			return true
		}
	}
	return false
}

func anyCommand(patterns []commandPattern, inv *classify.Invocation) bool {
	for _, p := range patterns {
		if p.match(inv) {
			return true
		}
	}
	return false
}

func (m *matcher) anyPath(paths []string) bool {
	for _, p := range paths {
		if globAny(m.paths, p) && !globAny(m.notPaths, p) {
			return true
		}
	}
	return false
}

func globAny(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

func anyHost(patterns, hosts []string) bool {
	for _, h := range hosts {
		for _, p := range patterns {
			if hostMatch(p, h) {
				return true
			}
		}
	}
	return false
}

// Relaxes reports whether the rule, an allow rule with the user's
// authority, sets aside the built-in defaults for what it matches.
func (r *Rule) Relaxes() bool { return r.relaxes }

// Describe renders what the rule matches, e.g.
// `command "git push personal"; tool Read,Grep`.
func (r *Rule) Describe() string {
	m := &r.m
	var parts []string
	add := func(name string, vals []string) {
		if len(vals) > 0 {
			parts = append(parts, name+" "+strings.Join(vals, ","))
		}
	}
	var cmds []string
	for _, c := range m.commands {
		cmds = append(cmds, `"`+c.text+`"`)
	}
	add("command", cmds)
	add("tool", m.tools)
	add("path", m.paths)
	add("not_path", m.notPaths)
	add("host", m.hosts)
	if m.tier != nil {
		parts = append(parts, "tier "+m.tier.String())
	}
	for _, f := range []struct {
		name string
		v    *bool
	}{{"destructive", m.destructive}, {"opaque", m.opaque}, {"network_read", m.networkRead}} {
		if f.v != nil {
			parts = append(parts, fmt.Sprintf("%s %v", f.name, *f.v))
		}
	}
	return strings.Join(parts, "; ")
}
