package policy

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file grades the emptying of a file through a link (FINDINGS-9 T3,
// T4): classify does not rate : > F destruction when F does not exist now,
// or when F is written as a temporary path, but a link the same command
// makes first (ln -sfn ~/docs build/y && : > build/y/a.txt, ln ~/docs/a.txt
// build/o && : > build/o), or one that already exists in the temporary
// directory (/tmp/w -> ~/docs; : > /tmp/w/a.txt), leads it to a file of
// the human's. Such a run becomes a deletion, graded like truncate.

// markEmptyingThroughLinks rates destructive the runs of r that empty a
// file (: > F, true > F, cat /dev/null > F) through a link: one an earlier
// run of the command makes over F or a directory above it, or one in the
// temporary directory that leads out of it now.
func markEmptyingThroughLinks(r *classify.Result, cwd, home string, fsys fileSystem) {
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if inv.Effect.Destructive || inv.Group {
			continue
		}
		type target struct {
			word    string
			dynamic bool
		}
		var targets []target
		if emptiesOnly(inv) {
			for _, rd := range inv.Redirects {
				if rd.Op == ">" || rd.Op == ">|" || rd.Op == "&>" {
					targets = append(targets, target{rd.Target, rd.Dynamic})
				}
			}
		}
		for _, k := range teeEmptied(inv) {
			targets = append(targets, target{inv.Args[k], inv.IsDynamic(k)})
		}
		for _, rd := range targets {
			if strings.HasPrefix(rd.word, "/dev/") {
				continue
			}
			why := ""
			if maker := linkedBy(r, inv, rd.word, cwd, home); maker != "" {
				why = maker + " makes a link in the same command that " + rd.word + " goes through: emptying it empties what the link leads to"
			} else if !rd.dynamic && tempLeadsOut(rd.word, home, fsys) {
				why = rd.word + " goes through a link out of the temporary directory: emptying it empties what the link leads to"
			}
			if why == "" {
				continue
			}
			x := classify.Reason{Rule: "file.empty", Message: why}
			inv.Effect.Destructive = true
			inv.Effect.Reasons = append(inv.Effect.Reasons, x)
			r.Effect.Destructive = true
			r.Effect.Reasons = append(r.Effect.Reasons, x)
			break
		}
	}
}

// emptiesOnly reports a run that writes nothing through its truncating
// redirections (: > F, true > F, cat /dev/null > F).
func emptiesOnly(inv *classify.Invocation) bool {
	if len(inv.Via) > 0 || inv.Remote != "" || len(inv.Redirects) == 0 {
		return false
	}
	switch inv.Name() {
	case "", ":", "true", "false":
		return true
	case "cat":
		for i, a := range inv.Args[1:] {
			if a != "/dev/null" || inv.IsDynamic(i+1) {
				return false
			}
		}
		return true
	case "echo":
		// echo > F writes one newline: F's contents are gone all the
		// same (echo -n, echo "" too).
		for i, a := range inv.Args[1:] {
			if inv.IsDynamic(i+1) || strings.TrimSpace(a) != "" && a != "-n" && a != "-e" && a != "-E" {
				return false
			}
		}
		return true
	case "printf":
		return len(inv.Args) == 2 && inv.Args[1] == "" && !inv.IsDynamic(1)
	}
	return false
}

// teeEmptied returns the indices of the files tee fed nothing
// (< /dev/null) and not appending empties.
func teeEmptied(inv *classify.Invocation) []int {
	if inv.Name() != "tee" || len(inv.Via) > 0 || inv.Remote != "" {
		return nil
	}
	fromNull := false
	for _, r := range inv.Redirects {
		if r.Op == "<" && !r.Dynamic && r.Target == "/dev/null" {
			fromNull = true
		}
	}
	if !fromNull {
		return nil
	}
	var out []int
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if !inv.IsDynamic(i) && (a == "-a" || a == "--append" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "a")) {
			return nil
		}
		if strings.HasPrefix(a, "-") && !inv.IsDynamic(i) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// linkedBy returns the name of a run of r, not after inv, that makes a
// link at target or at a directory above it (ln, link, cp -s, cp -l), or
// "" for none. Words are compared as written, quotes aside (ln -s X
// "$d/f"; : > $d/f), and as absolute paths from cwd ($PWD/build/y and
// build/y); a target known only at run time otherwise may be any link.
func linkedBy(r *classify.Result, inv *classify.Invocation, target, cwd, home string) string {
	t := cleanWord(target)
	at := absForm(t, cwd, home)
	for i := range r.Invocations {
		o := &r.Invocations[i]
		if o == inv || inv.Seq > 0 && o.Seq > inv.Seq {
			continue
		}
		made := madeLinks(o)
		if len(made) > 0 && movesOnlyScratch(o) {
			continue // ln $t/a $t/b: a link from scratch to scratch
		}
		if len(made) > 0 && at == "" {
			return o.Name()
		}
		// The analysis may already read the link's name as its source
		// (ln ~/docs/a.txt build/o; echo > build/o empties ~/docs/a.txt):
		// a source is where the link leads.
		if len(made) > 0 {
			made = append(made, linkSources(o)...)
		}
		for _, m := range made {
			am := absForm(m, cwd, home)
			if m == "" || t == m || strings.HasPrefix(t, m+"/") || am == "" || at == am || strings.HasPrefix(at, am+"/") {
				return o.Name()
			}
		}
	}
	return ""
}

// absForm is a cleaned path word made absolute from cwd, with $PWD and
// home's spellings read; "" when a run-time part is left.
func absForm(w, cwd, home string) string {
	if w == "" {
		return ""
	}
	for _, pre := range []string{"$PWD", "${PWD}", "$(pwd)", "`pwd`"} {
		if w == pre || strings.HasPrefix(w, pre+"/") {
			w = cwd + w[len(pre):]
		}
	}
	for _, pre := range []string{"~", "$HOME", "${HOME}"} {
		if home != "" && (w == pre || strings.HasPrefix(w, pre+"/")) {
			w = home + w[len(pre):]
		}
	}
	if strings.ContainsAny(w, "$`") {
		return ""
	}
	if !filepath.IsAbs(w) {
		if cwd == "" {
			return ""
		}
		w = filepath.Join(cwd, w)
	}
	return filepath.Clean(w)
}

// madeLinks returns the paths a run makes a link at, as written: ln's and
// link's last operand (or -t's directory), and that directory with each
// source's name; cp -s, cp -l, cp -al the same. "" stands for a link
// whose place cannot be told (a run-time word in the options).
func madeLinks(o *classify.Invocation) []string {
	name := o.Name()
	args := o.Args
	if name == "busybox" || name == "toybox" {
		if len(args) < 2 {
			return nil
		}
		name, args = args[1], args[1:]
	}
	links := name == "ln" || name == "link"
	if name == "cp" {
		for _, a := range args[1:] {
			if a == "--symbolic-link" || a == "--link" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "sl") {
				links = true
			}
		}
	}
	if !links {
		return nil
	}
	var ops []string
	dir := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-t" || a == "--target-directory" || a == "-S" || a == "--suffix":
			if i+1 < len(args) && (a == "-t" || a == "--target-directory") {
				dir = cleanWord(args[i+1])
			}
			i++
		case strings.HasPrefix(a, "--target-directory="):
			dir = cleanWord(strings.TrimPrefix(a, "--target-directory="))
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops = append(ops, cleanWord(a))
		}
	}
	if dir == "" {
		if len(ops) == 0 {
			return nil
		}
		if len(ops) == 1 {
			return []string{filepath.Base(ops[0])} // ln -s X: ./X
		}
		dir = ops[len(ops)-1]
		ops = ops[:len(ops)-1]
	}
	out := []string{dir}
	for _, s := range ops {
		out = append(out, filepath.Join(dir, filepath.Base(s)))
	}
	return slices.Compact(out)
}

// linkSources returns the sources of a link maker's run (ln, link, cp
// -s/-l), as written and cleaned: every operand but the last, unless -t
// names the directory.
func linkSources(o *classify.Invocation) []string {
	args := o.Args
	if n := o.Name(); (n == "busybox" || n == "toybox") && len(args) > 1 {
		args = args[1:]
	}
	var ops []string
	target := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-t" || a == "--target-directory" || a == "-S" || a == "--suffix":
			target = target || a == "-t" || a == "--target-directory"
			i++
		case strings.HasPrefix(a, "--target-directory="):
			target = true
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops = append(ops, cleanWord(a))
		}
	}
	if !target && len(ops) > 1 {
		ops = ops[:len(ops)-1]
	}
	return ops
}

// cleanWord is a path word without its quotes, cleaned.
func cleanWord(w string) string {
	w = strings.ReplaceAll(strings.ReplaceAll(w, `"`, ""), `'`, "")
	if w == "" {
		return ""
	}
	return filepath.Clean(w)
}

// tempLeadsOut reports a path written in the temporary directory that
// leads out of it, or into home, through the links that exist now.
func tempLeadsOut(w, home string, fsys fileSystem) bool {
	c := filepath.Clean(w)
	if !inTempDir(c) {
		return false
	}
	return !leadsToScratch(c, home, fsys)
}
