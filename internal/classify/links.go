package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the links a command makes before it writes through
// them (FINDINGS-8 H9): after ln SRC "$t/h" (a hard link), ln -s /abs
// "$t/h" or cp -l/-al SRC "$t/h", the name "$t/h" is the file SRC itself,
// wherever it is: : > "$t/h" empties SRC, and a scratch name in a new
// temporary directory does not make it scratch. The later runs of the
// command are rated with SRC in place of the link's name (and of any
// path below it); a run that only removes or moves names (rm, unlink,
// mv) keeps them, since it leaves SRC as it is.

// linkAlias is one link a run makes: name is the link, target the file it
// is, as written (the target's word is dynamic when dyn).
type linkAlias struct {
	name, target string
	dyn          bool
}

// linkMade returns the link a run of ln or cp -l makes from two
// operands (ln [-s] [-f] SRC NAME), when NAME is a word of the command
// (static or computed) and SRC a path a symbolic link would read the same
// from anywhere (absolute or ~), or any path for a hard link.
func linkMade(inv *shell.Invocation) (linkAlias, bool) {
	if inv.Opaque != "" || len(inv.Args) < 3 || len(inv.Redirects) > 0 && inv.Name() != "ln" {
		return linkAlias{}, false
	}
	var p argv.Parsed
	symbolic := false
	switch inv.Name() {
	case "ln":
		p = argv.Spec{Short: "St", Long: []string{"--suffix", "--target-directory"}}.Parse(inv.Args[1:])
		symbolic = p.Has("-s", "--symbolic")
		for _, f := range p.Flags {
			if len(f.Name) > 2 && f.Name[1] != '-' && strings.ContainsRune(f.Name, 's') {
				symbolic = true
			}
		}
	case "cp":
		p = argv.Spec{Short: "St", Long: []string{"--suffix", "--target-directory", "--backup", "--sparse", "--reflink", "--preserve", "--no-preserve"}}.Parse(inv.Args[1:])
		linked := p.Has("-l", "--link", "-s", "--symbolic-link")
		for _, f := range p.Flags {
			if len(f.Name) > 2 && f.Name[1] != '-' && strings.ContainsAny(f.Name, "ls") {
				linked = true
			}
		}
		if !linked {
			return linkAlias{}, false
		}
		symbolic = p.Has("-s", "--symbolic-link")
	default:
		return linkAlias{}, false
	}
	if len(p.OperandIndex) != 2 || p.Has("-t", "--target-directory") {
		return linkAlias{}, false
	}
	si, ni := p.OperandIndex[0]+1, p.OperandIndex[1]+1
	src, name := inv.Args[si], inv.Args[ni]
	if symbolic && !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~/") {
		return linkAlias{}, false // read from the link's directory
	}
	return linkAlias{name: unquoted(name), target: src, dyn: inv.IsDynamic(si)}, true
}

// unquoted drops the double quotes of a computed word's text, so that
// "$t/h" and $t/h compare alike.
func unquoted(w string) string { return strings.ReplaceAll(w, `"`, "") }

// throughLinks rewrites a run's words that name a link an earlier run of
// the command made (linkMade) to the file it is.
func (c *Classifier) throughLinks(inv *shell.Invocation, before []shell.Invocation) {
	c.linked = nil
	if c.cc != nil && c.cc.changesDir() || inv.Opaque != "" || len(inv.Args) == 0 {
		return
	}
	switch inv.Name() {
	case "rm", "unlink", "rmdir", "mv", "ln", "trash", "trash-put", "rename":
		return // they remove or move the name, not the file
	}
	var links []linkAlias
	for i := range before {
		if l, ok := linkMade(&before[i]); ok {
			links = append(links, l)
		}
	}
	if len(links) == 0 {
		return
	}
	through := func(w string) (string, bool, bool) {
		u := unquoted(w)
		for k := len(links) - 1; k >= 0; k-- {
			l := links[k]
			if u == l.name {
				return l.target, l.dyn, true
			}
			if rest, ok := strings.CutPrefix(u, strings.TrimSuffix(l.name, "/")+"/"); ok && !strings.ContainsAny(rest, "$`") {
				return path.Join(l.target, rest), l.dyn, true
			}
		}
		return "", false, false
	}
	copied := false
	for j := 1; j < len(inv.Args); j++ {
		if t, dyn, ok := through(inv.Args[j]); ok {
			if !copied {
				inv.Args = slices.Clone(inv.Args)
				dyns := make([]bool, len(inv.Args))
				copy(dyns, inv.Dynamic)
				inv.Dynamic = dyns
				copied = true
			}
			inv.Args[j], inv.Dynamic[j] = t, dyn
			c.linked = append(c.linked, t)
		}
	}
	cloned := false
	for j, r := range inv.Redirects {
		if strings.HasPrefix(r.Target, "&") {
			continue
		}
		if t, dyn, ok := through(r.Target); ok {
			if !cloned {
				inv.Redirects, cloned = slices.Clone(inv.Redirects), true
			}
			inv.Redirects[j].Target, inv.Redirects[j].Dynamic = t, dyn
			c.linked = append(c.linked, t)
		}
	}
	if copied && !slices.Contains(inv.Dynamic, true) {
		inv.Dynamic = nil
	}
}
