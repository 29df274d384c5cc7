package classify

import "github.com/airlock-dev/airlock/internal/shell"

// This file bounds an operand that is a command substitution of find or
// git ls-files (rm $(find . -name '*.pyc'), perl -i … $(git ls-files
// '*.py')) the way feeds.go bounds what xargs reads from them: the
// words the shell makes of the output lie below find's start paths and
// match its pattern, or are tracked files below the directory, matching
// the pathspecs. The output is split on blanks and each field is then a
// glob, so the bound holds only when no name below the start paths
// holds a blank or a glob character (unsplittable, "ifs"), and only for
// an unquoted substitution that is the whole word. Anything else stays a
// word known only at run time (fail closed).

// substs replaces, in each run, an operand that is such a substitution
// by the paths it can be, at the same argument index, with the same
// role (a role airlock does not know counts as a write).
func (c *Classifier) substs(runs []Invocation) {
	for i := range runs {
		r := &runs[i]
		if r.Opaque != "" || !hasSubstOperand(r) {
			continue
		}
		// What is walked now must be what the substitution prints: no
		// other run may write first, and the run must happen where the
		// filesystem is read from.
		if othersWrite(runs, i) || r.Dir != "" {
			continue
		}
		var out []Operand
		for _, o := range r.Operands {
			derived, ok := c.substOperands(r, o)
			if !ok {
				out = append(out, o)
				continue
			}
			for _, d := range derived {
				d.Arg = o.Arg
				d.Role = o.Role
				if d.Role == RoleUnknown {
					d.Role = RoleWrite
				}
				d.Recursive = d.Recursive || o.Recursive
				out = append(out, d)
			}
		}
		r.Operands = out
	}
}

func hasSubstOperand(r *Invocation) bool {
	for _, o := range r.Operands {
		if o.Arg > 0 && o.Dynamic && len(o.Word) > 2 && o.Word[:2] == "$(" {
			return true
		}
	}
	return false
}

// substOperands returns the paths an operand that is a substitution of
// find or git ls-files can be; ok false when it is not one, or they
// cannot be bounded.
func (c *Classifier) substOperands(r *Invocation, o Operand) ([]Operand, bool) {
	if o.Arg <= 0 || !o.Dynamic || o.Arg >= len(r.Args) || r.Args[o.Arg] != o.Word {
		return nil, false
	}
	argv, ok := shell.SubstCommand(o.Word)
	if !ok {
		return nil, false
	}
	return c.feedOperands(&shell.Feed{Via: "$()", Sep: "ifs", Producer: argv}, r.Env)
}
