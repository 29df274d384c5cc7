package classify

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the programs that run commands written in their own
// text rather than in their argument list: terminal multiplexers (tmux's
// commands, screen -dm and -X stuff), m4's syscmd and esyscmd, make's
// recipes fed on standard input, Tcl's and expect's exec and spawn, gdb's
// "!", shell and pipe, entr, run-parts, sudoedit's SUDO_EDITOR and ex's
// EXINIT. What their text runs, when it is written in the command, is
// classified as shell text (so self-protection checks it like a script's
// lines); text airlock cannot see or read is opaque. The script functions
// here are entries of optcmds.go's table.

// tmuxValueFlags maps tmux's commands (and their aliases) that run shell
// text to the flags that take a value; the commands not listed run
// nothing airlock needs to read (list-sessions, kill-server) or are tmux
// commands read by tmuxCommand's switch.
func tmuxValueFlags(cmd string) (string, bool) {
	switch cmd {
	case "new-session", "new":
		return "cefFnstxy", true
	case "new-window", "neww":
		return "ceFnt", true
	case "split-window", "splitw":
		return "ceFlpt", true
	case "respawn-pane", "respawnp", "respawn-window", "respawnw":
		return "cet", true
	case "run-shell", "run":
		return "cdt", true
	case "if-shell", "if":
		return "t", true
	case "pipe-pane", "pipep":
		return "t", true
	case "display-popup", "popup":
		return "bcdehsStTwxy", true
	case "send-keys", "send":
		return "cNt", true
	case "source-file", "source":
		return "t", true
	case "command-prompt":
		return "ItpT", true
	case "confirm-before", "confirm":
		return "cpt", true
	}
	return "", false
}

// tmuxCommands reads tmux's global -c and -f and each command of the
// run (commands are separated by ";" words).
func tmuxCommands(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	args := inv.Args[1:]
	var e Effect
	// Global options: -c runs shell text like sh -c; -f reads a
	// configuration file of tmux commands.
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" && args[i] != "--" {
		a := args[i]
		for j := 1; j < len(a); j++ {
			if strings.IndexByte("cfLST", a[j]) < 0 {
				continue
			}
			v := a[j+1:]
			vi := i
			if v == "" && i+1 < len(args) {
				i++
				v, vi = args[i], i
			}
			switch a[j] {
			case 'c':
				e.Add(c.embedded("tmux -c", v, inv.IsDynamic(1+vi)))
			case 'f':
				e.Add(opaque("tmux.config", "tmux -f "+clip(v)+" reads a file of tmux commands, which can run shell commands (run-shell); airlock does not read it. Run the commands themselves instead"))
			}
			break
		}
		i++
	}
	if i < len(args) && args[i] == "--" {
		i++
	}
	start := i
	for j := i; j <= len(args); j++ {
		if j == len(args) || args[j] == ";" || args[j] == `\;` {
			if j > start {
				e.Add(c.tmuxCommand(inv, start+1, args[start:j]))
			}
			start = j + 1
		}
	}
	return e
}

// tmuxCommand reads one tmux command; at is the index in inv.Args of its
// name.
func (c *Classifier) tmuxCommand(inv *shell.Invocation, at int, words []string) Effect {
	name := words[0]
	if k := sessionKill("tmux", words); k.Reasons != nil {
		return k // userstate.go
	}
	values, ok := tmuxValueFlags(name)
	if !ok {
		return nothing
	}
	var flags string
	ops := -1
	for k := 1; k < len(words); k++ {
		a := words[k]
		if a == "--" {
			ops = k + 1
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			ops = k
			break
		}
		for j := 1; j < len(a); j++ {
			flags += string(a[j])
			if strings.IndexByte(values, a[j]) >= 0 {
				if j == len(a)-1 {
					k++
				}
				break
			}
		}
	}
	var operands []string
	dynamic := false
	if ops >= 0 && ops < len(words) {
		operands = words[ops:]
		for k := ops; k < len(words); k++ {
			dynamic = dynamic || inv.IsDynamic(at+k)
		}
	}
	what := "tmux " + name
	text := func(ws []string) string {
		if len(ws) == 1 {
			return ws[0]
		}
		return shell.Join(ws)
	}
	switch name {
	case "source-file", "source":
		return opaque("tmux.source", what+" runs the tmux commands of "+clip(strings.Join(operands, " "))+", which can run shell commands; airlock does not read them")
	case "command-prompt", "confirm-before", "confirm":
		if len(operands) > 0 {
			return c.tmuxNested(what, operands[0], dynamic)
		}
		return nothing
	case "if-shell", "if":
		if len(operands) == 0 {
			return nothing
		}
		var e Effect
		if !strings.Contains(flags, "F") {
			e.Add(c.embedded(what, operands[0], dynamic))
		}
		for _, t := range operands[1:] {
			e.Add(c.tmuxNested(what, t, dynamic))
		}
		return e
	case "run-shell", "run":
		if len(operands) == 0 {
			return nothing
		}
		if strings.Contains(flags, "C") {
			return c.tmuxNested(what, operands[0], dynamic)
		}
		return c.embedded(what, operands[0], dynamic)
	case "send-keys", "send":
		if strings.ContainsAny(flags, "XH") {
			return opaque("tmux.keys", what+" -"+flags+" sends keys airlock does not read to a pane, whose shell runs what is typed")
		}
		return c.typedText(what, tmuxKeys(operands, strings.Contains(flags, "l")), dynamic)
	}
	if len(operands) == 0 {
		return nothing
	}
	return c.embedded(what, text(operands), dynamic)
}

// tmuxNested reads a tmux command given as one word (if-shell's
// commands, command-prompt's template) as a tmux run of its own.
func (c *Classifier) tmuxNested(what, text string, dynamic bool) Effect {
	if dynamic {
		return opaque("tmux.command", what+" runs a tmux command only known at run time ("+clip(text)+")")
	}
	return c.embedded(what, "tmux "+text, false)
}

// tmuxKeys is the text send-keys types: key names (Enter, C-m) become
// what they type, the other words are typed as they are.
func tmuxKeys(keys []string, literal bool) string {
	var b strings.Builder
	for _, k := range keys {
		if literal {
			b.WriteString(k)
			continue
		}
		switch k {
		case "Enter", "C-m", "C-j", "KPEnter", "^M", "^J":
			b.WriteString("\n")
		case "Space":
			b.WriteString(" ")
		case "Tab", "C-i", "^I":
			b.WriteString("\t")
		case "C-c", "C-d", "C-u", "C-z", "Escape", "BSpace", "C-l":
			b.WriteString("\n")
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}

// typedText classifies text typed into a terminal whose shell runs it (a
// multiplexer's pane): each line is a command.
func (c *Classifier) typedText(what, text string, dynamic bool) Effect {
	if strings.TrimSpace(text) == "" {
		return nothing
	}
	return c.embedded(what, text, dynamic)
}

// screenCommands reads screen's command line: the program after its
// options (screen -dm CMD), -s (the shell it runs), -c (a configuration
// file) and -X (a screen command sent to a session: stuff types text into
// a window, exec and screen run a program).
func screenCommands(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	args := inv.Args[1:]
	var e Effect
	attach := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-ls", "-list", "-wipe", "-v", "--version", "--help", "-h", "-Q":
			return e
		case "--":
			i++
			if i < len(args) {
				return e.with(c.embedded("screen", shell.Join(args[i:]), anyDynamic(inv, 1+i, len(inv.Args))))
			}
			return e
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if attach {
				return e // the session to attach to
			}
			return e.with(c.embedded("screen", shell.Join(args[i:]), anyDynamic(inv, 1+i, len(inv.Args))))
		}
		if a == "-X" {
			return e.with(c.screenCommand(inv, 2+i, args[i+1:]))
		}
		for j := 1; j < len(a); j++ {
			ch := a[j]
			if strings.IndexByte("rxRD", ch) >= 0 && !screenStarts(args) {
				attach = true // -r NAME: the word after is a session
			}
			if ch == 'X' {
				return e.with(c.screenCommand(inv, 2+i, args[i+1:]))
			}
			if strings.IndexByte("cehpStTsL", ch) < 0 || ch == 'L' {
				continue
			}
			v := a[j+1:]
			vi := i
			if v == "" && i+1 < len(args) {
				i++
				v, vi = args[i], i
			}
			switch ch {
			case 's':
				e.Add(c.embedded("screen -s", v, inv.IsDynamic(1+vi)))
			case 'c':
				e.Add(opaque("screen.config", "screen -c "+clip(v)+" reads a configuration file of screen commands, which can run programs; airlock does not read it"))
			}
			break
		}
	}
	return e
}

// screenCommand reads a command sent with screen -X; at is the index in
// inv.Args of its name.
func (c *Classifier) screenCommand(inv *shell.Invocation, at int, words []string) Effect {
	if len(words) == 0 {
		return nothing
	}
	dynamic := anyDynamic(inv, at, len(inv.Args))
	rest := words[1:]
	if !screenNamed(inv) {
		if k := sessionKill("screen", words); k.Reasons != nil {
			return k // userstate.go
		}
	}
	switch words[0] {
	case "stuff":
		text := strings.Join(rest, " ")
		r := strings.NewReplacer(`\n`, "\n", `\r`, "\n", `\012`, "\n", `\015`, "\n", "^M", "\n", "^J", "\n")
		return c.typedText("screen -X stuff", r.Replace(text), dynamic)
	case "exec":
		for len(rest) > 0 && strings.Trim(rest[0], ".!:|") == "" {
			rest = rest[1:] // exec's file-descriptor pattern (.!. prog)
		}
		if len(rest) == 0 {
			return nothing
		}
		return c.embedded("screen -X exec", shell.Join(rest), dynamic)
	case "screen":
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return nothing
		}
		return c.embedded("screen -X screen", shell.Join(rest), dynamic)
	case "source", "eval", "bind", "bindkey", "register", "paste", "readreg", "readbuf":
		return opaque("screen.command", "screen -X "+words[0]+" runs screen commands or types text airlock does not read")
	}
	return nothing
}

// anyDynamic reports whether any of inv.Args[from:to] is known only at run
// time.
func anyDynamic(inv *shell.Invocation, from, to int) bool {
	for i := from; i < to; i++ {
		if inv.IsDynamic(i) {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- m4

// m4Builders are m4's builtins that make text (and so a macro's name)
// from pieces: with them the text's calls cannot be read from its words.
var m4Builders = []string{"changequote", "changeword", "changecom", "translit", "patsubst", "regexp", "format", "substr", "indir", "builtin", "defn", "m4wrap", "debugfile"}

// m4Text reads m4's input (standard input or its file operands, read
// through the file system) and -D definitions: syscmd and esyscmd run
// shell text; include, sinclude and undivert read files (whose names
// self-protection checks as reads). Text built by the builtins that make
// names from pieces is opaque.
func m4Text(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var e Effect
	texts := p.Values("-D", "--define")
	stdin := len(p.Operands) == 0
	for _, o := range p.Operands {
		if o == "-" {
			stdin = true
			continue
		}
		data, err := c.runnerFile(o)
		if err != nil {
			e.Add(opaque("m4.file", "m4 reads "+clip(o)+", which airlock could not read ("+err.Error()+"); m4 runs commands (syscmd, esyscmd) and reads files (include) its text names"))
			continue
		}
		texts = append(texts, data)
	}
	if in, fed, known := c.inputText(inv); stdin && fed {
		if !known {
			e.Add(opaque("m4.stdin", "m4 runs macros read from its input, which airlock cannot see; m4 runs commands (syscmd, esyscmd) and reads files (include)"))
		} else {
			texts = append(texts, in)
		}
	}
	for _, t := range texts {
		e.Add(c.m4Macros(t))
	}
	return e
}

// m4Macros reads one m4 text.
func (c *Classifier) m4Macros(text string) Effect {
	// Adjacent quoted strings join into one word (`esys'`cmd'), so the
	// quotes go before the names are looked for.
	flat := strings.NewReplacer("`", "", "'", "").Replace(text)
	for _, b := range m4Builders {
		if strings.Contains(flat, b) {
			return opaque("m4.builder", "m4 text uses "+b+", which builds text airlock cannot follow (m4 runs commands with syscmd and esyscmd)")
		}
	}
	var e Effect
	for _, m := range []string{"esyscmd", "syscmd", "sinclude", "include", "undivert", "m4_esyscmd", "m4_syscmd"} {
		rest := flat
		for {
			j := strings.Index(rest, m+"(")
			if j < 0 {
				break
			}
			if j > 0 && (isWordByte(rest[j-1])) {
				rest = rest[j+len(m):]
				continue
			}
			arg, ok := parenArg(rest[j+len(m)+1:])
			rest = rest[j+len(m)+1:]
			if !ok {
				e.Add(opaque("m4.call", "m4 "+m+" with an argument airlock could not read"))
				continue
			}
			switch strings.TrimPrefix(m, "m4_") {
			case "syscmd", "esyscmd":
				e.Add(c.embedded("m4 "+m, arg, false))
			default:
				for _, f := range strings.Split(arg, ",") {
					if f = strings.TrimSpace(f); f != "" && !isNumberWord(f) {
						e.Add(c.embedded("m4 "+m, "cat "+shell.Join([]string{f}), false))
					}
				}
			}
		}
	}
	return e
}

// parenArg returns the text up to the parenthesis that closes an
// argument list whose "(" is just before s.
func parenArg(s string) (string, bool) {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[:i], true
			}
		}
	}
	return "", false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isNumberWord(s string) bool {
	return s != "" && strings.Trim(s, "0123456789-") == ""
}

// ---------------------------------------------------------------- make

// makeStdin reads a makefile fed on standard input (make -f -): its recipe
// lines (a tab first, or after "target: ;") are shell text make runs.
func makeStdin(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var e Effect
	for _, v := range p.Values("-E") {
		e.Add(opaque("option.code", "make -E (--eval) runs make text airlock does not read ("+clip(v)+")"))
	}
	fromStdin := false
	for _, f := range p.Values("-f", "--file", "--makefile") {
		if f == "-" || f == "/dev/stdin" {
			fromStdin = true
		}
	}
	if !fromStdin {
		return e
	}
	in, _, known := c.inputText(inv)
	if !known {
		return e.with(opaque("make.stdin", "make -f - reads a makefile from its input, which airlock cannot see; its recipes run commands"))
	}
	return e.with(c.makeRecipes("make -f -", in))
}

// makeRecipes classifies the recipe lines of a makefile's text.
func (c *Classifier) makeRecipes(what, text string) Effect {
	var e Effect
	for _, line := range strings.Split(text, "\n") {
		var cmd string
		switch {
		case strings.HasPrefix(line, "\t"):
			cmd = line[1:]
		case strings.Contains(line, ":") && strings.Contains(line, ";"):
			_, cmd, _ = strings.Cut(line, ";")
		default:
			if strings.Contains(line, "$(shell") || strings.Contains(line, "!=") {
				e.Add(opaque("make.shell", what+" runs $(shell …) or != text: "+clip(line)))
			}
			continue
		}
		cmd = strings.TrimLeft(strings.TrimSpace(cmd), "@-+")
		if cmd == "" {
			continue
		}
		if strings.Contains(cmd, "$") {
			e.Add(opaque("make.recipe", what+" runs a recipe with make variables airlock does not expand ("+clip(cmd)+")"))
			continue
		}
		e.Add(c.embedded(what, cmd, false))
	}
	return e
}

// ---------------------------------------------------------------- Tcl, expect

// tclRunWords are the Tcl and expect commands that start a program.
var tclRunWords = []string{"exec", "spawn", "system", "open"}

// tclText reads Tcl code (tclsh's input or script, expect's -c, script
// or input): exec, spawn and system start the program that follows (up
// to the end of the command); eval, uplevel, subst and source run code
// airlock cannot follow, so the code is opaque.
func (c *Classifier) tclText(what, code string) Effect {
	var e Effect
	for _, w := range []string{"eval ", "uplevel", "subst ", "source ", "interp ", "load ", "namespace eval", "apply "} {
		if strings.Contains(code, w) {
			return opaque("tcl.code", what+" runs Tcl code with "+strings.TrimSpace(w)+", which airlock cannot follow (Tcl's exec runs programs)")
		}
	}
	for _, cmd := range tclCommands(code) {
		fields := strings.Fields(cmd)
		if len(fields) == 0 {
			continue
		}
		name := strings.TrimPrefix(fields[0], "::")
		for _, r := range tclRunWords {
			if name != r {
				continue
			}
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cmd), fields[0]))
			if name == "open" {
				// open "|cmd" starts a pipeline; open FILE reads a file.
				arg := strings.Trim(strings.Fields(rest + " x")[0], `"{}`)
				if strings.HasPrefix(arg, "|") {
					e.Add(opaque("tcl.open", what+" opens a pipe to a command ("+clip(rest)+")"))
				}
				continue
			}
			for strings.HasPrefix(rest, "-") { // exec -ignorestderr --, spawn -noecho
				f := strings.Fields(rest)[0]
				rest = strings.TrimSpace(strings.TrimPrefix(rest, f))
				if f == "--" {
					break
				}
			}
			rest = strings.NewReplacer("{", "'", "}", "'").Replace(rest)
			if strings.ContainsAny(rest, "[$") {
				e.Add(opaque("tcl.exec", what+" "+name+" runs a program named by Tcl values airlock does not follow ("+clip(rest)+")"))
				continue
			}
			e.Add(c.embedded(what+" "+name, rest, false))
		}
	}
	return e
}

// tclCommands splits Tcl code into commands at newlines, semicolons and
// brackets (nested command substitutions are commands too).
func tclCommands(code string) []string {
	return strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' || r == '[' || r == ']' })
}

// tclScripts reads a tclsh or expect run: -c code, the script file (read
// through the file system), or code on standard input.
func tclScripts(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	name := inv.Name()
	var e Effect
	codes := p.Values("-c")
	files := p.Values("-f")
	if 1+p.Rest < len(inv.Args) && len(codes) == 0 && len(files) == 0 {
		// The first operand is the script; its options end there.
		files = append(files, inv.Args[1+p.Rest])
	}
	for _, f := range files {
		if f == "-" {
			continue
		}
		data, err := c.runnerFile(f)
		if err != nil {
			e.Add(opaque("tcl.file", name+" runs the script "+clip(f)+", which airlock could not read ("+err.Error()+"); Tcl's exec runs programs"))
			continue
		}
		codes = append(codes, data)
	}
	if in, fed, known := c.inputText(inv); fed && len(codes) == 0 && len(files) == 0 {
		if !known {
			e.Add(opaque("tcl.stdin", name+" runs code read from its input, which airlock cannot see; Tcl's exec runs programs"))
		} else {
			codes = append(codes, in)
		}
	}
	for _, code := range codes {
		e.Add(c.tclText(name, code))
	}
	return e
}

// ---------------------------------------------------------------- gdb

// gdbCommands reads gdb's -ex and -iex commands (and its input's lines,
// when known): "!", shell and pipe run shell text; python, guile,
// source and define run code airlock does not read; -x and -ix name
// command files.
func gdbCommands(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var e Effect
	cmds := (p.Values("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command", "--init-eval-command"))
	for _, f := range append(p.Values("-x", "--x", "-command", "--command", "-ix", "--ix", "-init-command", "--init-command"), p.Values("-ex-file")...) {
		e.Add(opaque("gdb.file", "gdb runs the commands of "+clip(f)+", which airlock does not read (gdb's shell and ! run programs)"))
	}
	if in, fed, known := c.inputText(inv); fed {
		// With -batch too: gdb reads commands from a standard input that
		// is not a terminal before it exits.
		if !known {
			e.Add(opaque("gdb.stdin", "gdb runs commands read from its input, which airlock cannot see (gdb's shell and ! run programs)"))
		}
		cmds = append(cmds, strings.Split(in, "\n")...)
	}
	for _, cmd := range cmds {
		t := strings.TrimSpace(cmd)
		word, rest, _ := strings.Cut(t, " ")
		switch {
		case t == "":
		case strings.HasPrefix(t, "!"):
			e.Add(c.embedded("gdb !", strings.TrimSpace(t[1:]), false))
		case word == "shell":
			e.Add(c.embedded("gdb shell", rest, false))
		case word == "pipe" || strings.HasPrefix(t, "|"):
			_, sh, ok := strings.Cut(strings.TrimPrefix(t, "|"), "|")
			if !ok {
				e.Add(opaque("gdb.pipe", "gdb pipe with a form airlock does not read ("+clip(t)+")"))
				continue
			}
			e.Add(c.embedded("gdb pipe", sh, false))
		default:
			switch word {
			case "python", "py", "python-interactive", "pi", "guile", "gu", "source", "define", "call", "print", "p", "compile", "expression", "eval", "alias", "document", "interpreter-exec":
				e.Add(opaque("gdb.code", "gdb runs "+clip(t)+", which can run code airlock does not read"))
			}
		}
	}
	return e
}

// ---------------------------------------------------------------- entr, run-parts, sudoedit

// entrCommand reads entr's utility: the words after its flags, or with
// -s one word of shell text.
func entrCommand(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	at := 1 + p.Rest // entr's options end at its utility
	if at >= len(inv.Args) {
		return nothing
	}
	dynamic := anyDynamic(inv, at, len(inv.Args))
	if p.Has("-s") {
		return c.inPlace(c.embedded("entr -s", inv.Args[at], dynamic))
	}
	return c.inPlace(c.embedded("entr", shell.Join(inv.Args[at:]), dynamic))
}

// runParts reads run-parts: every program in its directory runs, each
// read as a script when the directory can be listed.
func runParts(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	if p.Has("--test", "--list", "--help", "--version") || len(p.Operands) == 0 {
		return nothing
	}
	dir := p.Operands[0]
	if inv.IsDynamic(1 + p.OperandIndex[0]) {
		return opaque("run-parts.dir", "run-parts runs every program in a directory only known at run time ("+clip(dir)+")")
	}
	if c.FS == nil {
		return opaque("run-parts.dir", "run-parts runs every program in "+clip(dir)+", which airlock cannot list")
	}
	entries, err := c.readDir(dir)
	if err != nil {
		return opaque("run-parts.dir", "run-parts runs every program in "+clip(dir)+", which airlock could not list ("+err.Error()+")")
	}
	var e Effect
	for _, en := range entries {
		if en.IsDir() {
			continue
		}
		e.Add(c.embedded("run-parts "+dir, shell.Join([]string{strings.TrimSuffix(dir, "/") + "/" + en.Name()}), false))
	}
	return e
}

// sudoeditEditor reads the editor sudoedit runs: SUDO_EDITOR first (VISUAL
// and EDITOR are read by hiddenCommands for every program).
func sudoeditEditor(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	v, ok := inv.Getenv("SUDO_EDITOR")
	if !ok || strings.TrimSpace(v) == "" {
		return nothing
	}
	return c.envCommand("SUDO_EDITOR", v)
}

// ---------------------------------------------------------------- yq, cpp

// yqLoads reads the file names yq's expression loads (load, load_str,
// load_xml, load_props, load_base64 and their strload-style aliases): a
// name written in the expression is a read of that file, as cat's
// operand is; a name computed by the expression is opaque.
func yqLoads(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	var e Effect
	for i, a := range inv.Args[1:] {
		rest := a
		for {
			j := strings.Index(rest, "load")
			if j < 0 {
				break
			}
			k := j + len("load")
			for k < len(rest) && (isWordByte(rest[k])) {
				k++
			}
			for k < len(rest) && rest[k] == ' ' {
				k++
			}
			if k >= len(rest) || rest[k] != '(' || j > 0 && isWordByte(rest[j-1]) && !strings.HasSuffix(rest[:j], "str") && !strings.HasSuffix(rest[:j], "xml") && !strings.HasSuffix(rest[:j], "props") {
				rest = rest[j+len("load"):]
				continue
			}
			arg, ok := parenArg(rest[k+1:])
			rest = rest[k+1:]
			arg = strings.TrimSpace(arg)
			if !ok || len(arg) < 2 || arg[0] != '"' || arg[len(arg)-1] != '"' || strings.ContainsAny(arg[1:len(arg)-1], `"\(`) || inv.IsDynamic(1+i) {
				e.Add(opaque("yq.load", inv.Name()+" loads a file named by its expression ("+clip(arg)+"), which airlock cannot read; name the file as an operand instead"))
				continue
			}
			e.Add(c.embedded(inv.Name()+" load", "cat "+shell.Join([]string{arg[1 : len(arg)-1]}), false))
		}
	}
	return e
}

// cppIncludes reads the files the C preprocessor's input includes
// (#include, #include_next, #import, #embed): its standard input when
// known and its file operands, read through the file system. A name
// written in the text is a read of that file; one made by a macro is
// opaque.
func cppIncludes(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var texts []string
	stdin := len(p.Operands) == 0
	for _, o := range p.Operands {
		if o == "-" {
			stdin = true
			continue
		}
		if data, err := c.readFile(o); err == nil {
			texts = append(texts, string(data))
		}
	}
	var e Effect
	if in, _, known := c.inputText(inv); stdin && known {
		texts = append(texts, in)
	}
	for _, t := range texts {
		e.Add(c.includedFiles(inv.Name(), t))
	}
	return e
}

// includedFiles reads the #include lines of C text.
func (c *Classifier) includedFiles(name, text string) Effect {
	var e Effect
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "%:") {
			continue
		}
		t = strings.TrimSpace(strings.TrimLeft(t, "#%:"))
		word := t
		if i := strings.IndexAny(t, " \t\"<"); i >= 0 {
			word = t[:i]
		}
		switch word {
		case "include", "include_next", "import", "embed":
		default:
			continue
		}
		arg := strings.TrimSpace(t[len(word):])
		var file string
		switch {
		case strings.HasPrefix(arg, `"`):
			file, _, _ = strings.Cut(arg[1:], `"`)
		case strings.HasPrefix(arg, "<"):
			file, _, _ = strings.Cut(arg[1:], ">")
			if !strings.HasPrefix(file, "/") && !strings.HasPrefix(file, ".") {
				continue // a system header, looked up in the include path
			}
		default:
			e.Add(opaque("cpp.include", name+" includes a file named by a macro ("+clip(t)+"), which airlock does not expand"))
			continue
		}
		if file != "" {
			e.Add(c.embedded(name+" #"+word, "cat "+shell.Join([]string{file}), false))
		}
	}
	return e
}

// ---------------------------------------------------------------- sqlite3 edit()

// sqliteEdit reads sqlite3's edit(TEXT, EDITOR) function, which runs
// EDITOR on a temporary file: an editor written as a string is a command
// (shell text, like $EDITOR); one computed by the query, or edit() with
// the editor taken from VISUAL or EDITOR, are read so too (the variables
// by hiddenCommands), or opaque.
func sqliteEdit(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	texts := append([]string(nil), inv.Args[1:]...)
	if in, _, known := c.inputText(inv); known {
		texts = append(texts, in)
	}
	var e Effect
	for _, t := range texts {
		low := strings.ToLower(t)
		for {
			j := strings.Index(low, "edit")
			if j < 0 {
				break
			}
			k := j + len("edit")
			for k < len(low) && low[k] == ' ' {
				k++
			}
			if k >= len(low) || low[k] != '(' || j > 0 && isWordByte(low[j-1]) {
				low, t = low[j+4:], t[j+4:]
				continue
			}
			arg, ok := parenArg(t[k+1:])
			low, t = low[k+1:], t[k+1:]
			if !ok {
				e.Add(opaque("sqlite.edit", "sqlite3 edit() with arguments airlock could not read; it runs an editor"))
				continue
			}
			parts := strings.Split(arg, ",")
			if len(parts) < 2 {
				continue // the editor is VISUAL or EDITOR
			}
			ed := strings.TrimSpace(parts[len(parts)-1])
			if len(ed) < 2 || ed[0] != '\'' || ed[len(ed)-1] != '\'' || strings.Contains(ed[1:len(ed)-1], "'") {
				e.Add(opaque("sqlite.edit", "sqlite3 edit() runs an editor computed by the query ("+clip(ed)+")"))
				continue
			}
			e.Add(c.embedded("sqlite3 edit()", ed[1:len(ed)-1], false))
		}
	}
	return e
}

// inputText is what feeds a run's standard input: fed reports that
// something does (a pipe, a heredoc, a file), known that text holds it (a
// literal, or a file redirected in and read through the file system).
func (c *Classifier) inputText(inv *shell.Invocation) (text string, fed, known bool) {
	if inv.StdinKnown {
		return inv.StdinText, true, true
	}
	if inv.Stdin == "" {
		// Redirections, its own or set up around it (stdinfeed.go).
		if f := c.stdinRedirect(inv); f.set {
			if f.unknown != "" || f.dynamic {
				return "", true, false
			}
			if !c.cc.writtenElsewhere(inv, f.file) {
				if data, err := c.readFile(f.file); err == nil {
					return string(data), true, true
				}
			} else if t, ok := c.cc.writtenText(inv, f.file); ok {
				return t, true, true
			}
			return "", true, false
		}
		if o := c.cc.stdinOuter(); o != nil {
			return c.inputText(o)
		}
		return "", false, false
	}
	if inv.Stdin == "pipe" && inv.StdinFile != "" && !c.cc.writtenElsewhere(inv, inv.StdinFile) {
		if data, err := c.readFile(inv.StdinFile); err == nil {
			return string(data), true, true
		}
	}
	return "", true, false
}

// SameDirSetting reports whether the command a text runner of this file
// runs (named by the setting its runs carry in Via, SettingVia and what
// follows) runs in the directory the runner runs in: entr's utility,
// screen's program, tmux's new session, gdb's shell escapes, m4's
// syscmd, a makefile's recipes fed on standard input, Tcl's exec and
// expect's spawn. tmux's other windows and run-shell start where the tmux
// server or the pane is, which is not known.
func SameDirSetting(setting string) bool {
	switch setting {
	case "entr", "entr -s", "screen", "screen -s", "screen -X exec", "screen -X screen",
		"tmux new", "tmux new-session", "tmux -c",
		"gdb !", "gdb shell", "gdb pipe", "make -f -", "sqlite3 edit()",
		"m4 syscmd", "m4 esyscmd", "m4 m4_syscmd", "m4 m4_esyscmd":
		return true
	}
	for _, p := range []string{"tclsh", "tclsh8.6", "tclsh9.0", "wish", "expect"} {
		if strings.HasPrefix(setting, p+" ") {
			return true
		}
	}
	return false
}

// inPlace is the effect of a command a runner runs in its own directory
// (SameDirSetting): when its runs are kept as the command's followed
// runs, destruction is placed there, run by run (rm -rf build through
// entr is inside the project), so the runner's own run does not carry
// it too, unplaced.
func (c *Classifier) inPlace(e Effect) Effect {
	if c.followed != nil && c.depth < c.Limits.MaxNesting {
		e.Destructive = false
	}
	return e
}

// runnerFile reads a file a text runner runs (m4's input, a Tcl script).
// A file that does not exist is an error the program reports, unless a
// run of the same command may write it (a redirection or a word naming
// it), which makes it unknown.
func (c *Classifier) runnerFile(name string) (string, error) {
	data, err := c.readFile(name)
	if err == nil {
		return string(data), nil
	}
	if !errors.Is(err, fs.ErrNotExist) || c.cc == nil {
		return "", err
	}
	base := path.Base(name)
	for _, inv := range c.cc.invs {
		for _, r := range inv.Redirects {
			if path.Base(r.Target) == base || r.Dynamic {
				return "", err
			}
		}
		for i, a := range inv.Args {
			if i > 0 && (path.Base(a) == base || inv.IsDynamic(i)) && inv.Name() != "m4" && !strings.HasPrefix(inv.Name(), "tclsh") && inv.Name() != "expect" {
				return "", err
			}
		}
	}
	return "", nil // absent: the program fails, running nothing
}

// screenStarts reports whether screen's options start a session (-m, in
// any cluster before the program): with -D -m the word after is the
// program, not a session to attach to.
func screenStarts(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "m") && a != "-list" {
			return true
		}
	}
	return false
}
