package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell's own variables that say what a tilde and a cd mean (FINDINGS-7
// G16, G17): "HOME=~/.claude; : > ~/settings.json" writes Claude Code's
// settings, "HOME=DIR cd" moves to DIR, "CDPATH=DIR cd x" may move to
// DIR/x, "OLDPWD=DIR; cd -" moves to DIR. Once the text may have assigned
// one of them, the walker uses the value it holds, and when it holds none
// (assigned in one branch only, from a command's output) the tilde word is
// dynamic and the directory unknown: never the home directory the agent
// started with.

// touchSet marks which of HOME, CDPATH, OLDPWD, IFS and PWD the text may
// have assigned.
type touchSet uint16

const (
	touchHome touchSet = 1 << iota
	touchCDPATH
	touchOLDPWD
	touchIFS
	touchPWD
	// touchDirVar: one of the other variables package policy reads as
	// the directory the agent started with (dirVarBit).
	touchDirVar
)

// dirVarBit is the touch bit of a variable package policy expands with its
// own value when a word holds it ($XDG_CONFIG_HOME/airlock/policy.yaml):
// once the text may have assigned it, a reference the walker cannot
// resolve must not be read as that value.
func dirVarBit(name string) touchSet {
	switch name {
	case "HOME":
		return touchHome
	case "XDG_CONFIG_HOME", "XDG_STATE_HOME", "AIRLOCK_HOME", "AIRLOCK_POLICY", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "ZDOTDIR", "PI_CODING_AGENT_DIR":
		return touchDirVar
	}
	return 0
}

// touch notes an assignment (b) or a forgetting (nil) of name.
func (v *values) touch(name string, b *binding) {
	v.touched |= dirVarBit(name)
	switch name {
	case "HOME":
		v.touched |= touchHome
	case "CDPATH":
		v.touched |= touchCDPATH
	case "IFS":
		v.touched |= touchIFS
	case "PWD":
		v.touched |= touchPWD // ~+ is $PWD
	case "OLDPWD":
		// cd - goes to $OLDPWD: the walker's previous directory is now
		// the value assigned.
		v.touched |= touchOLDPWD
		v.old = DirUnknown
		if b != nil && !b.dynamic && !b.array && isDirPath(b.text) {
			v.old = path.Clean(b.text)
		}
	}
}

// isDirPath reports whether a value names a directory on its own: an
// absolute or ~ path.
func isDirPath(s string) bool {
	return strings.HasPrefix(s, "/") || s == "~" || strings.HasPrefix(s, "~/")
}

// homeKnown reports whether HOME is what it was when the command started
// (a tilde then stays "~", which package policy expands).
func (v *values) homeKnown() bool { return v == nil || v.touched&touchHome == 0 }

// shellVar is the value of one of the shell's own variables for a run: a
// prefix assignment of the command (HOME=DIR cd), else the value held.
// known is false when the value is only known at run time; set is false
// when the text has not assigned it (the environment's value).
func (v *values) shellVar(c cmd, name string, bit touchSet) (val string, known, set bool) {
	if b, ok := c.shellEnv[name]; ok {
		return b.text, !b.dynamic, true
	}
	if v.touched&bit == 0 {
		return "", true, false
	}
	b, ok := v.vars[name]
	if !ok || b.dynamic || b.array {
		return "", false, true
	}
	return b.text, true, true
}

// homeDest is where a bare cd goes: "" for the home directory the command
// started with, else HOME's value; known is false when it is only known
// at run time.
func (v *values) homeDest(c cmd) (string, bool) {
	h, known, set := v.shellVar(c, "HOME", touchHome)
	if !set {
		return "", true
	}
	if !known || h == "" {
		return "", false
	}
	return h, true
}

// viaCDPATH reports whether cd DEST may move somewhere else than DEST
// relative to the current directory because the text set CDPATH: a
// relative DEST not spelled ./ or ../ is looked up in CDPATH's
// directories first. CDPATH from the agent's environment is not seen
// (docs/THREAT-MODEL.md).
func (v *values) viaCDPATH(c cmd, dest string) bool {
	if dest == "" || dest == "." || dest == ".." || isDirPath(dest) || strings.HasPrefix(dest, "./") || strings.HasPrefix(dest, "../") {
		return false
	}
	cdable := v.cdable && v.cdableVar(dest)
	cdpath, known, set := v.shellVar(c, "CDPATH", touchCDPATH)
	if !set {
		return cdable
	}
	if !known {
		return true
	}
	via := false
	for _, d := range strings.Split(cdpath, ":") {
		if d == "" || d == "." {
			continue
		}
		via = true
		// Each directory it may go to is named, for readers to check
		// relative paths there too (cdpathDirs).
		switch {
		case isDirPath(d):
			v.cdpath = append(v.cdpath, path.Join(d, dest))
		case v.dir != DirUnknown:
			v.cdpath = append(v.cdpath, path.Join(v.dir, d, dest))
		}
	}
	if len(v.cdpath) > 8 {
		v.cdpath = v.cdpath[:8]
	}
	return via || cdable
}

// cdableVar handles cd NAME with cdable_vars on: bash goes to $NAME when
// no directory NAME is found, so the directory is only known at run time
// and the value, when held, is one it may go to (named for readers as
// CDPATH's are); so is NAME itself.
func (v *values) cdableVar(dest string) bool {
	if !isName(dest) {
		return false
	}
	if v.dir != DirUnknown {
		v.cdpath = append(v.cdpath, path.Join(v.dir, dest))
	}
	b, ok := v.vars[dest]
	if ok && !b.dynamic && !b.array {
		switch {
		case isDirPath(b.text):
			v.cdpath = append(v.cdpath, path.Clean(b.text))
		case b.text != "" && v.dir != DirUnknown:
			v.cdpath = append(v.cdpath, path.Join(v.dir, b.text))
		}
	}
	return true
}

// cdpathDirs emits, after a cd through CDPATH, a run of ":" in each
// directory it may have gone to: the run's directory is only known at run
// time, and readers that check relative paths in every directory the text
// named (package policy) check them there too.
func (w *walker) cdpathDirs(c cmd) {
	if len(c.vals.cdpath) == 0 {
		return
	}
	for _, d := range c.vals.cdpath {
		w.emit(Invocation{Args: []string{":"}, Path: ":", Line: c.line, Via: c.frame.with("cd through CDPATH").via, Source: c.source, Dir: d})
	}
	c.vals.cdpath = nil
}

// shellEnvOf collects the prefix assignments of HOME, CDPATH and OLDPWD,
// which a cd run with them reads, and IFS, which read splits by.
func (s *stmtWalker) shellEnvOf(list []*syntax.Assign) map[string]binding {
	var m map[string]binding
	for _, a := range list {
		if a.Name == nil {
			continue
		}
		switch n := a.Name.Value; n {
		case "HOME", "CDPATH", "OLDPWD", "IFS":
			val, known := s.value(a.Value)
			if a.Append || a.Array != nil || a.Index != nil {
				known = false
			}
			if m == nil {
				m = map[string]binding{}
			}
			m[n] = binding{text: val, dynamic: !known}
		}
	}
	return m
}

// hasTilde reports whether a word holds an unquoted tilde, which the shell
// may expand with HOME.
func hasTilde(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "~") {
			return true
		}
	}
	return false
}

// isStatic is isStatic, except that a tilde is not static once the text may
// have assigned HOME.
func (s *stmtWalker) isStatic(w *syntax.Word, heredoc bool) bool {
	return isStatic(w, heredoc) && (s.f.vals.homeKnown() || heredoc || !hasTilde(w))
}

// homeUnknown stands for a tilde whose HOME is only known at run time, in
// the text of a dynamic word: package policy reads it as run-time text,
// not as the home directory.
const homeUnknown = "${HOME:?}"

// forgetOldpwd drops a value of OLDPWD the text assigned, after a cd that
// set it anew (the walker's previous directory stands for it).
func (v *values) forgetOldpwd() {
	if _, ok := v.vars["OLDPWD"]; ok {
		old := v.old
		delete(v.vars, "OLDPWD")
		v.old = old
	}
	// cd sets PWD to the new directory, which the walker follows.
	delete(v.vars, "PWD")
	v.touched &^= touchPWD
}

// homeText is the text a tilde stands for once HOME was assigned: its
// value, static or the text it was built from, else homeUnknown.
func (v *values) homeText() string {
	if b, ok := v.vars["HOME"]; ok && !b.array && (!b.dynamic || b.text != "") {
		return b.text
	}
	return homeUnknown
}

// pureArithm reports whether an arithmetic expression (a slice's offset or
// length) assigns nothing and reads only held values or numbers; nil is
// an absent part.
func (v *values) pureArithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.Word:
		if lit := x.Lit(); lit != "" {
			if isName(lit) {
				b, ok := v.get(lit)
				return ok && !b.dynamic && !b.array
			}
			return true // a number; a bad one fails to expand
		}
		return v.expandable(x.Parts, nil)
	case *syntax.ParenArithm:
		return v.pureArithm(x.X)
	case *syntax.UnaryArithm:
		return x.Op != syntax.Inc && x.Op != syntax.Dec && v.pureArithm(x.X)
	case *syntax.BinaryArithm:
		return !arithAssign(x.Op) && v.pureArithm(x.X) && v.pureArithm(x.Y)
	}
	return false
}

// readFields splits one line as read does with the given IFS: into n
// fields, the last taking the rest of the line (n < 0: every field, for
// read -a).
func readFields(line, ifs string, n int) []string {
	isIFS := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	isWS := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && isIFS(c) }
	// word returns the field s starts with and what follows its
	// delimiter: IFS white space around at most one other IFS character.
	word := func(s string) (string, string) {
		i := 0
		for i < len(s) && !isIFS(s[i]) {
			i++
		}
		f, r := s[:i], s[i:]
		j := 0
		for j < len(r) && isWS(r[j]) {
			j++
		}
		if j < len(r) && isIFS(r[j]) && !isWS(r[j]) {
			j++
			for j < len(r) && isWS(r[j]) {
				j++
			}
		}
		return f, r[j:]
	}
	if ifs == "" {
		out := make([]string, max(n, 1))
		out[0] = line
		return out
	}
	s := strings.TrimLeftFunc(line, func(r rune) bool { return r < 128 && isWS(byte(r)) })
	var out []string
	for n < 0 && s != "" {
		var f string
		f, s = word(s)
		out = append(out, f)
	}
	for i := 0; i < n; i++ {
		if i < n-1 {
			var f string
			f, s = word(s)
			out = append(out, f)
			continue
		}
		if f, r := word(s); r == "" {
			out = append(out, f)
		} else {
			out = append(out, strings.TrimRightFunc(s, func(r rune) bool { return r < 128 && isWS(byte(r)) }))
		}
	}
	return out
}

// fromEnv gives a new shell the values of HOME, CDPATH, OLDPWD and IFS its
// environment sets (HOME=DIR bash -c '… ~/x'): prefixes and env's
// assignments, whose value is static unless its text expands.
func (v *values) fromEnv(env []string) {
	for _, name := range []string{"HOME", "CDPATH", "OLDPWD", "IFS"} {
		if val, ok := envValue(env, name); ok {
			v.set(name, binding{text: val, dynamic: strings.ContainsAny(val, "$`\"'\\")})
		}
	}
}

// tildeDir reads a word that starts with ~+ or ~- (the directory, and the
// one before the last cd: $PWD and $OLDPWD): what to put for those two
// characters, and whether that is only known at run time. ok is false for
// any other word.
func (s *stmtWalker) tildeDir(w *syntax.Word) (repl string, dyn, ok bool) {
	if len(w.Parts) == 0 {
		return "", false, false
	}
	l, isLit := w.Parts[0].(*syntax.Lit)
	if !isLit || len(l.Value) < 2 || l.Value[0] != '~' || l.Value[1] != '+' && l.Value[1] != '-' {
		return "", false, false
	}
	if len(l.Value) > 2 && l.Value[2] != '/' || len(l.Value) == 2 && len(w.Parts) > 1 {
		return "", false, false
	}
	v := s.f.vals
	if l.Value[1] == '+' {
		if v != nil && v.touched&touchPWD != 0 {
			// PWD assigned by the text: ~+ is its value.
			if b, held := v.vars["PWD"]; held && !b.dynamic && !b.array && isDirPath(b.text) {
				return b.text, false, true
			}
			return "${PWD:?}", true, true
		}
		// Relative paths are read from the run's own directory.
		return ".", false, true
	}
	switch {
	case v == nil || v.old == DirUnknown:
		return "${OLDPWD:?}", true, true
	case isDirPath(v.old):
		return v.old, false, true
	case v.dir == "":
		// Relative to the command's directory, where the run is too.
		if v.old == "" {
			return ".", false, true
		}
		return v.old, false, true
	}
	return "${OLDPWD:?}", true, true
}
