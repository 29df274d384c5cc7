package classify

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// ninja runs the command of each build edge its targets need, through
// /bin/sh -c (FINDINGS-4 K5: ninja -f evil.ninja was rated by its name
// alone). airlock reads build.ninja (or -f FILE, in -C DIR) as ninja
// does: top-level variables, rules and their command, build edges with
// their own bindings, default targets, include and subninja (bounded by
// maxIncludes); every edge the targets reach is followed, and so is the
// edge that rebuilds the manifest itself, which ninja always checks
// first. Each command is classified as shell text at its file and line.
// A file that cannot be read or parsed within the limits makes the run
// opaque.

// ninjaFile is what airlock reads of a ninja manifest.
type ninjaFile struct {
	vars   map[string]string
	rules  map[string]map[string]string
	edges  []*ninjaEdge
	byOut  map[string]*ninjaEdge
	defs   []string
	loads  int
	failed Effect
}

type ninjaEdge struct {
	file       string
	line       int
	rule       string
	outs, ins  []string
	deps       []string // ins, implicit and order-only inputs
	vars       map[string]string
	followed   bool
	manifestOf bool
}

func (c *Classifier) ninjaRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "fCjkltdw", Long: []string{}}.Parse(inv.Args[1:])
	if p.Has("-n", "--version", "-h", "--help") {
		return nothing
	}
	tool, _ := p.Value("-t")
	switch tool {
	case "", "clean":
	case "cleandead":
		return opaque("ninja.cleandead", "ninja -t cleandead deletes files named in .ninja_log, which airlock does not read")
	case "msvc":
		return opaque("ninja.msvc", "ninja -t msvc runs a command airlock does not read")
	default:
		return nothing // the other tools read the graph and print
	}
	if c.FS == nil {
		for _, t := range p.Operands {
			if releaseName(t) {
				return unreadRelease("ninja", t)
			}
		}
		return nothing
	}
	if inv.AnyDynamic(1) {
		return opaque("script.dynamic", "ninja is given words computed at run time, so which manifest and targets it runs cannot be known")
	}
	dir, _ := p.Value("-C")
	dir, known := runDir(inv, dir)
	if !known {
		return opaque("script.cwd", "ninja runs in a directory known only at run time, so which manifest it reads cannot be known")
	}
	file, given := p.Value("-f")
	if !given {
		file = "build.ninja"
	}
	name := path.Join(dir, file)
	if strings.HasPrefix(file, "/") {
		name = file
	}
	data, failed, ok := c.readScript(inv, name, false)
	if !ok {
		return failed
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(name)
	}
	n := &ninjaFile{vars: map[string]string{}, rules: map[string]map[string]string{}, byOut: map[string]*ninjaEdge{}}
	n.parse(inner, dir, name, string(data), n.vars)
	if n.failed.Reasons != nil {
		return n.failed
	}
	if tool == "clean" {
		return n.clean(inner, name, p.Operands)
	}
	var e Effect
	lines := 0
	done := map[string]bool{} // commands already classified, by their text
	var walk func(t string, depth int)
	walk = func(t string, depth int) {
		ed := n.byOut[t]
		if ed == nil || ed.followed || depth > 64 || lines > maxRecipeLines {
			return
		}
		ed.followed = true
		for _, d := range ed.deps {
			walk(d, depth+1)
		}
		if cmd, ok := n.commandText(ed); ok && done[cmd] {
			return
		} else if ok {
			done[cmd] = true
		}
		lines++
		e.Add(n.command(inner, ed))
	}
	for _, ed := range n.edges {
		if ed.manifestOf {
			for _, o := range ed.outs {
				walk(o, 0)
			}
		}
	}
	targets := p.Operands
	if len(targets) == 0 {
		targets = n.defs
	}
	if len(targets) == 0 {
		for _, ed := range n.edges { // no default: every output
			targets = append(targets, ed.outs...)
		}
	}
	for _, t := range targets {
		t = strings.TrimSuffix(t, "^") // foo.c^: the edge that uses foo.c
		if n.byOut[t] == nil {
			for _, ed := range n.edges {
				if slices.Contains(ed.ins, t) {
					walk(ed.outs[0], 0)
				}
			}
			continue
		}
		walk(t, 0)
	}
	if lines > maxRecipeLines {
		e.Add(opaque("script.limit", "limit reached: "+name+" runs more than "+strconv.Itoa(maxRecipeLines)+" commands"))
	}
	return e
}

// clean rates ninja -t clean: it deletes the outputs of the manifest's
// edges (of the targets given, and what they need), which are whatever
// paths the manifest names; they are rated as rm -f of those paths.
func (n *ninjaFile) clean(c *Classifier, file string, targets []string) Effect {
	var outs []string
	seen := map[*ninjaEdge]bool{}
	var walk func(ed *ninjaEdge, depth int)
	walk = func(ed *ninjaEdge, depth int) {
		if ed == nil || seen[ed] || depth > 64 {
			return
		}
		seen[ed] = true
		if ed.rule != "phony" {
			outs = append(outs, ed.outs...)
		}
		if len(targets) > 0 {
			for _, d := range ed.deps {
				walk(n.byOut[d], depth+1)
			}
		}
	}
	if len(targets) == 0 {
		for _, ed := range n.edges {
			walk(ed, 0)
		}
	}
	for _, t := range targets {
		walk(n.byOut[t], 0)
	}
	if len(outs) == 0 {
		return nothing
	}
	if len(outs) > maxRecipeLines {
		return opaque("script.limit", "limit reached: ninja -t clean would delete more than "+strconv.Itoa(maxRecipeLines)+" outputs of "+file)
	}
	var b strings.Builder
	b.WriteString("rm -f --")
	for _, o := range outs {
		b.WriteString(" '" + strings.ReplaceAll(o, "'", `'\''`) + "'")
	}
	return c.shellFileAt(file, b.String(), 1)
}

// command classifies the command of one edge: the rule's, with $in, $out
// and the edge's, the rule's and the file's variables expanded.
func (n *ninjaFile) command(c *Classifier, ed *ninjaEdge) Effect {
	if ed.rule == "phony" {
		return nothing
	}
	cmd, ok := n.commandText(ed)
	if !ok {
		return opaque("script.unreadable", ed.file+":"+strconv.Itoa(ed.line)+": the rule "+ed.rule+" is not defined, so what ninja runs cannot be known")
	}
	if strings.TrimSpace(cmd) == "" {
		return nothing
	}
	return c.shellFileAt(ed.file, cmd, ed.line)
}

// commandText is the command of one edge, expanded; false when its rule
// is not defined.
func (n *ninjaFile) commandText(ed *ninjaEdge) (string, bool) {
	if ed.rule == "phony" {
		return "", true
	}
	rule := n.rules[ed.rule]
	if rule == nil {
		return "", false
	}
	var lookup func(v string) string
	lookup = func(v string) string {
		switch v {
		case "in":
			return strings.Join(ed.ins, " ")
		case "out":
			return strings.Join(ed.outs, " ")
		case "in_newline":
			return strings.Join(ed.ins, "\n")
		}
		if x, ok := ed.vars[v]; ok {
			return x
		}
		if x, ok := rule[v]; ok && v != "command" {
			return x // expanded by the caller, in the edge's scope
		}
		return n.vars[v]
	}
	return ninjaExpand(rule["command"], lookup, 0), true
}

// parse reads one manifest into n; scope is the variables in effect
// (subninja gets a copy, include shares it).
func (n *ninjaFile) parse(c *Classifier, dir, file, text string, scope map[string]string) {
	lines := ninjaLines(text)
	expand := func(s string) string { return ninjaExpand(s, func(v string) string { return scope[v] }, 0) }
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l.text, " ") || strings.HasPrefix(l.text, "\t") {
			continue // a binding of a block already read
		}
		t := strings.TrimSpace(l.text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		// The indented bindings that follow a rule, build or pool.
		block := map[string]string{}
		j := i + 1
		for ; j < len(lines) && (strings.HasPrefix(lines[j].text, " ") || strings.HasPrefix(lines[j].text, "\t")); j++ {
			if k, v, ok := strings.Cut(strings.TrimSpace(lines[j].text), "="); ok {
				block[strings.TrimSpace(k)] = strings.TrimLeft(v, " ")
			}
		}
		kw, rest, _ := strings.Cut(t, " ")
		rest = strings.TrimSpace(rest)
		switch kw {
		case "rule":
			n.rules[rest] = block
		case "pool":
		case "default":
			n.defs = append(n.defs, ninjaPaths(expand(rest))...)
		case "include", "subninja":
			n.loads++
			if n.loads > maxIncludes {
				n.failed.Add(opaque("script.limit", "limit reached: "+file+" includes more than "+strconv.Itoa(maxIncludes)+" manifests"))
				return
			}
			ref := expand(rest)
			p := path.Join(dir, ref)
			if strings.HasPrefix(ref, "/") {
				p = ref
			}
			data, err := c.readFile(p)
			if err != nil {
				n.failed.Add(opaque("script.unreadable", file+":"+strconv.Itoa(l.line)+": "+kw+" "+p+" cannot be read ("+err.Error()+"), so what ninja runs cannot be known"))
				return
			}
			sub := scope
			if kw == "subninja" {
				sub = map[string]string{}
				for k, v := range scope {
					sub[k] = v
				}
			}
			n.parse(c, dir, p, string(data), sub)
		case "build":
			ed := n.edge(file, l.line, rest, expand)
			if ed == nil {
				n.failed.Add(opaque("script.unreadable", file+":"+strconv.Itoa(l.line)+": a build line airlock cannot read, so what ninja runs cannot be known"))
				return
			}
			for k, v := range block {
				ed.vars[k] = expand(v)
			}
			n.edges = append(n.edges, ed)
			for _, o := range ed.outs {
				n.byOut[o] = ed
				if path.Clean(o) == path.Base(file) || path.Join(dir, o) == file {
					ed.manifestOf = true
				}
			}
		default:
			k, v, ok := strings.Cut(t, "=")
			if !ok {
				n.failed.Add(opaque("script.unreadable", file+":"+strconv.Itoa(l.line)+": a line airlock cannot read ("+clip(t)+"), so what ninja runs cannot be known"))
				return
			}
			scope[strings.TrimSpace(k)] = expand(strings.TrimLeft(v, " "))
		}
		i = j - 1
	}
}

// edge reads "OUTS [| IMPLICIT_OUTS]: RULE INS [| IMPLICIT] [|| ORDER]".
func (n *ninjaFile) edge(file string, line int, rest string, expand func(string) string) *ninjaEdge {
	colon := -1
	for k := 0; k < len(rest); k++ {
		if rest[k] == '$' {
			k++
			continue
		}
		if rest[k] == ':' {
			colon = k
			break
		}
	}
	if colon < 0 {
		return nil
	}
	outs := ninjaPaths(expand(rest[:colon]))
	right := ninjaPaths(expand(rest[colon+1:]))
	if len(right) == 0 {
		return nil
	}
	ed := &ninjaEdge{file: file, line: line, rule: right[0], vars: map[string]string{}}
	for _, o := range outs {
		if o != "|" {
			ed.outs = append(ed.outs, o)
		}
	}
	explicit := true
	for _, w := range right[1:] {
		switch w {
		case "|", "||", "|@":
			explicit = false
			continue
		}
		if explicit {
			ed.ins = append(ed.ins, w)
		}
		ed.deps = append(ed.deps, w)
	}
	if len(ed.outs) == 0 {
		return nil
	}
	return ed
}

type ninjaLine struct {
	line int
	text string
}

// ninjaLines joins lines continued with a final "$".
func ninjaLines(text string) []ninjaLine {
	var out []ninjaLine
	raw := strings.Split(text, "\n")
	for i := 0; i < len(raw); i++ {
		start := i
		l := strings.TrimSuffix(raw[i], "\r")
		for strings.HasSuffix(l, "$") && !strings.HasSuffix(l, "$$") && i+1 < len(raw) {
			i++
			l = l[:len(l)-1] + strings.TrimLeft(strings.TrimSuffix(raw[i], "\r"), " ")
		}
		out = append(out, ninjaLine{line: start + 1, text: l})
	}
	return out
}

// ninjaPaths splits an expanded path list on blanks.
func ninjaPaths(s string) []string { return strings.Fields(s) }

// ninjaExpand expands $var, ${var}, $$, "$ " and "$:" in s.
func ninjaExpand(s string, lookup func(string) string, depth int) string {
	if depth > 16 || !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if b.Len() > MaxScriptBytes {
			return b.String() // a variable that expands without end
		}
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == '$' || c == ' ' || c == ':':
			b.WriteByte(c)
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				b.WriteString(s[i-1:])
				return b.String()
			}
			b.WriteString(ninjaExpand(lookup(s[i+1:i+end]), lookup, depth+1))
			i += end
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '-' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j == i {
				b.WriteByte('$')
				b.WriteByte(c)
				continue
			}
			b.WriteString(ninjaExpand(lookup(s[i:j]), lookup, depth+1))
			i = j - 1
		}
	}
	return b.String()
}
