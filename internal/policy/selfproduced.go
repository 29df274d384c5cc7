package policy

import (
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file is the phase of self-protection for paths another program
// prints (FINDINGS-5 L3): cat $(find ~/.local -name serve.token), find …
// | while read f; do cat $f; done, ls -d ~/.local/state/*/* | xargs cat.
// The word a reader is given is known only at run time, but the program
// that prints it bounds it (classify/producers.go): find's start paths and
// pattern, ls's operands, locate's pattern. When a bound reaches airlock's
// secrets, a word known only at run time in the same command may be one
// of them: it is refused, whichever way the printed path travels (a
// substitution, a loop variable, a pipe into read or xargs, a process
// substitution). A producer with no bound (locate --regex, find -printf,
// a start path known only at run time) may print any path, the secrets
// included, and counts as reaching them when its pattern could match a
// secret's name. Bounds that leave the secrets alone change nothing:
// grep foo $(find . -name '*.go') is checked as before. This phase only
// adds refusals; a $(find …) operand made exact for the destruction
// grades and writes is classify's (substs), which also checks that the
// shell's split cannot cut a printed path.

// listedSecrets returns how the command prints paths that may be
// airlock's secrets (the producer's text and what it reaches), or "".
func (c *call) listedSecrets(r *classify.Result) string {
	if c.g.secrets.path == "" {
		return ""
	}
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if inv.Opaque != "" || !classify.PrintsPaths(inv.Args) {
			continue
		}
		// ls "$(mktemp -d)" lists a new directory: a known start.
		args, dyn := c.g.knownArgs(inv)
		bounds, ok := classify.ProducerBound(args, dyn)
		if !ok {
			if c.anyNameMatches(args) {
				return clipText(inv.Source) + ", whose output airlock cannot bound,"
			}
			continue
		}
		// The producer runs where the text's cd left it (cd ~/.local &&
		// cat $(find . -name serve.token)); unknown there, a relative
		// start may be anywhere.
		dirs := c.cwds
		switch inv.Dir {
		case "":
		case shellparse.DirUnknown:
			for _, b := range bounds {
				if !filepath.IsAbs(b.Word) && !strings.HasPrefix(b.Word, "~") && c.anyNameMatches(inv.Args) {
					return clipText(inv.Source) + ", run in a directory known only when the command runs,"
				}
			}
		default:
			dirs = append(append([]string(nil), dirs...), filepath.Clean(c.g.rawAbs(inv.Dir, c.cwds[0])))
		}
		for _, b := range bounds {
			for _, d := range dirs {
				if reached, ok := c.boundReachesSecrets(b, d); ok {
					return clipText(inv.Source) + " (which reaches " + reached + ")"
				}
			}
		}
	}
	return ""
}

// anyNameMatches reports whether a producer with no bound may print a
// secret: a -name/-iname pattern, or a locate pattern, is read as the
// only bound left (what matches none of the secrets' names prints none);
// with none, any path may be printed.
func (c *call) anyNameMatches(args []string) bool {
	var pats []string
	for _, a := range args[1:] {
		if args[0] != "find" && (a == "-r" || strings.HasPrefix(a, "--regex")) {
			return true // a regular expression: any path
		}
	}
	for i := 1; i < len(args); i++ {
		switch args[0] {
		case "find":
			if (args[i] == "-name" || args[i] == "-iname") && i+1 < len(args) {
				pats = append(pats, args[i+1])
			}
		default:
			if !strings.HasPrefix(args[i], "-") {
				pats = append(pats, "*"+args[i]+"*")
			}
		}
	}
	if len(pats) == 0 {
		return true
	}
	names := []string{filepath.Base(c.g.secrets.path)}
	if ents, err := c.g.fs.ReadDir(c.g.secrets.path); err == nil && len(ents) <= maxPatternEntries {
		for _, e := range ents {
			names = append(names, e.Name())
		}
	} else {
		return true
	}
	for _, p := range pats {
		for _, n := range names {
			if ok, err := filepath.Match(strings.ToLower(p), strings.ToLower(n)); ok || err != nil {
				return true
			}
		}
	}
	return false
}

// boundReachesSecrets reports whether a producer's bound (a start word,
// perhaps a glob, with what is below it and a find pattern) can name
// airlock's secrets directory or a file in it, relative to directory d.
func (c *call) boundReachesSecrets(b classify.Operand, d string) (string, bool) {
	sec := c.g.secrets
	if hasGlob(b.Word) {
		h, ok := c.secretPath(b.Word, d)
		if ok && (!h.ancestor || b.Pattern != "") {
			return h.path, true
		}
		return "", false
	}
	abs := filepath.Clean(c.g.rawAbs(b.Word, d))
	starts := []string{abs}
	if real, unknown := c.res.resolve(abs); unknown {
		return abs + " (through a symlink whose target is known only when it runs)", true
	} else if real != abs {
		starts = append(starts, real)
	}
	for _, s := range starts {
		if within(s, sec) {
			return s, true
		}
		if !isAncestor(s, sec) {
			continue
		}
		if b.Pattern == "" {
			return sec.path, true
		}
		rel := strings.TrimPrefix(sec.path[len(s):], "/")
		if patternBelow(b, b.Word, rel) {
			return sec.path, true
		}
		if inner, ok := c.dirMatches(sec.path, func(r string) bool { return patternBelow(b, b.Word, rel+"/"+r) }); ok {
			return inner, true
		}
	}
	return "", false
}

// listedRefusal is the refusal of a word known only at run time in a
// command that prints paths reaching airlock's secrets.
func (c *call) listedRefusal(who, word string) *refusal {
	return &refusal{RuleProtectedPath, who + " is given " + clipText(word) + ", a path known only when the command runs, and the command prints paths that may be airlock's secrets: " + c.listed +
		"; the agent may not read them. Name the files literally, or narrow the search so it leaves " + c.g.secrets.path + " alone." + instead}
}
