package shell

import (
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// cmd is a simple command on its way to becoming an Invocation: wrappers
// are peeled off and nested shell text is parsed before it is emitted.
type cmd struct {
	frame
	depth      int
	line       int
	inLoop     bool
	source     string
	args       []string
	dyn        []bool
	redirects  []Redirect
	stdin      string
	stdinText  string
	stdinKnown bool
	// group marks the run that carries a compound command's or a
	// function call's redirections (Invocation.Group).
	group     bool
	stdinFrom string
	// stdinArgs is the static argument vector of the simple command
	// feeding a pipe into this one (stdinSource.args).
	stdinArgs []string
	// stdinFile is the file "cat FILE" feeds a pipe into this one.
	stdinFile string
	// feed is Invocation.Feed.
	feed *Feed
	// stdinSrc is the text of a here-string or here-document only known
	// at run time, with the kept values put in (values.go).
	stdinSrc string
	// base is how many wrappers the shell running the command was
	// already inside: the wrappers after it are this command's own.
	base int
	// shellEnv holds the command's prefix assignments of HOME, CDPATH
	// and OLDPWD, which cd reads (dirvars.go).
	shellEnv map[string]binding
}

// inShell reports whether the command runs in the shell itself (perhaps
// through builtin or command), so that what it sets lasts.
func (c cmd) inShell() bool {
	if c.vals == nil || c.base > len(c.via) {
		return false
	}
	for _, v := range c.via[c.base:] {
		if v != "builtin" && v != "command" {
			return false
		}
	}
	return true
}

// inner returns the command made of args[i:], run through wrapper via.
func (c cmd) inner(i int, via string) cmd {
	n := c
	n.args, n.dyn = c.args[i:], c.dyn[i:]
	n.frame = c.frame.with(via)
	return n
}

func (c cmd) invocation() Invocation {
	inv := Invocation{
		Args:       c.args,
		Path:       c.args[0],
		Line:       c.line,
		InLoop:     c.inLoop,
		Via:        c.via,
		Remote:     c.remote,
		Env:        c.env,
		Redirects:  c.redirects,
		Source:     c.source,
		Stdin:      c.stdin,
		StdinText:  c.stdinText,
		StdinKnown: c.stdinKnown,
		StdinFile:  c.stdinFile,
		Group:      c.group,
		Feed:       c.feed,
	}
	if c.vals != nil {
		inv.Dir = c.vals.dir
	}
	inv.Args = append([]string(nil), c.args...)
	inv.Args[0] = normName(c.args[0])
	if strings.Contains(c.source, parallelInputVar) {
		// A run of the text GNU parallel makes, given an input value
		// known only at run time as a word (parallel.go).
		for k, a := range inv.Args {
			if k < len(c.dyn) && c.dyn[k] && strings.Contains(a, parallelInputText) {
				inv.Args[k] = strings.ReplaceAll(a, `"`+parallelInputText+`"`, parallelInputText)
				if inv.Feed == nil && c.frame.feed != nil {
					inv.Feed, inv.Source = c.frame.feed, c.frame.feedSource
				}
			}
		}
	}
	if anyTrue(c.dyn) {
		inv.Dynamic = append([]bool(nil), c.dyn...)
	}
	return inv
}

// computedName emits a run whose command name is computed at run time:
// opaque, with its words when the name is a file's path ("$out/p" -h:
// NamesAFile), so that package classify can tell a program the same
// command builds there (go build -o "$out/p") from any other.
func (w *walker) computedName(c cmd) {
	reason := "the command name is computed at run time (" + c.args[0] + "), so what runs cannot be known"
	if !NamesAFile(c.args[0]) {
		w.opaque(c.frame, c.source, reason)
		return
	}
	inv := c.invocation()
	inv.Args[0], inv.Opaque = c.args[0], reason
	w.emit(inv)
}

// handler peels one layer off a command. It returns the next command to
// look at, or done when it has emitted everything itself.
type handler func(w *walker, c cmd) (next cmd, done bool)

// maxUnwrap bounds how many wrappers are peeled off one command.
const maxUnwrap = 64

// run peels wrappers and nested shells off c and emits what remains.
func (w *walker) run(c cmd) {
	for range maxUnwrap {
		if len(c.args) == 0 {
			return
		}
		if c.dyn[0] {
			w.computedName(c)
			if c.inShell() && !NamesAFile(c.args[0]) {
				c.vals.clear() // it may be read, cd or eval
			}
			return
		}
		if isGlob(c.args[0]) {
			w.opaque(c.frame, c.source, globReason(c.args[0]))
			return
		}
		h := handlers[normName(c.args[0])]
		if h == nil {
			switch c.args[0] {
			case "history":
				n, done := w.historyCmd(c)
				if done {
					return
				}
				c = n
			case "fc":
				if w.fcCmd(c) {
					w.emit(c.invocation())
					return
				}
			}
			if c.inShell() {
				switch {
				case c.args[0] == "hash" && len(c.via) > c.base:
					// builtin hash, command hash (hash itself: hashPaths).
					w.hashed(c)
				case c.args[0] == "enable":
					w.enabled(c)

				case setsNameTables(c):
					w.opaque(c.frame, c.source, "the command sets bash's BASH_CMDS or BASH_ALIASES table, so what a name runs is not known")
				case setsPATH(c):
					// read PATH, printf -v PATH: every later run looks its
					// program up there (FINDINGS-9 S1).
					w.exports.add("PATH=${PATH set by " + c.args[0] + "}")
				}
			}
			w.exportedFuncs(c)
			w.envOptions(c)
			w.emit(c.invocation())
			w.evaluated(c)
			w.exports.exportWords(c)
			if c.inShell() {
				c.vals.effects(c)
				w.cdpathDirs(c)
				if c.args[0] == "set" || c.args[0] == "shopt" {
					w.shellOptions(c)
				}
			}
			return
		}
		next, done := h(w, c)
		if done {
			return
		}
		c = next
	}
	w.opaque(c.frame, c.source, "limit reached: more than 64 wrapper commands around one program")
}

// handlers is the one explicit table of the programs the walker sees
// through, keyed by normalised name. It is not a registry: no other file
// adds to it. It is filled by init rather than by its declaration only
// because the handlers walk nested commands, which read this table, and
// Go rejects that cycle among package variables. It is built at start-up,
// not on first use, since every hook call walks a command and reads it.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"sudo":         sudoWrapper,
		"doas":         optionWrapper(argv.Spec{Short: "uC", StopAtOperand: true}, 0),
		"nice":         optionWrapper(argv.Spec{Short: "n", Long: []string{"--adjustment"}, StopAtOperand: true}, 0),
		"ionice":       optionWrapper(argv.Spec{Short: "cnpPu", Long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}, StopAtOperand: true}, 0),
		"nohup":        optionWrapper(argv.Spec{StopAtOperand: true}, 0),
		"time":         optionWrapper(argv.Spec{Short: "fo", Long: []string{"--format", "--output"}, StopAtOperand: true}, 0),
		"timeout":      optionWrapper(argv.Spec{Short: "sk", Long: []string{"--signal", "--kill-after"}, StopAtOperand: true}, 1),
		"stdbuf":       optionWrapper(argv.Spec{Short: "ioe", Long: []string{"--input", "--output", "--error"}, StopAtOperand: true}, 0),
		"setsid":       optionWrapper(argv.Spec{StopAtOperand: true}, 0),
		"chronic":      optionWrapper(argv.Spec{StopAtOperand: true}, 0),
		"unbuffer":     optionWrapper(argv.Spec{StopAtOperand: true}, 0),
		"torsocks":     optionWrapper(argv.Spec{Short: "uapP", StopAtOperand: true}, 0),
		"proxychains":  optionWrapper(argv.Spec{Short: "f", StopAtOperand: true}, 0),
		"proxychains4": optionWrapper(argv.Spec{Short: "f", StopAtOperand: true}, 0),
		"caffeinate":   optionWrapper(argv.Spec{Short: "tw", StopAtOperand: true}, 0),
		"flock":        optionWrapper(argv.Spec{Short: "wEc", Long: []string{"--timeout", "--conflict-exit-code", "--command"}, StopAtOperand: true}, 1),
		"chroot":       optionWrapper(argv.Spec{Long: []string{"--userspec", "--groups"}, StopAtOperand: true}, 1),
		"builtin":      optionWrapper(argv.Spec{StopAtOperand: true}, 0),
		"exec":         optionWrapper(argv.Spec{Short: "a", StopAtOperand: true}, 0),
		"busybox":      optionWrapper(argv.Spec{StopAtOperand: true}, 0),
		"command":      commandBuiltin,
		"env":          envWrapper,
		"xargs":        xargsWrapper,
		"find":         findExec,
		"watch":        watchWrapper,
		"script":       scriptWrapper,
		"su":           suWrapper,
		"newgrp":       shellStarter,
		"login":        shellStarter,
		"unshare":      unshareWrapper,
		"ssh":          sshRemote,
		"eval":         evalText,
		"trap":         trapText,
		"parallel":     parallelWrapper,
		"sem":          semWrapper,
		"source":       sourceScript,
		".":            sourceScript,
	}
	for _, sh := range shellNames {
		handlers[sh] = shellText
	}
}

// optionWrapper handles a program that runs its operands as a command after
// its own options and a fixed number of its own operands (timeout's
// duration, chroot's directory).
func optionWrapper(spec argv.Spec, ownOperands int) handler {
	return func(w *walker, c cmd) (cmd, bool) {
		name := normName(c.args[0])
		parsed := spec.Parse(c.args[1:])
		rest := 1 + parsed.Rest
		if f, ok := parsed.Last("-c", "--command"); ok && name == "flock" {
			// flock -c TEXT FILE: the text comes before the lock file.
			own := c
			own.args, own.dyn = c.args[:1+f.Index], c.dyn[:1+f.Index]
			own.args = append(append([]string(nil), own.args...), c.args[1+f.ValueIndex+1:]...)
			own.dyn = append(append([]bool(nil), own.dyn...), c.dyn[1+f.ValueIndex+1:]...)
			w.emit(own.invocation())
			return w.nested(c, f.Value, c.dyn[1+f.ValueIndex], "flock -c")
		}
		for i := rest; i < len(c.args) && strings.HasPrefix(c.args[i], "-") && isNumber(c.args[i][1:]); i++ {
			rest = i + 1 // nice -10 cmd
		}
		rest += ownOperands
		if rest >= len(c.args) {
			w.emit(c.invocation())
			return c, true
		}
		if name == "time" && spec.Parse(c.args[1:rest]).Has("-o", "--output") || name == "flock" {
			// flock FILE CMD opens (and creates) FILE and holds its
			// lock while CMD runs: its own words are a run too.
			// /usr/bin/time -o FILE writes FILE: its own words are a run
			// of their own, so that their roles are read.
			own := c
			own.args, own.dyn = c.args[:rest], c.dyn[:rest]
			w.emit(own.invocation())
		}
		if name == "flock" && rest+1 < len(c.args) && (c.args[rest] == "-c" || c.args[rest] == "--command") {
			// flock FILE -c TEXT runs TEXT with the shell.
			return w.nested(c, c.args[rest+1], c.dyn[rest+1], "flock -c")
		}
		return c.inner(rest, name), false
	}
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// commandBuiltin: "command -v/-V" only asks where a program is.
func commandBuiltin(w *walker, c cmd) (cmd, bool) {
	p := argv.Spec{StopAtOperand: true}.Parse(c.args[1:])
	if p.Has("-v", "-V") || 1+p.Rest >= len(c.args) {
		w.emit(c.invocation())
		return c, true
	}
	return c.inner(1+p.Rest, "command"), false
}

// envWrapper handles env's options, its -S split string and VAR=value words.
func envWrapper(w *walker, c cmd) (cmd, bool) {
	spec := argv.Spec{Short: "uCSP", Long: []string{"--unset", "--chdir", "--split-string", "--block-signal", "--default-signal", "--ignore-signal"}, StopAtOperand: true}
	p := spec.Parse(c.args[1:])
	i := 1 + p.Rest
	var assigns []string
	for i < len(c.args) && !c.dyn[i] && (c.args[i] == "-" || strings.Contains(c.args[i], "=") && !strings.HasPrefix(c.args[i], "=")) {
		if c.args[i] != "-" { // "env -" is "env -i"
			assigns = append(assigns, c.args[i])
		}
		i++
	}
	c.frame = c.frame.withEnv(assigns)
	if split, ok := p.Last("-S", "--split-string"); ok {
		// env -S splits its argument into words and runs them, followed by
		// the remaining operands: the same as shell text.
		text := split.Value + " " + Join(c.args[i:])
		return w.nested(c, text, c.dyn[1+split.ValueIndex] || anyTrue(c.dyn[i:]), "env -S")
	}
	if i >= len(c.args) {
		w.emit(c.invocation())
		return c, true
	}
	if p.Has("-C", "--chdir") {
		// Its own name: the command runs in another directory, which a
		// reader placing paths (destruction grades) must not take for
		// the shell's.
		return chdirOption(c, c.inner(i, "env --chdir"), p, "-C", "--chdir"), false
	}
	return c.inner(i, "env"), false
}

// xargsWrapper runs its command with arguments read from standard input.
// When that input is literal (echo / | xargs rm -rf) its words are used;
// otherwise they are dynamic.
func xargsWrapper(w *walker, c cmd) (cmd, bool) {
	spec := argv.Spec{Short: "adEeILlnPsDJ", Long: []string{"--arg-file", "--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, StopAtOperand: true}
	p := spec.Parse(c.args[1:])
	i := 1 + p.Rest
	var n cmd
	if i >= len(c.args) {
		n = c
		n.args, n.dyn = []string{"echo"}, []bool{false}
		n.frame = c.frame.with("xargs")
	} else {
		n = c.inner(i, "xargs")
	}
	n.stdin, n.stdinKnown, n.stdinText, n.stdinArgs, n.stdinFile = "", false, "", nil, ""
	input, known := []string{"{xargs input}"}, false
	if c.stdinKnown && !p.Has("-a", "--arg-file") {
		if words := xargsItems(c.stdinText, p); len(words) > 0 && len(words) <= 64 {
			input, known = words, true
		}
	}
	if !known {
		n.feed = feedOf(c, p, "xargs")
	}
	if repl, ok := xargsReplace(p); ok {
		// Each input line replaces the placeholder wherever it occurs.
		if known {
			input = strings.Split(strings.TrimSpace(c.stdinText), "\n")
		}
		for _, value := range input {
			w.run(substitute(n, repl, value, !known))
		}
		return c, true
	}
	n.args = append(append([]string(nil), n.args...), input...)
	n.dyn = append([]bool(nil), n.dyn...)
	for range input {
		n.dyn = append(n.dyn, !known)
	}
	return n, false
}

// feedOf says where xargs or parallel reads its arguments from: -a FILE,
// a redirection from a file, or the command piped into it, and how it
// splits them.
func feedOf(c cmd, p argv.Parsed, via string) *Feed {
	f := &Feed{Via: via, Sep: "blank"}
	if via == "parallel" {
		f.Sep = "line"
	}
	for _, fl := range p.Flags {
		switch fl.Name {
		case "-0", "--null":
			f.Sep = "nul"
		case "-d", "--delimiter":
			switch fl.Value {
			case `\n`, "\n", `\012`:
				f.Sep = "line"
			case `\0`, `\000`, `\x00`, "\x00":
				f.Sep = "nul"
			default:
				f.Sep = "other"
			}
		case "-a", "--arg-file":
			if !fl.HasValue || c.dyn[1+fl.ValueIndex] {
				return f
			}
			f.File = fl.Value
			return f
		}
	}
	for _, r := range c.redirects {
		if r.Op == "<" && !r.Dynamic {
			f.File = r.Target
			return f
		}
	}
	if c.stdin == "pipe" {
		f.Producer = c.stdinArgs
	}
	return f
}

// xargsReplace returns the placeholder of xargs -I/-i/-J/--replace.
func xargsReplace(p argv.Parsed) (string, bool) {
	for _, f := range p.Flags {
		switch f.Name {
		case "-I", "-J":
			return f.Value, f.HasValue
		case "-i", "--replace":
			if f.HasValue && f.Value != "" {
				return f.Value, true
			}
			return "{}", true
		}
	}
	return "", false
}

// substitute replaces placeholder in every word of c with value, marking
// the words that held it dynamic when the value is not literal.
func substitute(c cmd, placeholder, value string, dynamic bool) cmd {
	n := c
	n.args = make([]string, len(c.args))
	n.dyn = make([]bool, len(c.dyn))
	for i, a := range c.args {
		n.dyn[i] = c.dyn[i]
		if placeholder != "" && strings.Contains(a, placeholder) {
			a = strings.ReplaceAll(a, placeholder, value)
			n.dyn[i] = n.dyn[i] || dynamic
		}
		n.args[i] = a
	}
	return n
}

// findExec emits find itself and each command of its -exec family.
func findExec(w *walker, c cmd) (cmd, bool) {
	w.emit(c.invocation())
	for i := 1; i < len(c.args); i++ {
		switch c.args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			via := "find " + c.args[i]
			j := i + 1
			for j < len(c.args) && !(c.args[j] == ";" || (c.args[j] == "+" && j > i+1 && c.args[j-1] == "{}")) {
				j++
			}
			if j > i+1 {
				n := c
				n.args, n.dyn = c.args[i+1:j], c.dyn[i+1:j]
				n.frame = c.frame.with(via)
				n.redirects, n.stdin, n.stdinKnown = nil, "", false
				if c.args[i] == "-execdir" || c.args[i] == "-okdir" {
					// Each found file's directory: any below the
					// start paths, known only at run time (chdir.go).
					n = n.inDir("", false)
				}
				w.run(n)
			}
			i = j
		}
	}
	return c, true
}

// watchWrapper: watch joins its operands and runs them with sh -c, unless
// -x/--exec is given.
func watchWrapper(w *walker, c cmd) (cmd, bool) {
	spec := argv.Spec{Short: "nqd", Long: []string{"--interval", "--differences", "--equexit", "--errexit-after"}, StopAtOperand: true}
	p := spec.Parse(c.args[1:])
	i := 1 + p.Rest
	if i >= len(c.args) {
		w.emit(c.invocation())
		return c, true
	}
	if p.Has("-x", "--exec") {
		return c.inner(i, "watch"), false
	}
	return w.nested(c, strings.Join(c.args[i:], " "), anyTrue(c.dyn[i:]), "watch")
}

// scriptWrapper: script -c TEXT runs TEXT with a shell.
func scriptWrapper(w *walker, c cmd) (cmd, bool) {
	p := argv.Spec{Short: "cEIOBTtm", Long: []string{"--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing", "--logging-format", "--output-limit"}}.Parse(c.args[1:])
	f, ok := p.Last("-c", "--command")
	if !ok {
		// script with no command starts a shell, which reads its
		// commands from standard input when it is given one; its own
		// words (the typescript file) are a run of their own.
		w.emit(c.invocation())
		if c.stdin != "" {
			n := c
			n.args, n.dyn = []string{"sh"}, []bool{false}
			return w.fromStdin(n, "script")
		}
		return c, true
	}
	// script's own words (its typescript file, --log-out FILE) are a run
	// of their own: script writes them.
	own := c
	own.args, own.dyn = nil, nil
	for i := range c.args {
		if i == 1+f.ValueIndex || i > 0 && (c.args[i] == "-c" || c.args[i] == "--command") && i+1 == 1+f.ValueIndex {
			continue
		}
		if i > 0 && i == 1+f.ValueIndex-1 && strings.HasPrefix(c.args[i], "--command=") {
			continue
		}
		own.args = append(own.args, c.args[i])
		own.dyn = append(own.dyn, c.dyn[i])
	}
	if len(own.args) > 1 {
		w.emit(own.invocation())
	}
	return w.nested(c, f.Value, c.dyn[1+f.ValueIndex], "script -c")
}

// suWrapper: su -c TEXT runs TEXT with the target user's shell.
func suWrapper(w *walker, c cmd) (cmd, bool) {
	p := argv.Spec{Short: "cgGsw", Long: []string{"--command", "--group", "--supp-group", "--shell", "--whitelist-environment", "--session-command"}}.Parse(c.args[1:])
	f, ok := p.Last("-c", "--command", "--session-command")
	if !ok {
		// su with no command starts a shell, which reads its commands
		// from standard input when it is given one (su <<< 'rm …').
		return w.fromStdin(c, "su")
	}
	return w.nested(c, f.Value, c.dyn[1+f.ValueIndex], "su -c")
}

// nested parses text as shell text run by wrapper via. Dynamic text cannot
// be known and is opaque.
func (w *walker) nested(c cmd, text string, dynamic bool, via string) (cmd, bool) {
	same := via == "eval" && c.inShell()
	if dynamic {
		// The words, with the values the text gave them, go with the
		// opaque run: a reader can still look for what they mention.
		// Its redirections are static all the same: eval "$X" > FILE
		// writes FILE, and self-protection must see it.
		inv := Invocation{Via: c.frame.with(via).via, Remote: c.remote, Source: c.source, Redirects: c.redirects, Opaque: via + " runs shell text that is only known at run time"}
		inv.Args, inv.Dynamic = append([]string(nil), c.args...), append([]bool(nil), c.dyn...)
		w.emit(inv)
		if same {
			c.vals.clear() // the text may set anything
		}
		return c, true
	}
	f := c.frame.with(via)
	f.same = same
	w.groupRedirects(c)
	w.text(text, f, c.depth+1)
	return c, true
}

// groupRedirects emits the redirections of a command whose body is shell
// text parsed on its own (bash -c TEXT > F, sh -c 'cat <&3' 3<F, a shell
// reading a here-string): the text's commands read and write through
// them, as a function call's body does.
func (w *walker) groupRedirects(c cmd) {
	if len(c.redirects) == 0 {
		return
	}
	r := c
	r.args, r.dyn, r.group = []string{":"}, []bool{false}, true
	w.emit(r.invocation())
}

// Unwraps reports whether package shell itself sees through the named
// program: a wrapper (sudo, env, timeout, xargs, ...), a shell, eval or
// ssh. Package classify joins this with its own table of wrappers.
func Unwraps(name string) bool {
	_, ok := handlers[name]
	return ok
}

// Unwrapped lists, sorted, the programs Unwraps reports: with classify's
// own table they are every wrapper airlock knows, which tests walk so a
// wrapper added in one place is checked everywhere.
func Unwrapped() []string {
	out := make([]string, 0, len(handlers))
	for name := range handlers {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// shellStarter handles a program that starts a shell with no command of
// its own (newgrp GROUP, login): the shell reads its commands from
// standard input when it is given one.
func shellStarter(w *walker, c cmd) (cmd, bool) {
	return w.fromStdin(c, normName(c.args[0]))
}

// unshareSpec lists unshare's options that take a value.
var unshareSpec = argv.Spec{Short: "SGRw", Long: []string{"--setuid", "--setgid", "--root", "--wd", "--propagation", "--setgroups", "--map-user", "--map-group", "--map-users", "--map-groups", "--kill-child", "--time", "--monotonic", "--boottime"}, StopAtOperand: true}

// unshareWrapper: unshare [options] [PROGRAM [ARGS]] runs PROGRAM, or a
// shell reading standard input when none is named.
func unshareWrapper(w *walker, c cmd) (cmd, bool) {
	p := unshareSpec.Parse(c.args[1:])
	rest := 1 + p.Rest
	if rest >= len(c.args) {
		return w.fromStdin(c, "unshare")
	}
	n := c.inner(rest, "unshare")
	if p.Has("-R", "--root", "-w", "--wd") {
		// Another root or directory: the run's paths are not the
		// shell's.
		return n.inDir("", false), false
	}
	return n, false
}

// xargsItems splits literal input as xargs does: on NUL with -0, on the
// -d delimiter, else on blanks (quotes aside, which literal input fed to
// an agent's xargs seldom has). With -0 the text usually has no NUL, so
// it is one item, newline and all: echo 'rm x' | xargs -0 sh -c runs the
// text "rm x" as a script.
func xargsItems(text string, p argv.Parsed) []string {
	sep := ""
	if p.Has("-0", "--null") {
		sep = "\x00"
	} else if d, ok := p.Last("-d", "--delimiter"); ok {
		switch d.Value {
		case `\n`:
			sep = "\n"
		case `\t`:
			sep = "\t"
		case `\0`:
			sep = "\x00"
		default:
			if len(d.Value) != 1 {
				return nil // an escape airlock does not read: unknown
			}
			sep = d.Value
		}
	}
	if sep == "" {
		return strings.Fields(text)
	}
	items := strings.Split(text, sep)
	if n := len(items); n > 0 && items[n-1] == "" {
		items = items[:n-1]
	}
	return items
}
