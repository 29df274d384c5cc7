package policy

import (
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file is the phase of self-protection for paths known only when the
// command runs (issue 24). Package shell has already put in every value
// the text itself gives (f=~/.claude/settings.json; : > $f is a write of
// that file); what is left dynamic comes from outside the text: a command
// substitution, a file read at run time, the environment. Such a word may
// still be ruled out by its static parts: "$d/README.md" cannot be
// airlock's policy, whatever $d holds. Where the static parts cannot rule
// every protected path out, a write fails closed: the refusal names the
// word and asks for the path to be written literally.
//
// What counts:
//   - a redirection's target, and the operands of the programs in
//     fileWriters, are paths: a dynamic one is refused unless its static
//     parts rule out every protected path (fail closed);
//   - any other word of a program that may write is refused only when
//     its static parts could be part of a protected path (a literal
//     suffix a protected path ends with, a prefix inside a directory that
//     holds one, or a mention), since it may just as well be a message or
//     a name;
//   - reads matter only for airlock's secrets, checked the same way
//     against the secrets directory. A read of a word with no static
//     part at all ("cat $f") is let through: refusing it would refuse
//     every loop over files.
//   - a relative path in a directory known only at run time
//     (cd "$(cat dir.txt)") is a dynamic word "$PWD/path".

// dynMode says how a dynamic word is used.
type dynMode int8

const (
	// dynRead: the word is only read.
	dynRead dynMode = iota
	// dynWord: a word of a program that may write, not known to be a path.
	dynWord
	// dynPath: a path that is written (a redirection, a writer's operand).
	dynPath
)

// fileWriters write, replace, move or delete the files their operands
// name, beside the programs that move whole trees (classify.MovesTrees).
func fileWriters(name string) bool {
	switch name {
	case "tee", "sed", "truncate", "dd", "touch", "sponge", "patch", "ed", "ex", "split", "csplit",
		"mkfifo", "mknod", "unlink":
		return true
	}
	return false
}

// mktempDir stands for the path mktemp prints: a new name under the
// temporary directory, never one of airlock's files.
const mktempDir = "/tmp/tmp.airlock-mktemp"

// dynamicMode is how a dynamic operand i of a run is used.
func dynamicMode(inv *classify.Invocation, i int, reads, source bool) dynMode {
	name := inv.Name()
	switch {
	case reads || source || copySource(inv.Args, i):
		return dynRead
	case fileWriters(name) || classify.MovesTrees(name):
		return dynPath
	}
	return dynWord
}

// copySource reports whether operand i of cp, install or rsync is a
// source (read), when classify.CopySources could not tell because a word
// is dynamic: every operand but the last, unless -t names the target.
func copySource(args []string, i int) bool {
	switch args[0] {
	case "cp", "install", "rsync":
	default:
		return false
	}
	last := -1
	for j := 1; j < len(args); j++ {
		a := args[j]
		if a == "-t" || strings.HasPrefix(a, "--target-directory") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "t") {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			last = j
		}
	}
	return i < last && !strings.HasPrefix(args[i], "-")
}

// dynamicPath checks one word known only at run time. src is the word as
// the run has it, known the same with the guard's variables expanded.
func (c *call) dynamicPath(who, src, known string, mode dynMode) *refusal {
	if mode == dynRead {
		if ref := c.dynamicRead(who, src, known); ref != nil {
			return ref
		}
		return c.runtimeRead(who, src, true)
	}
	if ref := c.runtimeRead(who, src, contentPrinter(who)); ref != nil {
		return ref
	}
	if globs, ok := c.g.slashFreeGlob(src); ok {
		// Every run-time part stays in one path component
		// (selfslashfree.go): the word is one of the globs it stands for.
		for _, glob := range globs {
			if h, hit := c.pathHit(glob, c.cwds[len(c.cwds)-1], true, true); hit {
				return &refusal{RuleProtectedPath, who + " on " + clipText(src) + ", a path known only when the command runs that could be " + h.target.path + " (" + h.target.kind.String() + "). Write the path literally in the command, so airlock can see it is not one of them."}
			}
		}
		return nil
	}
	if ref := c.dynamicWord(who, src, known); ref != nil {
		return ref
	}
	prefix, suffix, dyn := c.g.literalEnds(src)
	if !dyn {
		return nil // only mktemp's output was run-time: a new temporary name
	}
	// "$D/.config/" and "$D/.config/." name the directory "$D/.config"
	// (cp -r evil/. "$D/.config/" writes into it): its end is ".config".
	for {
		t := strings.TrimSuffix(strings.TrimRight(suffix, "/"), "/.")
		if t == suffix {
			break
		}
		suffix = t
	}
	if suffix == ".." || strings.HasSuffix(suffix, "/..") || strings.Contains(suffix, "/../") {
		// "$D/.config/x/..": what ".." climbs to depends on what the
		// names before it are when the command runs (a link among them
		// goes elsewhere): the static end says nothing (FINDINGS-9 S9).
		suffix = ""
	}
	if suffix == "" {
		if mode == dynWord || strings.HasPrefix(prefix, mktempDir) {
			return nil
		}
		// A file made inside a directory given at run time (cp "$f"
		// "$d", whose copy is "$d"/"$f"): when the directory's own
		// static end rules out every directory that holds a protected
		// file, so does the file in it.
		if i := strings.LastIndex(src, "/"); i > 0 && strings.Trim(src[i+1:], `."'`) != "" {
			if _, dsuf, ddyn := c.g.literalEnds(src[:i]); ddyn && dsuf != "" {
				if _, ok := c.g.couldEndAs(dsuf, true, c.project()); !ok {
					return nil
				}
			}
		}
		return &refusal{RuleProtectedPath, who + " on " + clipText(src) + ", a path known only when the command runs: airlock cannot rule out that it is one of its own files or an agent's hook settings. Write the path literally in the command, so airlock can see it is not one of them."}
	}
	if t, ok := c.g.couldEndAs(suffix, true, c.project()); ok {
		return &refusal{RuleProtectedPath, who + " on " + clipText(src) + ", a path known only when the command runs that ends like " + t + " (" + t2kind(t, c) + "): airlock cannot rule out that it is that file. Write the path literally in the command, so airlock can see it is not one of them."}
	}
	if rest, ok := strings.CutPrefix(suffix, "/"); ok && !strings.ContainsAny(rest, "*?[") {
		if r := c.unknownDirSecret(who, rest); r != nil {
			return r // "$d/human.key": a secret's name below a run-time directory
		}
	}
	return nil
}

func t2kind(p string, c *call) string {
	for _, t := range c.g.targets {
		if t.path == p {
			return t.kind.String()
		}
	}
	return "protected by airlock"
}

// dynamicRead checks a run-time word that is read: only the secrets
// matter.
func (c *call) dynamicRead(who, src, known string) *refusal {
	g := c.g
	if g.secrets.path == "" {
		return nil
	}
	refuse := func(why string) *refusal {
		return &refusal{RuleProtectedPath, who + " reads " + clipText(src) + ", a path built at run time " + why + ": airlock's secrets are not to be read. Write the path literally in the command." + instead}
	}
	if m := g.secretMention(known); m != "" {
		return refuse("that mentions " + m)
	}
	prefix, suffix, dyn := g.literalEnds(src)
	if !dyn {
		return nil // only mktemp's output was run-time: a new temporary file
	}
	if j := strings.LastIndex(prefix, "/"); j >= 0 || strings.HasPrefix(prefix, "~") {
		dir := prefix
		if j >= 0 {
			dir = prefix[:j+1]
		}
		d := filepath.Clean(g.rawAbs(dir, c.cwds[len(c.cwds)-1]))
		if d != "/" && within(g.secrets.path, target{path: d, dir: true}) {
			return refuse("inside " + d + ", which holds " + g.secrets.path)
		}
	}
	if suffix != "" {
		if _, ok := endsLike(fold(suffix), fold(g.secrets.path), true, false); ok {
			return refuse("that ends like " + g.secrets.path)
		}
		// "$d/serve.token", "${OLDPWD:?}/secrets/human.key": a file of
		// the secrets directory below a directory known at run time.
		if rest, ok := strings.CutPrefix(suffix, "/"); ok && !strings.ContainsAny(rest, "*?[") {
			if r := c.unknownDirSecret(who, rest); r != nil {
				return r
			}
		}
	}
	return nil
}

// knownArgs returns a run's words with each run-time word whose value the
// guard knows put in: its variables ($HOME) and mktemp's new temporary
// name ("$(mktemp -d)" stands for a new directory under /tmp).
func (g *guard) knownArgs(inv *classify.Invocation) ([]string, []bool) {
	if len(inv.Dynamic) == 0 {
		return inv.Args, inv.Dynamic
	}
	args := append([]string(nil), inv.Args...)
	dyn := append([]bool(nil), inv.Dynamic...)
	for i := range args {
		if i < len(dyn) && dyn[i] {
			if v, _, d := g.literalEnds(args[i]); !d {
				args[i], dyn[i] = v, false
			}
		}
	}
	return args, dyn
}

// literalEnds returns the static text a word starts and ends with, around
// its run-time parts, and whether it has any run-time part. The guard's
// variables ($HOME, $XDG_CONFIG_HOME) count as static, and so does
// mktemp's output ($(mktemp), $(mktemp -d)). A word that cannot be parsed
// is all run-time.
func (g *guard) literalEnds(src string) (prefix, suffix string, dynamic bool) {
	word, ok := shellparse.ParseWord(src)
	if !ok {
		return "", "", true
	}
	var parts []string // the static text of each part, or "\x00" for a run-time one
	var add func([]syntax.WordPart) bool
	add = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				parts = append(parts, unescapeLit(p.Value))
			case *syntax.SglQuoted:
				parts = append(parts, shellparse.QuotedValue(p))
			case *syntax.DblQuoted:
				add(p.Parts)
			case *syntax.ParamExp:
				if v, ok := g.vars[paramOf(p)]; ok && isSimpleParam(p) {
					parts = append(parts, v)
				} else {
					parts = append(parts, "\x00")
				}
			case *syntax.CmdSubst:
				if isMktemp(p) {
					parts = append(parts, mktempDir)
				} else {
					parts = append(parts, "\x00")
				}
			default:
				parts = append(parts, "\x00")
			}
		}
		return true
	}
	add(word.Parts)
	// mktemp's directory is $TMPDIR's, which the text or the agent may
	// have set anywhere: a new name there is safe, a step up from it
	// ("$(mktemp -d)/../settings.json") is not known.
	for k, p := range parts {
		if p == mktempDir && slices.ContainsFunc(parts[k+1:], func(q string) bool { return strings.Contains(q, "..") }) {
			parts[k] = "\x00"
		}
	}
	i, j := 0, len(parts)
	for i < len(parts) && parts[i] != "\x00" {
		i++
	}
	if i == len(parts) {
		return strings.Join(parts, ""), strings.Join(parts, ""), false
	}
	for j > 0 && parts[j-1] != "\x00" {
		j--
	}
	suffix = strings.Join(parts[j:], "")
	// "$d/../../x/settings.json" ends in x/settings.json, wherever $d
	// is: what is above a step up says nothing about the path.
	if k := strings.LastIndex("/"+suffix+"/", "/../"); k >= 0 {
		suffix = suffix[min(len(suffix), max(0, k+2)):]
	}
	return strings.Join(parts[:i], ""), suffix, true
}

func unescapeLit(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func paramOf(p *syntax.ParamExp) string {
	if p.Param == nil {
		return ""
	}
	return p.Param.Value
}

func isSimpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Index == nil && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Length && !p.Excl && p.Names == 0
}

// isMktemp reports whether a command substitution is only mktemp making a
// new name in the temporary directory (shell.IsMktemp).
func isMktemp(cs *syntax.CmdSubst) bool { return shellparse.IsMktemp(cs) }

// couldEndAs reports whether a path whose beginning is known only at run
// time and which ends with suffix may be a protected path, or inside a
// protected directory, or (with parents) a parent of one. It returns the
// protected path it could be.
func (g *guard) couldEndAs(suffix string, parents bool, project []target) (string, bool) {
	s := fold(suffix)
	all := append(append([]target(nil), g.targets...), project...)
	if g.secrets.path != "" {
		all = append(all, g.secrets)
	}
	for _, t := range all {
		if t.kind == kindRunsLater {
			// The runs-later files (selflatertable.go) are many, and
			// their last names are those of every project's
			// directories ("bin", "env", "config"): one such name
			// alone says little. A suffix that reaches further into
			// the file's path (".cargo/env") or names something else
			// ("pip", ".vim") counts.
			if laterEndsLike(s, fold(t.path), t.dir, parents) {
				return t.path, true
			}
			continue
		}
		if _, ok := endsLike(s, fold(t.path), t.dir, parents); ok {
			return t.path, true
		}
	}
	for _, t := range g.tails {
		rel := "/" + strings.Join(t.parts, "/")
		if _, ok := endsLike(s, rel, t.dir, parents); ok {
			return strings.TrimPrefix(rel, "/"), true
		}
		// A tail is protected wherever it is: a suffix that holds it
		// whole, or holds a path inside it, names it too.
		if strings.HasSuffix(s, rel) || t.dir && strings.Contains(s, rel+"/") {
			return strings.TrimPrefix(rel, "/"), true
		}
	}
	return "", false
}

// laterEndsLike is endsLike for a runs-later target: the part of s that
// falls on p's own path must be distinctive (distinctive).
func laterEndsLike(s, p string, dir, parents bool) bool {
	if strings.HasSuffix(p, s) {
		return distinctive(s)
	}
	if dir {
		for k := 1; k < len(s); k++ {
			if s[k] == '/' && strings.HasSuffix(p, s[:k]) && distinctive(s[:k]) {
				return true
			}
		}
	}
	if parents {
		for q := filepath.Dir(p); q != "/" && q != "." && q != ""; q = filepath.Dir(q) {
			if strings.HasSuffix(q, s) && distinctive(s) {
				return true
			}
		}
	}
	return false
}

// distinctive reports whether a path suffix ("/a/b") holds two names or
// more, or one that is not among genericNames.
func distinctive(s string) bool {
	s = strings.Trim(s, "/")
	return strings.Contains(s, "/") || !genericNames[s]
}

// genericNames are the last names of runs-later entries that every
// project has directories or files of ("mkdir -p bin", "> env"): alone
// they do not make a run-time path one of those entries.
var genericNames = map[string]bool{
	"bin": true, "env": true, "etc": true, "lib": true, "config": true, "plugin": true, "plugins": true, "shims": true,
	"extensions": true, "commands": true, "hooks": true, "startup": true, "user": true, "site": true, "lazy": true,
}

// endsLike reports whether some path X+s (X unknown) is p, or inside p
// when p is a directory, or (with parents) a parent of p other than "/".
// It returns the protected path matched (p, or the parent).
func endsLike(s, p string, dir, parents bool) (string, bool) {
	if strings.HasSuffix(p, s) {
		return p, true
	}
	if dir {
		// X+s inside p: s = A + "/" + rest, where p ends with A (A not
		// empty: the static part must reach into p).
		for k := 1; k < len(s); k++ {
			if s[k] == '/' && strings.HasSuffix(p, s[:k]) {
				return p, true
			}
		}
	}
	if parents {
		for q := filepath.Dir(p); q != "/" && q != "." && q != ""; q = filepath.Dir(q) {
			if strings.HasSuffix(q, s) {
				return q, true
			}
		}
	}
	return "", false
}

// unknownDir checks a relative path of a run whose directory is only
// known at run time: it is a path "$PWD/path".
func (c *call) unknownDir(inv *classify.Invocation, who, w string, mode dynMode) *refusal {
	if inv.Dir != shellparse.DirUnknown || w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, "-") || strings.Contains(w, "://") {
		return nil
	}
	src := "$PWD/" + shellQuote(w)
	if mode == dynWord {
		mode = dynPath // a relative word of a writer is most likely a path
	}
	if mode == dynRead {
		if r := c.dynamicRead(who, src, src); r != nil {
			return r
		}
		return c.unknownDirSecret(who, w)
	}
	if r := c.unknownDirSecret(who, w); r != nil {
		return r // a word of any program (base64 serve.token)
	}
	_, suffix, _ := c.g.literalEnds(src)
	if t, ok := c.g.couldEndAs(suffix, true, nil); ok {
		return &refusal{RuleProtectedPath, who + " on " + clipText(w) + " in a directory known only when the command runs (after a cd to a run-time path): it could be " + t + ". Write the path in full, or cd to a literal directory." + instead}
	}
	return nil
}

// unknownDirSecret refuses a read of a relative path w, in a directory
// known only at run time (cd after CDPATH was set, cd "$d"), that names a
// file of airlock's secrets directory from it or from one of its parents
// (serve.token, secrets/human.key, airlock/secrets/…): the directory may be
// that one. Other relative reads stay allowed.
func (c *call) unknownDirSecret(who, w string) *refusal {
	sec := c.g.secrets.path
	rel := filepath.Clean(w)
	if sec == "" || rel == "." || strings.HasPrefix(rel, "..") {
		return nil
	}
	hit := ""
	if _, err := c.g.fs.Lstat(filepath.Join(sec, rel)); err == nil {
		hit = sec
	}
	first, _, _ := strings.Cut(rel, "/")
	for a := sec; hit == "" && a != "/" && a != "." && a != ""; a = filepath.Dir(a) {
		if strings.EqualFold(filepath.Base(a), first) && within(filepath.Join(filepath.Dir(a), rel), c.g.secrets) {
			hit = filepath.Dir(a)
		}
	}
	if hit == "" {
		return nil
	}
	return &refusal{RuleProtectedPath, who + " reads " + clipText(w) + " in a directory known only when the command runs (after a cd to a run-time path, or with CDPATH set): from " + hit + " it is one of airlock's secrets, which are not to be read. Write the path in full, or cd to a literal directory." + instead}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runDir adds the directory a run happens in, when the shell knew it, to
// those relative paths are checked against (popd, cd -).
func (c *call) runDir(inv *classify.Invocation) {
	d := inv.Dir
	if d == "" || d == shellparse.DirUnknown {
		return
	}
	p := filepath.Clean(c.g.rawAbs(d, c.cwds[0]))
	for _, x := range c.cwds {
		if x == p {
			return
		}
	}
	c.cwds = append(c.cwds, p)
}

// redirectMode is how a redirection uses its target.
func redirectMode(rd shellparse.Redirect) dynMode {
	if rd.Writes() {
		return dynPath
	}
	return dynRead
}
