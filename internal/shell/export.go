package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable exported in one statement is in the environment of every
// program the shell starts afterwards, as a prefix assignment is for one
// run: "export GIT_PAGER=...; git log" runs the pager as surely as
// "GIT_PAGER=... git log". The walker keeps what the text has exported so
// far (export, declare/typeset/local -x, an assignment after set -a or to
// a name exported before) and puts it in the environment of every later
// run. It does not track where an export stops applying (the end of a
// subshell, unset, export -n, set +a): a variable is taken as exported from
// the point it is first exported to the end of the text, which can only
// make more runs see it.

// maxExports bounds how many exports are carried to later runs, since every
// run gets a copy: past it the text is opaque.
const maxExports = 256

// exportState is what the commands of one Parse have exported so far.
type exportState struct {
	env       []string          // NAME=value, in the order exported
	names     map[string]bool   // names marked for export
	vars      map[string]string // last value assigned to a name in the text
	allExport bool              // set -a seen
	// overflow is set when more than maxExports were made; reported when
	// the walker has said so in an opaque run.
	overflow, reported bool
}

func (e *exportState) add(kv string) {
	if len(e.env) >= maxExports {
		e.overflow = true
		return
	}
	e.env = append(e.env, kv)
}

// assign records plain NAME=value assignments; exported names (and every
// name after set -a) join the environment of later runs.
func (e *exportState) assign(assigns []string) {
	for _, a := range assigns {
		name, value, _ := strings.Cut(a, "=")
		if e.vars == nil {
			e.vars = map[string]string{}
		}
		e.vars[name] = value
		// PATH is in every environment a shell starts with, so a plain
		// PATH=dir:$PATH changes where later runs find their programs
		// (FINDINGS-4 K8).
		if e.allExport || e.names[name] || name == "PATH" {
			e.add(a)
		}
	}
}

// export marks name for export with the given value.
func (e *exportState) export(name, value string, hasValue bool) {
	if e.names == nil {
		e.names = map[string]bool{}
	}
	e.names[name] = true
	if !hasValue {
		v, ok := e.vars[name]
		if !ok {
			return // the value comes from the environment, which the run has anyway
		}
		value = v
	}
	if e.vars == nil {
		e.vars = map[string]string{}
	}
	e.vars[name] = value
	e.add(name + "=" + value)
}

// setOptions notes set -a and set -o allexport.
func (e *exportState) setOptions(c cmd) {
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			continue
		}
		switch {
		case a == "-o" && i+1 < len(c.args) && c.args[i+1] == "allexport":
			e.allExport = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && a[1] != 'o' && strings.ContainsRune(a[1:], 'a'):
			e.allExport = true
		}
	}
}

// declExports records the exports of an export or declare -x clause. A
// word whose name is only known at run time may export anything, so it is
// opaque.
func (s *stmtWalker) declExports(d *syntax.DeclClause) {
	variant := d.Variant.Value
	flags := ""
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			if v, ok := s.static(a.Value, false); ok && len(v) > 1 && v[0] == '-' {
				flags += v[1:]
			}
		}
	}
	exporting := variant == "export" || strings.Contains(flags, "x")
	for _, a := range d.Args {
		switch {
		case a.Name != nil && a.Index == nil && a.Array == nil:
			value, has := "", a.Value != nil
			if has {
				var ok bool
				if value, ok = s.static(a.Value, false); !ok {
					value = s.source(a.Value)
				}
			}
			if exporting {
				s.w.exports.export(a.Name.Value, value, has && !a.Naked)
			} else if has && !a.Naked {
				s.w.exports.assign([]string{a.Name.Value + "=" + value})
			}
		case a.Name == nil && a.Value != nil && exporting:
			v, ok := s.static(a.Value, false)
			if !ok {
				src := s.source(a.Value)
				if name, _, _ := strings.Cut(src, "="); strings.ContainsAny(name, "$`") {
					s.w.opaque(s.f.with(variant), s.source(d), variant+" exports a variable whose name is only known at run time ("+clip(src)+"), so what later commands run with cannot be known")
				}
				continue
			}
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				continue
			}
			name, value, has := strings.Cut(v, "=")
			s.w.exports.export(name, value, has)
		}
	}
}

// exportWords records the exports of export or declare -x reached as a
// simple command (builtin export ..., command declare -x ...), which the
// parser does not make a declaration clause.
func (e *exportState) exportWords(c cmd) {
	name := normName(c.args[0])
	switch name {
	case "export", "declare", "typeset", "local":
	default:
		return
	}
	flags := ""
	for i, a := range c.args[1:] {
		if !c.dyn[i+1] && len(a) > 1 && a[0] == '-' {
			flags += a[1:]
		}
	}
	if name != "export" && !strings.Contains(flags, "x") {
		return
	}
	for i, a := range c.args[1:] {
		if c.dyn[i+1] || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
			continue
		}
		n, v, has := strings.Cut(a, "=")
		e.export(n, v, has)
	}
}
