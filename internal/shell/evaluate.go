package shell

import (
	"io"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates some words a second time, after quote removal: the names
// given to builtins that set or test a variable (let, declare -i, printf -v,
// read, test -v, unset, mapfile, getopts, wait -p) may hold an array
// subscript, and bash expands the subscript, running any command
// substitution in it, even when the whole word was single-quoted
// (let 'a[$(git push)]=1' runs git push). A value stored in a variable is
// expanded the same way when it is later used in arithmetic
// (x='a[$(git push)]'; echo $((x))). So the literal text of these words is
// read as shell text: every command substitution in a subscript is a run of
// the command that evaluates it.

// evaluatingBuiltin: the builtins whose name or arithmetic arguments
// bash expands a second time. let and declare and its variants are parsed
// as their own clauses when they start a command; they are listed here for
// "builtin let ..." and "command declare ...".
func evaluatingBuiltin(name string) bool {
	switch name {
	case "let", "declare", "typeset", "local", "readonly", "export", "test", "[", "printf",
		"read", "unset", "mapfile", "readarray", "getopts", "wait":
		return true
	}
	return false
}

// hasEvaluatedSubscript reports whether text holds an array subscript
// (NAME[) followed by a command or parameter substitution, which bash runs
// when it evaluates the text as a variable name or an arithmetic
// expression.
func hasEvaluatedSubscript(text string) bool {
	for i := 1; i < len(text); i++ {
		if text[i] != '[' || !isNameByte(text[i-1]) {
			continue
		}
		rest := text[i:]
		return strings.Contains(rest, "$(") || strings.Contains(rest, "${") || strings.Contains(rest, "`")
	}
	return false
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// evaluated reads the words of an evaluating builtin (or the values of
// assignments) whose literal text holds an evaluated subscript, and walks
// the command substitutions in them as runs of that builtin.
func (w *walker) evaluated(c cmd) {
	name := normName(c.args[0])
	if name == "mapfile" || name == "readarray" {
		w.mapfileCallback(c)
	}
	if !evaluatingBuiltin(name) {
		return
	}
	flags := ""
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			// "a[\$(cmd)]$n": the literal parts still reach the evaluation.
			var ok bool
			if a, ok = literalParts(a); !ok {
				continue
			}
		}
		if len(a) > 1 && (a[0] == '-' || a[0] == '+') && !strings.Contains(a, "=") {
			flags += a[1:]
		}
		if hasEvaluatedSubscript(a) {
			w.evalSubst(c.frame, c.source, a, name, c.depth)
			continue
		}
		// declare -a x='(...)' re-parses a quoted compound assignment,
		// expanding what is in it.
		if _, v, ok := strings.Cut(a, "="); ok && strings.ContainsAny(flags, "aA") && strings.HasPrefix(v, "(") &&
			(strings.Contains(v, "$(") || strings.Contains(v, "`")) {
			w.evalSubst(c.frame, c.source, v, name, c.depth)
		}
	}
}

// assignedValues walks the evaluated subscripts in the values of NAME=value
// assignments: the value is expanded again when the variable is used in
// arithmetic, which need not be in the same text.
func (w *walker) assignedValues(f frame, source string, assigns []string, depth int) {
	for _, a := range assigns {
		if _, v, ok := strings.Cut(a, "="); ok && hasEvaluatedSubscript(v) {
			w.evalSubst(f, source, v, "an assignment", depth)
		}
	}
}

// evalSubst parses text the way bash expands it when it evaluates it (as a
// here-document body: quotes are plain characters, $(...), `...` and ${...}
// expand) and walks the statements of each command substitution in it.
// Text that cannot be parsed is opaque.
func (w *walker) evalSubst(f frame, source, text, builtin string, depth int) {
	via := builtin + " evaluates " + clip(text)
	f = f.with(via)
	if depth+1 > w.limits.MaxNesting {
		w.opaque(f, source, "limit reached: shell text nested more than the analysed depth")
		return
	}
	if d := bracketDepth(text); d > w.limits.MaxNesting*4 {
		w.opaque(f, source, "limit reached: substitutions nested too deep in "+clip(text))
		return
	}
	word, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(text))
	if err != nil {
		w.opaque(f, source, via+", and its text cannot be parsed: "+err.Error())
		return
	}
	if f.vals != nil {
		f.vals = f.vals.clone() // command substitutions: a subshell
	} else {
		f.vals = newValues()
	}
	sw := &stmtWalker{w: w, src: text, f: f, depth: depth + 1, stdin: map[*syntax.Stmt]stdinSource{}}
	syntax.Walk(word, func(n syntax.Node) bool {
		if cs, ok := n.(*syntax.CmdSubst); ok {
			sw.stmts(cs.Stmts)
			return false
		}
		return true
	})
}

// mapfileCallback parses the callback of mapfile -C as shell text: bash
// evaluates it with the index and line appended.
func (w *walker) mapfileCallback(c cmd) {
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] || len(a) < 2 || a[0] != '-' || a == "--" {
			if a == "--" {
				return
			}
			continue
		}
		j := strings.IndexAny(a[1:], "CdnOsuc")
		if j < 0 {
			continue
		}
		opt := a[1+j]
		value, vi := a[2+j:], i
		if value == "" && i+1 < len(c.args) {
			vi = i + 1
			value = c.args[vi]
			i++
		}
		if opt == 'C' {
			w.nested(c, value, c.dyn[vi], "mapfile -C")
		}
	}
}

// clause hands a let or declare clause (which the parser does not make a
// simple command) to evaluated, as its words' literal values.
func (s *stmtWalker) clause(name string, n syntax.Node, exprs []syntax.ArithmExpr) {
	c := cmd{frame: s.f, depth: s.depth, source: s.source(n), line: s.line(n), inLoop: s.loops > 0}
	c.args, c.dyn = []string{name}, []bool{false}
	add := func(prefix string, word *syntax.Word) {
		v, ok := s.static(word, false)
		if !ok {
			v = s.source(word)
		}
		c.args = append(c.args, prefix+v)
		c.dyn = append(c.dyn, !ok)
	}
	for _, e := range exprs {
		if word, ok := e.(*syntax.Word); ok {
			add("", word)
		}
	}
	if d, ok := n.(*syntax.DeclClause); ok {
		for _, a := range d.Args {
			switch {
			case a.Name == nil && a.Value != nil:
				add("", a.Value)
			case a.Name != nil && a.Value != nil:
				add(a.Name.Value+"=", a.Value)
			}
		}
	}
	s.w.evaluated(c)
}

// assigned handles a statement made only of assignments (x=1 y=2).
func (s *stmtWalker) assigned(call *syntax.CallExpr) {
	assigns := s.assignments(call.Assigns)
	s.w.assignedValues(s.f, s.source(call), assigns, s.depth)
	s.w.exports.assign(assigns)
	for _, a := range call.Assigns {
		s.assign(a)
		if a.Name != nil && a.Name.Value == "PS4" && s.w.xtraceOn {
			// Tracing is on: PS4 is expanded before every command
			// that follows (startup.go).
			s.w.xtrace(cmd{frame: s.f, depth: s.depth, line: s.line(call), source: s.source(call), args: []string{"set", "-x"}, dyn: []bool{false, false}})
		}
	}
}

// literalConfig expands a word with every run-time part made plain: a
// command or process substitution gives "0" (it is walked as a run of its
// own), a variable is empty.
var literalConfig = &expand.Config{
	Env:       expand.ListEnviron("HOME=~"),
	CmdSubst:  func(w io.Writer, _ *syntax.CmdSubst) error { _, err := io.WriteString(w, "0"); return err },
	ProcSubst: func(*syntax.ProcSubst) (string, error) { return "0", nil },
}

// literalParts returns the value of the shell word src with its run-time
// parts made plain, so that the text it puts in front of bash's second
// evaluation can be read.
func literalParts(src string) (string, bool) {
	word, ok := ParseWord(src)
	if !ok {
		return "", false
	}
	v, err := expand.Literal(literalConfig, word)
	return v, err == nil
}

// arithmWords reads the quoted words inside an arithmetic context of the
// syntax itself ((( )), $(( )), $[ ], for (( )), [[ ]] operands, ${x:off},
// ${a[i]}, a[i]=v): bash evaluates their text as arithmetic after quote
// removal, so a subscript in a quoted word runs its command substitutions.
func (s *stmtWalker) arithmWords(n syntax.Node) {
	syntax.Walk(n, func(m syntax.Node) bool {
		word, ok := m.(*syntax.Word)
		if !ok {
			return true
		}
		if s.w.seenWords == nil {
			s.w.seenWords = map[*syntax.Word]bool{}
		}
		if s.w.seenWords[word] {
			return false
		}
		s.w.seenWords[word] = true
		quoted := false
		for _, p := range word.Parts {
			switch p.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true
			}
		}
		if !quoted || !hasEvaluatedSubscript(s.source(word)) {
			return true // cheap test first: most quoted words hold no subscript
		}
		if v, ok := literalParts(s.source(word)); ok && hasEvaluatedSubscript(v) {
			s.w.evalSubst(s.f, s.source(word), v, "arithmetic", s.depth)
		}
		return true
	})
}
