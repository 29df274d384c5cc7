package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file is self-protection as rules over operand roles (classify's
// roles.go): what a run does to each path it names decides what is
// checked. A read is checked against airlock's secrets only; a write, a
// creation, a deletion or a move against every protected path; a role
// that reaches everything below a path (rm -r, chmod -R, find -delete,
// cp -r's destination) counts the protected paths beneath it too, except
// those a find pattern cannot match.

// knownRoles returns the operands with a known role by argument index.
func (c *call) knownRoles(inv *classify.Invocation) map[int][]classify.Operand {
	var out map[int][]classify.Operand
	for _, o := range inv.Operands {
		if o.Arg <= 0 || o.Role == classify.RoleUnknown {
			continue
		}
		if out == nil {
			out = map[int][]classify.Operand{}
		}
		out[o.Arg] = append(out[o.Arg], o)
	}
	if classify.RolesComplete(inv.Name()) {
		// Every word with no operand is no path: mark it with no check.
		// A word whose role is unknown (make's target) keeps its check.
		if out == nil {
			out = map[int][]classify.Operand{}
		}
		unknown := map[int]bool{}
		for _, o := range inv.Operands {
			if o.Arg > 0 && o.Role == classify.RoleUnknown {
				unknown[o.Arg] = true
			}
		}
		mk := inv.Name() == "make" || inv.Name() == "gmake"
		for i := 1; i < len(inv.Args); i++ {
			// make PREFIX=$HOME/.local: a variable whose value the shell
			// computes is no path either, as PREFIX=~/.local is not.
			if len(out[i]) == 0 && (!inv.IsDynamic(i) || mk && classify.MakeVariable(inv.Args[i])) && !unknown[i] {
				out[i] = []classify.Operand{{Role: classify.RoleUnknown, Arg: -2}}
			}
		}
	}
	return out
}

// placeholderTarget checks a file a copy makes inside its destination
// directory when the copied name is known only at run time: find -exec's
// {}, or a word xargs or parallel reads (FINDINGS-4 K1: find x -name
// settings.json -exec cp {} ~/.claude/ replaced the user's hook settings).
// The name is what the run's find pattern allows (-name settings.json),
// else anything; a dot file included, since find's patterns match one.
// With --parents, or a copy of a tree, the directories on the way count
// too.
func (c *call) placeholderTarget(inv *classify.Invocation, o classify.Operand) *refusal {
	if o.Role == classify.RoleRead || o.Role == classify.RoleExec {
		return nil
	}
	dir, base := filepath.Split(o.Word)
	if dir == "" || !isPlaceholder(base) {
		return nil
	}
	pat := "*"
	for _, x := range inv.Operands {
		xp := x.Pattern
		if xp == "" && x.Arg < 0 && !x.Dynamic && !x.Recursive && hasGlob(x.Word) {
			// A feed's glob (ls *.go | xargs -I{} cp {} dist/, classify
			// lsfeed.go): the names are its matches'.
			xp = filepath.Base(x.Word)
		}
		if xp != "" && (x.Role == classify.RoleRead || x.Role == classify.RoleDelete || x.Role == classify.RoleMoveFrom) {
			if pat != "*" && pat != xp {
				pat = "*" // two patterns: either name
				break
			}
			pat = xp
		}
	}
	glob := dir + pat
	if strings.ContainsAny(dir, "*?[") {
		glob = dir + "*"
	}
	saved := c.dotglob
	c.dotglob = true
	defer func() { c.dotglob = saved }()
	for _, d := range c.cwds {
		if h, ok := c.pathHit(glob, d, true, true); ok {
			return &refusal{RuleProtectedPath, inv.Name() + " copies files whose names are known only when it runs into " + clipText(dir) + ", so it may write " + h.target.path + " (" + h.target.kind.String() + ")." + instead}
		}
	}
	return nil
}

// placeholderInLiteralDir reports whether a derived operand is a file a
// copy or move makes in a destination directory written literally, named
// after a word read at run time (cp -t build/ {xargs input} makes
// build/{xargs input}): the directory is one of the run's own operands,
// known now, with no glob.
func placeholderInLiteralDir(inv *classify.Invocation, o classify.Operand) bool {
	if o.Role == classify.RoleRead || o.Role == classify.RoleExec || o.Recursive && o.Role == classify.RoleDelete {
		return false
	}
	dir, base := filepath.Split(o.Word)
	dir = strings.TrimRight(dir, "/")
	if dir == "" || !isPlaceholder(base) || strings.ContainsAny(dir, "*?[{$`\\") {
		return false
	}
	for _, x := range inv.Operands {
		if x.Arg > 0 && !x.Dynamic && strings.TrimRight(x.Word, "/") == dir && x.Role != classify.RoleRead && x.Role != classify.RoleExec {
			return true
		}
	}
	return false
}

// isPlaceholder: a word that stands for what find or a feed hands over.
func isPlaceholder(w string) bool {
	return w == "{}" || w == "{xargs input}" || w == "{parallel input}" || w == classify.ListInput
}

// derivedOperands checks the operands not written as one argument: the
// file a copy writes inside its destination directory, what find acts on
// below its start paths. Redirections are checked on their own.
func (c *call) derivedOperands(inv *classify.Invocation) *refusal {
	for _, o := range inv.Operands {
		if o.Arg >= 0 || isRedirectTarget(inv, o.Word) {
			continue
		}
		if ref := c.placeholderTarget(inv, o); ref != nil {
			return ref
		}
		if o.Dynamic && placeholderInLiteralDir(inv, o) {
			// build/{xargs input}: only the name is run-time, and
			// placeholderTarget has checked every name in build/
			// (FINDINGS-10 B2: find … | xargs cp -t build/).
			continue
		}
		if ref := c.operandsAt(inv, []classify.Operand{o}); ref != nil {
			return ref
		}
	}
	return nil
}

func isRedirectTarget(inv *classify.Invocation, w string) bool {
	for _, r := range inv.Redirects {
		if r.Target == w {
			return true
		}
	}
	return false
}

// operandsAt checks the operands of one word by their roles.
func (c *call) operandsAt(inv *classify.Invocation, ops []classify.Operand) *refusal {
	name := inv.Name()
	saved := c.inv
	c.inv = inv
	defer func() { c.inv = saved }()
	if name == "git" && !c.dotglob {
		// git's pathspecs match dot files: "**/settings.json" reaches
		// .claude/settings.json.
		c.dotglob = true
		defer func() { c.dotglob = false }()
	}
	meta := classify.MetadataOnly(name)
	for _, o := range ops {
		if o.Arg == -2 {
			continue // a word that names no path (RolesComplete)
		}
		w := o.Word
		reads := o.Role == classify.RoleRead || o.Role == classify.RoleExec
		if o.Dynamic && c.listed != "" && !(reads && meta) && isPlaceholder(w) {
			// What xargs or parallel reads from a producer at run time.
			return c.listedRefusal(name, w)
		}
		if o.Dynamic && isPlaceholder(w) && reads && !meta {
			// What xargs or parallel reads at run time: its source
			// (selfruntime.go).
			if ref := c.runtimeRead(name, w, true); ref != nil {
				return ref
			}
		}
		if o.Dynamic {
			known, ok := c.known(w)
			if !ok {
				if c.listed != "" && !(reads && meta) {
					return c.listedRefusal(name, w)
				}
				// A path known only at run time fails closed by its role
				// (selfdynamic.go): a write, creation, deletion or move is
				// refused unless its static parts rule out every protected
				// path; a read only when they could name a secret.
				mode := dynPath
				if reads {
					if meta {
						continue
					}
					mode = dynRead
				}
				if ref := c.dynamicPath(name, w, known, mode); ref != nil {
					return ref
				}
				continue
			}
			w = known
		}
		if o.Arg > 0 && !(reads && meta) {
			// A relative path of a run whose directory is known only
			// when it runs (env -C "$D", find -execdir): "$PWD/path".
			mode := dynPath
			if reads {
				mode = dynRead
			}
			if ref := c.unknownDir(inv, name, w, mode); ref != nil {
				return ref
			}
		}
		for _, d := range c.cwds {
			if named, ok := c.globCopies(o, w, d); ok {
				// The files a glob copy makes are named after what the
				// glob matches now: each is checked by its own name.
				for _, n := range named {
					one := o
					one.Word, one.From = n, ""
					if ref := c.operand(name, one, n, d, meta); ref != nil {
						return ref
					}
				}
				continue
			}
			if named, ok := c.globNow(o, w, d); ok {
				// What the glob matches now, each by its own name
				// (selfglobnow.go).
				for _, n := range named {
					one := o
					one.Word = n
					if ref := c.operand(name, one, n, d, meta); ref != nil {
						return ref
					}
				}
				continue
			}
			if ref := c.operand(name, o, w, d, meta); ref != nil {
				return ref
			}
		}
	}
	return nil
}

// runtimeGlobCopy: a copy of a glob in a directory known only at run
// time into a directory written literally (cp -r "$SRC_DIR"/* build/,
// FINDINGS-10 B8) makes, inside the destination, entries of the source
// directory: a part of what `cp -r "$SRC_DIR"/. build/` makes, which is
// checked as the destination written whole. The same is checked here,
// instead of the glob build/* (which may be any protected name, at any
// depth: opencode.json). Only the source's directory may be run-time:
// its last part is a static pattern.
func runtimeGlobCopy(o classify.Operand, w string) (string, bool) {
	if o.From == "" || !o.Dynamic || o.Role != classify.RoleWrite && o.Role != classify.RoleCreate {
		// A move's destination stays a glob: what it takes away from the
		// run-time directory is its source's to answer for.
		return "", false
	}
	i := strings.LastIndex(o.From, "/")
	if i < 0 {
		return "", false
	}
	pat := o.From[i+1:]
	if pat == "" || !hasGlob(pat) || strings.ContainsAny(pat, "$`\\\"'{") || !strings.HasSuffix(w, "/"+pat) {
		return "", false
	}
	dst := strings.TrimSuffix(w, pat)
	if strings.ContainsAny(dst, "$`\\\"'*?[{") || dst == "/" {
		return "", false
	}
	return dst, true
}

// maxGlobCopies bounds the matches globCopies names; past it the copy's
// target is checked as the glob it is written as (fail closed).
const maxGlobCopies = 256

// globCopies names the files a copy into a directory makes from a glob
// source (cp build/* dist: dist/a, dist/b for build's a and b), from what
// the glob matches in the source's directory now. ok is false when that
// cannot be read exactly: a glob before the last part, a directory that
// cannot be listed, too many matches; the target is then checked as a
// glob, which may match every protected name.
func (c *call) globCopies(o classify.Operand, w, d string) ([]string, bool) {
	if dst, ok := runtimeGlobCopy(o, w); ok {
		return []string{dst}, true
	}
	if o.From == "" || o.Dynamic || !strings.HasSuffix(w, "/"+filepath.Base(o.From)) {
		return nil, false
	}
	srcDir, pat := filepath.Split(o.From)
	if hasGlob(srcDir) || pat == "" {
		return nil, false
	}
	if srcDir == "" {
		srcDir = "."
	}
	entries, err := c.g.fs.ReadDir(filepath.Clean(c.g.rawAbs(srcDir, d)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true // no source directory: the glob matches nothing, nothing is copied
	}
	if err != nil {
		return nil, false
	}
	dst := strings.TrimSuffix(w, filepath.Base(o.From))
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") && !strings.HasPrefix(pat, ".") && !c.dotglob {
			continue // the shell's * does not match a leading dot
		}
		if ok, err := filepath.Match(strings.ReplaceAll(pat, "[!", "[^"), n); err != nil {
			return nil, false
		} else if ok {
			if len(out) == maxGlobCopies {
				return nil, false
			}
			out = append(out, dst+n)
		}
	}
	return out, true
}

// operand checks one path by its role, from one directory.
func (c *call) operand(name string, o classify.Operand, w, d string, meta bool) *refusal {
	switch o.Role {
	case classify.RoleRead, classify.RoleExec:
		if meta {
			return nil
		}
		if o.Pattern != "" && o.Recursive && !hasGlob(w) {
			// What a find pattern matches below a start path
			// (selfproduced.go): the pattern bounds what is read.
			if reached, ok := c.boundReachesSecrets(o, d); ok {
				return c.secretRefusal(name, hit{target: c.g.secrets, path: reached + " (what " + o.Pattern + " matches below " + w + ")", ancestor: reached != c.g.secrets.path && !within(reached, c.g.secrets)})
			}
			return nil
		}
		// A reader that does not read below what it is given (cat, wc)
		// reads no secret by naming a directory above them.
		if h, ok := c.secretPath(w, d); ok && (o.Recursive || !h.ancestor) {
			return c.secretRefusal(name, h)
		}
		return nil
	}
	if o.Unlisted {
		if ref := c.unlisted(name, w, d); ref != nil {
			return ref
		}
	}
	if o.Tracked && o.Recursive {
		if ref, handled := c.trackedHit(name, o, w, d); handled {
			return ref
		}
	}
	if o.Pattern != "" && o.Recursive {
		return c.patternHit(name, o, w, d)
	}
	whole := o.Recursive || o.Role == classify.RoleMoveFrom
	prev := c.deletesOnly
	c.deletesOnly = o.Role == classify.RoleDelete
	defer func() { c.deletesOnly = prev }()
	if h, ok := c.pathHit(w, d, whole, whole); ok {
		return c.pathRefusal(name+" ("+o.Role.String()+")", h)
	}
	return nil
}

func (c *call) patternRefusal(name string, o classify.Operand, start, reached string, t target) *refusal {
	return &refusal{RuleProtectedPath, name + " would " + o.Role.String() + " what matches " + o.Pattern + " below " + start +
		", which reaches " + reached + "; it belongs to airlock, as " + t.kind.String() + ". The agent may not change it. Narrow the pattern or the start path so that it leaves " + t.path + " alone." + instead}
}

// maxPatternEntries bounds how many entries of a protected directory are
// matched against a find pattern; past it, the directory counts as hit.
const maxPatternEntries = 512

// patternHit checks a role that reaches only what a find pattern matches
// below a start path: a protected path below it is hit when the pattern
// matches it or one of the directories between (rm -rf of a match takes
// everything inside), or, for a protected directory, anything in it.
func (c *call) patternHit(name string, o classify.Operand, w, d string) *refusal {
	abs := filepath.Clean(c.g.rawAbs(w, d))
	starts := []string{abs}
	real, unknown := c.res.resolve(abs)
	if unknown {
		return c.pathRefusal(name, hit{target: target{path: abs, kind: kindAirlock}, path: abs + " (through a symlink whose target is known only when it runs)"})
	}
	if real != abs {
		starts = append(starts, real)
	}
	deletes := o.Role == classify.RoleDelete
	exists := func(p string) bool {
		_, err := c.g.fs.Lstat(p)
		return err == nil
	}
	cands := append(append([]target(nil), c.g.targets...), c.project()...)
	if c.g.secrets.path != "" {
		cands = append(cands, c.g.secrets)
	}
	for _, s := range starts {
		// A start inside a protected path: what it matches is protected.
		if h, ok := c.g.lexicalHit(s, false, false, nil, nil); ok {
			return c.pathRefusal(name, h)
		}
		for _, t := range cands {
			if !isAncestor(s, t) || deletes && !exists(t.path) {
				continue
			}
			rel := strings.TrimPrefix(t.path[len(s):], "/")
			if patternBelow(o, w, rel) {
				return c.patternRefusal(name, o, s, t.path, t)
			}
			if !t.dir {
				continue
			}
			if inner, ok := c.dirMatches(t.path, func(r string) bool { return patternBelow(o, w, rel+"/"+r) }); ok {
				return c.patternRefusal(name, o, s, inner, t)
			}
		}
	}
	return nil
}

// dirMatches walks a protected directory (bounded) for an entry the
// pattern matches; a directory that cannot be read, or holds more than
// the bound, counts as matched.
func (c *call) dirMatches(dir string, match func(rel string) bool) (string, bool) {
	seen := 0
	var walk func(p, rel string) (string, bool)
	walk = func(p, rel string) (string, bool) {
		ents, err := c.g.fs.ReadDir(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", false
			}
			return p + " (which cannot be listed)", true
		}
		for _, e := range ents {
			if seen++; seen > maxPatternEntries {
				return dir + " (more entries than airlock lists)", true
			}
			r := e.Name()
			if rel != "" {
				r = rel + "/" + r
			}
			if match(r) {
				return filepath.Join(dir, r), true
			}
			if e.IsDir() {
				if q, ok := walk(filepath.Join(p, e.Name()), r); ok {
					return q, true
				}
			}
		}
		return "", false
	}
	return walk(dir, "")
}

// patternBelow reports whether a find pattern matches rel (a path below
// the start word) or one of the directories on the way to it.
func patternBelow(o classify.Operand, start, rel string) bool {
	parts := strings.Split(rel, "/")
	for k := range parts {
		if findMatch(o, start, strings.Join(parts[:k+1], "/")) {
			return true
		}
	}
	return false
}

// findMatch reports whether a find -name/-path pattern matches the entry
// rel below the start word; a pattern airlock cannot read matches.
func findMatch(o classify.Operand, start, rel string) bool {
	pat := o.Pattern
	if o.Fold {
		pat, rel, start = strings.ToLower(pat), strings.ToLower(rel), strings.ToLower(start)
	}
	if !strings.Contains(pat, "/") {
		ok, err := filepath.Match(pat, filepath.Base(rel))
		return ok || err != nil
	}
	re, err := fnmatchRegexp(pat)
	if err != nil {
		return true
	}
	return re.MatchString(strings.TrimSuffix(start, "/") + "/" + rel)
}

// fnmatchRegexp compiles a shell pattern in which "*" matches "/" too,
// as find's -path does.
func fnmatchRegexp(pat string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pat); i++ {
		ch := pat[i]
		switch ch {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(pat[i+1:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := pat[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j + 1
		case '\\':
			if i+1 < len(pat) {
				i++
				b.WriteString(regexp.QuoteMeta(string(pat[i])))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// containerMounts checks the host paths a container run mounts: whatever
// runs in the container may read each source, and write it unless the
// mount is read-only, everything below it included. A mount of the
// project for a command airlock reads (docker run -v "$PWD":/w img make)
// is left to that command's own runs, which are checked as typed; a
// mount for an image's own entrypoint, or of anything else, counts as
// the write (or read) of all it holds.
func (c *call) containerMounts(inv *classify.Invocation) *refusal {
	for _, m := range classify.ContainerMounts(&inv.Invocation) {
		if m.Project && !inv.Effect.Opaque && classify.ContainerRunsGivenCommand(&inv.Invocation) {
			continue
		}
		role := classify.RoleWrite
		if m.ReadOnly {
			role = classify.RoleRead
		}
		src, dynamic := m.Source, m.Dynamic
		if p, ok := pwdSource(src, c.cwds[len(c.cwds)-1]); ok {
			src, dynamic = p, false // $PWD/.., ~+/../x: the directory is known
		}
		if ref := c.mountAbove(inv.Name()+" "+m.Flag, src, dynamic); ref != nil {
			return ref
		}
		o := classify.Operand{Word: src, Role: role, Arg: -1, Dynamic: dynamic, Recursive: true}
		if ref := c.operandsAt(inv, []classify.Operand{o}); ref != nil {
			ref.msg = inv.Name() + " " + m.Flag + " " + clipText(m.Source) + " mounts it into a container, where any program may change it: " + ref.msg
			return ref
		}
	}
	return nil
}

// mountAbove refuses a mount whose source holds airlock's secrets or a
// protected path below it, even read-only and even when it is the
// directory the command runs in or one above it ("/", "..", the home):
// naming a parent directory is routine for most programs, but a
// container runs whatever its image holds, which reads (or changes)
// everything below the mount. (FINDINGS-4 K9: docker run -v /:/h:ro read
// the secrets.)
func (c *call) mountAbove(what, src string, dynamic bool) *refusal {
	if dynamic || src == "" {
		return nil // left to operandsAt's run-time rule
	}
	for _, cwd := range c.cwds {
		p := filepath.Clean(c.g.rawAbs(src, cwd))
		real := p
		if r, unknown := c.res.resolve(p); !unknown {
			real = r
		}
		for _, q := range []string{p, real} {
			if h, ok := c.g.secretHit(q); ok && h.ancestor {
				return &refusal{RuleProtectedPath, what + " " + clipText(src) + " mounts " + q + ", which holds airlock's secrets (" + c.g.secrets.path + "), into a container, where any program may read them." + instead}
			}
			if q == "/" {
				return &refusal{RuleProtectedPath, what + " " + clipText(src) + " mounts the whole file system into a container, where any program may read airlock's files and every agent's settings." + instead}
			}
		}
	}
	return nil
}

// composeMounts checks the host paths the compose files of the
// command's compose runs mount (classify's Result.Mounts, read from disk
// or from the text the same command writes them with): each bind source
// is a write of all below it (a read when read-only), as a -v mount is.
// A file classify could not read holds the run as opaque.
func (c *call) composeMounts(r *classify.Result) *refusal {
	for _, m := range r.Mounts {
		role := classify.RoleWrite
		if m.ReadOnly {
			role = classify.RoleRead
		}
		if ref := c.mountAbove(m.Flag, m.Source, m.Dynamic); ref != nil {
			return ref
		}
		o := classify.Operand{Word: m.Source, Role: role, Arg: -1, Dynamic: m.Dynamic, Recursive: true}
		inv := &classify.Invocation{Invocation: shellparse.Invocation{Args: []string{"docker"}}}
		if ref := c.operandsAt(inv, []classify.Operand{o}); ref != nil {
			ref.msg = m.Flag + " mounts " + clipText(m.Source) + " into a container, where any program may change it: " + ref.msg
			return ref
		}
	}
	return nil
}

// atFileReads checks the files a program is told to read by the "@FILE"
// convention of HTTP and API clients (curl -d @FILE, --data-binary @FILE,
// -F name=@FILE or name=<FILE, httpie field=@FILE, gh api -F f=@FILE,
// az --body @FILE): the file's content is sent, so naming one of
// airlock's secrets this way is a read of it, whatever the program.
// Only secrets are checked: reading any other file is not
// self-protection's business.
func (c *call) atFileReads(inv *classify.Invocation) *refusal {
	for i := 1; i < len(inv.Args); i++ {
		w := atFile(inv.Args[i])
		if w == "" {
			continue
		}
		o := classify.Operand{Word: w, Role: classify.RoleRead, Arg: i, Dynamic: inv.IsDynamic(i)}
		if ref := c.operandsAt(inv, []classify.Operand{o}); ref != nil {
			return ref
		}
	}
	return nil
}

// atFile returns the path of an "@FILE" word ("@f", "name=@f", "name=<f",
// "name:=@f"), or "" for any other word. "@-" is standard input.
func atFile(w string) string {
	if i := strings.IndexByte(w, '='); i > 0 && !strings.HasPrefix(w, "@") {
		w = w[i+1:]
		if strings.HasPrefix(w, "<") {
			w = "@" + w[1:]
		}
	}
	if !strings.HasPrefix(w, "@") || len(w) < 2 || w == "@-" {
		return ""
	}
	w = w[1:]
	if j := strings.IndexByte(w, ';'); j > 0 {
		w = w[:j] // curl -F f=@file;type=text/plain
	}
	return w
}

// steeringVars are the variables that move airlock's files or change its
// decisions for the processes that inherit them: a nested agent (or
// airlock itself) started with one decides under a policy, a state
// directory or a mode the agent chose. airlockOnly are those that steer
// airlock alone; the XDG directories are everyone's, and count only for
// an agent or airlock.
var (
	airlockOnly  = []string{"AIRLOCK_POLICY", "AIRLOCK_HOME", "AIRLOCK_MODE", "AIRLOCK_HOOKD"}
	sharedSteers = []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"}
)

// steeredAirlock refuses a run whose environment, set by the command
// (NAME=value before it, env NAME=value, export earlier in the text),
// points airlock at another policy, state directory or mode: for any
// program when it is one of airlock's own variables (a nested shell or
// agent inherits it), and for agents and airlock when it is a directory
// they share with other tools. AIRLOCK_MODE may name a mode at least as
// strict as the one deciding now (a nested headless agent made
// unattended in an interactive session): never a weaker one (H11).
// Unsetting one of airlock's variables the human set for this session
// (unset, env -u, env -i) before an agent or airlock runs is refused too:
// the nested run would fall back to a weaker default.
func (c *call) steeredAirlock(inv *classify.Invocation, airlock bool) *refusal {
	agent := airlock || classify.IsAgent(inv.Name())
	for _, kv := range inv.Env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "AIRLOCK_MODE" {
			if m, err := ParseMode(strings.Trim(v, `"'`)); err == nil && m >= c.mode {
				continue // as strict as now, or stricter
			}
			return &refusal{RuleAgentGuardOff, inv.Name() + " is started with AIRLOCK_MODE=" + clipText(v) + " set by the command, a mode weaker than " + c.mode.String() + " (or not one airlock can read): a nested agent may not get a weaker mode than the session it runs in. Run it without AIRLOCK_MODE, or with a stricter mode, or ask the human."}
		}
		if slices.Contains(airlockOnly, k) || agent && slices.Contains(sharedSteers, k) {
			return &refusal{RuleAgentGuardOff, inv.Name() + " is started with " + k + " set by the command: it would decide under a policy, state or mode the agent chose, not the human's. Run it without " + k + " (airlock's own settings then apply), or ask the human."}
		}
	}
	if !agent {
		return nil
	}
	for _, k := range c.unset {
		if c.g.steerSet[k] {
			return &refusal{RuleAgentGuardOff, inv.Name() + " runs after the command unsets " + k + ", which the human set for this session: it would decide under airlock's defaults, not the human's choice. Run it without unsetting " + k + ", or ask the human."}
		}
	}
	if strings.Contains(inv.Source, "env") && slices.Contains(inv.Via, "env") {
		f := strings.Fields(inv.Source)
		for i, w := range f {
			switch {
			case w == "-i" || w == "--ignore-environment" || w == "-":
				if len(c.g.steerSet) > 0 {
					return &refusal{RuleAgentGuardOff, inv.Name() + " is started by env with an empty environment, which drops " + strings.Join(sortedKeys(c.g.steerSet), ", ") + " the human set for this session. Run it without -i, or ask the human."}
				}
			case (w == "-u" || w == "--unset") && i+1 < len(f) && c.g.steerSet[f[i+1]],
				strings.HasPrefix(w, "--unset=") && c.g.steerSet[strings.TrimPrefix(w, "--unset=")],
				strings.HasPrefix(w, "-u") && len(w) > 2 && c.g.steerSet[w[2:]]:
				return &refusal{RuleAgentGuardOff, inv.Name() + " is started by env with one of airlock's variables unset (" + w + "), which the human set for this session. Run it without unsetting it, or ask the human."}
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// scriptExts are the script files an interpreter run names whose text
// self-protection reads (maxScriptRead at most): a file written in one
// call and run in the next must not run airlock's verbs either.
var scriptExts = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".php", ".lua", ".r", ".R"}

const maxScriptRead = 256 << 10

// scriptFile refuses an interpreter run (python3 a.py, node x.js) whose
// script file, as it is on disk now, mentions airlock's verbs or files:
// airlock's interpreter readers judge one-liners, and a file the agent
// wrote earlier is the same code one step removed. A file that cannot be
// read is left to the rest of the decision.
func (c *call) scriptFile(inv *classify.Invocation) *refusal {
	switch n := inv.Name(); {
	case strings.HasPrefix(n, "python"), strings.HasPrefix(n, "pypy"),
		slices.Contains([]string{"node", "nodejs", "ruby", "perl", "php", "deno", "bun", "tsx", "ts-node", "lua", "Rscript"}, n):
	default:
		return nil
	}
	for i := 1; i < len(inv.Args) && i < 8; i++ {
		w := inv.Args[i]
		if inv.IsDynamic(i) || strings.HasPrefix(w, "-") {
			continue
		}
		if !slices.Contains(scriptExts, filepath.Ext(w)) {
			return nil // the first operand is not a script file
		}
		for _, d := range c.cwds {
			p := filepath.Clean(c.g.rawAbs(w, d))
			st, err := c.g.fs.Lstat(p)
			if err != nil || !st.Mode().IsRegular() || st.Size() > maxScriptRead {
				continue
			}
			b, err := c.g.fs.ReadFile(p)
			if err != nil {
				continue
			}
			if m := c.g.mentionedInCode(string(b)); m != "" {
				return &refusal{RuleAirlockCommand, inv.Name() + " runs " + clipText(w) + ", whose code mentions " + m + "; airlock cannot show it leaves its own files and verbs alone, so the agent may not run it." + instead}
			}
		}
		return nil
	}
	return nil
}

// unlisted checks a directory an archive is extracted in (tar x, unzip,
// 7z x, cpio -i, with -C/-d/-o or where the run happens, cd and pushd
// followed): the members' names are the archive's to say, and airlock
// does not read them in advance, so the extraction may write anything
// below it. It is refused when the directory is protected itself or sits
// inside a protected one, and when it holds a protected path other than
// a project's own tails at the project's root: the home directory
// (~/.claude, ~/.config/airlock, start-up files), a configuration
// directory, airlock's state. Extracting in the project (tar xzf
// vendor.tgz, -C vendor) stays ordinary work; a directory named for it
// is also checked as the recursive write it is (operand), as before.
func (c *call) unlisted(name, w, d string) *refusal {
	abs := filepath.Clean(c.g.rawAbs(w, d))
	dirs := []string{abs}
	if real, unknown := c.res.resolve(abs); unknown {
		return c.pathRefusal(name+" (extract)", hit{target: target{path: abs, kind: kindAirlock}, path: abs + " (through a symlink whose target is known only when it runs)"})
	} else if real != abs {
		dirs = append(dirs, real)
	}
	for _, p := range dirs {
		if h, ok := c.pathHit(p, d, false, false); ok {
			return c.pathRefusal(name+" (extract)", h)
		}
		// The project's own tails count at its root, not at every
		// directory the command changes into: ~/dl/x/.claude is not a
		// project's settings until an agent starts there.
		cands := append([]target(nil), c.g.targets...)
		if c.g.project != "" {
			cands = append(cands, targetsAt(c.g.project)...)
		}
		cands = append(cands, targetsAt(filepath.Clean(c.cwds[0]))...)
		if c.g.secrets.path != "" {
			cands = append(cands, c.g.secrets)
		}
		var tails []target // the project's own, at its root (selfarchive.go)
		for _, t := range cands {
			if !isAncestor(p, t) {
				continue
			}
			if t.proj && c.projectRoot(p) {
				tails = append(tails, t)
				continue
			}
			return &refusal{RuleProtectedPath, name + " extracts an archive in " + p + ", which holds " + t.path + " (" + t.kind.String() + "); the archive's member names are not read in advance, so it could replace it. Extract into a new directory of its own (mkdir x && tar xf a.tar -C x), or list it first and extract named members." + instead}
		}
		if len(tails) > 0 {
			if ref, _ := c.archiveHit(name, p, d, tails); ref != nil {
				return ref
			}
		}
	}
	return nil
}

// projectRoot reports whether p is the project's root or a directory the
// command runs in, where a project's own protected files (.claude/,
// .airlock/) sit beside ordinary work.
func (c *call) projectRoot(p string) bool {
	if c.g.project != "" && filepath.Clean(c.g.project) == p {
		return true
	}
	for _, d := range c.cwds[:1] {
		if filepath.Clean(d) == p {
			return true
		}
	}
	return false
}

// RuleExtractUnknownDir names the hold of an archive extracted in a
// directory known only at run time.
const RuleExtractUnknownDir = "self.extract-dir"

// extractUnknownDir asks about (holds, when nobody watches) an archive
// extracted in a directory the command changes into at run time (cd
// "$(cat dir.txt)" && tar xf a.tar): its members may land anywhere the
// directory is, the home included, and neither the directory nor the
// members are known in advance. A directory that is only mktemp's
// output is known: a new one under the temporary directory.
func (g *guard) extractUnknownDir(a *Action, r *classify.Result) *refusal {
	if a.Kind != Shell || r == nil {
		return nil
	}
	resolved := true
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		switch inv.Name() {
		case "cd", "pushd":
			for k := 1; k < len(inv.Args); k++ {
				if inv.IsDynamic(k) {
					if _, _, dyn := g.literalEnds(inv.Args[k]); dyn {
						resolved = false
					}
					break
				}
				if !strings.HasPrefix(inv.Args[k], "-") {
					break
				}
			}
		}
		if inv.Dir != shellparse.DirUnknown || resolved {
			continue
		}
		for _, o := range inv.Operands {
			if o.Unlisted && !strings.HasPrefix(o.Word, "/") && !strings.HasPrefix(o.Word, "~") {
				return &refusal{RuleExtractUnknownDir, inv.Name() + " extracts an archive in a directory the command changes into at run time, so neither where nor what it writes is known in advance; it could replace airlock's or an agent's files in the home. Extract with an explicit directory (-C DIR, -d DIR), or ask the human."}
			}
		}
	}
	return nil
}
