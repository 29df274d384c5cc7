package shell

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// stmtWalker walks the statements of one parsed text.
type stmtWalker struct {
	w     *walker
	src   string
	f     frame
	depth int
	// stdin records, for a statement on the right of a pipe, what feeds it.
	stdin map[*syntax.Stmt]stdinSource
	// loops is how many loop bodies enclose the statement being walked.
	loops int
}

// stdinSource is what a pipeline feeds into a statement.
type stdinSource struct {
	from  string // source text of the producer
	text  string // literal text produced, when known
	known bool
	// args is the producer's argument vector when it is one simple
	// command of static words, with no assignment or redirection.
	args []string
	// file is the one file a producer "cat FILE" writes into the pipe:
	// a shell reading the pipe runs that file as sh < FILE would.
	file string
}

func (s *stmtWalker) stmts(list []*syntax.Stmt) {
	for i, st := range list {
		if i > 0 {
			s.step()
		}
		if st.Background || st.Coprocess || st.Disown {
			// A background job is a subshell: what it sets does not last.
			// It runs beside what follows, so no run is ordered.
			s.w.unordered = true
			s.isolated(func() { syntax.Walk(st, s.visit) }, st)
			continue
		}
		syntax.Walk(st, s.visit)
	}
}

func (s *stmtWalker) visit(n syntax.Node) bool {
	if s.w.full {
		return false
	}
	switch n := n.(type) {
	case *syntax.FuncDecl:
		s.w.funcDefs++
		if n.Name != nil {
			s.w.funcs[n.Name.Value] = n.Body
			s.shadowsFunc(n.Name.Value, s.source(n))
		}
		for _, name := range n.Names {
			s.w.funcs[name.Value] = n.Body
			s.shadowsFunc(name.Value, s.source(n))
		}
		if n.Name != nil && n.Name.Value == "command_not_found_handle" {
			// It runs for every name not found, which cannot be told
			// from the text: its body is walked as run here.
			s.callFunction(n.Body, nil)
		}
		// The body runs only when the function is called; see call.
		return false
	case *syntax.BinaryCmd:
		switch n.Op {
		case syntax.Pipe, syntax.PipeAll:
			s.outputRead()
			s.stdin[leftmost(n.Y)] = s.producedBy(rightmost(n.X))
			// Each element of a pipeline runs in a subshell; the last may
			// run in this shell (lastpipe, zsh). They run side by side.
			s.together(func() {
				s.isolated(func() { syntax.Walk(n.X, s.visit) }, n.X)
				s.branch(func() { syntax.Walk(n.Y, s.visit) }, n.Y)
			})
		case syntax.AndStmt:
			s.andChain(n)
		default: // ||: the right side may not run
			syntax.Walk(n.X, s.visit)
			s.step()
			s.branch(func() { syntax.Walk(n.Y, s.visit) }, n.Y)
		}
		return false
	case *syntax.IfClause:
		s.ifClause(n)
		return false
	case *syntax.CaseClause:
		s.caseClause(n)
		return false
	case *syntax.Subshell:
		s.isolated(func() { s.stmts(n.Stmts) }, n)
		return false
	case *syntax.CmdSubst:
		s.outputRead()
		s.together(func() { s.isolated(func() { s.stmts(n.Stmts) }, n) })
		return false
	case *syntax.ProcSubst:
		s.outputRead()
		// It runs beside the command, and may outlive it.
		s.w.unordered = true
		s.isolated(func() { s.stmts(n.Stmts) }, n)
		return false
	case *syntax.Block:
		s.stmts(n.Stmts)
		return false
	case *syntax.CoprocClause:
		s.w.unordered = true
		s.isolated(func() { syntax.Walk(n.Stmt, s.visit) }, n)
		s.f.vals.clear() // it sets the array its name gives
		return false
	case *syntax.Stmt:
		switch cmd := n.Cmd.(type) {
		case *syntax.CallExpr:
			if len(cmd.Args) > 0 {
				s.call(n, cmd)
			} else {
				s.assigned(cmd)
				if len(n.Redirs) > 0 {
					s.redirectOnly(n, false)
				}
			}
		case nil:
			if len(n.Redirs) > 0 {
				s.redirectOnly(n, false)
			}
		default:
			// A compound command ({ ...; } > f, ( ... ) > f, if/while/for/
			// case ... > f) applies its redirections to the whole body:
			// they are emitted as a run of ":" so that they are seen, and
			// the body is walked as usual.
			if len(n.Redirs) > 0 {
				s.redirectOnly(n, true)
			}
		}
	case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.TestClause, *syntax.CStyleLoop:
		s.arithmWords(n)
		if _, test := n.(*syntax.TestClause); !test {
			s.forgetAssigned(n)
		}
	case *syntax.ParamExp:
		if n.Slice != nil || n.Index != nil {
			s.arithmWords(n)
			if n.Index != nil {
				s.forgetAssigned(n.Index) // ${a[i++]}
			}
		}
		if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
			s.f.vals.forget(paramName(n))
		}
		if promptOp(n) {
			s.promptExpansion(n)
		}
	case *syntax.Assign:
		s.hashVars(n)
		if n.Index != nil {
			s.arithmWords(n.Index)
			s.forgetAssigned(n.Index) // a[i++]=v
		}
	case *syntax.LetClause:
		s.clause("let", n, n.Exprs)
		s.forgetAssigned(n)
	case *syntax.DeclClause:
		s.clause(n.Variant.Value, n, nil)
		s.declNameref(n)
		s.declExports(n)
		s.declValues(n)
	case *syntax.ForClause:
		// Commands in a loop body run once per item: a delete of the loop
		// variable is a bulk delete.
		s.forClause(n)
		return false
	case *syntax.WhileClause:
		s.whileClause(n)
		return false
	}
	return true
}

// redirectOnly emits a statement that is only redirections (> file,
// X=1 > file) as a run of the null command ":", so the redirections are
// seen: "> f" empties f.
func (s *stmtWalker) redirectOnly(st *syntax.Stmt, group bool) {
	c := cmd{frame: s.f, depth: s.depth, source: s.source(st), line: s.line(st), inLoop: s.loops > 0, group: group}
	s.redirects(st, &c)
	if len(c.redirects) == 0 {
		return
	}
	c.args, c.dyn = []string{":"}, []bool{false}
	s.w.emit(c.invocation())
}

func leftmost(st *syntax.Stmt) *syntax.Stmt {
	for {
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok {
			return st
		}
		st = b.X
	}
}

func rightmost(st *syntax.Stmt) *syntax.Stmt {
	for {
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok {
			return st
		}
		st = b.Y
	}
}

// producedBy says what a statement writes into a pipe: literal text for an
// echo or printf of static words, otherwise unknown.
func (s *stmtWalker) producedBy(st *syntax.Stmt) stdinSource {
	src := s.source(st)
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(st.Redirs) > 0 {
		return stdinSource{from: src}
	}
	args, dyn := s.words(call.Args)
	if anyTrue(dyn) || len(args) == 0 {
		return stdinSource{from: src}
	}
	if len(call.Assigns) > 0 {
		return stdinSource{from: src}
	}
	switch normName(args[0]) {
	case "find", "git", "ls":
		return stdinSource{from: src, args: append([]string{normName(args[0])}, args[1:]...)}
	case "cat":
		files := args[1:]
		if len(files) == 2 && files[0] == "--" {
			files = files[1:]
		}
		if len(files) == 1 && files[0] != "-" && !strings.HasPrefix(files[0], "-") && !isGlob(files[0]) {
			return stdinSource{from: src, file: files[0]}
		}
	case "echo":
		if text, ok := echoText(args[1:]); ok {
			return stdinSource{from: src, text: text, known: true}
		}
	case "printf":
		if text, ok := printfText(args[1:]); ok {
			return stdinSource{from: src, text: text, known: true}
		}
	}
	return stdinSource{from: src}
}

// line is the line a node starts on in the outermost text: nested text
// keeps the line of the command it came from.
func (s *stmtWalker) line(n syntax.Node) int {
	if s.f.line > 0 {
		return s.f.line
	}
	return int(n.Pos().Line())
}

func (s *stmtWalker) source(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(s.src) || start > end {
		return ""
	}
	return s.src[start:end]
}

// call handles one simple command.
func (s *stmtWalker) call(st *syntax.Stmt, call *syntax.CallExpr) {
	prefix := s.assignments(call.Assigns)
	if s.w.exports.overflow && !s.w.exports.reported {
		s.w.exports.reported = true
		s.w.opaque(s.f, s.source(call), fmt.Sprintf("limit reached: more than %d exported variables, so what later commands run with is not followed", maxExports))
	}
	c := cmd{
		frame:  s.f.withEnv(s.w.exports.env).withEnv(prefix),
		depth:  s.depth,
		source: s.source(call),
		line:   s.line(call),
		inLoop: s.loops > 0,
		base:   len(s.f.via),
	}
	if len(call.Assigns) > 0 {
		c.shellEnv = s.shellEnvOf(call.Assigns)
	}
	c.frame.line = c.line // text nested in this command keeps its line
	if len(s.f.vals.vars) > 0 {
		s.forgetExpansionAssigns(call)
	}
	s.w.assignedValues(c.frame, c.source, prefix, s.depth)
	c.args, c.dyn = s.words(call.Args)
	s.redirects(st, &c)
	if src, ok := s.stdin[st]; ok && c.stdin == "" {
		c.stdin, c.stdinText, c.stdinKnown, c.stdinFrom, c.stdinArgs, c.stdinFile = "pipe", src.text, src.known, src.from, src.args, src.file
	}
	if len(c.args) == 0 {
		return
	}
	if c.dyn[0] {
		s.w.computedName(c)
		if !NamesAFile(c.args[0]) {
			s.f.vals.clear() // it may be read, cd or eval; a path is a program
		}
		return
	}
	name := c.args[0]
	if s.nullGlobShift(call, c) {
		return
	}
	if isGlob(name) {
		s.w.opaque(s.f, c.source, globReason(name))
		return
	}
	if strings.Contains(name, "=") {
		// Not a valid assignment (1A=2, A-B=2, =2), so the shell would try
		// to run a program of that name: nothing sane, and not to be guessed.
		s.w.opaque(s.f, c.source, "the command word "+name+" looks like an assignment but is not one")
		return
	}
	if body, ok := s.w.funcs[name]; ok {
		// The redirections of a call apply to the whole function body.
		if len(c.redirects) > 0 {
			r := c
			r.args, r.dyn, r.group = []string{":"}, []bool{false}, true
			s.w.emit(r.invocation())
		}
		s.callFunction(body, call)
		return
	}
	if text, ok := s.w.aliases[name]; ok && !c.dyn[0] {
		delete(s.w.aliases, name) // an alias does not expand inside itself
		f := s.f.with("alias " + name)
		f.same = true
		// Aliases expand only where expand_aliases is on: the values
		// after are those that hold either way.
		sn := snapshot{full: s.f.vals.clone()}
		s.w.text(text+" "+Join(c.args[1:]), f, s.depth+1)
		s.f.vals.mergeSnap(&sn)
		return
	}
	if name == "alias" {
		s.defineAliases(c)
	}
	if name == "hash" {
		s.hashPaths(c)
	}
	if name == "set" && histExpands(c) && (strings.Contains(s.src, "!") || strings.Contains(s.w.top, "!")) {
		s.w.opaque(s.f, c.source, "set -H turns on history expansion: a later line's ! is replaced by earlier text before it runs")
	}
	if name == "set" {
		s.w.exports.setOptions(c)
		s.w.xtrace(c)
	}
	s.w.run(c)
	if len(call.Assigns) > 0 && specialBuiltin(name) {
		s.prefixPersists(call.Assigns)
	}
}

// assignments renders the NAME=value prefixes of a simple command; a value
// only known at run time keeps its source text.
func (s *stmtWalker) assignments(list []*syntax.Assign) []string {
	var out []string
	for _, a := range list {
		if a.Name == nil || a.Array != nil {
			continue
		}
		v := ""
		if a.Value != nil {
			var ok bool
			if v, ok = s.static(a.Value, false); !ok {
				v = s.source(a.Value)
			}
		}
		if a.Append {
			// NAME+=v appends to what NAME held (PATH=dir; PATH+=:/usr/bin
			// keeps dir first): the held value, else $NAME.
			old, held := binding{}, false
			if s.f.vals != nil {
				old, held = s.f.vals.get(a.Name.Value)
			}
			if held && !old.dynamic && !old.array {
				v = old.text + v
			} else {
				v = "$" + a.Name.Value + v
			}
		}
		out = append(out, a.Name.Value+"="+v)
	}
	return out
}

func (s *stmtWalker) defineAliases(c cmd) {
	for i, a := range c.args[1:] {
		if c.dyn[i+1] {
			continue
		}
		if k, v, ok := strings.Cut(a, "="); ok && k != "" {
			s.w.aliases[k] = v
			s.shadows(k, c.source)
		}
	}
}

// hashPaths reads hash -p FILE NAME…: bash runs FILE for each NAME, as it
// would a function of the name (hash -p ./x mktemp; $(mktemp -d)).
func (s *stmtWalker) hashPaths(c cmd) {
	path, i := false, 1
	for ; i < len(c.args); i++ {
		a := c.args[i]
		if a == "--" {
			i++
			break
		}
		if c.dyn[i] || len(a) < 2 || a[0] != '-' {
			break
		}
		if strings.IndexByte(a[1:], 'p') >= 0 {
			path = true
			if strings.HasSuffix(a, "p") {
				i++ // the file
			}
		}
	}
	if !path {
		return
	}
	file, fileDyn := "", true
	for k := 1; k < i; k++ {
		if strings.HasSuffix(c.args[k], "p") && strings.HasPrefix(c.args[k], "-") && k+1 < len(c.args) {
			file, fileDyn = c.args[k+1], c.dyn[k+1]
		}
	}
	for ; i < len(c.args); i++ {
		name := c.args[i]
		if !c.dyn[i] && bashBuiltin(name) {
			continue // bash runs the builtin all the same (hash -p ./x echo)
		}
		if c.dyn[i] || fileDyn || !isName(strings.ReplaceAll(strings.ReplaceAll(name, "-", "_"), ".", "_")) {
			s.w.opaque(s.f, c.source, "hash -p makes "+clip(name)+" run a file known only at run time")
			continue
		}
		// As a function of the name running the file: its calls run the
		// file, and the shadow rule sees the name.
		f := s.f.with("hash -p")
		f.same = true
		s.w.text(name+"() { '"+strings.ReplaceAll(file, "'", `'\''`)+"' \"$@\"; }", f, s.depth+1)
	}
}

// shadows makes a run opaque when the text defines a function or an alias
// named like a program whose output the analysis reads (shadowed).
func (s *stmtWalker) shadows(name, source string) {
	s.w.shadowed(s.f, name, source)
}

func (s *stmtWalker) redirects(st *syntax.Stmt, c *cmd) {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			c.stdin = "heredoc"
			if r.Hdoc != nil {
				c.stdinText, c.stdinKnown = s.static(r.Hdoc, true)
				if !c.stdinKnown {
					c.stdinSrc = s.render(r.Hdoc)
				}
			} else {
				c.stdinKnown = true
			}
			c.stdinFrom = "a heredoc"
			continue
		case syntax.WordHdoc:
			c.stdin = "herestring"
			c.stdinText, c.stdinKnown = s.static(r.Word, false)
			if !c.stdinKnown {
				c.stdinSrc = s.render(r.Word)
			}
			c.stdinFrom = "a here-string"
			continue
		}
		if r.Word == nil {
			continue
		}
		target, known := s.static(r.Word, false)
		if !known {
			target = s.render(r.Word)
		}
		rd := Redirect{Op: r.Op.String(), Target: target, Dynamic: !known}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		c.redirects = append(c.redirects, rd)
	}
}

// isGlob reports whether a command word holds a glob pattern (*, ? or a
// [...] bracket expression), which the shell expands against file names
// when it runs: "/usr/bin/cur[l]" runs curl. A lone "[" (test) is not one.
func isGlob(word string) bool {
	if strings.ContainsAny(word, "*?") {
		return true
	}
	i := strings.IndexByte(word, '[')
	return i >= 0 && strings.IndexByte(word[i+1:], ']') >= 0
}

func globReason(name string) string {
	return "the command name is a glob the shell expands when it runs (" + name + "), so what runs cannot be known"
}

// normName normalises a command word: base name, no ".exe", lower case.
func normName(word string) string {
	name := path.Base(strings.ReplaceAll(word, `\`, "/"))
	if name == "." || name == "/" {
		name = word
	}
	name = strings.ToLower(name)
	return strings.TrimSuffix(name, ".exe")
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// Join joins words back into shell text, quoting each, so that parsing
// the result gives the same words.
func Join(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			q = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		b.WriteString(q)
	}
	return b.String()
}
