package shell

import (
	"io"
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Values flow through the text (issue 24): "f=~/.claude/settings.json;
// : > $f" writes the settings file as surely as ": > ~/.claude/settings.json".
// The walker keeps, in text order, the static values of the variables the
// text has assigned so far (plain, local, declare/typeset, export,
// readonly, arrays, for words, read from a here-string or here-document)
// and the directory each run happens in (cd, pushd, popd), and substitutes
// them into the words of later runs wherever the result is static.
//
// It is sound rather than complete. A variable whose value differs between
// the branches of an if, a case, && or ||, one assigned in a loop body or a
// function, or by anything the walker does not model (eval of unknown
// text, source, a computed command, declare -n) is forgotten: its
// references stay dynamic, never the wrong single value. A subshell, a
// command substitution, a pipeline's elements and a background job keep
// their assignments to themselves. A nested shell (bash -c, ssh) starts
// with the exported variables only. A word that references a variable the
// text has not set (from the environment, $1, $RANDOM) stays dynamic, and
// so does $HOME, whose expansion package policy makes.
//
// A variable known only as dynamic text ("d=$(mktemp -d)", "f=$HOME/x")
// keeps that text: its references are dynamic words whose text holds it
// ("$(mktemp -d)/x"), so that a later reader sees what the value was
// built from.

// Limits of value flow. Past any of them the variable is forgotten, so
// its references stay dynamic words: never dropped, never guessed.
const (
	// maxVars bounds how many variables one text's walk keeps.
	maxVars = 256
	// maxValueLen bounds the length of one kept value (or array, joined).
	maxValueLen = 4096
	// maxArrayElems bounds the elements of one kept array.
	maxArrayElems = 256
	// maxLoopValues bounds the static words of one for loop that are
	// walked one by one; a longer list leaves the loop variable dynamic.
	maxLoopValues = 64
	// maxLoopWalks bounds the loop bodies walked per value in one Parse,
	// over all loops, nested ones included.
	maxLoopWalks = 256
	// maxLoopBytes bounds the loop body text walked again per value, in
	// one Parse: a long body is walked once, its variable dynamic.
	maxLoopBytes = 64 << 10
	// maxDirStack bounds the pushd stack kept.
	maxDirStack = 32
)

// DirUnknown is Invocation.Dir for a run whose directory is only known at
// run time (cd "$(cat dir.txt)", a branch that may or may not cd).
const DirUnknown = "\x00unknown"

// binding is what the walker knows of one variable.
type binding struct {
	// text is a static scalar's value; for a dynamic value, its source
	// text ("" when not kept, and then references keep their own text).
	text    string
	list    []string // a static array's elements
	array   bool
	dynamic bool
	// ldyn marks, in a dynamic array whose list is kept, the elements
	// only known at run time (list then holds their text).
	ldyn []bool
	// ro marks a readonly variable: bash refuses to assign it again, so
	// a later assignment leaves the value as it is.
	ro bool
}

func (b binding) equal(o binding) bool {
	if b.text != o.text || b.array != o.array || b.dynamic != o.dynamic || b.ro != o.ro || len(b.list) != len(o.list) || len(b.ldyn) != len(o.ldyn) {
		return false
	}
	for i := range b.list {
		if b.list[i] != o.list[i] {
			return false
		}
	}
	for i := range b.ldyn {
		if b.ldyn[i] != o.ldyn[i] {
			return false
		}
	}
	return true
}

// values is the state of one shell: its variables and directory. A name
// absent from vars is unknown (set outside the text, or forgotten).
type values struct {
	vars map[string]binding
	// dir is the directory runs happen in: "" for the command's own
	// directory, a path relative to it, an absolute or ~ path, or
	// DirUnknown.
	dir string
	// old is the directory before the last cd (cd -).
	old string
	// stack is what pushd pushed; lost says popd beyond it is unknown.
	stack []string
	lost  bool
	// fn says the shell is running a function body, where local works.
	fn bool
	// cdpath holds the directories a cd through CDPATH may have gone to,
	// until the walker emits them (dirvars.go).
	cdpath []string
	// touched marks the shell's own variables that change what a tilde
	// or a cd means (HOME, CDPATH, OLDPWD) once the text may have
	// assigned them: a held value is then used, an unknown one makes the
	// word or the directory dynamic (dirvars.go). It is never unset.
	touched touchSet
	// cdable says shopt -s cdable_vars may be on: cd NAME may go to
	// $NAME (viaCDPATH).
	cdable bool
	// physical says set -P may be on: cd resolves links before "..".
	physical bool
	// nullglob says shopt -s nullglob may be on: a glob that matches
	// nothing is dropped (nullGlobShift).
	nullglob bool
}

func newValues() *values { return &values{old: DirUnknown, lost: true} }

func (v *values) clone() *values {
	n := *v
	if v.vars != nil {
		n.vars = make(map[string]binding, len(v.vars))
		for k, b := range v.vars {
			n.vars[k] = b
		}
	}
	n.stack = append([]string(nil), v.stack...)
	return &n
}

// copyFrom makes v hold what o holds (v may be shared with an eval's walk,
// so it is changed in place).
func (v *values) copyFrom(o *values) {
	t := v.touched
	*v = *o.clone()
	v.touched |= t
}

// merge keeps in v only what v and o agree on: the state after one of two
// paths was taken.
func (v *values) merge(o *values) {
	for k, b := range v.vars {
		if ob, ok := o.vars[k]; !ok || !ob.equal(b) {
			delete(v.vars, k)
		}
	}
	v.touched |= o.touched
	v.cdable = v.cdable || o.cdable
	v.physical = v.physical || o.physical
	v.nullglob = v.nullglob || o.nullglob
	v.mergeDir(o)
}

// mergeDir keeps the directory only when v and o agree on it.
func (v *values) mergeDir(o *values) {
	if v.dir != o.dir {
		v.dir = DirUnknown
	}
	if v.old != o.old {
		v.old = DirUnknown
	}
	if len(v.stack) != len(o.stack) || strings.Join(v.stack, "\x00") != strings.Join(o.stack, "\x00") || o.lost {
		v.stack, v.lost = nil, true
	}
}

// clear forgets everything: after something the walker cannot follow ran
// in this shell.
func (v *values) clear() {
	v.vars = nil
	v.dir, v.old, v.stack, v.lost = DirUnknown, DirUnknown, nil, true
}

func (v *values) get(name string) (binding, bool) {
	b, ok := v.vars[name]
	return b, ok
}

// set records a variable's value, or forgets it past the limits.
func (v *values) set(name string, b binding) {
	size := len(b.text)
	for _, e := range b.list {
		size += len(e) + 1
	}
	if size > maxValueLen || len(b.list) > maxArrayElems {
		b = binding{dynamic: true, array: b.array}
	}
	if v.vars == nil {
		v.vars = map[string]binding{}
	}
	old, ok := v.vars[name]
	if ok && old.ro {
		return // bash refuses: "readonly variable"
	}
	v.touch(name, &b)
	if !ok && len(v.vars) >= maxVars {
		return // past the limit: the variable stays unknown
	}
	v.vars[name] = b
}

func (v *values) forget(name string) {
	delete(v.vars, name)
	v.touch(name, nil)
}

// readonly marks a held variable readonly.
func (v *values) readonly(name string) {
	if b, ok := v.vars[name]; ok {
		b.ro = true
		v.vars[name] = b
	}
}

// forgetAll forgets what a piece of text may assign (names), and the
// directory when it may change it.
func (v *values) forgetAll(n *assignedSet) {
	if n.all {
		v.clear()
		return
	}
	for name := range n.names {
		v.forget(name)
	}
	if n.dir {
		v.dir, v.old, v.stack, v.lost = DirUnknown, DirUnknown, nil, true
	}
}

// child is the state a nested shell starts with: the exported variables
// of its parent and its directory.
func (v *values) child(e *exportState) *values {
	n := newValues()
	if v == nil {
		return n
	}
	n.dir = v.dir
	n.touched = v.touched
	for k, b := range v.vars {
		// HOME and PATH are in every environment a shell starts with:
		// assigned, they are exported.
		if e.allExport || e.names[k] || k == "HOME" || k == "PATH" {
			if !b.array {
				n.set(k, b)
			}
		}
	}
	return n
}

// chdir moves to dest ("" for the home directory), relative to the
// current directory.
func (v *values) chdir(dest string, known bool) {
	v.old = v.dir
	switch {
	case !known:
		v.dir = DirUnknown
	case dest == "":
		v.dir = "~"
	case strings.HasPrefix(dest, "/") || dest == "~" || strings.HasPrefix(dest, "~/"):
		v.dir = path.Clean(dest)
	case v.dir == DirUnknown:
		// A relative move from an unknown directory stays unknown.
	default:
		v.dir = path.Clean(path.Join(v.dir, dest))
		if v.dir == "." {
			v.dir = ""
		}
	}
	if len(v.dir) > maxValueLen {
		v.dir = DirUnknown
	}
}

// dirCommand follows cd, pushd and popd.
func (v *values) dirCommand(c cmd, name string) {
	var ops []int
	opts, physical := false, v.physical
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if !c.dyn[i] && a == "--" {
			for j := i + 1; j < len(c.args); j++ {
				ops = append(ops, j)
			}
			break
		}
		if !c.dyn[i] && len(a) > 1 && (a[0] == '-' || a[0] == '+') {
			if name != "cd" || strings.Trim(a[1:], "LPe@") != "" {
				opts = true
			}
			physical = physical || strings.Contains(a, "P")
			continue
		}
		ops = append(ops, i)
	}
	// $HOME is what ~ stands for: a directory spelled with it is known
	// as a ~ path.
	for _, i := range ops {
		if c.dyn[i] && v.homeKnown() {
			if p, ok := homePath(c.args[i]); ok {
				c.args = append([]string(nil), c.args...)
				c.dyn = append([]bool(nil), c.dyn...)
				c.args[i], c.dyn[i] = p, false
			}
		}
	}
	// The dir cd moves to updates OLDPWD: the value the text assigned
	// is the walker's previous directory from now on.
	defer v.forgetOldpwd()
	switch name {
	case "cd":
		switch {
		case len(ops) == 0:
			v.chdir(v.homeDest(c))
		case c.dyn[ops[0]]:
			v.chdir("", false)
		case c.args[ops[0]] == "-":
			old := v.old
			if o, known, set := v.shellVar(c, "OLDPWD", touchOLDPWD); set && c.shellEnv != nil {
				if _, pre := c.shellEnv["OLDPWD"]; pre {
					old = DirUnknown
					if known && isDirPath(o) {
						old = path.Clean(o)
					}
				}
			}
			v.old, v.dir = v.dir, old
		default:
			// cd -P (set -P) resolves a link before "..": where it
			// goes is known only at run time.
			dest := c.args[ops[0]]
			v.chdir(dest, !v.viaCDPATH(c, dest) && !(physical && dotDot(dest)))
		}
	case "pushd":
		if opts || len(ops) == 0 {
			// pushd +N, -n or a swap of the top two: not followed.
			v.dir, v.stack, v.lost = DirUnknown, nil, true
			return
		}
		v.stack = append(v.stack, v.dir)
		if len(v.stack) > maxDirStack {
			v.stack, v.lost = v.stack[1:], true
		}
		v.chdir(c.args[ops[0]], !c.dyn[ops[0]] && !v.viaCDPATH(c, c.args[ops[0]]) && !(physical && dotDot(c.args[ops[0]])))
	case "popd":
		if opts || len(ops) > 0 || len(v.stack) == 0 {
			v.dir = DirUnknown
			if len(v.stack) > 0 {
				v.stack = v.stack[:len(v.stack)-1]
			}
			return
		}
		v.old = v.dir
		v.dir = v.stack[len(v.stack)-1]
		v.stack = v.stack[:len(v.stack)-1]
	}
}

// homePath turns the text of a word that is $HOME or ${HOME} followed by
// static text into the same path spelled with ~.
func homePath(text string) (string, bool) {
	t := strings.ReplaceAll(text, `"`, "")
	for _, h := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(t, h); ok && (rest == "" || rest[0] == '/') && !strings.ContainsAny(rest, "$`\\'") {
			return "~" + rest, true
		}
	}
	return "", false
}

// read follows "read [-r] NAME..." fed a literal here-string, here-document
// or echo: the names get the first line's fields; otherwise they are
// forgotten.
func (v *values) read(c cmd) {
	raw, known := false, true
	var names []string
	arr := ""
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			v.clear() // a name only known at run time may be any variable
			return
		}
		if len(names) == 0 && arr == "" && len(a) > 1 && a[0] == '-' {
			if a == "--" {
				names = append(names, c.args[i+1:]...)
				break
			}
		flags:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'r':
					raw = true
				case 's', 'e':
				case 'a', 'p', 't', 'i', 'd', 'n', 'N', 'u':
					val := a[j+1:]
					if val == "" && i+1 < len(c.args) {
						i++
						val = c.args[i]
					}
					switch a[j] {
					case 'a':
						arr = val
					case 'd', 'n', 'N', 'u':
						known = false
					}
					break flags
				default:
					known = false
				}
			}
			continue
		}
		names = append(names, a)
	}
	all := names
	if arr != "" {
		all = append(append([]string(nil), names...), arr)
	}
	if len(all) == 0 {
		names, all = []string{"REPLY"}, []string{"REPLY"}
	}
	ifsVal, ifsKnown, ifsSet := v.shellVar(c, "IFS", touchIFS)
	ifs := ifsSet
	line, _, _ := strings.Cut(c.stdinText, "\n")
	if !c.stdinKnown && c.stdinSrc != "" && known && !ifs && len(all) == 1 {
		// Input only known at run time (<<< "$HOME/x"): the variable is
		// dynamic, and keeps the text its value is built from.
		src, _, _ := strings.Cut(strings.TrimSpace(c.stdinSrc), "\n")
		v.set(all[0], binding{text: src, dynamic: true, array: arr != ""})
		return
	}
	// IFS set by the text splits the line by its characters (FINDINGS-7
	// G6: IFS=, read a b <<< 'airlock,queue'); one only known at run time
	// leaves the names unknown.
	if !known || ifs && !ifsKnown || !c.stdinKnown || c.stdin == "" || (!raw && strings.Contains(line, `\`)) || len(names) > 0 && arr != "" {
		for _, n := range all {
			v.forget(n)
		}
		return
	}
	if !ifs {
		ifsVal = " \t\n"
	}
	if arr != "" {
		v.set(arr, binding{list: readFields(line, ifsVal, -1), array: true})
		return
	}
	if len(names) == 1 && names[0] == "REPLY" && len(c.args) == 1 {
		v.set("REPLY", binding{text: line})
		return
	}
	for i, f := range readFields(line, ifsVal, len(names)) {
		v.set(names[i], binding{text: f})
	}
}

// declared follows declare, typeset, local, export and readonly reached as
// a simple command (builtin declare ..., command export ...), whose words
// are already expanded.
func (v *values) declared(c cmd, name string) {
	flags := ""
	for i := 1; i < len(c.args); i++ {
		if !c.dyn[i] && len(c.args[i]) > 1 && (c.args[i][0] == '-' || c.args[i][0] == '+') && !strings.Contains(c.args[i], "=") {
			flags += c.args[i][1:]
		}
	}
	if strings.ContainsAny(flags, "n") {
		v.clear()
		v.touched |= touchHome // a name reference may assign HOME
		return
	}
	if strings.ContainsAny(flags, "fFp") {
		return
	}
	odd := strings.ContainsAny(flags, "iluAca") || name == "local" && !v.fn
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			v.clear()
			return
		}
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
			continue
		}
		k, val, has := strings.Cut(a, "=")
		switch {
		case !isName(k):
			v.clear()
			return
		case odd || has && strings.HasSuffix(k, "+"):
			v.forget(k)
		case has:
			v.set(k, binding{text: val})
		case name != "export" && name != "readonly":
			v.forget(k)
		}
	}
}

// effects applies what a run of a builtin does to this shell's variables
// and directory. It is called for every run in this shell, after it is
// emitted.
func (v *values) effects(c cmd) {
	name := normName(c.args[0])
	switch name {
	case "cd", "pushd", "popd":
		v.dirCommand(c, name)
	case "read":
		v.read(c)
	case "declare", "typeset", "local", "export", "readonly":
		v.declared(c, name)
	case "source", ".":
		v.clear() // the script may set anything
	case "mapfile", "readarray", "printf", "getopts", "unset", "wait", "let":
		if name == "printf" && v.printfAssign(c) {
			return
		}
		v.forget("MAPFILE")
		v.forget("OPTARG")
		for i := 1; i < len(c.args); i++ {
			if c.dyn[i] {
				v.clear()
				return
			}
			for _, n := range namesIn(c.args[i]) {
				v.forget(n)
			}
		}
	}
}

// namesIn returns the identifiers in a word (let x=y+1, printf -v x,
// unset 'a[1]'), each of which may be assigned.
func namesIn(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isNameStart(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

func isNameStart(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// valueEnv lets package expand read the kept values. A name the walker
// does not hold as static marks the expansion as missing something, so
// the word stays dynamic.
type valueEnv struct {
	v    *values
	miss bool
}

func (e *valueEnv) Get(name string) expand.Variable {
	if b, ok := e.v.get(name); ok {
		if b.dynamic {
			e.miss = true
			return expand.Variable{}
		}
		if b.array {
			return expand.Variable{Set: true, Kind: expand.Indexed, List: b.list}
		}
		return expand.Variable{Set: true, Kind: expand.String, Str: b.text}
	}
	switch {
	case name == "HOME" && e.v.homeKnown():
		// Only a tilde gets here ($HOME is refused before expanding):
		// it stays "~", as in every static word.
		return expand.Variable{Set: true, Kind: expand.String, Str: "~"}
	case name == "IFS" && e.v.touched&touchIFS != 0:
		// IFS set by the text, in a branch or another way the walker
		// does not hold: how words split is known only at run time.
	case name == "IFS" || name == "PWD" || strings.HasPrefix(name, "HOME "):
		return expand.Variable{}
	}
	e.miss = true
	return expand.Variable{}
}

func (e *valueEnv) Each(func(string, expand.Variable) bool) {}

// expandable reports whether every expansion in a word reads only
// variables held as static, in forms the walker expands (no command,
// process or arithmetic substitution, no assignment, no indirection).
func (v *values) expandable(parts []syntax.WordPart, subst func(*syntax.CmdSubst) bool) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
		case *syntax.CmdSubst:
			if subst == nil || !subst(p) {
				return false
			}
		case *syntax.ArithmExp:
			if p.Bracket || p.Unsigned || !v.pureArithm(p.X) {
				return false
			}
		case *syntax.DblQuoted:
			if !v.expandable(p.Parts, subst) {
				return false
			}
		case *syntax.BraceExp:
			for _, e := range p.Elems {
				if !v.expandable(e.Parts, subst) {
					return false
				}
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.NestedParam != nil || p.Excl || p.Names != 0 || p.Width || p.IsSet || len(p.Modifiers) > 0 || p.Flags != nil || promptOp(p) {
				return false
			}
			// A slice (${x:2}, ${x:0:${#x}-2}) of a held value is static
			// when its offset and length read only held values.
			if p.Slice != nil && !(v.pureArithm(p.Slice.Offset) && v.pureArithm(p.Slice.Length)) {
				return false
			}
			b, ok := v.get(p.Param.Value)
			if !ok || b.dynamic {
				return false
			}
			if p.Index != nil {
				w, ok := p.Index.(*syntax.Word)
				if !ok || len(w.Parts) != 1 {
					return false
				}
				lit, ok := w.Parts[0].(*syntax.Lit)
				if !ok || !(lit.Value == "@" || lit.Value == "*" || isNumber(lit.Value)) {
					return false
				}
			}
			if p.Exp != nil {
				if p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull {
					return false
				}
				if p.Exp.Word != nil && !v.expandable(p.Exp.Word.Parts, subst) {
					return false
				}
			}
			if p.Repl != nil {
				if p.Repl.Orig != nil && !v.expandable(p.Repl.Orig.Parts, subst) || p.Repl.With != nil && !v.expandable(p.Repl.With.Parts, subst) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// expandFields expands a word that reads kept values into its fields.
func (s *stmtWalker) expandFields(w *syntax.Word) ([]string, bool) {
	v, ok := s.expansionValues(w)
	if !ok || !v.expandable(w.Parts, s.knownSubst) {
		return nil, false
	}
	env := &valueEnv{v: v}
	var fields []string
	for f, err := range expand.FieldsSeq(s.expandConfig(env), w) {
		if err != nil || len(fields) == maxBraceFields {
			return nil, false
		}
		fields = append(fields, f)
	}
	return fields, !env.miss
}

// expandLiteral expands a word that reads kept values into one string
// (an assignment's value, a redirection's target, a here-document).
func (s *stmtWalker) expandLiteral(w *syntax.Word, heredoc bool) (string, bool) {
	v, ok := s.expansionValues(w)
	if !ok || !v.expandable(w.Parts, s.knownSubst) {
		return "", false
	}
	env := &valueEnv{v: v}
	cfg := s.expandConfig(env)
	var out string
	var err error
	if heredoc {
		out, err = expand.Document(cfg, w)
	} else {
		out, err = expand.Literal(cfg, w)
	}
	return out, err == nil && !env.miss && len(out) <= maxValueLen
}

// expansionValues returns the values a dynamic word is expanded with, and
// false when nothing in it can be known: it reads no kept value and holds
// no command substitution whose output the text tells.
func (s *stmtWalker) expansionValues(w *syntax.Word) (*values, bool) {
	v := s.f.vals
	if v != nil && (len(v.vars) > 0 || !v.homeKnown()) {
		return v, true
	}
	if !hasSubst(w.Parts) {
		return nil, false
	}
	if v == nil {
		v = newValues()
	}
	return v, true
}

// hasSubst reports whether a word holds a command substitution outside
// any parameter expansion.
func hasSubst(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.CmdSubst:
			return true
		case *syntax.DblQuoted:
			if hasSubst(p.Parts) {
				return true
			}
		}
	}
	return false
}

// expandConfig expands kept values, and the command substitutions whose
// output knownSubst tells; any other substitution marks the word missing.
func (s *stmtWalker) expandConfig(env *valueEnv) *expand.Config {
	return &expand.Config{Env: env, CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
		text, ok := s.substOutput(cs)
		if !ok {
			env.miss = true
			return nil
		}
		_, err := io.WriteString(w, text)
		return err
	}}
}

// knownSubst reports whether the output of a command substitution can be
// told from the text.
func (s *stmtWalker) knownSubst(cs *syntax.CmdSubst) bool {
	_, ok := s.substOutput(cs)
	return ok
}

// substOutput is what a command substitution prints when the text tells
// it: one echo or printf of words whose values are known, with no
// redirection, assignment or other statement. $(echo ls) names the program
// ls as surely as ls does, so it is classified as ls instead of being held
// as a name computed at run time; a path built this way is checked as the
// path it is. Anything else stays dynamic. The substitution's own run
// (echo) is still walked as a run of its own.
func (s *stmtWalker) substOutput(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return "", false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	var args []string
	for _, w := range call.Args {
		if hasSubst(w.Parts) {
			return "", false // one level: $(echo $(echo x)) stays dynamic
		}
		fields, ok := s.fields(w)
		if !ok {
			return "", false
		}
		args = append(args, fields...)
	}
	if len(args) > 0 && (s.w.funcs[args[0]] != nil || s.w.aliases[args[0]] != "") {
		return "", false // a function or alias of the name runs instead (FINDINGS-8 H3)
	}
	var text string
	switch {
	case len(args) == 0:
		return "", false
	case args[0] == "echo":
		text, ok = echoText(args[1:])
		text += "\n"
	case args[0] == "printf":
		text, ok = printfText(args[1:])
	case args[0] == "pwd" && len(args) <= 2:
		q := "pwd"
		if len(args) == 2 {
			if args[1] != "-L" && args[1] != "-P" {
				return "", false
			}
			q += " " + args[1]
		}
		text, ok = s.dirOutput(strings.TrimSuffix(q, " -L"))
	case args[0] == "git" && len(args) == 3 && args[1] == "rev-parse" && args[2] == "--show-toplevel":
		text, ok = s.dirOutput("toplevel")
	default:
		return "", false
	}
	if !ok || len(text) > maxValueLen {
		return "", false
	}
	return text, true
}

// dirOutput is what pwd or git rev-parse --show-toplevel prints in the
// shell's directory at this point of the text, read at decision time
// (Limits.DirOutput). Not when the directory is known only at run time,
// the text runs on another machine, or the text sets a variable that
// changes the answer (PATH picks another git; GIT_DIR, GIT_WORK_TREE and
// the ceiling another top level; PWD what a logical pwd prints).
func (s *stmtWalker) dirOutput(query string) (string, bool) {
	read := s.w.limits.DirOutput
	if read == nil || s.f.remote != "" {
		return "", false
	}
	dir := ""
	if v := s.f.vals; v != nil {
		dir = v.dir
		for _, name := range []string{"PATH", "PWD", "GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "HOME"} {
			if _, set := v.get(name); set && (name != "HOME" || strings.HasPrefix(dir, "~")) {
				return "", false
			}
		}
	}
	for _, e := range s.f.env {
		if name, _, _ := strings.Cut(e, "="); name == "PATH" || name == "PWD" || strings.HasPrefix(name, "GIT_") {
			return "", false
		}
	}
	if dir == DirUnknown {
		return "", false
	}
	text, ok := read(dir, query)
	if !ok || text == "" || strings.ContainsAny(text, "\n\x00") {
		return "", false
	}
	return text + "\n", true
}

// render is the text of a dynamic word with the kept values put in: a
// static value as itself, a dynamic one as the text it was built from.
func (s *stmtWalker) render(w *syntax.Word) string {
	out := s.renderVals(w)
	if r, _, ok := s.tildeDir(w); ok && len(out) >= 2 && out[0] == '~' {
		out = r + out[2:] // ~+ and ~- (dirvars.go)
	}
	return out
}

// renderVals is render without ~+ and ~-.
func (s *stmtWalker) renderVals(w *syntax.Word) string {
	src := s.source(w)
	v := s.f.vals
	if v == nil || len(v.vars) == 0 && v.touched == 0 {
		return src
	}
	var b strings.Builder
	parts := w.Parts
	if l, ok := parts[0].(*syntax.Lit); ok && !v.homeKnown() && (l.Value == "~" || strings.HasPrefix(l.Value, "~/")) {
		// A tilde whose HOME is only known at run time.
		b.WriteString(v.homeText())
		b.WriteString(l.Value[1:])
		parts = parts[1:]
	}
	s.renderParts(&b, parts)
	if b.Len() > maxValueLen {
		return src
	}
	return b.String()
}

func (s *stmtWalker) renderParts(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			if p.Dollar {
				b.WriteString(s.source(p))
				continue
			}
			b.WriteByte('"')
			s.renderParts(b, p.Parts)
			b.WriteByte('"')
		case *syntax.ParamExp:
			simple := p.Param != nil && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Length && !p.Excl && p.Names == 0 && p.NestedParam == nil
			bd, ok := s.f.vals.get(paramName(p))
			// A dynamic array's text stands for any of its elements.
			if simple && ok && p.Index != nil && bd.array && bd.dynamic && len(bd.ldyn) == len(bd.list) {
				// One element, or all, of an array known only in part.
				if iw, isWord := p.Index.(*syntax.Word); isWord && isNumber(iw.Lit()) && len(iw.Lit()) < 6 {
					n := 0
					for _, c := range iw.Lit() {
						n = n*10 + int(c-'0')
					}
					if n < len(bd.list) {
						b.WriteString(bd.list[n])
						continue
					}
				}
			}
			switch {
			case simple && !ok && p.Index == nil && s.f.vals.touched&dirVarBit(paramName(p)) != 0:
				// $HOME, $XDG_CONFIG_HOME… that the text may have
				// assigned, to a value not held: not the agent's.
				b.WriteString("${" + paramName(p) + ":?}")
			case !simple && ok && !bd.dynamic && !bd.array && p.Param != nil && p.Index == nil && !p.Excl && p.Names == 0 && p.NestedParam == nil:
				// An operation known only at run time (${x:$n},
				// ${x/$p/}) on a held value: what it is made from
				// stays in view, in a substitution that runs nothing.
				b.WriteString("$(: " + Join([]string{bd.text}) + " " + s.source(p) + ")")
			case !simple || !ok || p.Index != nil && !(bd.array && bd.dynamic) || bd.array && !bd.dynamic || bd.dynamic && bd.text == "":
				b.WriteString(s.source(p))
			default:
				b.WriteString(bd.text)
			}
		default:
			b.WriteString(s.source(p))
		}
	}
}

func paramName(p *syntax.ParamExp) string {
	if p.Param == nil {
		return ""
	}
	return p.Param.Value
}

// assign records one assignment of this shell (x=v, x+=v, a=(...),
// a+=(...), a[i]=v), evaluated with the values held before it.
func (s *stmtWalker) assign(a *syntax.Assign) {
	v := s.f.vals
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	old, hadOld := v.get(name)
	switch {
	case a.Array != nil:
		var list []string
		var ldyn []bool
		dyn := false
		if a.Append {
			if !hadOld || old.dynamic {
				v.forget(name)
				return
			}
			list = append(list, old.list...)
			if !old.array {
				list = []string{old.text}
			}
		}
		for _, e := range a.Array.Elems {
			if e.Index != nil || e.Value == nil {
				v.forget(name) // [i]=v and associative arrays are not followed
				return
			}
			fields, ok := s.fields(e.Value)
			if !ok {
				dyn = true
				fields = []string{s.render(e.Value)}
			}
			list = append(list, fields...)
			for range fields {
				ldyn = append(ldyn, !ok)
			}
		}
		if dyn {
			// Some element is only known at run time: the array is
			// dynamic; it keeps each element, static or as the text it
			// is built from, for references to the whole array or one
			// element (arrayRef).
			v.set(name, binding{text: strings.Join(list, " "), list: list, ldyn: ldyn, dynamic: true, array: true})
			return
		}
		v.set(name, binding{list: list, array: true})
	case a.Index != nil:
		w, ok := a.Index.(*syntax.Word)
		val, known := s.value(a.Value)
		if !ok || len(w.Parts) != 1 || !known || a.Append {
			v.forget(name)
			return
		}
		lit, _ := w.Parts[0].(*syntax.Lit)
		list := old.list
		if hadOld && !old.array && !old.dynamic {
			list = []string{old.text}
		}
		if lit == nil || !isNumber(lit.Value) || hadOld && old.dynamic {
			v.forget(name)
			return
		}
		i := 0
		for _, c := range lit.Value {
			i = i*10 + int(c-'0')
			if i > maxArrayElems {
				break
			}
		}
		switch {
		case i < len(list):
			list = append([]string(nil), list...)
			list[i] = val
		case i == len(list):
			list = append(append([]string(nil), list...), val)
		default:
			v.forget(name) // a sparse array is not followed
			return
		}
		v.set(name, binding{list: list, array: true})
	default:
		val, known := s.value(a.Value)
		if a.Append {
			if !known || !hadOld || old.dynamic || old.array {
				v.forget(name)
				return
			}
			val = old.text + val
		}
		if !known {
			v.set(name, binding{text: val, dynamic: true})
			return
		}
		v.set(name, binding{text: val})
	}
}

// value is an assignment's value: static, or else its rendered text.
func (s *stmtWalker) value(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	if v, ok := s.static(w, false); ok {
		return v, true
	}
	return s.render(w), false
}

// fields expands one word into static fields, using kept values.
func (s *stmtWalker) fields(w *syntax.Word) ([]string, bool) {
	if s.isStatic(w, false) {
		return staticFields(w)
	}
	return s.expandFields(w)
}

// declValues follows a declaration clause (declare, typeset, local,
// export, readonly) for the values it sets.
func (s *stmtWalker) declValues(d *syntax.DeclClause) {
	v := s.f.vals
	variant := d.Variant.Value
	flags := ""
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			if f, ok := s.static(a.Value, false); ok && len(f) > 1 && (f[0] == '-' || f[0] == '+') {
				flags += f[1:]
			}
		}
	}
	if variant == "nameref" || strings.Contains(flags, "n") {
		v.clear() // a name reference makes one name assign another
		v.touched |= touchHome
		return
	}
	if strings.ContainsAny(flags, "fFp") {
		return
	}
	odd := strings.ContainsAny(flags, "iluAc") // values transformed, or associative
	// local outside a function fails: nothing is assigned (a value held
	// before stays, but is forgotten to be safe).
	odd = odd || variant == "local" && !v.fn
	ro := variant == "readonly" || strings.Contains(flags, "r")
	for _, a := range d.Args {
		if ro && a.Name != nil {
			defer v.readonly(a.Name.Value)
		}
		switch {
		case a.Name != nil && odd:
			v.forget(a.Name.Value)
		case a.Name != nil && a.Naked:
			if variant != "export" && variant != "readonly" {
				v.forget(a.Name.Value)
			}
		case a.Name != nil:
			s.assign(a)
		case a.Value != nil:
			w, ok := s.static(a.Value, false)
			if !ok {
				v.clear() // the name is only known at run time
				return
			}
			if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
				continue
			}
			k, val, has := strings.Cut(w, "=")
			switch {
			case !isName(k):
				v.clear()
				return
			case has && !odd:
				v.set(k, binding{text: val})
			default:
				v.forget(k)
			}
		}
	}
}

// arrayRef expands a word that is only a reference to an array holding
// elements known at run time ("${a[@]}", ${a[*]}, ${a[1]}, $a) into its
// elements, each static or dynamic.
func (s *stmtWalker) arrayRef(w *syntax.Word) ([]string, []bool, bool) {
	parts := w.Parts
	quoted := false
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts, quoted = dq.Parts, true
		}
	}
	if len(parts) != 1 {
		return nil, nil, false
	}
	p, ok := parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Length || p.Excl || p.Names != 0 {
		return nil, nil, false
	}
	b, ok := s.f.vals.get(p.Param.Value)
	if !ok || !b.array || !b.dynamic || len(b.ldyn) != len(b.list) {
		return nil, nil, false
	}
	from, to := 0, 1
	if p.Index != nil {
		iw, ok := p.Index.(*syntax.Word)
		lit := ""
		if ok {
			lit = iw.Lit()
		}
		switch {
		case lit == "@" || lit == "*" && !quoted:
			from, to = 0, len(b.list)
		case isNumber(lit) && len(lit) < 6:
			n := 0
			for _, c := range lit {
				n = n*10 + int(c-'0')
			}
			from, to = n, n+1
		default:
			return nil, nil, false
		}
	}
	if to > len(b.list) {
		return nil, nil, false
	}
	var args []string
	var dyn []bool
	for i := from; i < to; i++ {
		d := b.ldyn[i] || !quoted && strings.ContainsAny(b.list[i], " \t\n*?[")
		args = append(args, b.list[i])
		dyn = append(dyn, d)
	}
	return args, dyn, true
}

// arrayElems returns the elements of the arrays known only in part that a
// word references whole (${a[@]}, ${a[*]}).
func (s *stmtWalker) arrayElems(parts []syntax.WordPart) []string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			out = append(out, s.arrayElems(p.Parts)...)
		case *syntax.ParamExp:
			iw, ok := p.Index.(*syntax.Word)
			if !ok || (iw.Lit() != "@" && iw.Lit() != "*") {
				continue
			}
			if b, ok := s.f.vals.get(paramName(p)); ok && b.array && b.dynamic && len(b.ldyn) == len(b.list) {
				out = append(out, b.list...)
			}
		}
	}
	return out
}
