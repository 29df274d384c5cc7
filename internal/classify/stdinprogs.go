package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"github.com/airlock-dev/airlock/internal/shell"
)

// Programs that take their program from standard input when given none
// on the command line, beyond the interpreters with specs of their own
// (python3, node, perl, ruby, php, lua, R: interpStdin), the shells
// airlock reads (follow.go shellRun) and the command languages with
// readers of their own (ed, vim, gdb, dc, m4, tclsh, ftp: inputText). Fed a file (irb < x.rb, tcsh <
// x.sh, jshell < X.java) they run it as the same file given as an
// operand would run; fed what cannot be read (a pipe from a program, a
// descriptor opened elsewhere) they run code only known at run time. A
// language airlock has a reader for is read; any other is opaque
// whenever something feeds it, since what its code does cannot be told.

// stdinProg describes one such program.
type stdinProg struct {
	// lang is the language its program is read as ("" for one airlock
	// does not read: fed anything, the run is opaque).
	lang string
	// operand says its first operand is a program file too (tcsh x.sh,
	// irb x.rb), read the same way.
	operand bool
	// dash says the program reads standard input only when told with a
	// "-" operand (bun -, pwsh -).
	dash bool
	// code lists options whose value is code the run executes instead
	// (the program then does not read its input as code).
	code []string
	// hosts says its operands name where it connects (ftp HOST, usql
	// DSN, script's typescript file), not a program: it reads its input
	// as commands all the same.
	hosts bool
	// ext, when set, is the suffix of the operands that are program
	// files (mongosh x.js, beside a connection string).
	ext string
	// file lists options whose value is a program file (mongosh --file).
	file []string
}

// stdinProgs is the table, by program name.
var stdinProgs = firstuse.Table[map[string]stdinProg]{Build: func() map[string]stdinProg {
	// Shells whose language is not the POSIX shell's, and that airlock
	// does not list as shells: their -c text is read elsewhere
	// (wrapper.text); their scripts and input are not.
	foreign := stdinProg{operand: true, code: []string{"-c", "--command", "-e", "--eval"}}
	repl := stdinProg{code: []string{"-e", "--eval", "-c", "--command", "-x", "--execute", "--expression"}}
	return map[string]stdinProg{
		"tcsh": foreign, "csh": foreign, "fish": foreign, "elvish": foreign, "nu": foreign, "rc": foreign,
		"es": foreign, "ion": foreign, "murex": foreign, "oksh": foreign,
		"xonsh": {lang: interp.Python, operand: true, code: []string{"-c"}},
		"irb":   {lang: interp.Ruby, operand: true, code: []string{"-e"}},
		"bun":   {lang: interp.JavaScript, dash: true, code: []string{"-e", "--eval", "-p", "--print"}},
		"pwsh":  {dash: true}, "powershell": {dash: true},
		"jshell": repl, "julia": repl, "ghci": repl, "gnuplot": repl, "octave": repl, "sbcl": repl,
		"guile": repl, "racket": repl, "clojure": repl, "clj": repl, "scala": repl, "groovysh": repl,
		"erl": repl, "iex": repl, "swipl": repl, "gforth": repl, "maxima": repl, "gp": repl,
		"usql":    {hosts: true, code: []string{"-c", "--command"}},
		"mongosh": {lang: interp.JavaScript, operand: true, hosts: true, ext: ".js", file: []string{"--file", "-f"}, code: []string{"--eval"}},
		"mongo":   {lang: interp.JavaScript, operand: true, hosts: true, ext: ".js", code: []string{"--eval"}},
		"script":  {hosts: true, code: []string{"-c", "--command"}},
	}
}}

// stdinProgram rates a run of a program of stdinProgs by what feeds its
// standard input, or its program operand: nothing when neither, or when
// its code is given by an option.
func (c *Classifier) stdinProgram(inv *shell.Invocation) Effect {
	sp, ok := stdinProgs.Get()[inv.Name()]
	if !ok || inv.Opaque != "" || inv.Group {
		return nothing
	}
	who := inv.Name()
	ops, dash, codeOpt := stdinOperands(inv.Args, sp.code)
	var e Effect
	for _, f := range sp.file {
		for i := 1; i+1 < len(inv.Args); i++ {
			if inv.Args[i] == f {
				e.Add(c.interpScript(inv, who, sp.lang, inv.Args[i+1], inv.IsDynamic(i+1)))
				codeOpt = true
			}
		}
	}
	if codeOpt {
		return e
	}
	if sp.operand {
		for _, i := range ops {
			name := inv.Args[i]
			if sp.ext != "" && !strings.HasSuffix(name, sp.ext) {
				continue
			}
			if sp.lang != "" {
				return c.interpScript(inv, who, sp.lang, name, inv.IsDynamic(i))
			}
			data, failed, ok := c.readScript(inv, name, inv.IsDynamic(i))
			if !ok {
				return failed
			}
			c.keepCode(who+" "+name, name, data)
			return opaque("stdin.program", who+" runs the program "+clip(name)+", in a language airlock does not read")
		}
	}
	switch {
	case sp.dash && !dash:
		return nothing
	case !sp.dash && !sp.hosts && len(ops) > 0:
		// A program file operand: its input is data.
		return nothing
	}
	if who == "script" {
		// script runs a shell, which reads its commands from the input
		// script was fed.
		return c.stdinShell(inv, who)
	}
	if sp.lang != "" {
		return interpStdin(c, inv, who, sp.lang)
	}
	if text, fed, known := c.inputText(inv); fed {
		if known && strings.TrimSpace(text) == "" {
			return nothing
		}
		return opaque("stdin.program", who+" runs the commands fed on its standard input, in a language airlock does not read (they can run programs)")
	}
	return nothing
}

// stdinShell rates a program that starts a shell reading the input it
// was fed (script).
func (c *Classifier) stdinShell(inv *shell.Invocation, who string) Effect {
	if f := c.stdinRedirect(inv); inv.Stdin == "" && f.set {
		if f.unknown != "" {
			return opaque("stdin.program", who+" starts a shell reading commands from "+f.unknown)
		}
		if f, ok := c.scriptFile(inv, f.file, f.dynamic); ok {
			return f.through("stdin.shell", who+" starts a shell that runs its input")
		}
		return nothing
	}
	if text, fed, known := c.inputText(inv); fed {
		if !known {
			return opaque("stdin.program", who+" starts a shell reading commands fed on its input, which airlock cannot read")
		}
		return c.nested(text).through("stdin.shell", who+" starts a shell that runs its input")
	}
	return nothing
}

// stdinOperands lists the operand indexes of args (after options, not
// counting a "-"), whether "-" is among them, and whether one of the
// code options is given.
func stdinOperands(args []string, code []string) (ops []int, dash, codeOpt bool) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(args); j++ {
				if args[j] == "-" {
					dash = true
				} else {
					ops = append(ops, j)
				}
			}
			return ops, dash, codeOpt
		case a == "-":
			dash = true
		case strings.HasPrefix(a, "-"):
			name, _, _ := strings.Cut(a, "=")
			for _, c := range code {
				if name == c || len(c) == 2 && !strings.HasPrefix(a, "--") && strings.HasPrefix(a, c) {
					codeOpt = true
				}
			}
			if strings.EqualFold(name, "-file") || strings.EqualFold(name, "-f") {
				// pwsh -File -: the program from its input.
				if i+1 < len(args) && args[i+1] == "-" {
					dash = true
					i++
				}
			}
			if strings.EqualFold(name, "-command") && i+1 < len(args) && args[i+1] == "-" {
				dash = true
				i++
			}
		default:
			ops = append(ops, i)
		}
	}
	return ops, dash, codeOpt
}
