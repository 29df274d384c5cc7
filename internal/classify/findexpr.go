package classify

import "strings"

// This file reads a find expression as find does, so that each action is
// bounded by the -name/-path tests that must be true for it to run, also
// when the expression has alternatives (FINDINGS-10 B1): in
//
//	find . -name '*.orig' -o -name '*.rej' -delete
//
// -delete binds to its own branch ("-a" binds tighter than "-o") and
// deletes only what matches *.rej; in
//
//	find . \( -name '*.orig' -o -name '*.rej' \) -delete
//	find . -name '*.pyc' -o -name __pycache__ | xargs rm -rf
//
// what is deleted (or printed) matches one of the two patterns. A bound is
// a set of patterns, one of which every touched file matches; a branch
// that is reached when an earlier one is false, a negation, or a test
// that is not a name pattern gives no bound ("all"), so
// `find . -name x -o -delete` still deletes anything. An expression airlock
// cannot parse bounds nothing.

// findPat is one -name or -path pattern (Fold: -iname, -ipath).
type findPat struct {
	pattern string
	fold    bool
}

// findSet is what a find expression bounds: all files, or those that
// match one of pats.
type findSet struct {
	all  bool
	pats []findPat
}

var findAll = findSet{all: true}

// union is the set of files either side can be.
func (s findSet) union(t findSet) findSet {
	if s.all || t.all {
		return findAll
	}
	out := findSet{pats: append([]findPat(nil), s.pats...)}
	for _, p := range t.pats {
		seen := false
		for _, q := range out.pats {
			seen = seen || q == p
		}
		if !seen {
			out.pats = append(out.pats, p)
		}
	}
	return out
}

// narrow is a bound for files in both sets: either set is one (their
// intersection is not a list of patterns); the one with fewer patterns.
func (s findSet) narrow(t findSet) findSet {
	switch {
	case s.all:
		return t
	case t.all:
		return s
	case len(t.pats) < len(s.pats):
		return t
	}
	return s
}

// findNode is one node of a parsed find expression.
type findNode struct {
	op   string // "and", "or", ",", "!", or "" for a primary
	kids []*findNode
	at   int // a primary's index in the expression
	name string
	arg  string // a primary's first argument
}

// findOneArg are find's primaries that take one argument.
var findOneArg = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
	"-regex": true, "-iregex": true, "-lname": true, "-ilname": true, "-type": true, "-xtype": true,
	"-newer": true, "-anewer": true, "-cnewer": true, "-samefile": true, "-perm": true, "-size": true,
	"-user": true, "-group": true, "-uid": true, "-gid": true, "-links": true, "-inum": true,
	"-mtime": true, "-atime": true, "-ctime": true, "-mmin": true, "-amin": true, "-cmin": true,
	"-used": true, "-maxdepth": true, "-mindepth": true, "-fstype": true, "-fprint": true, "-fprint0": true,
	"-fls": true, "-printf": true, "-context": true, "-regextype": true, "-files0-from": true,
}

// findNoArg are find's primaries that take none.
var findNoArg = map[string]bool{
	"-delete": true, "-print": true, "-print0": true, "-prune": true, "-quit": true, "-ls": true,
	"-true": true, "-false": true, "-empty": true, "-executable": true, "-readable": true, "-writable": true,
	"-nouser": true, "-nogroup": true, "-depth": true, "-d": true, "-mount": true, "-xdev": true,
	"-noleaf": true, "-ignore_readdir_race": true, "-noignore_readdir_race": true, "-daystart": true,
	"-follow": true, "-warn": true, "-nowarn": true,
}

// findActions are the primaries that do something with a file.
func findAction(name string) bool {
	switch name {
	case "-delete", "-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls",
		"-exec", "-execdir", "-ok", "-okdir", "-quit":
		return true
	}
	return false
}

type findParser struct {
	expr []string
	i    int
	bad  bool
}

// parseFind parses a find expression (the words after the start paths);
// ok is false for one airlock does not read whole.
func parseFind(expr []string) (*findNode, bool) {
	p := &findParser{expr: expr}
	if len(expr) == 0 {
		return &findNode{op: "and"}, true
	}
	n := p.comma()
	if p.bad || p.i != len(expr) {
		return nil, false
	}
	return n, true
}

func (p *findParser) comma() *findNode {
	n := &findNode{op: ",", kids: []*findNode{p.or()}}
	for !p.bad && p.i < len(p.expr) && p.expr[p.i] == "," {
		p.i++
		n.kids = append(n.kids, p.or())
	}
	return n
}

func (p *findParser) or() *findNode {
	n := &findNode{op: "or", kids: []*findNode{p.and()}}
	for !p.bad && p.i < len(p.expr) && (p.expr[p.i] == "-o" || p.expr[p.i] == "-or") {
		p.i++
		n.kids = append(n.kids, p.and())
	}
	return n
}

func (p *findParser) and() *findNode {
	n := &findNode{op: "and"}
	for !p.bad && p.i < len(p.expr) {
		switch p.expr[p.i] {
		case "-o", "-or", ",", ")":
			if len(n.kids) == 0 {
				p.bad = true
			}
			return n
		case "-a", "-and":
			p.i++
			continue
		}
		n.kids = append(n.kids, p.unary())
	}
	if len(n.kids) == 0 {
		p.bad = true
	}
	return n
}

func (p *findParser) unary() *findNode {
	if p.i >= len(p.expr) {
		p.bad = true
		return &findNode{}
	}
	a := p.expr[p.i]
	switch {
	case a == "!" || a == "-not":
		p.i++
		return &findNode{op: "!", kids: []*findNode{p.unary()}}
	case a == "(":
		p.i++
		n := p.comma()
		if p.i >= len(p.expr) || p.expr[p.i] != ")" {
			p.bad = true
			return n
		}
		p.i++
		return n
	}
	n := &findNode{at: p.i, name: a}
	p.i++
	switch {
	case a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir":
		k := p.i
		for k < len(p.expr) && !(p.expr[k] == ";" || p.expr[k] == "+" && k > p.i && p.expr[k-1] == "{}") {
			k++
		}
		if k >= len(p.expr) {
			p.bad = true
		}
		p.i = k + 1
	case a == "-fprintf":
		p.i += 2
	case findOneArg[a] || strings.HasPrefix(a, "-newer") && len(a) == len("-newerXY"):
		if p.i < len(p.expr) {
			n.arg = p.expr[p.i]
		}
		p.i++
	case findNoArg[a]:
	default:
		p.bad = true // a primary airlock does not know: its arity is unknown
	}
	if p.i > len(p.expr) {
		p.bad = true
	}
	return n
}

// set is the bound of the files for which n is true.
func (n *findNode) set() findSet {
	switch n.op {
	case "":
		switch n.name {
		case "-name", "-iname":
			return findSet{pats: []findPat{{n.arg, n.name == "-iname"}}}
		case "-path", "-ipath", "-wholename", "-iwholename":
			pat := n.arg
			if !strings.Contains(pat, "/") {
				// A -path pattern without "/" matches only the start
				// path itself; keep it a path pattern.
				pat = "./" + pat
			}
			return findSet{pats: []findPat{{pat, strings.HasPrefix(n.name, "-i")}}}
		}
		return findAll
	case "!":
		return findAll
	case "and":
		s := findAll
		for _, k := range n.kids {
			s = s.narrow(k.set())
		}
		return s
	case "or":
		var s findSet
		for _, k := range n.kids {
			s = s.union(k.set())
		}
		return s
	case ",":
		return n.kids[len(n.kids)-1].set()
	}
	return findAll
}

// reach records, for each action below n, the bound of the files it
// runs on, given that n is evaluated for files in ctx.
func (n *findNode) reach(ctx findSet, out map[int]findSet) {
	switch n.op {
	case "":
		if findAction(n.name) {
			if prev, ok := out[n.at]; ok {
				ctx = prev.union(ctx)
			}
			out[n.at] = ctx
		}
	case "and":
		// A conjunct is evaluated only when every one before it was true.
		c := ctx
		for _, k := range n.kids {
			k.reach(c, out)
			c = c.narrow(k.set())
		}
	default:
		// A later alternative runs when an earlier one is false, which no
		// list of patterns bounds; a negation's operand runs on anything.
		for _, k := range n.kids {
			k.reach(ctx, out)
		}
	}
}

// findReach returns, for each action of a find expression (by its index
// in expr), the bound of the files it acts on, and the bound of what find
// prints without an action (the implicit -print of an expression with
// none but -prune); ok is false when the expression is not read whole.
func findReach(expr []string) (acts map[int]findSet, implicit findSet, hasImplicit, ok bool) {
	root, ok := parseFind(expr)
	if !ok {
		return nil, findAll, true, false
	}
	acts = map[int]findSet{}
	root.reach(findAll, acts)
	for at := range acts {
		if expr[at] != "-quit" {
			return acts, findSet{}, false, true
		}
	}
	// No action but -prune or -quit: find prints what the whole
	// expression is true for.
	return acts, root.set(), true, true
}

// findPrinted is the bound of the paths find prints: the files that reach
// -print or -print0, or the whole expression's when it has no action.
func findPrinted(expr []string) findSet {
	acts, implicit, has, ok := findReach(expr)
	if !ok {
		return findAll
	}
	s := findSet{}
	if has {
		s = implicit
	}
	for at, b := range acts {
		switch expr[at] {
		case "-print", "-print0":
			s = s.union(b)
		}
	}
	return s
}

// operands are o once per pattern of s (once with no pattern when s
// bounds nothing; an empty bound, which no expression read here gives,
// is taken as nothing known, not as nothing touched).
func (s findSet) operands(o Operand) []Operand {
	if s.all || len(s.pats) == 0 {
		o.Pattern, o.Fold = "", false
		return []Operand{o}
	}
	out := make([]Operand, 0, len(s.pats))
	for _, p := range s.pats {
		o.Pattern, o.Fold = p.pattern, p.fold
		out = append(out, o)
	}
	return out
}
