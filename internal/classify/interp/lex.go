package interp

import (
	"strings"
)

// The lexer shared by every language: string literals and comments.
// ---------------------------------------------------------------- lexer

// The languages the code reader knows, as Analyse takes them.
const (
	// Python is Python code (python -c).
	Python = "python"
	// JavaScript is JavaScript and TypeScript (node -e, deno eval, bun -e).
	JavaScript = "javascript"
	// Ruby is Ruby code (ruby -e).
	Ruby = "ruby"
	// Perl is Perl code (perl -e).
	Perl = "perl"
	// PHP is PHP code (php -r).
	PHP = "php"
	// Lua is Lua code (lua -e).
	Lua = "lua"
	// R is R code (Rscript -e).
	R = "r"
	// AppleScript is AppleScript (osascript -e).
	AppleScript = "applescript"
)

// interpPlaceholder stands for an interpolated expression inside a string
// literal. It reads as a shell variable, so shell text holding it is
// dynamic where the interpolation was.
const interpPlaceholder = "${INTERP}"

// interpLit is one string literal found in code.
type interpLit struct {
	start, end int    // span in the code, prefix and delimiters included
	val        string // content, escapes resolved, interpolations replaced
	interp     bool   // holds an interpolated expression
	cmd        bool   // a command literal (backticks, qx, %x) that runs its text
}

// interpCode is code with its literals and comments found.
type interpCode struct {
	lang   string
	src    string
	masked string // src with literal contents and comments blanked
	lits   []interpLit
	litAt  map[int]int // literal index by start offset
	broken string      // why the code could not be read, if it could not
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// interpLex finds the literals and comments of code in a language.
func interpLex(lang, src string) *interpCode {
	c := &interpCode{lang: lang, src: src, litAt: map[int]int{}}
	m := []byte(src)
	blank := func(from, to int) {
		for k := from; k < to && k < len(m); k++ {
			if m[k] != '\n' {
				m[k] = ' '
			}
		}
	}
	add := func(l interpLit, innerFrom, innerTo int) {
		blank(innerFrom, innerTo)
		c.litAt[l.start] = len(c.lits)
		c.lits = append(c.lits, l)
	}
	n := len(src)
	prevSig := func(i int) byte { // last non-space byte before i in the masked text
		for k := i - 1; k >= 0; k-- {
			if m[k] != ' ' && m[k] != '\t' && m[k] != '\n' {
				if isIdentByte(m[k]) && interpRegexKeyword(string(m[max(0, k-16):k+1])) {
					return '(' // a keyword such as "if": an operand follows
				}
				return m[k]
			}
		}
		return 0
	}
	for i := 0; i < n; {
		ch := src[i]
		// Comments.
		switch {
		case ch == '#' && (lang == Python || lang == Ruby || lang == R || lang == PHP || lang == AppleScript) ||
			ch == '#' && lang == Perl && (i == 0 || src[i-1] != '$'):
			if lang == PHP && i+1 < n && src[i+1] == '[' {
				break // an attribute
			}
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = n - i
			}
			blank(i, i+end)
			i += end
			continue
		case ch == '/' && i+1 < n && src[i+1] == '/' && (lang == JavaScript || lang == PHP):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = n - i
			}
			blank(i, i+end)
			i += end
			continue
		case ch == '/' && i+1 < n && src[i+1] == '*' && (lang == JavaScript || lang == PHP):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				c.broken = "an unterminated comment"
				blank(i, n)
				i = n
				continue
			}
			blank(i, i+2+end+2)
			i += 2 + end + 2
			continue
		case ch == '-' && i+1 < n && src[i+1] == '-' && (lang == Lua || lang == AppleScript):
			end := strings.IndexByte(src[i:], '\n')
			if lang == Lua && strings.HasPrefix(src[i+2:], "[[") {
				end = strings.Index(src[i:], "]]")
				if end >= 0 {
					end += 2
				}
			}
			if end < 0 {
				end = n - i
			}
			blank(i, i+end)
			i += end
			continue
		case ch == '(' && i+1 < n && src[i+1] == '*' && lang == AppleScript:
			end := strings.Index(src[i:], "*)")
			if end < 0 {
				end = n - i
			} else {
				end += 2
			}
			blank(i, i+end)
			i += end
			continue
		}
		// A backslash outside a literal escapes the next byte (a line
		// continuation, or a stray \' that starts no string). A backtick
		// after it still starts a command literal in Ruby, Perl and PHP:
		// reading it is the cautious side.
		if ch == '\\' && !(i+1 < n && src[i+1] == '`' && (lang == Ruby || lang == Perl || lang == PHP)) {
			i += 2
			continue
		}
		// Literals.
		if l, inner0, inner1, ok := interpLexLiteral(c, src, i, prevSig(i)); ok {
			if l.end < 0 {
				c.broken = "an unterminated string"
				blank(i, n)
				break
			}
			add(l, inner0, inner1)
			i = l.end
			continue
		}
		i++
	}
	c.masked = string(m)
	return c
}

// interpLexLiteral reads a literal starting at i, if one starts there. It
// returns the literal and the span of its contents; end is -1 when the
// literal never ends.
func interpLexLiteral(c *interpCode, src string, i int, prev byte) (interpLit, int, int, bool) {
	lang := c.lang
	n := len(src)
	ch := src[i]
	prevIdent := i > 0 && isIdentByte(src[i-1])
	switch lang {
	case Python:
		// Optional prefix letters: r, b, u, f and pairs.
		j := i
		for j < n && j-i < 2 && strings.IndexByte("rRbBuUfF", src[j]) >= 0 {
			j++
		}
		if j < n && (src[j] == '\'' || src[j] == '"') && (j == i || !prevIdent) {
			prefix := strings.ToLower(src[i:j])
			q := src[j]
			triple := strings.HasPrefix(src[j:], strings.Repeat(string(q), 3))
			delim := string(q)
			if triple {
				delim = strings.Repeat(string(q), 3)
			}
			raw := strings.Contains(prefix, "r")
			body0 := j + len(delim)
			end := interpFindClose(src, body0, delim, true)
			if end < 0 {
				return interpLit{start: i, end: -1}, 0, 0, true
			}
			body := src[body0:end]
			val := body
			if !raw {
				val = interpUnescape(body)
			}
			l := interpLit{start: i, end: end + len(delim), val: val}
			if strings.Contains(prefix, "f") && strings.Contains(strings.ReplaceAll(body, "{{", ""), "{") {
				l.interp, l.val = true, interpReplaceBraces(val, "{")
			}
			return l, body0, end, true
		}
	case JavaScript:
		if ch == '\'' || ch == '"' || ch == '`' {
			end := interpFindClose(src, i+1, string(ch), true)
			if end < 0 {
				return interpLit{start: i, end: -1}, 0, 0, true
			}
			body := src[i+1 : end]
			l := interpLit{start: i, end: end + 1, val: interpUnescape(body)}
			if ch == '`' && strings.Contains(body, "${") {
				l.interp, l.val = true, interpReplaceBraces(l.val, "${")
			}
			return l, i + 1, end, true
		}
		if ch == '/' && interpRegexAllowed(prev) {
			if l, a, b, ok := interpRegex(src, i); ok {
				return l, a, b, true
			}
		}
	case Ruby:
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			if ch == '\'' && i > 0 && src[i-1] == '?' {
				break // a character literal ?'
			}
			l, a, b, ok := interpQuoted(src, i, true, func(body string) bool { return strings.Contains(body, "#{") })
			if l.interp {
				l.val = interpReplaceBraces(l.val, "#{")
			}
			return l, a, b, ok
		case ch == '%' && i+2 < n && !prevIdent && prev != ')' && prev != ']':
			kind := byte('Q')
			j := i + 1
			if strings.IndexByte("qQwWiIxrs", src[j]) >= 0 {
				kind = src[j]
				j++
			}
			if j < n && strings.IndexByte("([{<|!/^", src[j]) >= 0 {
				end, inner0 := interpFindPaired(src, j)
				if end < 0 {
					return interpLit{start: i, end: -1}, 0, 0, true
				}
				body := src[inner0:end]
				l := interpLit{start: i, end: end + 1, val: body, cmd: kind == 'x'}
				if kind != 'q' && kind != 'w' && kind != 'i' && strings.Contains(body, "#{") {
					l.interp, l.val = true, interpReplaceBraces(body, "#{")
				}
				return l, inner0, end, true
			}
		case ch == '/' && interpRegexAllowed(prev):
			if l, a, b, ok := interpRegex(src, i); ok {
				return l, a, b, true
			}
		}
	case Perl:
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			return interpQuoted(src, i, true, interpPerlInterpolates)
		case !prevIdent && (ch == 'q' || ch == 'm' || ch == 's' || ch == 't' || ch == 'y'):
			if l, a, b, ok := interpPerlQuote(src, i); ok {
				return l, a, b, true
			}
		case ch == '/' && interpRegexAllowed(prev):
			if l, a, b, ok := interpRegex(src, i); ok {
				return l, a, b, true
			}
		}
	case PHP:
		if ch == '\'' || ch == '"' || ch == '`' {
			return interpQuoted(src, i, true, interpPHPInterpolates)
		}
	case Lua:
		if ch == '\'' || ch == '"' {
			return interpQuoted(src, i, false, nil)
		}
		if ch == '[' && i+1 < n && (src[i+1] == '[' || src[i+1] == '=') {
			j := i + 1
			for j < n && src[j] == '=' {
				j++
			}
			if j < n && src[j] == '[' {
				closeDelim := "]" + strings.Repeat("=", j-i-1) + "]"
				end := strings.Index(src[j+1:], closeDelim)
				if end < 0 {
					return interpLit{start: i, end: -1}, 0, 0, true
				}
				end += j + 1
				return interpLit{start: i, end: end + len(closeDelim), val: src[j+1 : end]}, j + 1, end, true
			}
		}
	case R:
		if ch == '\'' || ch == '"' || ch == '`' {
			return interpQuoted(src, i, false, nil)
		}
	case AppleScript:
		if ch == '"' {
			return interpQuoted(src, i, false, nil)
		}
	}
	return interpLit{}, 0, 0, false
}

// interpQuoted reads the literal opened by the quote at src[i]. In the
// shell-like languages (Perl, PHP, Ruby: shellLike) single quotes take only
// \' and \\ escapes and backticks run a shell command. interpolates, when
// given, says whether a double-quoted body expands variables. An
// unterminated literal is reported with end -1.
func interpQuoted(src string, i int, shellLike bool, interpolates func(body string) bool) (interpLit, int, int, bool) {
	ch := src[i]
	end := interpFindClose(src, i+1, string(ch), true)
	if end < 0 {
		return interpLit{start: i, end: -1}, 0, 0, true
	}
	body := src[i+1 : end]
	l := interpLit{start: i, end: end + 1, cmd: shellLike && ch == '`'}
	if shellLike && ch == '\'' {
		l.val = interpUnescapeSingle(body)
	} else {
		l.val = interpUnescape(body)
		l.interp = interpolates != nil && interpolates(body)
	}
	return l, i + 1, end, true
}

// interpFindClose returns the index of the closing delimiter at or after
// from, skipping backslash escapes, or -1.
func interpFindClose(src string, from int, delim string, escapes bool) int {
	for k := from; k < len(src); k++ {
		if escapes && src[k] == '\\' {
			k++
			continue
		}
		if strings.HasPrefix(src[k:], delim) {
			return k
		}
	}
	return -1
}

// interpFindPaired finds the end of a literal opened by the delimiter at
// src[at], nesting brackets; it returns the index of the closing
// delimiter and of the first content byte.
func interpFindPaired(src string, at int) (int, int) {
	open := src[at]
	closer := open
	switch open {
	case '(':
		closer = ')'
	case '[':
		closer = ']'
	case '{':
		closer = '}'
	case '<':
		closer = '>'
	}
	depth := 0
	for k := at + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case closer:
			if depth == 0 {
				return k, at + 1
			}
			depth--
		case open:
			if open != closer {
				depth++
			}
		}
	}
	return -1, at + 1
}

// interpRegexAllowed reports whether a slash after the byte prev starts a
// regular expression rather than a division, by the usual heuristic: a
// regex follows an operator or an opening bracket, a division follows a
// value.
func interpRegexAllowed(prev byte) bool {
	return prev == 0 || strings.IndexByte("(,=:[!&|?{};~+-*%<>^", prev) >= 0
}

// interpRegexKeyword reports whether text ends with a keyword or function
// after which a slash starts a regular expression (if /x/, split /,/).
func interpRegexKeyword(text string) bool {
	k := len(text)
	for k > 0 && isIdentByte(text[k-1]) {
		k--
	}
	switch text[k:] {
	case "if", "unless", "and", "or", "not", "return", "when", "while", "until", "split", "grep", "map", "match",
		"scan", "sub", "gsub", "index", "case", "typeof", "in", "of", "yield", "print", "puts", "push", "join":
		return true
	}
	return false
}

// interpRegex reads a /regex/ literal at i; it gives up (not a literal) when
// the line ends first.
func interpRegex(src string, i int) (interpLit, int, int, bool) {
	for k := i + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case '\n':
			return interpLit{}, 0, 0, false
		case '/':
			return interpLit{start: i, end: k + 1, val: src[i+1 : k]}, i + 1, k, true
		}
	}
	return interpLit{}, 0, 0, false
}

// interpPerlQuote reads Perl's quote-like operators: q qq qw qx m qr s tr y.
func interpPerlQuote(src string, i int) (interpLit, int, int, bool) {
	op := ""
	for _, cand := range []string{"qq", "qw", "qx", "qr", "tr", "q", "m", "s", "y"} {
		if strings.HasPrefix(src[i:], cand) {
			op = cand
			break
		}
	}
	j := i + len(op)
	if op == "" || j >= len(src) || isIdentByte(src[j]) {
		return interpLit{}, 0, 0, false
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') && (op == "q" || op == "qq" || op == "qw" || op == "qx") {
		j++
	}
	if j >= len(src) || src[j] == '=' && op != "s" || src[j] == ',' || src[j] == ';' || src[j] == ')' || src[j] == ' ' || src[j] == '\n' || src[j] == '>' && op != "q" {
		return interpLit{}, 0, 0, false
	}
	d := src[j]
	if isIdentByte(d) {
		return interpLit{}, 0, 0, false
	}
	end, inner0 := interpFindPaired(src, j)
	if end < 0 {
		return interpLit{start: i, end: -1}, 0, 0, true
	}
	body := src[inner0:end]
	last := end
	if op == "s" || op == "tr" || op == "y" {
		// A second part: s/a/b/ continues after the shared delimiter,
		// s{a}{b} opens its own.
		k := end + 1
		if strings.IndexByte("([{<", d) >= 0 {
			for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n') {
				k++
			}
			if k < len(src) {
				e2, _ := interpFindPaired(src, k)
				if e2 < 0 {
					return interpLit{start: i, end: -1}, 0, 0, true
				}
				last = e2
			}
		} else {
			e2 := interpFindClose(src, k, string(d), true)
			if e2 < 0 {
				return interpLit{start: i, end: -1}, 0, 0, true
			}
			last = e2
		}
	}
	k := last + 1
	for k < len(src) && (src[k] >= 'a' && src[k] <= 'z') {
		k++ // regex modifiers
	}
	l := interpLit{start: i, end: k, val: body, cmd: op == "qx"}
	if op == "qq" || op == "qx" {
		l.val = interpUnescape(body)
		l.interp = interpPerlInterpolates(body) && d != '\''
	}
	return l, inner0, last, true
}

// interpUnescape resolves the common backslash escapes of double-quoted
// strings.
func interpUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for k := 0; k < len(s); k++ {
		if s[k] != '\\' || k+1 >= len(s) {
			b.WriteByte(s[k])
			continue
		}
		k++
		switch s[k] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '\\', '\'', '"', '`', '$', '@', '/':
			b.WriteByte(s[k])
		case '\n':
		default:
			b.WriteByte('\\')
			b.WriteByte(s[k])
		}
	}
	return b.String()
}

// interpUnescapeSingle resolves the escapes of single-quoted strings in
// Ruby, Perl and PHP: only \\ and \'.
func interpUnescapeSingle(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return strings.NewReplacer(`\\`, `\`, `\'`, `'`).Replace(s)
}

// interpReplaceBraces replaces each interpolation opened by open ("{",
// "${", "#{") and closed by the matching "}" with interpPlaceholder.
func interpReplaceBraces(s, open string) string {
	var b strings.Builder
	for {
		k := strings.Index(s, open)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		if open == "{" && strings.HasPrefix(s[k:], "{{") {
			b.WriteString(s[:k+2])
			s = s[k+2:]
			continue
		}
		b.WriteString(s[:k])
		depth, e := 0, -1
		for j := k + len(open); j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				if depth == 0 {
					e = j
					break
				}
				depth--
			}
		}
		b.WriteString(interpPlaceholder)
		if e < 0 {
			return b.String()
		}
		s = s[e+1:]
	}
}

// interpPerlInterpolates reports whether a double-quoted Perl string holds
// a variable.
func interpPerlInterpolates(body string) bool {
	for k := 0; k+1 < len(body); k++ {
		if body[k] == '\\' {
			k++
			continue
		}
		if (body[k] == '$' || body[k] == '@') && (isIdentByte(body[k+1]) || body[k+1] == '{' || body[k+1] == ':') {
			return true
		}
	}
	return false
}

// interpPHPInterpolates reports whether a double-quoted PHP string holds a
// variable.
func interpPHPInterpolates(body string) bool {
	for k := 0; k+1 < len(body); k++ {
		if body[k] == '\\' {
			k++
			continue
		}
		if body[k] == '$' && (isIdentByte(body[k+1]) || body[k+1] == '{') || body[k] == '{' && body[k+1] == '$' {
			return true
		}
	}
	return false
}

// isLetters reports whether s is a non-empty run of ASCII letters (an
// HTTP method name, say).
func isLetters(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
