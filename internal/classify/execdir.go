package classify

import (
	"path"
	"regexp"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// find -execdir runs its command in the directory of each file found
// (FINDINGS-10 B11: find . -name package.json -execdir npm test \;). What
// the command reads there (a package's scripts, a makefile) is that
// directory's, not the one the command starts in. When find's -name
// patterns bound what it finds, the directories holding a match are
// listed now and the command is rated in each; otherwise, or past the
// bounds, the command is rated as anywhere (shell.DirUnknown), whose
// relative files cannot be read.

// maxExecDirs bounds the directories an -execdir command is rated in.
const maxExecDirs = 64

// execDirRun rates a run of find -execdir or -okdir in each directory
// holding one of find's matches; ok is false when they cannot be listed.
func (c *Classifier) execDirRun(inv *shell.Invocation, find *shell.Invocation) (Effect, bool) {
	if c.FS == nil || find == nil || len(inv.Via) == 0 {
		return Effect{}, false
	}
	via := inv.Via[len(inv.Via)-1]
	if via != "find -execdir" && via != "find -okdir" {
		return Effect{}, false
	}
	follows, starts, expr := findParts(find.Args)
	if follows {
		return Effect{}, false
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	// The -execdir action of this run: the one whose words it has.
	acts, _, _, ok := findReach(expr)
	if !ok {
		return Effect{}, false
	}
	var bound findSet
	found := false
	for at, b := range acts {
		if expr[at] == strings.TrimPrefix(via, "find ") {
			bound = bound.union(b)
			found = true
		}
	}
	if !found || bound.all || len(bound.pats) == 0 {
		return Effect{}, false
	}
	for _, p := range bound.pats {
		if strings.Contains(p.pattern, "/") {
			return Effect{}, false // a -path pattern: matched on the whole path
		}
	}
	pruned := findExcluded(expr)
	dirs := map[string]bool{}
	n := 0
	var walk func(d string) bool
	walk = func(d string) bool {
		for _, re := range pruned {
			if re.MatchString(d) {
				return true // every match below is excluded (-not -path '*/node_modules/*')
			}
		}
		entries, err := c.readDir(d)
		if err != nil {
			return false
		}
		for _, e := range entries {
			if n++; n > maxFeedWalk {
				return false
			}
			name := e.Name()
			for _, p := range bound.pats {
				pat, nm := p.pattern, name
				if p.fold {
					pat, nm = strings.ToLower(pat), strings.ToLower(nm)
				}
				if ok, err := path.Match(pat, nm); err != nil || ok {
					dirs[d] = true
				}
			}
			// d keeps find's spelling (./a/node_modules), which its
			// -path patterns match.
			if e.Type().IsDir() && name != ".git" && !walk(strings.TrimSuffix(d, "/")+"/"+name) {
				return false
			}
		}
		return true
	}
	for _, s := range starts {
		if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || hasDotDot(s) {
			return Effect{}, false
		}
		if !walk(s) {
			// The matches cannot be listed (too many entries, an
			// unreadable directory): which files the command reads
			// where it runs cannot be known.
			return opaque("find.execdir", "find "+via[len("find "):]+" runs "+inv.Name()+" in the directory of each match, which airlock cannot list"), true
		}
	}
	if len(dirs) > maxExecDirs {
		return opaque("find.execdir", "find "+via[len("find "):]+" runs "+inv.Name()+" in more directories than airlock follows"), true
	}
	var e Effect
	for d := range dirs {
		one := *inv
		one.Dir = path.Clean(d)
		e.Add(c.invocation(&one))
	}
	return e, true
}

// execDirFind returns the find run whose -execdir gave invs[i], the
// nearest find before it that is not itself run by a find.
func execDirFind(invs []shell.Invocation, i int) *shell.Invocation {
	for k := i - 1; k >= 0; k-- {
		r := &invs[k]
		if r.Name() == "find" && (len(r.Via) == 0 || !strings.HasPrefix(r.Via[len(r.Via)-1], "find -")) {
			return r
		}
	}
	return nil
}

// findExcluded returns, for an expression that is one conjunction (no
// -o, "," or parentheses), the directories whose whole contents a
// negated -path test excludes: -not -path 'P/*' excludes everything
// below a directory P matches, "*" crossing "/" as in -path.
func findExcluded(expr []string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for j, a := range expr {
		switch a {
		case "-o", "-or", ",", "(", ")":
			return nil
		}
		if (a == "!" || a == "-not") && j+2 < len(expr) && (expr[j+1] == "-path" || expr[j+1] == "-wholename") {
			p, ok := strings.CutSuffix(expr[j+2], "/*")
			if !ok || p == "" {
				continue
			}
			var b strings.Builder
			b.WriteString("^")
			for _, r := range p {
				switch r {
				case '*':
					b.WriteString(".*")
				case '?':
					b.WriteString(".")
				case '[', '\\':
					return out // a class or an escape: not read
				default:
					b.WriteString(regexp.QuoteMeta(string(r)))
				}
			}
			b.WriteString("$")
			if re, err := regexp.Compile(b.String()); err == nil {
				out = append(out, re)
			}
		}
	}
	return out
}
