package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file gives an argument that is one unquoted command substitution
// of find or git ls-files (rm -rf `find . -name __pycache__`, rm -f
// $(find . -name '*.pyc'), perl -i … $(git ls-files '*.py')) the paths
// it can be, as feeds.go does for what xargs reads from them: what find
// prints lies below its start paths and matches its pattern; what git
// ls-files prints is tracked below the directory, matching its pathspecs
// (FINDINGS-5 B4). The shell splits the output on blanks and expands globs in
// it, so the words are exact only when no name below the start paths
// holds a blank, a quote, a backslash or a glob character (unsplittable
// with "subst"), and IFS is not set in the text (Command); otherwise, and
// for any other producer, the word stays known only at run time (fail
// closed). Followed files (a make recipe) are read under the same rule.

// substFeed returns the find or git run whose output a word is, when the
// word is nothing but one unquoted $(...) or `...` holding a static find
// or git (feedOperands takes only git ls-files).
func substFeed(w string) (*shell.Feed, bool) {
	var inner string
	switch {
	case strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")") && !strings.HasPrefix(w, "$(("):
		inner = w[2 : len(w)-1]
	case len(w) >= 2 && w[0] == '`' && w[len(w)-1] == '`':
		inner = w[1 : len(w)-1]
	default:
		return nil, false
	}
	// One simple command: nothing the shell would read as more (another
	// substitution, a list, a pipe, a redirection, a subshell).
	if strings.ContainsAny(inner, "$`;&|<>()\n\\") {
		return nil, false
	}
	runs := shell.Parse(inner)
	if len(runs) != 1 {
		return nil, false
	}
	r := runs[0]
	if r.Name() != "find" && r.Name() != "git" || r.Opaque != "" || len(r.Dynamic) > 0 || len(r.Redirects) > 0 || len(r.Env) > 0 || len(r.Via) > 0 {
		return nil, false
	}
	return &shell.Feed{Via: "substitution", Sep: "subst", Producer: r.Args}, true
}

// substitutions replaces, in each run, an operand that is a find
// substitution by the paths find can print, with the operand's role.
func (c *Classifier) substitutions(runs []Invocation) {
	for i := range runs {
		r := &runs[i]
		if r.Opaque != "" || r.Dir != "" {
			continue // the output is read where the command starts
		}
		var out []Operand
		changed := false
		for _, o := range r.Operands {
			if o.Arg <= 0 || !o.Dynamic || o.Arg >= len(r.Args) || o.Word != r.Args[o.Arg] {
				out = append(out, o)
				continue
			}
			f, ok := substFeed(o.Word)
			if !ok || othersWrite(runs, i) {
				out = append(out, o)
				continue
			}
			derived, ok := c.feedOperands(f, r.Env)
			if !ok {
				out = append(out, o)
				continue
			}
			for _, d := range derived {
				// The paths stand for the word at o.Arg: its role is
				// theirs, and no other check of the word is needed.
				// A role airlock does not know is a write (the
				// program may write what it is given), as for any
				// word of such a program.
				d.Role = o.Role
				if d.Role == RoleUnknown {
					d.Role = RoleWrite
				}
				d.Recursive = d.Recursive || o.Recursive
				d.Arg = o.Arg
				out = append(out, d)
			}
			changed = true
		}
		if changed {
			r.Operands = out
		}
	}
}
