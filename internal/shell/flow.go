package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file is the control flow of value flow (values.go): what a piece of
// text may assign, read from its syntax alone, and how branches, loops,
// subshells, functions and traps combine the values they leave.

// assignedSet is what a piece of text may assign: names, the directory,
// or anything at all.
type assignedSet struct {
	names map[string]bool
	dir   bool
	all   bool
}

func (n *assignedSet) add(name string) {
	if n.names == nil {
		n.names = map[string]bool{}
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	n.names[name] = true
}

// assigned collects, from the syntax alone, every variable a node may
// assign when it runs, following the functions it calls.
func (w *walker) assigned(node syntax.Node, n *assignedSet, seen map[*syntax.Stmt]bool) {
	syntax.Walk(node, func(m syntax.Node) bool {
		if n.all {
			return false
		}
		switch m := m.(type) {
		case *syntax.Assign:
			if m.Name != nil {
				n.add(m.Name.Value)
			} else {
				n.all = true // declare "$x=..."
			}
		case *syntax.DeclClause:
			if m.Variant.Value == "nameref" {
				n.all = true
			}
			for _, a := range m.Args {
				if a.Name == nil && a.Value != nil {
					if lit := a.Value.Lit(); strings.HasPrefix(lit, "-") && strings.Contains(lit, "n") {
						n.all = true
					}
				}
			}
		case *syntax.WordIter:
			n.add(m.Name.Value)
		case *syntax.ParamExp:
			if m.Exp != nil && (m.Exp.Op == syntax.AssignUnset || m.Exp.Op == syntax.AssignUnsetOrNull) {
				n.add(paramName(m))
			}
		case *syntax.BinaryArithm:
			if arithAssign(m.Op) {
				arithTarget(m.X, n)
			}
		case *syntax.UnaryArithm:
			if m.Op == syntax.Inc || m.Op == syntax.Dec {
				arithTarget(m.X, n)
			}
		case *syntax.CoprocClause:
			n.all = true
		case *syntax.CallExpr:
			if len(m.Args) == 0 {
				return true
			}
			name := m.Args[0].Lit()
			i := 0
			for (name == "builtin" || name == "command") && i+1 < len(m.Args) {
				i++
				name = m.Args[i].Lit()
			}
			switch name {
			case "":
				n.all = true // a computed command may be read, eval, cd
			case "cd", "pushd", "popd":
				n.dir = true
			case "eval", "source", ".", "trap", "mapfile", "readarray":
				n.all = true
			case "read", "printf", "getopts", "unset", "wait", "let",
				"declare", "typeset", "local", "export", "readonly":
				n.add("REPLY")
				n.add("MAPFILE")
				n.add("OPTARG")
				n.add("OPTIND")
				for _, a := range m.Args[i+1:] {
					lit := a.Lit()
					if lit == "" && !isStatic(a, false) {
						n.all = true
						break
					}
					for _, x := range namesIn(lit) {
						n.add(x)
					}
				}
			default:
				if _, ok := w.aliases[name]; ok {
					n.all = true
				}
				if body, ok := w.funcs[name]; ok && !seen[body] {
					seen[body] = true
					w.assignedBody(body, n, seen)
				}
			}
		}
		return true
	})
}

// assignedBody adds what a function body may assign, remembered per body
// until a function is defined again (calls are many, bodies few).
func (w *walker) assignedBody(body *syntax.Stmt, n *assignedSet, seen map[*syntax.Stmt]bool) {
	if w.bodyAssigns == nil || w.bodyGen != len(w.funcs)+w.funcDefs {
		w.bodyAssigns, w.bodyGen = map[*syntax.Stmt]*assignedSet{}, len(w.funcs)+w.funcDefs
	}
	b, ok := w.bodyAssigns[body]
	if !ok {
		b = &assignedSet{}
		w.assigned(body, b, seen)
		w.bodyAssigns[body] = b
	}
	if b.all {
		n.all = true
	}
	if b.dir {
		n.dir = true
	}
	for name := range b.names {
		n.add(name)
	}
}

func arithTarget(x syntax.ArithmExpr, n *assignedSet) {
	if w, ok := x.(*syntax.Word); ok {
		if lit := w.Lit(); lit != "" {
			n.add(lit)
			return
		}
		if len(w.Parts) == 1 {
			if p, ok := w.Parts[0].(*syntax.ParamExp); ok && p.Param != nil {
				n.add(p.Param.Value)
				return
			}
		}
	}
	n.all = true
}

func arithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// scan returns what the nodes may assign.
func (s *stmtWalker) scan(nodes ...syntax.Node) *assignedSet {
	n := &assignedSet{}
	for _, node := range nodes {
		s.w.assigned(node, n, map[*syntax.Stmt]bool{})
	}
	return n
}

// forgetAssigned forgets what node may assign.
func (s *stmtWalker) forgetAssigned(node syntax.Node) {
	s.f.vals.forgetAll(s.scan(node))
}

// snapshot is what a piece of code may change in the values, saved
// before it is walked: the names it may assign (or everything).
type snapshot struct {
	full  *values
	names map[string]binding
	dir   values // dir, old, stack, lost
	// none says no value was held: afterwards, none is again (the
	// common case, kept free of copies).
	none bool
}

// snap saves what the nodes may change.
func (s *stmtWalker) snap(nodes ...syntax.Node) snapshot {
	v := s.f.vals
	if len(v.vars) == 0 {
		sn := snapshot{none: true, dir: values{dir: v.dir, old: v.old, lost: v.lost}}
		if len(v.stack) > 0 {
			sn.dir.stack = append([]string(nil), v.stack...)
		}
		return sn
	}
	// Copying a few values is cheaper than reading a big subtree for
	// what it assigns: scan only small code when many values are held.
	size := 0
	for _, node := range nodes {
		size += int(node.End().Offset()) - int(node.Pos().Offset())
	}
	if len(v.vars) <= 16 || size > 2048 {
		return snapshot{full: v.clone()}
	}
	n := s.scan(nodes...)
	if n.all || len(n.names) > maxVars {
		return snapshot{full: v.clone()}
	}
	sn := snapshot{dir: values{dir: v.dir, old: v.old, stack: append([]string(nil), v.stack...), lost: v.lost}}
	for name := range n.names {
		if sn.names == nil {
			sn.names = map[string]binding{}
		}
		if b, ok := v.vars[name]; ok {
			sn.names[name] = b
		} else {
			sn.names[name] = binding{dynamic: true, text: "\x00absent"}
		}
	}
	return sn
}

// restore puts back what was saved.
func (v *values) restore(sn *snapshot) {
	if sn.full != nil {
		v.copyFrom(sn.full)
		return
	}
	if sn.none {
		v.vars = nil
	}
	for name, b := range sn.names {
		if b.dynamic && b.text == "\x00absent" {
			delete(v.vars, name)
		} else {
			v.set(name, b)
		}
	}
	v.dir, v.old, v.lost = sn.dir.dir, sn.dir.old, sn.dir.lost
	v.stack = nil
	if len(sn.dir.stack) > 0 {
		v.stack = append([]string(nil), sn.dir.stack...)
	}
}

// mergeSnap keeps only what v and the saved state agree on.
func (v *values) mergeSnap(sn *snapshot) {
	if sn.full != nil {
		v.merge(sn.full)
		return
	}
	if sn.none {
		v.vars = nil // what the branch set was not there before
	}
	for name, b := range sn.names {
		if cur, ok := v.vars[name]; !ok || !cur.equal(b) {
			delete(v.vars, name)
		}
	}
	v.mergeDir(&sn.dir)
}

// branch walks code (the nodes) that may or may not run: afterwards only
// what holds either way is kept.
func (s *stmtWalker) branch(walk func(), nodes ...syntax.Node) {
	sn := s.snap(nodes...)
	walk()
	s.f.vals.mergeSnap(&sn)
}

// andChain walks a && b && c: each part runs only when every part
// before it did and succeeded, so it sees the state they left (ls && cd
// src && make runs make in src). Afterwards only what holds wherever the
// chain may have stopped is kept.
func (s *stmtWalker) andChain(n *syntax.BinaryCmd) {
	parts := []*syntax.Stmt{n.Y}
	for {
		x := n.X
		b, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt || x.Negated || x.Background || x.Coprocess || len(x.Redirs) > 0 {
			parts = append(parts, x)
			break
		}
		parts = append(parts, b.Y)
		n = b
	}
	slices.Reverse(parts)
	syntax.Walk(parts[0], s.visit)
	// Each part starts after the one before has ended.
	// stops is what holds in every state the chain may stop in: after
	// each part but the last (it failed).
	var stops *values
	for _, p := range parts[1:] {
		if stops == nil {
			stops = s.f.vals.clone()
		} else {
			stops.merge(s.f.vals)
		}
		s.step()
		syntax.Walk(p, s.visit)
	}
	s.f.vals.merge(stops)
}

// isolated walks code (the nodes) that runs in a subshell: nothing it
// assigns lasts, and the traps it sets run when it ends.
func (s *stmtWalker) isolated(walk func(), nodes ...syntax.Node) {
	sn := s.snap(nodes...)
	n := len(s.w.traps)
	walk()
	s.w.runTraps(n, s.f.vals)
	s.f.vals.restore(&sn)
}

// pendingTrap is a trap action set in a shell, walked when that shell
// ends with the values it has then.
type pendingTrap struct {
	vals  *values
	text  string
	f     frame
	depth int
}

// runTraps walks the trap actions set since the n-th (by the shell whose
// state is v, which ends now), each with a copy of its shell's state as
// it is at the end, and drops them.
func (w *walker) runTraps(n int, v *values) {
	_ = v
	if len(w.traps) <= n {
		return
	}
	pending := append([]pendingTrap(nil), w.traps[n:]...)
	w.traps = w.traps[:n]
	for _, t := range pending {
		// A trap set inside a function body has that walk's state;
		// every trap is walked, whichever state it has.
		f := t.f
		f.vals, f.same = t.vals.clone(), true
		w.text(t.text, f, t.depth)
	}
}

func (s *stmtWalker) ifClause(n *syntax.IfClause) {
	if len(n.Cond) == 0 && !n.ThenPos.IsValid() {
		s.stmts(n.Then) // a plain else
		return
	}
	s.stmts(n.Cond)
	v := s.f.vals
	before := v.clone()
	s.stmts(n.Then)
	then := v.clone()
	v.copyFrom(before)
	if n.Else != nil {
		s.ifClause(n.Else)
	}
	v.merge(then)
}

func (s *stmtWalker) caseClause(n *syntax.CaseClause) {
	syntax.Walk(n.Word, s.visit)
	v := s.f.vals
	before := v.clone()
	result := v.clone() // no pattern matched
	entry := before
	for _, it := range n.Items {
		for _, p := range it.Patterns {
			syntax.Walk(p, s.visit)
		}
		v.copyFrom(entry)
		s.stmts(it.Stmts)
		result.merge(v)
		entry = before
		if it.Op != syntax.Break {
			// ;& and ;;& go on into the next item's body.
			entry = before.clone()
			entry.merge(v)
		}
	}
	v.copyFrom(result)
}

// forClause walks a for loop. Everything the body may assign is forgotten
// first, since a later pass sees what an earlier one set. A list of static
// words walks the body once per word, with the variable set to it (within
// the limits); otherwise the variable is dynamic.
func (s *stmtWalker) forClause(n *syntax.ForClause) {
	s.loops++
	defer func() { s.loops-- }()
	// The body runs again after its last part: one Seq for the loop.
	s.w.frozen++
	defer func() { s.w.frozen-- }()
	if n.Loop != nil {
		syntax.Walk(n.Loop, s.visit)
	}
	s.forgetAssigned(n)
	wi, ok := n.Loop.(*syntax.WordIter)
	if ok && wi.Name != nil && wi.Name.Value == "PATH" {
		// for PATH in DIRS: every later run looks its program up there
		// (FINDINGS-9 S1).
		s.w.exports.add("PATH=${PATH set by for}")
	}
	if !ok || n.Select || !wi.InPos.IsValid() {
		s.stmts(n.Do)
		s.forgetAssigned(n)
		return
	}
	var items []binding
	for _, it := range wi.Items {
		f, ok := s.fields(it)
		if !ok {
			// A word only known at run time: the variable is dynamic for
			// it, and keeps the text it is built from.
			f = []string{s.render(it)}
		}
		if len(items)+len(f) > maxLoopValues {
			items = nil
			break
		}
		if !ok {
			items = append(items, binding{text: f[0], dynamic: true})
			continue
		}
		// An unquoted pattern (for f in *.log) gives each file it
		// matches: the value is the pattern, known only as that, so the
		// words it goes into stay dynamic with the pattern as their text.
		glob := unquotedGlob(it.Parts)
		for _, x := range f {
			items = append(items, binding{text: x, dynamic: glob})
		}
	}
	size := int(n.End().Offset()) - int(n.Pos().Offset())
	if size < 1 {
		size = 1
	}
	if len(items) == 0 || s.w.loopWalks+len(items) > maxLoopWalks || s.w.loopBytes+size*len(items) > maxLoopBytes {
		s.stmts(n.Do)
		s.forgetAssigned(n)
		return
	}
	s.w.loopWalks += len(items)
	s.w.loopBytes += size * len(items)
	v := s.f.vals
	before := v.clone()
	for _, it := range items {
		v.copyFrom(before)
		v.set(wi.Name.Value, it)
		s.stmts(n.Do)
	}
	v.copyFrom(before)
	s.forgetAssigned(n)
}

func (s *stmtWalker) whileClause(n *syntax.WhileClause) {
	s.w.frozen++
	defer func() { s.w.frozen-- }()
	s.loops++
	s.forgetAssigned(n)
	s.stmts(n.Cond)
	s.stmts(n.Do)
	s.forgetAssigned(n)
	s.loops--
}

// forgetExpansionAssigns forgets the variables a command's own words
// assign while they expand (${x:=v}, $((x=1))), before the words are read.
func (s *stmtWalker) forgetExpansionAssigns(call *syntax.CallExpr) {
	for _, w := range call.Args {
		syntax.Walk(w, func(m syntax.Node) bool {
			switch m := m.(type) {
			case *syntax.ParamExp:
				if m.Exp != nil && (m.Exp.Op == syntax.AssignUnset || m.Exp.Op == syntax.AssignUnsetOrNull) {
					s.f.vals.forget(paramName(m))
				}
			case *syntax.ArithmExp:
				s.forgetAssigned(m)
				return false
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			}
			return true
		})
	}
}

// unquotedGlob reports whether a word holds a glob the shell expands
// against file names (an unquoted *, ? or [, or an extended glob).
func unquotedGlob(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				return true
			}
		case *syntax.ExtGlob:
			return true
		}
	}
	return false
}
