package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file bounds the paths a program that prints paths can print
// (FINDINGS-5 L3, B4): find below its start paths, matching its
// -name/-path pattern; ls its operands (and, for a directory, what is in
// it); git ls-files tracked files below the directory it runs in that
// match its pathspecs; locate any path holding its pattern. A word that
// is such a program's output ($(find . -name '*.pyc'), `git ls-files`),
// or a line read from it through a pipe, is one of those paths: the
// bound is given as operands with no role yet, as feeds.go gives what
// xargs reads, so self-protection and the destruction grades check it
// like any pattern below a start path. A producer with a word known only
// at run time, or an option airlock does not read (find -printf, locate
// --regex), has no bound: its output may be any path.

// SubstProducer returns the argument vector of the command a word runs
// and expands to, when the word is nothing but one command substitution
// ($(…) or `…`, quoted or not) of a simple command with static words and
// no redirection, assignment or wrapper.
func SubstProducer(word string) ([]string, bool) {
	w := word
	if len(w) >= 2 && w[0] == '"' && w[len(w)-1] == '"' {
		w = w[1 : len(w)-1]
	}
	var inner string
	switch {
	case strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")") && !strings.HasPrefix(w, "$(("):
		inner = w[2 : len(w)-1]
	case len(w) >= 2 && w[0] == '`' && w[len(w)-1] == '`' && !strings.Contains(w[1:len(w)-1], "`"):
		inner = w[1 : len(w)-1]
	default:
		return nil, false
	}
	if strings.ContainsAny(inner, "$`()|;&<>\n") {
		return nil, false
	}
	runs := shell.Parse(inner)
	if len(runs) != 1 {
		return nil, false
	}
	r := runs[0]
	if r.Opaque != "" || len(r.Via) > 0 || len(r.Redirects) > 0 || len(r.Env) > 0 || len(r.Args) == 0 {
		return nil, false
	}
	for i := range r.Args {
		if r.IsDynamic(i) {
			return nil, false
		}
	}
	return r.Args, true
}

// PrintsPaths reports whether a run's output is paths a bound can be
// given for (or, when ProducerBound says so, that can be any path).
func PrintsPaths(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "find", "ls", "locate", "mlocate", "plocate":
		return true
	case "git":
		sub, _, ok := GitSubcommand(args[1:])
		return ok && sub == "ls-files"
	}
	return false
}

// ProducerBound returns the paths a producer's output can be, as
// operands (Arg -1, no role) holding a start path, Recursive when what is
// below it counts, and a find-style Pattern; ok is false when the output
// cannot be bounded (a run-time word, an option not read): it may then be
// any path.
func ProducerBound(args []string, dyn []bool) ([]Operand, bool) {
	for i := range args {
		if i < len(dyn) && dyn[i] {
			return nil, false
		}
	}
	if len(args) == 0 {
		return nil, false
	}
	switch args[0] {
	case "find":
		return findBound(args)
	case "ls":
		return lsBound(args)
	case "locate", "mlocate", "plocate":
		return locateBound(args)
	case "git":
		if sub, rest, ok := GitSubcommand(args[1:]); ok && sub == "ls-files" {
			return gitFilesBound(rest)
		}
	}
	return nil, false
}

// findBound: find prints what is below its start paths and matches its
// pattern (every entry when there is none, or it cannot be read).
func findBound(args []string) ([]Operand, bool) {
	// -L and -H follow links: the start paths still bound the names
	// printed, which is what a later reader is given; the links below
	// them are self-protection's to resolve.
	_, starts, expr := findParts(args)
	for _, a := range expr {
		switch a {
		case "-printf", "-fprintf", "-fprint", "-fprint0", "-fls", "-files0-from", "-exec", "-execdir", "-ok", "-okdir":
			return nil, false // prints (or runs) more than paths
		}
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	printed := findPrinted(expr) // findexpr.go: one pattern per alternative
	out := make([]Operand, 0, len(starts))
	for _, s := range starts {
		out = append(out, printed.operands(Operand{Word: s, Arg: -1, Recursive: true})...)
	}
	return out, true
}

// lsBound: ls prints its operands as given (globs, expanded by the
// shell), and the names in a directory operand; -R everything below.
func lsBound(args []string) ([]Operand, bool) {
	var ops []Operand
	dd := false
	for _, a := range args[1:] {
		switch {
		case !dd && a == "--":
			dd = true
		case !dd && strings.HasPrefix(a, "-") && a != "-":
			if strings.HasPrefix(a, "--format") || strings.HasPrefix(a, "--hide") || strings.HasPrefix(a, "--ignore") {
				continue
			}
		default:
			ops = append(ops, Operand{Word: a, Arg: -1, Recursive: true})
		}
	}
	if len(ops) == 0 {
		ops = append(ops, Operand{Word: ".", Arg: -1, Recursive: true})
	}
	return ops, true
}

// locateBound: locate prints every indexed path that holds its pattern
// (or, with a glob character, that the pattern matches whole); a regular
// expression is not read.
func locateBound(args []string) ([]Operand, bool) {
	var out []Operand
	fold := false
	for _, a := range args[1:] {
		switch {
		case a == "-r" || a == "--regexp" || a == "--regex" || strings.HasPrefix(a, "--regexp="):
			return nil, false
		case a == "-i" || a == "--ignore-case":
			fold = true
		case a == "-d" || a == "--database" || strings.HasPrefix(a, "-") && strings.ContainsAny(a, "dnl") && !strings.HasPrefix(a, "--"):
			// a database or a count: the pattern is what bounds
		case strings.HasPrefix(a, "-"):
		default:
			pat := a
			if !strings.ContainsAny(a, "*?[") {
				pat = "/*" + a + "*"
			} else if !strings.Contains(a, "/") {
				pat = "/*" + a
			}
			out = append(out, Operand{Word: "/", Arg: -1, Recursive: true, Pattern: pat})
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	for i := range out {
		out[i].Fold = fold
	}
	return out, true
}

// gitFilesBound: git ls-files lists files below the directory it runs
// in that match its pathspecs; magic, ".." or an absolute pathspec reach
// elsewhere and are not bounded.
func gitFilesBound(rest []string) ([]Operand, bool) {
	var specs []string
	dd := false
	for _, a := range rest {
		switch {
		case !dd && a == "--":
			dd = true
		case !dd && strings.HasPrefix(a, "-"):
			if !gitListOptions(a) && a != "--full-name" && a != "-t" && a != "-v" && a != "-s" && a != "--stage" {
				return nil, false
			}
		default:
			if a == "" || strings.HasPrefix(a, ":") || strings.HasPrefix(a, "/") || hasDotDot(a) {
				return nil, false
			}
			specs = append(specs, a)
		}
	}
	if len(specs) == 0 {
		return []Operand{{Word: ".", Arg: -1, Recursive: true}}, true
	}
	out := make([]Operand, 0, len(specs))
	for _, s := range specs {
		out = append(out, Operand{Word: ".", Arg: -1, Recursive: true, Pattern: "./" + strings.TrimPrefix(strings.TrimSuffix(s, "/"), "./")})
	}
	return out, true
}
