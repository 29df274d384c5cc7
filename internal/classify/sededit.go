package classify

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// A build file the same command edits with static text before a build
// tool runs it (sed -i 's/bjsmpdl/airlock/' build.gradle && gradle x) is
// what the tool runs after the edit, not the file on disk and the edit
// apart: an edit can make a command out of pieces that are harmless
// alone (a back-reference, \x61 in the replacement). The edit is applied
// here to the text read, the way sed applies it; an edit that cannot be
// applied exactly (an address, a case conversion, a back-reference in
// the pattern, an escape not listed) makes the file unknown, and the
// caller holds the run (buildtools.go keepEdited).

// editedText applies the static edits ws make to text, in order: sed -i
// substitutions, and echo or printf appending with >>.
func editedText(text string, ws []*shell.Invocation) (string, bool) {
	for _, w := range ws {
		switch w.Name() {
		case "echo", "printf":
			out, ok := literalOutput(w)
			if !ok {
				return "", false
			}
			text += out
		case "sed", "gsed":
			scripts, ere, ok := sedInPlaceScripts(w)
			if !ok {
				return "", false
			}
			for _, sc := range scripts {
				for _, part := range strings.Split(sc, ";") {
					if text, ok = sedSubstitute(text, strings.TrimSpace(part), ere); !ok {
						return "", false
					}
				}
			}
		default:
			return "", false
		}
	}
	return text, true
}

// sedInPlaceScripts returns sed's scripts (-e values, or its first
// operand) and whether they are extended regular expressions.
func sedInPlaceScripts(w *shell.Invocation) (scripts []string, ere, ok bool) {
	args := w.Args[1:]
	given := false
	for j := 0; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "-e" || a == "--expression":
			if j+1 >= len(args) {
				return nil, false, false
			}
			scripts, given = append(scripts, args[j+1]), true
			j++
		case strings.HasPrefix(a, "--expression="):
			scripts, given = append(scripts, strings.TrimPrefix(a, "--expression=")), true
		case a == "-E" || a == "-r" || a == "--regexp-extended":
			ere = true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if !strings.HasPrefix(a, "-i") && strings.ContainsAny(a[1:], "Er") {
				ere = true
			}
			if strings.ContainsAny(a[1:], "fsz") && !strings.HasPrefix(a, "-i") {
				return nil, false, false // a script file, separate files, NUL lines
			}
		case !given:
			scripts, given = append(scripts, a), true
		}
	}
	return scripts, ere, len(scripts) > 0
}

// sedSubstitute applies one s command to every line of text.
func sedSubstitute(text, cmd string, ere bool) (string, bool) {
	if cmd == "" {
		return text, true
	}
	if len(cmd) < 4 || cmd[0] != 's' {
		return "", false
	}
	delim := cmd[1]
	if delim == '\\' || delim == '\n' {
		return "", false
	}
	parts, rest, ok := sedSplit(cmd[2:], delim)
	if !ok {
		return "", false
	}
	re, ok := sedPattern(parts[0], ere, delim)
	if !ok {
		return "", false
	}
	repl, ok := sedReplacement(parts[1])
	if !ok {
		return "", false
	}
	global, nth, fold := false, 1, false
	for i := 0; i < len(rest); i++ {
		switch ch := rest[i]; {
		case ch == 'g':
			global = true
		case ch == 'p':
		case ch == 'I' || ch == 'i':
			fold = true
		case ch >= '0' && ch <= '9':
			j := i
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			nth, _ = strconv.Atoi(rest[i:j])
			i = j - 1
		default:
			return "", false
		}
	}
	if fold {
		re = "(?i)" + re
	}
	rx, err := regexp.Compile(re)
	if err != nil || nth < 1 {
		return "", false
	}
	lines := strings.Split(text, "\n")
	for k, line := range lines {
		if k == len(lines)-1 && line == "" {
			break // the end of the last line, not a line of its own
		}
		var b strings.Builder
		last := 0
		for n, loc := range rx.FindAllStringSubmatchIndex(line, -1) {
			if n+1 < nth || n+1 > nth && !global {
				continue
			}
			b.WriteString(line[last:loc[0]])
			b.WriteString(expandSed(line, loc, repl))
			last = loc[1]
		}
		b.WriteString(line[last:])
		lines[k] = b.String()
	}
	return strings.Join(lines, "\n"), true
}

// sedSplit cuts "pattern<d>replacement<d>flags" at the unescaped
// delimiters.
func sedSplit(s string, d byte) ([2]string, string, bool) {
	var out [2]string
	k, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			out[k] = s[start:i]
			k++
			start = i + 1
			if k == 2 {
				return out, s[start:], true
			}
		}
	}
	return out, "", false
}

// sedPattern turns a sed regular expression (basic, or extended with
// -E) into Go's syntax; false for what the two do not share.
func sedPattern(p string, ere bool, d byte) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		ch := p[i]
		if ch == '\\' {
			if i+1 >= len(p) {
				return "", false
			}
			i++
			n := p[i]
			switch {
			case n == d:
				b.WriteString(regexp.QuoteMeta(string(n)))
			case n >= '1' && n <= '9':
				return "", false // a back-reference: RE2 has none
			case n == 'n':
				b.WriteString(`\n`)
			case n == 't':
				b.WriteString(`\t`)
			case !ere && strings.IndexByte("(){}|+?", n) >= 0:
				b.WriteByte(n) // BRE \( is a group
			case strings.IndexByte(`.*[]^$\/&`, n) >= 0 || ere && strings.IndexByte("(){}|+?", n) >= 0:
				b.WriteString(regexp.QuoteMeta(string(n)))
			default:
				return "", false // \w, \b, \x…: not applied, not guessed
			}
			continue
		}
		if !ere && strings.IndexByte("(){}|+?", ch) >= 0 {
			b.WriteString(regexp.QuoteMeta(string(ch)))
			continue
		}
		b.WriteByte(ch)
	}
	return b.String(), true
}

// sedPiece is a part of a replacement: literal text, or a group (0 for
// the whole match, &).
type sedPiece struct {
	lit   string
	group int
}

// sedReplacement reads a replacement; false for the case conversions
// and escapes not listed.
func sedReplacement(r string) ([]sedPiece, bool) {
	var out []sedPiece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, sedPiece{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(r); i++ {
		ch := r[i]
		switch {
		case ch == '&':
			flush()
			out = append(out, sedPiece{group: 0})
		case ch == '\\':
			if i+1 >= len(r) {
				return nil, false
			}
			i++
			n := r[i]
			switch {
			case n >= '0' && n <= '9':
				flush()
				out = append(out, sedPiece{group: int(n - '0')})
			case n == 'n':
				lit.WriteByte('\n')
			case n == 't':
				lit.WriteByte('\t')
			case n == 'x':
				// GNU sed's \xHH.
				if i+2 >= len(r) {
					return nil, false
				}
				v, err := strconv.ParseUint(r[i+1:i+3], 16, 8)
				if err != nil {
					return nil, false
				}
				lit.WriteByte(byte(v))
				i += 2
			case n == 'o' || n == 'd' || n == 'c' || n == 'L' || n == 'U' || n == 'l' || n == 'u' || n == 'E':
				return nil, false
			default:
				lit.WriteByte(n) // \& \\ \/ and the delimiter
			}
		default:
			lit.WriteByte(ch)
		}
	}
	flush()
	return out, true
}

// expandSed builds one match's replacement from its submatch indexes
// in line.
func expandSed(line string, loc []int, repl []sedPiece) string {
	var b strings.Builder
	for _, p := range repl {
		switch {
		case p.group < 0:
			b.WriteString(p.lit)
		case 2*p.group+1 < len(loc) && loc[2*p.group] >= 0:
			b.WriteString(line[loc[2*p.group]:loc[2*p.group+1]])
		}
	}
	return b.String()
}
