package classify

import (
	"io/fs"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// lsFeed: `ls *.log | xargs rm` hands xargs what ls prints, which for a
// file operand is the operand as the shell expanded it, so the run gets
// the glob's matches, as `rm *.log` does (FINDINGS-10 B4). A directory
// operand prints the names in it, bare (relative to where the command
// runs, not to the directory), and a link may lead to one, so any match
// that is (or may be) a directory, an option that prints more than
// names (-l, -R, -F, -Q …), a name the split could cut, or an operand
// airlock cannot list leaves the words unknown. -d prints a directory as
// itself.
func (c *Classifier) lsFeed(f *shell.Feed) ([]Operand, bool) {
	if f.Sep != "blank" && f.Sep != "line" {
		return nil, false
	}
	cut := " \t\n\v\f\r'\"\\"
	if f.Sep == "line" {
		cut = "\n"
	}
	asItself := false // -d
	var words []string
	dd := false
	for _, a := range f.Producer[1:] {
		switch {
		case !dd && a == "--":
			dd = true
		case !dd && strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.HasPrefix(a, "--") {
				return nil, false
			}
			for _, ch := range a[1:] {
				// One name a line, sorted: nothing else is printed.
				if !strings.ContainsRune("1dtrSUXvcu", ch) {
					return nil, false
				}
				asItself = asItself || ch == 'd'
			}
		default:
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		return nil, false // the names in the directory, bare
	}
	var out []Operand
	for _, w := range words {
		if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || hasDotDot(w) || strings.ContainsAny(w, cut) {
			return nil, false
		}
		dir, base := path.Split(w)
		if strings.ContainsAny(dir, "*?[") {
			return nil, false
		}
		if !strings.ContainsAny(base, "*?[") {
			if !c.lsPrintsItself(w, asItself) {
				return nil, false
			}
			out = append(out, Operand{Word: w, Arg: -1})
			continue
		}
		d := strings.TrimSuffix(dir, "/")
		if d == "" {
			d = "."
		}
		entries, err := c.readDir(d)
		if err != nil {
			return nil, false
		}
		for _, e := range entries {
			name := e.Name()
			if ok, err := path.Match(base, name); err != nil || !ok || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
				continue
			}
			if strings.ContainsAny(name, cut) || !c.lsPrintsItself(path.Join(d, name), asItself) {
				return nil, false
			}
		}
		out = append(out, Operand{Word: w, Arg: -1})
	}
	return out, true
}

// lsPrintsItself reports whether ls prints the operand p as it is: a
// file that is not a directory and leads to none, or anything under -d.
func (c *Classifier) lsPrintsItself(p string, asItself bool) bool {
	if asItself {
		return true
	}
	info, err := c.statFile(p) // follows a link, as ls does for an operand
	if err != nil {
		return false
	}
	return info.Mode().Type()&fs.ModeDir == 0
}
