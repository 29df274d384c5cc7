package gate

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The ledger is the evidence half of the gate: PostToolUse events record
// what the agent actually read and searched (State.Reads, State.Searches),
// and the first edit of a file that was read, and whose importers were
// searched for, within the evidence window passes without a denial.

// genericStems are file names that say nothing about who imports the file:
// importers name its directory instead ("./utils" for utils/index.js), or
// nothing imports it at all.
var genericStems = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"index": true, "main": true, "mod": true, "__init__": true, "__main__": true, "init": true,
		"lib": true, "default": true, "app": true, "module": true, "package": true,
	}
})

// genericDirs are directory names too common to mean a search looked for
// this file's package. Both maps are built on first use, not at the
// initialisation every hook call runs.
var genericDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"src": true, "lib": true, "internal": true, "pkg": true, "app": true, "cmd": true, "source": true,
		"sources": true, "java": true, "js": true, "ts": true, "scripts": true, "bin": true, "test": true, "tests": true,
		"main": true, "com": true, "org": true, "code": true,
	}
})

// importNames are the names a search for the files that import target
// would contain: its file name without extension (unless generic), its
// file name, its directory's name (the package, for Go and Java; the
// module, for index files) unless that is the project root or generic,
// and its path from the root without extension, and its directory's path
// when that has more than one segment (import paths end with these).
func importNames(target, root string) []string {
	base := strings.ToLower(filepath.Base(target))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var names []string
	add := func(n string) {
		if len(n) < 2 {
			return
		}
		for _, have := range names {
			if have == n {
				return
			}
		}
		names = append(names, n)
	}
	if !genericStems()[stem] {
		add(stem)
	}
	add(base)
	dir := filepath.Dir(target)
	if dir != filepath.Clean(root) && dir != filepath.Dir(dir) {
		if d := strings.ToLower(filepath.Base(dir)); !genericDirs()[d] {
			add(d)
		}
	}
	// Import paths name the file or its package from the root:
	// "internal/x" (a module path ends with it), "internal/gate".
	if rel, err := filepath.Rel(root, target); err == nil && root != "" && !strings.HasPrefix(rel, "..") && strings.Contains(rel, string(filepath.Separator)) {
		rel = strings.ToLower(filepath.ToSlash(rel))
		add(strings.TrimSuffix(rel, filepath.Ext(rel)))
		if d := path.Dir(rel); strings.Contains(d, "/") {
			add(d)
		}
	}
	return names
}

// mentions reports whether a search pattern names one of names as a whole
// word (not inside a longer identifier), after dropping regular-expression
// escapes, so "utils\.js", "from './utils'" and "internal/gate\"" count.
func mentions(pattern string, names []string) (string, bool) {
	p := strings.ToLower(strings.ReplaceAll(pattern, `\`, ""))
	for _, n := range names {
		for i := 0; ; {
			j := strings.Index(p[i:], n)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(n)
			if (start == 0 || !isIdent(p[start-1])) && (end == len(p) || !isIdent(p[end])) {
				return n, true
			}
			i = start + 1
		}
	}
	return "", false
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// evidence is what the ledger shows for one file.
type evidence struct {
	read   *Read
	search *Search
	// near explains the closest search that did not count, if any.
	near string
}

func (e evidence) complete() bool { return e.read != nil && e.search != nil }

// evidenceFor looks through the ledger for a read of target and a search
// for its importers, both at or after since.
func (st *State) evidenceFor(target, root string, since int64) evidence {
	var e evidence
	for i := len(st.Reads) - 1; i >= 0; i-- {
		if r := &st.Reads[i]; r.At >= since && r.Path == target {
			e.read = r
			break
		}
	}
	names := importNames(target, root)
	for i := len(st.Searches) - 1; i >= 0; i-- {
		s := &st.Searches[i]
		if s.At < since {
			continue
		}
		name, ok := mentions(s.Pattern, names)
		if !ok {
			continue
		}
		switch {
		case !s.Content:
			if e.near == "" {
				e.near = fmt.Sprintf("%s %q finds files by name; it does not show which files import this one", s.Tool, s.Pattern)
			}
		case onlyTarget(s, target):
			if e.near == "" {
				e.near = fmt.Sprintf("%s for %q looked only inside the file itself, not for the files that use it", s.Tool, name)
			}
		default:
			e.search = s
			return e
		}
	}
	return e
}

// onlyTarget reports whether a search looked only inside target.
func onlyTarget(s *Search, target string) bool {
	if len(s.Paths) == 0 {
		return false
	}
	for _, p := range s.Paths {
		if p != target {
			return false
		}
	}
	return true
}

// missing says, for a denial, what evidence the ledger still lacks.
func (e evidence) missing(display string, names []string, window time.Duration) string {
	var parts []string
	if e.read == nil {
		parts = append(parts, "a Read of "+display)
	}
	if e.search == nil {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		parts = append(parts, "a search for the files that import it (Grep, grep or rg for "+orList(quoted)+")")
	}
	if len(parts) == 0 {
		return ""
	}
	s := "Evidence airlock has not seen for " + display + " in the last " + shortDuration(window) + ": " + strings.Join(parts, "; ") + "."
	if e.near != "" {
		s += " (" + capitalize(e.near) + ".)"
	}
	return s
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// shortDuration renders 30m0s as "30m" and 1h0m0s as "1h".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
