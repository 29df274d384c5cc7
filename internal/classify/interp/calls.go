package interp

import (
	"strings"
)

// ---------------------------------------------------------------- calls

// interpArg is one argument of a call.
type interpArg struct {
	start, end int        // span in the code, trimmed
	text       string     // source text
	lit        *interpLit // the literal, when the argument is exactly one
	list       []string   // the items, when the argument is a list of plain literals
	isList     bool
}

// interpCall is one occurrence of a name in code.
type interpCall struct {
	name   string
	at     int    // offset of the name
	recv   string // receiver chain before the name ("os", "Net::HTTP", ")" for a call result), "" when bare
	called bool   // followed by arguments
	args   []interpArg
	end    int // offset after the arguments
}

// literal returns the i-th argument when it is one string literal (plain or
// interpolated).
func (c interpCall) literal(i int) (*interpLit, bool) {
	if i < len(c.args) && c.args[i].lit != nil {
		return c.args[i].lit, true
	}
	return nil, false
}

// argText returns the source of all arguments.
func (c interpCall) argText() string {
	var parts []string
	for _, a := range c.args {
		parts = append(parts, a.text)
	}
	return strings.Join(parts, ", ")
}

// parenless reports whether a language calls functions without brackets
// (system "ls" in Ruby and Perl).
func (code *interpCode) parenless() bool {
	return code.lang == Ruby || code.lang == Perl || code.lang == AppleScript || code.lang == Lua
}

// calls finds every occurrence of the names as identifiers outside literals
// and comments, with the receiver and arguments of each.
func (code *interpCode) calls(names ...string) []interpCall {
	var out []interpCall
	m := code.masked
	for _, name := range names {
		for from := 0; ; {
			k := strings.Index(m[from:], name)
			if k < 0 {
				break
			}
			at := from + k
			from = at + len(name)
			if at > 0 && (isIdentByte(m[at-1]) || m[at-1] == '$' || m[at-1] == '@' || m[at-1] == '&') {
				continue
			}
			if at+len(name) < len(m) && isIdentByte(m[at+len(name)]) {
				continue
			}
			if at > 0 && m[at-1] == ':' && (at < 2 || m[at-2] != ':') && code.lang == Ruby {
				continue // a symbol
			}
			call := interpCall{name: name, at: at, recv: code.receiver(at)}
			code.arguments(&call, at+len(name))
			out = append(out, call)
		}
	}
	return out
}

// receiver returns the receiver chain written before offset at: the text
// before ".", "::" or "->", the module of require('mod'), or ")" when the
// receiver is another call's result.
func (code *interpCode) receiver(at int) string {
	m := code.masked
	k := at
	for k > 0 && (m[k-1] == ' ' || m[k-1] == '\t' || m[k-1] == '\n') {
		k--
	}
	switch {
	case k >= 1 && m[k-1] == '.' && !(k >= 2 && m[k-2] == '.'):
		k--
	case k >= 2 && (m[k-2:k] == "::" || m[k-2:k] == "->"):
		k -= 2
	case k >= 1 && m[k-1] == '$' && code.lang == R:
		k--
	default:
		return ""
	}
	for k > 0 && (m[k-1] == ' ' || m[k-1] == '\t' || m[k-1] == '\n') {
		k--
	}
	if k > 0 && m[k-1] == ')' {
		return code.requiredModule(k - 1)
	}
	if k > 0 && m[k-1] == ']' {
		return ")"
	}
	end := k
	for k > 0 {
		b := m[k-1]
		switch {
		case isIdentByte(b) || b == '$' || b == '.' || b == '@':
			k--
		case b == ':' && k >= 2 && m[k-2] == ':':
			k -= 2
		case b == '>' && k >= 2 && m[k-2] == '-':
			k -= 2
		default:
			return strings.Trim(code.src[k:end], ".:")
		}
	}
	return strings.Trim(code.src[k:end], ".:")
}

// requiredModule names the receiver ending with the ")" at close: the module
// of require('mod') or __import__('mod'), or ")" for any other call result.
func (code *interpCode) requiredModule(close int) string {
	m := code.masked
	depth := 0
	for k := close; k >= 0; k-- {
		switch m[k] {
		case ')':
			depth++
		case '(':
			depth--
			if depth > 0 {
				continue
			}
			j := k
			for j > 0 && isIdentByte(m[j-1]) {
				j--
			}
			switch m[j:k] {
			case "require", "__import__", "import_module":
				a := k + 1
				for a < close && m[a] == ' ' {
					a++
				}
				if i, ok := code.litAt[a]; ok {
					return strings.TrimPrefix(code.lits[i].val, "node:")
				}
			}
			return ")"
		}
	}
	return ")"
}

// arguments reads the arguments of a call whose name ends at p.
func (code *interpCode) arguments(call *interpCall, p int) {
	m := code.masked
	for p < len(m) && (m[p] == ' ' || m[p] == '\t') {
		p++
	}
	if p < len(m) && m[p] == '(' {
		call.called = true
		call.args, call.end = code.splitArgs(p+1, true)
		return
	}
	if !code.parenless() || p >= len(m) {
		return
	}
	b := m[p]
	_, isLit := code.litAt[p]
	switch {
	case isLit, b == '[' || b == '$' || b == '@' || b == '{' && code.lang == Lua:
	case code.lang == Perl && (isIdentByte(b) || b == '%'):
	case code.lang == Ruby && (b == '%' || b == ':' && p+1 < len(m) && isIdentByte(m[p+1]) || isIdentByte(b) && !code.rubyKeywordAt(p)):
	default:
		return
	}
	call.called = true
	call.args, call.end = code.splitArgs(p, false)
}

// rubyKeywordAt reports whether a word at p is a keyword that ends an
// expression (so "exec if x" is not a call with argument "if").
func (code *interpCode) rubyKeywordAt(p int) bool {
	for _, kw := range []string{"if", "unless", "do", "end", "and", "or", "then", "rescue", "while", "until"} {
		if strings.HasPrefix(code.masked[p:], kw) && (p+len(kw) == len(code.masked) || !isIdentByte(code.masked[p+len(kw)])) {
			return true
		}
	}
	return false
}

// splitArgs splits the arguments starting at p: up to the matching ")" when
// paren, otherwise up to the end of the statement.
func (code *interpCode) splitArgs(p int, paren bool) ([]interpArg, int) {
	m := code.masked
	var args []interpArg
	depth, start := 0, p
	flush := func(end int) {
		a, b := start, end
		for a < b && strings.IndexByte(" \t\n", m[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(" \t\n", m[b-1]) >= 0 {
			b--
		}
		if a < b {
			args = append(args, code.argAt(a, b))
		}
	}
	k := p
	for ; k < len(m); k++ {
		b := m[k]
		switch b {
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			if depth == 0 {
				flush(k)
				if paren && b == ')' {
					return args, k + 1
				}
				return args, k
			}
			depth--
			continue
		case ',':
			if depth == 0 {
				flush(k)
				start = k + 1
			}
			continue
		}
		if !paren && depth == 0 {
			if b == ';' || b == '\n' {
				flush(k)
				return args, k
			}
			if b == ' ' && code.statementEnds(k+1) {
				flush(k)
				return args, k
			}
		}
	}
	flush(k)
	return args, k
}

// statementEnds reports whether a word at p ends an argument list written
// without brackets (Perl's "or die", Ruby's "if x").
func (code *interpCode) statementEnds(p int) bool {
	for _, kw := range []string{"or", "and", "if", "unless", "||", "&&", "do", "then", "while", "until", "foreach", "for"} {
		if strings.HasPrefix(code.masked[p:], kw) && (p+len(kw) == len(code.masked) || !isIdentByte(code.masked[p+len(kw)])) {
			return true
		}
	}
	return false
}

// argAt builds the argument spanning [a, b).
func (code *interpCode) argAt(a, b int) interpArg {
	arg := interpArg{start: a, end: b, text: code.src[a:b]}
	if i, ok := code.litAt[a]; ok && code.lits[i].end == b {
		if strings.HasPrefix(code.src[a:], "qw") || strings.HasPrefix(code.src[a:], "%w") {
			arg.isList, arg.list = true, strings.Fields(code.lits[i].val)
			return arg
		}
		arg.lit = &code.lits[i]
		return arg
	}
	m := code.masked
	open, closeAt := -1, -1
	switch {
	case m[a] == '[' && m[b-1] == ']':
		open, closeAt = a+1, b-1
	case m[a] == '(' && m[b-1] == ')' && code.lang == Perl:
		open, closeAt = a+1, b-1
	case strings.HasPrefix(m[a:b], "c(") && m[b-1] == ')' && code.lang == R:
		open, closeAt = a+2, b-1
	}
	if open < 0 {
		return arg
	}
	items, _ := code.splitArgs(open, true)
	if len(items) > 0 && items[len(items)-1].end > closeAt {
		return arg
	}
	for _, it := range items {
		if it.lit == nil || it.lit.interp {
			return arg
		}
		arg.list = append(arg.list, it.lit.val)
	}
	arg.isList = true
	return arg
}

// ExpansionsInLiterals reports whether every shell expansion ($ or
// a backtick) in code lies inside one of the code's string literals.
func ExpansionsInLiterals(lang, src string) bool {
	code := interpLex(lang, src)
	for k := 0; k < len(src); k++ {
		if src[k] != '$' && src[k] != '`' {
			continue
		}
		if src[k] == '$' && (k+1 >= len(src) || !(isIdentByte(src[k+1]) || src[k+1] == '{' || src[k+1] == '(')) {
			continue
		}
		inside := false
		for _, l := range code.lits {
			if k > l.start && k < l.end-1 || src[k] == '`' && (k == l.start || k == l.end-1) && l.cmd {
				inside = true
				break
			}
		}
		if !inside {
			return false
		}
	}
	return true
}
