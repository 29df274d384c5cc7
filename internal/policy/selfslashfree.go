package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Run-time parts that stay inside one path component. A word such as
// config.yaml.$(date +%s), /tmp/patch-$$.diff or build-$(git rev-parse
// --short HEAD) is known only when it runs, but what the run-time part can
// print has a known alphabet: digits, hex, a date. None of those can hold
// a "/" or be "." or "..", so the part cannot leave the directory the
// static text puts it in, or climb out of it. Such a word is checked as
// the glob it is equivalent to (each such part a "*", matching a leading
// dot too), with the glob machinery every other pattern goes through:
// it is refused only when that glob could name a protected path, one
// inside a protected directory, or (for programs that move trees) one of
// their parents. A part whose output is not known (an environment
// variable, $(cat f), ${f##*/}, which can be "..") keeps the fail-closed
// rule of selfdynamic.go.

// slashFreeGlob returns the glob a word stands for when every run-time
// part of it is slash-free, and whether it is one (a word with no
// run-time part, or with any other kind, is not).
func (g *guard) slashFreeGlob(src string) (string, bool) {
	var word *syntax.Word
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Words(strings.NewReader(src), func(w *syntax.Word) bool {
		if word != nil {
			word = nil
			return false
		}
		word = w
		return true
	})
	if err != nil || word == nil {
		return "", false
	}
	var b strings.Builder
	dynamic, ok := false, true
	var add func([]syntax.WordPart)
	add = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(globQuote(unescapeLit(p.Value)))
			case *syntax.SglQuoted:
				b.WriteString(globQuote(p.Value))
			case *syntax.DblQuoted:
				add(p.Parts)
			case *syntax.ParamExp:
				if v, known := g.vars[paramOf(p)]; known && isSimpleParam(p) {
					b.WriteString(globQuote(v))
				} else if slashFreeParam(p) {
					b.WriteString("*")
					dynamic = true
				} else {
					ok = false
				}
			case *syntax.ArithmExp:
				b.WriteString("*") // a number
				dynamic = true
			case *syntax.CmdSubst:
				if slashFreeSubst(p) {
					b.WriteString("*")
					dynamic = true
				} else {
					ok = false
				}
			default:
				ok = false
			}
		}
	}
	add(word.Parts)
	if !ok || !dynamic {
		return "", false
	}
	return b.String(), true
}

// globQuote escapes the characters a glob reads, so static text matches
// only itself.
func globQuote(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// slashFreeSpecial reports whether a parameter is one of the shell's own
// that hold a number (a switch, not a map: nothing to build at start-up).
func slashFreeSpecial(name string) bool {
	switch name {
	case "$", "?", "#", "!", "RANDOM", "SRANDOM", "PPID", "UID", "EUID", "SECONDS", "EPOCHSECONDS",
		"EPOCHREALTIME", "BASHPID", "LINENO":
		return true
	}
	return false
}

// slashFreeParam: $$, $RANDOM, ${#x} (a length) and the like.
func slashFreeParam(p *syntax.ParamExp) bool {
	if p.Length && p.Index == nil {
		return true
	}
	return slashFreeSpecial(paramOf(p)) && isSimpleParam(p)
}

// slashFreeSubst reports whether a command substitution is one program
// whose output is known to be digits, hex or a date: see slashFreeCall.
func slashFreeSubst(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return false
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		lit, ok := literalWord(a)
		if !ok {
			return false
		}
		args[i] = lit
	}
	// Input redirections only (wc -l < file): output goes to the word.
	for _, r := range cs.Stmts[0].Redirs {
		if r.Op != syntax.RdrIn || r.N != nil {
			return false
		}
	}
	return slashFreeCall(args, len(cs.Stmts[0].Redirs) > 0)
}

// literalWord is a word's text when it has no run-time part.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeLit(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// slashFreeCall is the table of programs whose output has a known
// alphabet without "/", each with the forms that keep it so. Programs
// whose output a user or root can choose (hostname, whoami, a tag name,
// a branch name) are not here: a branch may be named feature/x.
func slashFreeCall(args []string, stdin bool) bool {
	name, rest := args[0], args[1:]
	switch name {
	case "date":
		return slashFreeDate(rest)
	case "nproc":
		return len(rest) == 0 || len(rest) == 1 && rest[0] == "--all"
	case "id":
		return len(rest) == 1 && (rest[0] == "-u" || rest[0] == "-g")
	case "uuidgen":
		return len(rest) == 0 || len(rest) == 1 && (rest[0] == "-r" || rest[0] == "-t")
	case "wc":
		// wc -l < file prints a number; with an operand it prints its name.
		return stdin && len(rest) == 1 && (rest[0] == "-l" || rest[0] == "-c" || rest[0] == "-w" || rest[0] == "-m")
	case "git":
		return slashFreeGit(rest)
	}
	return false
}

// slashFreeDate: date with no format, a standard one (-I, -R, --iso-8601)
// or a +FORMAT without "/" and without the conversions that print one
// (%D, %x, %c, and %+ which some systems have): what %Y, %m, %d, %H, %M,
// %S, %s, %F, %T and the rest print. -u and -d/--date (which only moves
// the time) may come with it.
func slashFreeDate(rest []string) bool {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "-u" || a == "--utc" || a == "-R" || a == "--rfc-email" || a == "-I" || strings.HasPrefix(a, "-I") && len(a) > 2 && !strings.Contains(a, "/") || strings.HasPrefix(a, "--iso-8601"):
		case a == "-d" || a == "--date":
			i++
		case strings.HasPrefix(a, "--date="):
		case strings.HasPrefix(a, "+"):
			f := a[1:]
			if strings.Contains(f, "/") {
				return false
			}
			for j := 0; j+1 < len(f); j++ {
				if f[j] != '%' {
					continue
				}
				k := j + 1
				for k < len(f) && strings.IndexByte("-_0^#", f[k]) >= 0 { // flags
					k++
				}
				for k < len(f) && f[k] >= '0' && f[k] <= '9' { // width
					k++
				}
				if k < len(f) && (f[k] == 'E' || f[k] == 'O') {
					k++
				}
				if k < len(f) && strings.IndexByte("Dxc+", f[k]) >= 0 {
					return false
				}
				j = k
			}
		default:
			return false
		}
	}
	return true
}

// slashFreeGit: object names and counts, which are hex or digits.
func slashFreeGit(rest []string) bool {
	if len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case "rev-parse":
		// rev-parse [--short[=N]] [--verify] REV prints a hex object name;
		// --abbrev-ref, --symbolic, --show-* and --git-dir print names
		// and paths.
		revs := 0
		for _, a := range rest[1:] {
			switch {
			case a == "--short" || strings.HasPrefix(a, "--short=") || a == "--verify" || a == "-q" || a == "--quiet":
			case strings.HasPrefix(a, "-"):
				return false
			default:
				revs++
			}
		}
		return revs == 1
	case "rev-list":
		for _, a := range rest[1:] {
			if a == "--count" {
				return true
			}
		}
	}
	return false
}
