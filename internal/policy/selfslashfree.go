package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	shellparse "github.com/airlock-dev/airlock/internal/shell"
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

// maxSlashFreeParts bounds the run-time parts of one word checked as
// globs: each part is tried empty and not, so a word has 2^n globs. A word
// with more is left to the fail-closed rule.
const maxSlashFreeParts = 4

// slashFreeGlob returns the globs a word stands for when every run-time
// part of it is slash-free, and whether it is one (a word with no
// run-time part, or with any other kind, is not). Each part is tried two
// ways: empty (a program that fails prints nothing: date -d garbage), and
// as "[C]*", where C is the characters its output can start with (digits
// for $(date +%s), hex for a commit). The first character is what keeps a
// part from being a dot file or a protected name: a part that starts with
// a digit cannot be ".claude" or "settings.json".
func (g *guard) slashFreeGlob(src string) ([]string, bool) { return slashFreeGlobs(src, g.vars, false) }

// slashFreeGlobs is slashFreeGlob with the variables known to hold a
// fixed value given: self-protection's ($HOME, $XDG_CONFIG_HOME) or the
// destruction grade's (destroy.go), which reads the same globs.
func slashFreeGlobs(src string, vars map[string]string, static bool) ([]string, bool) {
	word, parsed := shellparse.ParseWord(src)
	if !parsed {
		return nil, false
	}
	// pieces: static text (quoted for a glob), or a part's first-character
	// class (marked by a leading NUL).
	var pieces []string
	ok := true
	parts := 0
	substituted := false
	dyn := func(class string) {
		pieces = append(pieces, "\x00"+class)
		parts++
	}
	var add func([]syntax.WordPart)
	add = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				pieces = append(pieces, globQuote(unescapeLit(p.Value)))
			case *syntax.SglQuoted:
				pieces = append(pieces, globQuote(shellparse.QuotedValue(p)))
			case *syntax.DblQuoted:
				add(p.Parts)
			case *syntax.ParamExp:
				if v, known := vars[paramOf(p)]; known && isSimpleParam(p) {
					pieces = append(pieces, globQuote(v))
					substituted = true
				} else if slashFreeParam(p) {
					dyn(classDigits)
				} else {
					ok = false
				}
			case *syntax.ArithmExp:
				dyn(classNumber)
			case *syntax.CmdSubst:
				if class, sf := slashFreeSubst(p); sf {
					dyn(class)
				} else {
					ok = false
				}
			default:
				ok = false
			}
		}
	}
	add(word.Parts)
	if !ok || parts > maxSlashFreeParts || parts == 0 && !substituted && !static {
		return nil, false
	}
	// parts == 0: every run-time part is a variable whose value is known
	// ("$HOME/docs/a.txt"), or (static) the word is a value the shell's
	// values made whole ("*.log" from for f in *.log): the one path it
	// names.
	var globs []string
	for mask := 0; mask < 1<<parts; mask++ {
		var b strings.Builder
		k := 0
		for _, p := range pieces {
			if !strings.HasPrefix(p, "\x00") {
				b.WriteString(p)
				continue
			}
			if mask&(1<<k) != 0 {
				b.WriteString("[" + p[1:] + "]*")
			}
			k++
		}
		globs = append(globs, b.String())
	}
	return globs, true
}

// The classes of a part's first character, as glob bracket contents.
const (
	classDigits = "0-9"
	classNumber = "0-9-"
	classHex    = "0-9a-f"
	classPadded = " 0-9"
	// classDate is what a numeric date conversion can start with: a digit,
	// a pad, or %z's sign.
	classDate = " 0-9+-"
)

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
// whose output is known to be digits, hex or a numeric date (see
// slashFreeCall), and the class of its first character.
func slashFreeSubst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		lit, ok := literalWord(a)
		if !ok {
			return "", false
		}
		args[i] = lit
	}
	// Input redirections only (wc -l < file): output goes to the word.
	for _, r := range cs.Stmts[0].Redirs {
		if r.Op != syntax.RdrIn || r.N != nil {
			return "", false
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
			b.WriteString(shellparse.QuotedValue(p))
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
// alphabet without "/", each with the forms that keep it so, and the
// class of the output's first character. Programs whose output a user,
// root, a locale or a time zone file can choose (hostname, whoami, a tag
// or branch name, a month's name, %Z) are not here: a branch may be named
// feature/x, and a crafted locale may name a month "..".
func slashFreeCall(args []string, stdin bool) (string, bool) {
	name, rest := args[0], args[1:]
	switch name {
	case "date":
		return slashFreeDate(rest)
	case "nproc":
		return classDigits, len(rest) == 0 || len(rest) == 1 && rest[0] == "--all"
	case "id":
		return classDigits, len(rest) == 1 && (rest[0] == "-u" || rest[0] == "-g")
	case "uuidgen":
		return classHex, len(rest) == 0 || len(rest) == 1 && (rest[0] == "-r" || rest[0] == "-t")
	case "wc":
		// wc -l < file prints a number (padded on some systems); with an
		// operand it prints its name.
		return classPadded, stdin && len(rest) == 1 && (rest[0] == "-l" || rest[0] == "-c" || rest[0] == "-w" || rest[0] == "-m")
	case "git":
		return slashFreeGit(rest)
	}
	return "", false
}

// dateNumeric are the date conversions that print only digits, blanks,
// ":" and "-" (and %z's sign): none depends on the locale or on a time
// zone file's abbreviations.
const dateNumeric = "YmdHMSsFTyjuweNzkl CGgVUWIRnt%"

// slashFreeDate: date with a standard numeric form (-I, --iso-8601,
// --rfc-3339) or a +FORMAT of numeric conversions and literal text
// without "/", not starting with "." and without ".." (date prints its
// format's text as it is: date +.. prints ".."). -u and -d/--date (which
// only move the time) may come with it. date with no format prints the
// locale's day and month names, so it is not here.
func slashFreeDate(rest []string) (string, bool) {
	class, format := "", false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "-u" || a == "--utc" || a == "--universal":
		case a == "-I" || strings.HasPrefix(a, "-I") && isDateSpec(a[2:]) || a == "--iso-8601" ||
			strings.HasPrefix(a, "--iso-8601=") && isDateSpec(a[len("--iso-8601="):]) ||
			strings.HasPrefix(a, "--rfc-3339=") && isDateSpec(a[len("--rfc-3339="):]):
			class, format = classDigits, true
		case a == "-d" || a == "--date":
			i++
		case strings.HasPrefix(a, "--date="):
		case strings.HasPrefix(a, "+"):
			c, ok := dateFormatClass(a[1:])
			if !ok {
				return "", false
			}
			class, format = c, true
		default:
			return "", false
		}
	}
	return class, format
}

func isDateSpec(s string) bool {
	switch s {
	case "date", "hours", "minutes", "seconds", "ns":
		return true
	}
	return false
}

// dateFormatClass checks a +FORMAT and returns the class of its output's
// first character.
func dateFormatClass(f string) (string, bool) {
	if f == "" || strings.Contains(f, "/") || strings.HasPrefix(f, ".") || strings.Contains(f, "..") {
		return "", false
	}
	class := ""
	for j := 0; j < len(f); j++ {
		if f[j] != '%' {
			if class == "" {
				class = globQuote(string(f[j]))
				if f[j] == '-' || f[j] == ']' || f[j] == '^' || f[j] == '!' {
					class = "\\" + string(f[j])
				}
			}
			continue
		}
		k := j + 1
		for k < len(f) && strings.IndexByte("-_0^#", f[k]) >= 0 { // flags
			k++
		}
		for k < len(f) && f[k] >= '0' && f[k] <= '9' { // width
			k++
		}
		if k >= len(f) || strings.IndexByte(dateNumeric, f[k]) < 0 {
			return "", false // %E, %O, names, %Z, %c, %x, %D...
		}
		if class == "" {
			class = classDate
		}
		j = k
	}
	return class, true
}

// slashFreeGit: object names and counts, which are hex or digits. A
// rev-parse that cannot resolve its argument prints the argument back
// ("git rev-parse .." prints ".."), so only --short and --verify, which
// print nothing then, count.
func slashFreeGit(rest []string) (string, bool) {
	if len(rest) == 0 {
		return "", false
	}
	switch rest[0] {
	case "rev-parse":
		revs, quiet := 0, false
		for _, a := range rest[1:] {
			switch {
			case a == "--short" || strings.HasPrefix(a, "--short=") || a == "--verify":
				quiet = true
			case a == "-q" || a == "--quiet":
			case strings.HasPrefix(a, "-"):
				return "", false
			default:
				revs++
			}
		}
		return classHex, revs == 1 && quiet
	case "rev-list":
		for _, a := range rest[1:] {
			if a == "--count" {
				return classDigits, true
			}
		}
	}
	return "", false
}
