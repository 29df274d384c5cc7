package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates interpreter runs (python, node, deno, ruby, perl, php,
// lua, R, osascript). Running a script file is ordinary local work. Code given
// on the command line or on standard input is read with plain string
// matching: shell text passed literally to a process-spawning call is
// classified as shell text (its effect is the interpreter's effect), network
// writes are external, reads are network reads, file deletion is
// destructive, and whatever spawns processes or opens sockets in a way that
// cannot be read is opaque.
//
// The reader is deliberately small: a lexer that finds string literals and
// comments, so that names inside strings are not mistaken for calls, and a
// call finder that reads the arguments of a named call when they are
// literals. It is a guard rail against a confused agent, not a parser for
// hostile code.

// ---------------------------------------------------------------- analysis

// interpMaxEval bounds how deep code passed to eval() of a literal is read.
const interpMaxEval = 3

// interpScan rates one piece of code.
type interpScan struct {
	c      *Classifier
	who    string // the interpreter, for messages
	code   *interpCode
	e      Effect
	reads  []string // what the code fetches from the network
	spawns int      // process-spawning calls understood
	depth  int
}

// interpAnalyse rates code in a language, run by the interpreter who.
func interpAnalyse(c *Classifier, who, lang, src string, depth int) Effect {
	s := &interpScan{c: c, who: who, code: interpLex(lang, src), depth: depth}
	if s.code.broken != "" {
		s.hide("interp.unreadable", who+" code has "+s.code.broken+", so what it does cannot be read")
	}
	switch lang {
	case langPython:
		s.python()
	case langJS:
		s.javascript()
	case langRuby:
		s.ruby()
	case langPerl:
		s.perl()
	case langPHP:
		s.php()
	case langLua:
		s.lua()
	case langR:
		s.rlang()
	case langAS:
		s.applescript()
	}
	s.shellShaped(lang)
	if len(s.reads) > 0 && s.e.Tier < External {
		s.e.Add(netRead("interp.net.read", who+" code fetches "+strings.Join(s.reads, ", ")))
	}
	return s.e
}

// hide marks the code opaque.
func (s *interpScan) hide(rule, msg string) { s.e.Add(opaque(rule, msg)) }

// write records a write beyond the machine.
func (s *interpScan) write(rule, msg string) { s.e.Add(external(rule, msg)) }

// read records a network read by a call.
func (s *interpScan) read(call interpCall) {
	t := call.recv
	if t != "" {
		t += "."
	}
	t += call.name
	if l, ok := call.literal(0); ok {
		t += " " + httpHost(l.val)
	}
	s.reads = append(s.reads, clip(t))
}

// target renders the first argument of a call for a message.
func (s *interpScan) target(call interpCall, fallback string) string {
	if l, ok := call.literal(0); ok {
		return clip(l.val)
	}
	if len(call.args) > 0 {
		return clip(call.args[0].text)
	}
	return fallback
}

// destroy records file deletion.
func (s *interpScan) destroy(call interpCall) {
	fn := call.name
	if call.recv != "" && call.recv != ")" {
		fn = call.recv + "." + fn
	}
	s.e.Add(local("interp.delete", s.who+" code deletes "+s.target(call, "files")+" ("+fn+")").destroys())
}

// spawnText classifies shell text the code runs.
func (s *interpScan) spawnText(text string) {
	s.spawns++
	s.e.Add(local("interp.spawn", s.who+" code runs the shell command: "+clip(text)))
	s.e.Add(s.c.nested(text))
}

// spawnArgv classifies a program run from a list of words.
func (s *interpScan) spawnArgv(words []string) {
	if len(words) == 0 {
		s.hide("interp.spawn.dynamic", s.who+" code runs a program from an empty or unreadable list")
		return
	}
	s.spawnText(shell.Join(words))
}

// spawnCall rates a call that runs its first argument: shell text when it
// is a string, a program and its arguments when it is a list of strings.
func (s *interpScan) spawnCall(call interpCall) {
	switch {
	case !call.called:
		s.hide("interp.spawn.ref", s.who+" code uses "+call.name+" without a plain call, so what it runs cannot be known")
	case len(call.args) == 0:
		s.hide("interp.spawn.dynamic", s.who+" code calls "+call.name+" with no argument airlock can read")
	case call.args[0].lit != nil:
		s.spawnText(call.args[0].lit.val)
	case call.args[0].isList:
		s.spawnArgv(call.args[0].list)
	default:
		s.hide("interp.spawn.dynamic", s.who+" code runs "+call.name+"("+clip(call.argText())+"), a command only known at run time")
	}
}

// spawnWords rates a call whose arguments are a program and its arguments
// (Ruby's and Perl's system with several strings, Node's execFile): every
// argument must be a literal or a list of literals.
func (s *interpScan) spawnWords(call interpCall, args []interpArg) {
	if len(args) == 1 {
		call.args = args
		s.spawnCall(call)
		return
	}
	var words []string
	for _, a := range args {
		switch {
		case a.lit != nil && !a.lit.interp:
			words = append(words, a.lit.val)
		case a.isList:
			words = append(words, a.list...)
		case strings.HasPrefix(strings.TrimSpace(a.text), "{"):
			// Options or environment (a hash or object literal).
		default:
			s.hide("interp.spawn.dynamic", s.who+" code runs "+call.name+"("+clip(call.argText())+"), a command only known at run time")
			return
		}
	}
	s.spawnArgv(words)
}

// evalCode rates code that the code itself evaluates: read when literal,
// opaque otherwise.
func (s *interpScan) evalCode(call interpCall) {
	if !call.called || len(call.args) == 0 {
		return
	}
	l, ok := call.literal(0)
	if !ok || l.interp {
		s.hide("interp.eval", s.who+" code evaluates code built at run time ("+call.name+"("+clip(call.argText())+"))")
		return
	}
	if s.depth >= interpMaxEval {
		s.hide("limit.nesting", "limit reached: code evaluated inside "+s.who+" code nested too deep")
		return
	}
	s.e.Add(interpAnalyse(s.c, s.who, s.code.lang, l.val, s.depth+1))
}

// mentions counts the identifier word in the code outside literals and
// comments.
func (s *interpScan) mentions(word string) int {
	return len(s.code.calls(word))
}

// inImport reports whether offset at lies in an import statement.
func (s *interpScan) inImport(at int) bool {
	m := s.code.masked
	start := strings.LastIndexAny(m[:at], "\n;") + 1
	stmt := strings.TrimLeft(m[start:at], " \t")
	return strings.HasPrefix(stmt, "import ") || strings.HasPrefix(stmt, "from ")
}

// keyValue finds "key: value" (or "key => value", "key = value") inside an
// argument and returns the offset of the value.
func (s *interpScan) keyValue(a interpArg, key string) (int, bool) {
	m := s.code.masked
	src := s.code.src
	for from := a.start; from < a.end; {
		k := strings.Index(src[from:a.end], key)
		if k < 0 {
			return 0, false
		}
		at := from + k
		from = at + len(key)
		if at > 0 && isIdentByte(src[at-1]) || at+len(key) < len(src) && isIdentByte(src[at+len(key)]) {
			continue
		}
		p := at + len(key)
		if p < len(src) && (src[p] == '\'' || src[p] == '"') {
			p++ // a quoted key
		}
		for p < a.end && (m[p] == ' ' || m[p] == '\t' || m[p] == '\n') {
			p++
		}
		switch {
		case strings.HasPrefix(m[p:], "=>"):
			p += 2
		case p < a.end && (m[p] == ':' || m[p] == '='):
			p++
		case p < a.end && (m[p] == ',' || m[p] == '}'):
			return p, true // shorthand {body}
		default:
			continue
		}
		for p < a.end && (m[p] == ' ' || m[p] == '\t' || m[p] == '\n') {
			p++
		}
		return p, true
	}
	return 0, false
}

// keyLit returns the literal value of key inside an argument; found is true
// when the key is present, even with a value that is not a literal.
func (s *interpScan) keyLit(a interpArg, key string) (*interpLit, bool) {
	p, ok := s.keyValue(a, key)
	if !ok {
		return nil, false
	}
	if i, ok := s.code.litAt[p]; ok {
		return &s.code.lits[i], true
	}
	return nil, true
}

// keyList returns the list literal value of key inside an argument.
func (s *interpScan) keyList(a interpArg, key string) ([]string, bool) {
	p, ok := s.keyValue(a, key)
	if !ok || p >= len(s.code.masked) || s.code.masked[p] != '[' {
		return nil, false
	}
	_, end := s.code.splitArgs(p+1, true)
	arg := s.code.argAt(p, end+1)
	return arg.list, arg.isList
}

// httpMethod rates an HTTP request by its method literal; a method that is
// not a literal cannot be known.
func (s *interpScan) httpMethod(l *interpLit, call interpCall) {
	if l == nil || l.interp {
		s.hide("interp.net.dynamic", s.who+" code sends an HTTP request whose method is only known at run time")
		return
	}
	if httpReadMethod(l.val) {
		s.read(call)
		return
	}
	s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(l.val)+" request")
}

// interpHTTPClient reports whether a receiver looks like an HTTP client, so
// that its post/put/delete methods send requests (and a queue's put does
// not).
func interpHTTPClient(recv string) bool {
	chain := strings.ToLower(recv)
	for _, part := range []string{"lwp", "useragent", "http::", "mechanize", "furl"} {
		if strings.Contains(chain, part) {
			return true
		}
	}
	r := strings.TrimLeft(chain, "$@")
	if k := strings.LastIndexAny(r, ".:>"); k >= 0 {
		r = r[k+1:]
	}
	switch r {
	case "s", "ua", "c", "r", "ky", "got", "axios", "needle", "superagent", "agent", "mech", "furl", "faraday",
		"httparty", "restclient", "excon", "typhoeus", "conn", "connection", "tiny", "lwp", "guzzle", "req", "aiohttp":
		return true
	}
	for _, part := range []string{"http", "session", "client", "request", "api", "browser", "useragent"} {
		if strings.Contains(r, part) {
			return true
		}
	}
	return false
}

// shellShaped handles code that is not code at all but shell text (node -e
// "rm -rf /"): no language reads it, so nothing runs, but a command that
// would be held as shell text is held here too rather than waved through.
func (s *interpScan) shellShaped(lang string) {
	src := strings.TrimSpace(s.code.src)
	if len(s.e.Reasons) > 0 || src == "" || strings.ContainsAny(src, "();=") || lang == langAS {
		return
	}
	first, _, _ := strings.Cut(src, " ")
	if specFor(first) == nil {
		return
	}
	e := s.c.nested(src)
	if e.Tier == Local && !e.Destructive && !e.Opaque {
		return
	}
	s.e.Add(local("interp.shell-shaped", s.who+" was given shell text as code ("+clip(src)+"), held as that command"))
	s.e.Add(e)
}

func init() {
	register(interpPythonSpec)
	register(interpNodeSpec)
	register(interpDenoSpec)
	register(interpRubySpec)
	register(interpPerlSpec)
	register(interpPHPSpec)
	register(interpLuaSpec)
	register(interpRSpec)
	register(interpOsascriptSpec)
}
