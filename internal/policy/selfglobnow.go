package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// A glob a program writes, creates or deletes through (rm -rf build/*,
// sed -i src/*.py) is expanded by the shell just before the program
// runs. Checked as the pattern it is written as, its last part may match
// any protected name anywhere (build/* could be build/opencode.json), so
// every such glob was refused (FINDINGS-5 B3). When nothing else in the
// command can change what the glob matches, what it matches is what the
// directory holds now: each match is checked by its own name, with the
// same role. Anything airlock cannot list exactly stays a pattern (fail
// closed).

// maxGlobNow bounds the matches globNow names; past it the glob is
// checked as the pattern it is written as.
const maxGlobNow = 256

// globNow names the entries a glob operand matches now. ok is false when
// that cannot be read exactly: a glob before the last part, "**", an
// extended pattern, another run of the command that may create or
// change files first, a directory that cannot be listed, too many
// matches.
func (c *call) globNow(o classify.Operand, w, d string) ([]string, bool) {
	if c.changers > 1 || o.From != "" || o.Dynamic || o.Role == classify.RoleRead || o.Role == classify.RoleExec || !hasGlob(w) {
		return nil, false
	}
	dir, pat := filepath.Split(w)
	if pat == "" || hasGlob(dir) || strings.Contains(pat, "**") || strings.Contains(pat, "(") {
		return nil, false
	}
	list := dir
	if list == "" {
		list = "."
	}
	// Where the glob's directory holds or is inside a protected path of
	// its own (airlock's files, its secrets, the project's hook
	// settings), the pattern is checked as written: a protected file
	// that is not there now may still not be named.
	at := filepath.Clean(c.g.rawAbs(list, d))
	cands := append(append([]target(nil), c.g.targets...), c.project()...)
	if c.g.secrets.path != "" {
		cands = append(cands, c.g.secrets)
	}
	for _, t := range cands {
		if t.path == at || isAncestor(at, t) || within(at, t) {
			return nil, false
		}
	}
	// A glob that matches nothing stays the word as written: a file of
	// that name is what a writer creates (tee dir/x? makes "x?"), so only
	// a deletion has nothing to check then.
	deletes := o.Role == classify.RoleDelete
	entries, err := c.g.fs.ReadDir(at)
	if errors.Is(err, fs.ErrNotExist) && deletes {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	// The shell's match, with case folded (nocaseglob): more matches
	// are only more names checked.
	pattern := strings.ToLower(strings.ReplaceAll(pat, "[!", "[^"))
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") && !strings.HasPrefix(pat, ".") && !c.dotglob {
			continue // the shell's * does not match a leading dot
		}
		ok, err := filepath.Match(pattern, strings.ToLower(n))
		if err != nil {
			return nil, false
		}
		if !ok {
			continue
		}
		if len(out) == maxGlobNow {
			return nil, false
		}
		out = append(out, dir+n)
	}
	if len(out) == 0 && !deletes {
		return nil, false
	}
	return out, true
}

// countChangers counts the runs of a command, followed scripts included,
// that may create, change or delete a file: an operand other than a read,
// a writing redirection, or a run airlock cannot read. A glob is read
// now only when its own run is the only one.
func countChangers(r *classify.Result) int {
	n := 0
	for _, runs := range [][]classify.Invocation{r.Invocations, r.Followed} {
		for i := range runs {
			if changes(&runs[i]) {
				n++
			}
		}
	}
	return n
}

func changes(inv *classify.Invocation) bool {
	if inv.Opaque != "" || inv.Effect.Opaque {
		return true
	}
	for _, o := range inv.Operands {
		if o.Role != classify.RoleRead && o.Role != classify.RoleExec {
			return true
		}
	}
	for _, rd := range inv.Redirects {
		if rd.Writes() && rd.Target != "/dev/null" {
			return true
		}
	}
	return false
}

// codeSource is the shell text a run's code is read from besides its own
// words: the simple command it came from, except when find -exec, find
// -ok, xargs or parallel started it. Their other words are find's
// expression (-not -path './.venv/*' is no path sed's code writes:
// FINDINGS-5 B5) or xargs's options, checked as their own runs; the
// run's own words still hold all of its code. find -execdir and -okdir
// keep the whole text: they run in the found file's directory.
func codeSource(inv *classify.Invocation) string {
	if n := len(inv.Via); n > 0 {
		switch inv.Via[n-1] {
		case "find -exec", "find -ok", "xargs", "parallel":
			return ""
		}
	}
	return inv.Source
}
