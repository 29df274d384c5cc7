package classify

import (
	"bytes"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file gives the arguments xargs and parallel read at run time
// ("{xargs input}") the paths they can be, as placeholders does for find
// -exec's "{}". It is the same reasoning: what find prints lies below its
// start paths and matches its pattern, so `find . -name '*.pyc' -print0 |
// xargs -0 rm -f` deletes what `find . -name '*.pyc' -delete` deletes;
// `git ls-files -z PATHSPEC` lists tracked files below the directory it
// runs in that match the pathspec; a list file read with -a FILE or
// < FILE names its paths now. Anything else stays a word known only at
// run time, which self-protection and the destruction grades treat as
// anywhere (fail closed).
//
// The words are exact only when the split cannot cut a path in two: with
// NUL-separated input, or when no name below the start paths holds what
// the split cuts on (blanks, quotes and backslashes for xargs's default,
// newlines for one argument a line): a directory named "a " holding
// "etc/passwd" would otherwise make find print "./a /etc/passwd", which
// xargs hands over as "./a" and "/etc/passwd".

// maxFeedWalk bounds the entries listed to check that no name below a
// start path can be split; past it the words stay unknown.
const maxFeedWalk = 20000

// maxFeedWords bounds the paths read from a list file.
const maxFeedWords = 1000

// feedPlaceholder reports the word shell puts for arguments read at run
// time.
func feedPlaceholder(w string) bool { return w == "{xargs input}" || w == "{parallel input}" }

// feeds replaces, in each run fed by xargs or parallel, the operand that
// stands for the input by the paths it can be.
func (c *Classifier) feeds(runs []Invocation) {
	for i := range runs {
		r := &runs[i]
		if r.Feed == nil || r.Opaque != "" {
			continue
		}
		var at []int
		for k, o := range r.Operands {
			if o.Arg > 0 && o.Dynamic && feedPlaceholder(o.Word) {
				at = append(at, k)
			}
		}
		if len(at) == 0 {
			continue
		}
		if r.Feed.Sep != "nul" || r.Feed.File != "" {
			// What is read or walked now must be what the run gets: no
			// other run of the command may write or make anything first
			// (mkdir "a " beside a find | xargs, a list written then read),
			// and the run must happen where the command starts, which is
			// where the filesystem is read from (not after a cd).
			if othersWrite(runs, i) || r.Dir != "" {
				continue
			}
		}
		derived, ok := c.feedOperands(r.Feed, r.Env)
		if !ok {
			continue
		}
		var out []Operand
		for k, o := range r.Operands {
			if len(at) == 0 || k != at[0] {
				out = append(out, o)
				continue
			}
			at = at[1:]
			for _, d := range derived {
				d.Role = o.Role
				d.Recursive = d.Recursive || o.Recursive
				out = append(out, d)
			}
		}
		r.Operands = out
	}
}

// othersWrite reports whether a run other than runs[skip] writes,
// creates, deletes or moves a path, or does something to one airlock
// does not know.
func othersWrite(runs []Invocation, skip int) bool {
	for k := range runs {
		if k == skip {
			continue
		}
		if runs[k].Opaque != "" || runs[k].Effect.Opaque {
			return true
		}
		for _, o := range runs[k].Operands {
			if o.Role != RoleRead && o.Role != RoleExec && o.Word != "/dev/null" {
				return true
			}
		}
		for _, rd := range runs[k].Redirects {
			if rd.Writes() && rd.Target != "/dev/null" {
				return true
			}
		}
	}
	return false
}

// feedOperands returns the paths a feed's input can be, as operands with
// no role yet; ok is false when they cannot be bounded.
func (c *Classifier) feedOperands(f *shell.Feed, env []string) ([]Operand, bool) {
	switch {
	case f.File != "":
		return c.listFile(f)
	case len(f.Producer) == 0:
		return nil, false
	case f.Producer[0] == "find":
		return c.findFeed(f)
	case f.Producer[0] == "ls":
		return c.lsFeed(f) // lsfeed.go
	case f.Producer[0] == "git":
		for _, e := range env {
			if strings.HasPrefix(e, "GIT_") {
				return nil, false // GIT_DIR, GIT_WORK_TREE: another repository's files
			}
		}
		return c.gitFilesFeed(f)
	}
	return nil, false
}

// findParts splits a find command line into whether it follows symbolic
// links (-H, -L), its start paths and its expression; the leading options
// (-P, -O3, -D debug) are skipped. The one reading of find's words that
// the feeds (find | xargs) and the producers ($(find …)) share.
func findParts(args []string) (follows bool, starts, expr []string) {
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-P" || strings.HasPrefix(a, "-O"):
		case a == "-H" || a == "-L":
			follows = true
		case a == "-D":
			i++ // debug options: find -D tree . …
		default:
			goto starts
		}
	}
starts:
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "," {
			break
		}
		starts = append(starts, a)
	}
	if i > len(args) {
		i = len(args)
	}
	return follows, starts, args[i:]
}

// findFeed: what find prints lies below its start paths and matches its
// pattern, when find follows no link and prints nothing but paths.
func (c *Classifier) findFeed(f *shell.Feed) ([]Operand, bool) {
	args := f.Producer
	follows, starts, expr := findParts(args)
	if follows {
		return nil, false // follows symbolic links out of its start paths
	}
	print0 := false
	for _, a := range expr {
		switch a {
		case "-print0":
			print0 = true
		case "-L", "-H", "-follow", "-exec", "-execdir", "-ok", "-okdir", "-printf", "-fprintf", "-fprint", "-fprint0",
			"-ls", "-fls", "-delete", "-files0-from":
			return nil, false // follows links, or prints (or does) more than paths
		}
	}
	if print0 != (f.Sep == "nul") {
		return nil, false
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	printed := findPrinted(expr) // findexpr.go: one pattern per alternative
	var out []Operand
	for _, s := range starts {
		if !print0 && !c.unsplittable(s, f.Sep) {
			return nil, false
		}
		out = append(out, printed.operands(Operand{Word: s, Arg: -1, Recursive: true})...)
	}
	return out, true
}

// gitListOptions are the git ls-files options that change which tracked
// or untracked files are listed, not how they are printed.
func gitListOptions(name string) bool {
	switch name {
	case "-z", "-c", "--cached", "-o", "--others", "-m", "--modified", "-d", "--deleted", "-i",
		"--ignored", "--exclude-standard", "--directory", "--no-empty-directory", "--":
		return true
	}
	return false
}

// gitFilesFeed: git ls-files lists files below the directory it runs in,
// relative to it, matching its pathspecs (never .git, never through a
// symbolic link). A pathspec with magic (":/" is the top of the
// worktree), ".." or an absolute path can list files elsewhere.
func (c *Classifier) gitFilesFeed(f *shell.Feed) ([]Operand, bool) {
	args := f.Producer
	if len(args) < 2 || args[1] != "ls-files" {
		return nil, false
	}
	// tracked: what is listed is in the index (not -o's untracked
	// files, -i's ignored ones, --directory's directories).
	// deleted: only -d (--deleted) chooses what is listed, so every
	// path is a tracked file absent from the work tree (FINDINGS-10 B3:
	// git ls-files --deleted | xargs git rm); -c, -m and the others list
	// files that are there.
	z, dd, tracked, deleted, present := false, false, true, false, false
	var specs []string
	for _, a := range args[2:] {
		switch {
		case !dd && a == "--":
			dd = true
		case !dd && strings.HasPrefix(a, "-"):
			if !gitListOptions(a) {
				return nil, false
			}
			z = z || a == "-z"
			switch a {
			case "-o", "--others", "-i", "--ignored", "--directory":
				tracked = false
			case "-d", "--deleted":
				deleted = true
			case "-c", "--cached", "-m", "--modified":
				present = true
			}
		default:
			if a == "" || strings.HasPrefix(a, ":") || strings.HasPrefix(a, "/") || hasDotDot(a) {
				return nil, false
			}
			specs = append(specs, a)
		}
	}
	if z != (f.Sep == "nul") {
		return nil, false
	}
	if !z && !c.unsplittable(".", f.Sep) {
		return nil, false
	}
	missing := tracked && deleted && !present
	if len(specs) == 0 {
		// Every file below here: graded as the directory itself.
		return []Operand{{Word: ".", Arg: -1, Recursive: true, Tracked: tracked, Missing: missing}}, true
	}
	var out []Operand
	for _, s := range specs {
		// A pathspec matches the path from here, "*" across "/" (as
		// find's -path does), and everything below a directory it names.
		out = append(out, Operand{Word: ".", Arg: -1, Recursive: true, Tracked: tracked, Missing: missing, Pattern: "./" + strings.TrimPrefix(strings.TrimSuffix(s, "/"), "./")})
	}
	return out, true
}

func hasDotDot(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// listFile reads the paths of xargs -a FILE (or < FILE) now: each one is
// an operand of its own.
func (c *Classifier) listFile(f *shell.Feed) ([]Operand, bool) {
	data, err := c.readFile(f.File) // within MaxScriptBytes
	if err != nil {
		return nil, false
	}
	var words []string
	switch f.Sep {
	case "nul":
		words = strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	case "line":
		words = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	case "blank":
		if bytes.ContainsAny(data, `'"\`) {
			return nil, false // xargs reads quotes and escapes
		}
		words = strings.Fields(string(data))
	default:
		return nil, false
	}
	if len(words) > maxFeedWords {
		return nil, false
	}
	var out []Operand
	for _, w := range words {
		if w == "" || strings.HasPrefix(w, "-") {
			// An empty line is an empty argument; a word starting with
			// "-" is an option to the program.
			return nil, false
		}
		out = append(out, Operand{Word: w, Arg: -1})
	}
	return out, true
}

// unsplittable reports whether no name below dir (listed now, .git left
// out) holds a character the split cuts on.
func (c *Classifier) unsplittable(dir, sep string) bool {
	cut := " \t\n\v\f\r'\"\\"
	if sep == "line" {
		cut = "\n"
	} else if sep == "subst" {
		cut += "*?[(" // an unquoted substitution's words are globs too (extglob's too)
	} else if sep != "blank" {
		return false
	}
	if c.FS == nil || strings.ContainsAny(dir, cut) {
		return false
	}
	n := 0
	var walk func(d string) bool
	walk = func(d string) bool {
		entries, err := c.readDir(d)
		if err != nil {
			return false
		}
		for _, e := range entries {
			if n++; n > maxFeedWalk {
				return false
			}
			name := e.Name()
			if strings.ContainsAny(name, cut) {
				return false
			}
			if e.IsDir() && name != ".git" && !walk(path.Join(d, name)) {
				return false
			}
		}
		return true
	}
	return walk(dir)
}
