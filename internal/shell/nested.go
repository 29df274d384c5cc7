package shell

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// shellNames are the programs that run shell text given with -c, from a
// script file, or from standard input.
var shellNames = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "rbash", "fish"}

// shellText handles a shell: -c TEXT is parsed, a script file is a local
// program run, and commands read from standard input are parsed when their
// text is literal and opaque otherwise.
func shellText(w *walker, c cmd) (cmd, bool) {
	name := normName(c.args[0])
	i, command, stdin := 1, false, false
	login, interactive := strings.HasPrefix(c.args[0], "-"), false
	initFile, initDyn := "", false
	type fishCmd struct {
		text string
		dyn  bool
	}
	var fishInit []fishCmd
options:
	for i < len(c.args) && !c.dyn[i] {
		a := c.args[i]
		switch {
		case a == "--" || a == "-":
			i++
			break options
		case name == "fish" && (a == "-C" || a == "--init-command" || strings.HasPrefix(a, "--init-command=")):
			// fish runs -C's command before its own (FINDINGS-9 S3).
			text, dyn, n := a[min(len(a), len("--init-command=")):], c.dyn[i], 1
			if !strings.HasPrefix(a, "--init-command=") {
				text, dyn, n = "", true, 2
				if i+1 < len(c.args) {
					text, dyn = c.args[i+1], c.dyn[i+1]
				}
			}
			fishInit = append(fishInit, fishCmd{text, dyn})
			i += n
		case name == "fish" && len(a) == 2 && strings.Contains("pdofD", a[1:]):
			i += 2 // fish's options that take a value
		case a == "--rcfile" || a == "--init-file":
			if i+1 < len(c.args) {
				initFile, initDyn = c.args[i+1], c.dyn[i+1]
			}
			i += 2
		case a == "--login":
			login = true
			i++
		case strings.HasPrefix(a, "--"):
			i++
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			i++
			for _, f := range a[1:] {
				switch f {
				case 'c':
					command = true
				case 's':
					stdin = true
				case 'l':
					login = true
				case 'i':
					interactive = true
				case 'o', 'O':
					i++ // -o pipefail, -O extglob
				}
			}
		default:
			break options
		}
	}
	if i > len(c.args) {
		i = len(c.args)
	}
	// Options on the command line or in BASHOPTS and SHELLOPTS are read
	// as the set and shopt commands they stand for (options.go).
	opts, ok, why := optionText(c, 1, i)
	if name == "fish" {
		// fish has no set -o or shopt options: its own are read above.
		opts, ok = "", true
		for _, fc := range fishInit {
			w.nested(c, fc.text, fc.dyn, name+" --init-command")
		}
	}
	if !ok {
		w.opaque(c.frame.with(name), c.source, name+" starts with "+why+", which changes how its text is read")
		return c, true
	}
	// What the shell runs as it starts (startup.go).
	w.exportedFuncs(c)
	if w.shellStartup(c, name, login, interactive || !command && i >= len(c.args) && c.stdin == "", initFile, initDyn) {
		// The start-up file runs in the shell first: it may set any
		// variable or option, or change directory, as a sourced file
		// may (shopt -s cdable_vars in --rcfile's file).
		c.frame.afterStartup = true
	}
	operands, dyn := c.args[i:], c.dyn[i:]
	switch {
	case command && len(operands) == 0:
		w.emit(c.invocation()) // "bash -c" alone fails: nothing runs
		return c, true
	case command:
		return w.nested(c, opts+operands[0], dyn[0], name+" -c")
	case len(operands) > 0 && !stdin:
		if dyn[0] && strings.HasPrefix(operands[0], "<(") {
			w.opaque(c.frame.with(name), c.source, name+" runs a script produced at run time by "+operands[0])
			return c, true
		}
		if optionsMatter(opts) {
			w.opaque(c.frame.with(name), c.source, name+" runs a script with options that change how it is read ("+clip(strings.ReplaceAll(strings.TrimSpace(opts), "\n", "; "))+"), which airlock does not follow")
		}
		w.emit(c.invocation()) // a script file: a local program run
		return c, true
	}
	if opts != "" && c.stdinKnown {
		c.stdinText = opts + c.stdinText
	} else if optionsMatter(opts) && (c.stdin != "" || readsRedirect(c)) {
		w.opaque(c.frame.with(name), c.source, name+" reads commands from its input with options that change how they are read ("+clip(strings.ReplaceAll(strings.TrimSpace(opts), "\n", "; "))+"), which airlock does not follow")
	}
	return w.fromStdin(c, name)
}

// fromStdin handles a shell or ssh that reads its commands from standard
// input.
func (w *walker) fromStdin(c cmd, via string) (cmd, bool) {
	switch {
	case c.stdin == "":
		w.emit(c.invocation()) // an interactive shell
		return c, true
	case c.stdinKnown:
		w.groupRedirects(c)
		w.text(c.stdinText, c.frame.with(via+" <"+c.stdin), c.depth+1)
		return c, true
	case c.stdin == "pipe" && c.stdinFile != "" && !strings.HasPrefix(via, "ssh "):
		// cat FILE | sh runs FILE's text as sh < FILE does: the run
		// reads it from the file, which the classifier follows.
		c.redirects = append(c.redirects, Redirect{Op: "<", Target: c.stdinFile})
		c.stdin, c.stdinFile = "", ""
		w.emit(c.invocation())
		return c, true
	default:
		from := c.stdinFrom
		if from == "" {
			from = "its input"
		}
		w.opaque(c.frame.with(via), c.source, via+" runs commands read from "+clip(from)+", whose text is only known at run time")
		return c, true
	}
}

// evalText parses the joined arguments of eval when they are literal.
func evalText(w *walker, c cmd) (cmd, bool) {
	if len(c.args) == 1 {
		return c, true
	}
	if b, ok := c.shellEnv["IFS"]; ok && c.inShell() {
		// IFS=X eval TEXT splits TEXT's words by X while it runs, and
		// IFS is what it was after (FINDINGS-9 S2).
		old, had := c.vals.get("IFS")
		touched := c.vals.touched & touchIFS
		c.vals.set("IFS", b)
		next, done := w.nested(c, strings.Join(c.args[1:], " "), anyTrue(c.dyn[1:]), "eval")
		if had {
			c.vals.set("IFS", old)
		} else {
			c.vals.forget("IFS")
			c.vals.touched = c.vals.touched&^touchIFS | touched
		}
		return next, done
	}
	return w.nested(c, strings.Join(c.args[1:], " "), anyTrue(c.dyn[1:]), "eval")
}

// trapText parses the action of "trap ACTION SIGNAL..." as shell text: it
// runs later, when a signal arrives or the shell exits. "trap", "trap -p",
// "trap -l", "trap - SIG" and "trap SIG" (a reset) run nothing.
func trapText(w *walker, c cmd) (cmd, bool) {
	i := 1
	for i < len(c.args) && !c.dyn[i] && len(c.args[i]) > 1 && c.args[i][0] == '-' {
		if c.args[i] == "--" {
			i++
			break
		}
		if strings.Trim(c.args[i][1:], "lp") == "" {
			w.emit(c.invocation())
			return c, true
		}
		break
	}
	if len(c.args)-i < 2 || !c.dyn[i] && (c.args[i] == "-" || c.args[i] == "") {
		w.emit(c.invocation())
		return c, true
	}
	if !c.dyn[i] && c.inShell() {
		// The action runs later, when the shell exits or is signalled,
		// with the values the shell has then: it is walked when the
		// shell's text (or subshell) ends (values.go).
		f := c.frame.with("trap")
		// A trap runs when its signal comes (DEBUG: before every
		// command), so no run is ordered.
		w.unordered = true
		w.traps = append(w.traps, pendingTrap{vals: c.vals, text: c.args[i], f: f, depth: c.depth + 1})
		return c, true
	}
	return w.nested(c, c.args[i], c.dyn[i], "trap")
}

// sourceScript runs a script in the current shell; a script produced at run
// time (source <(curl ...)) cannot be known.
func sourceScript(w *walker, c cmd) (cmd, bool) {
	if len(c.args) > 1 && c.dyn[1] && strings.HasPrefix(c.args[1], "<(") {
		w.opaque(c.frame.with(c.args[0]), c.source, c.args[0]+" runs a script produced at run time by "+c.args[1])
	} else if ifsSet(c) {
		// The file is read on its own, with the usual IFS: one the
		// command set splits its words otherwise (FINDINGS-9 S2).
		w.opaque(c.frame.with(c.args[0]), c.source, c.args[0]+" runs a file with IFS set by the command, which splits the file's words in ways not followed")
	} else {
		w.emit(c.invocation())
	}
	if c.inShell() {
		// The script may set any variable or directory; a script that
		// cannot change directory leaves it (sourced.go).
		keep := w.sourcedKeepsDir(c)
		dir, old, stack, lost := c.vals.dir, c.vals.old, c.vals.stack, c.vals.lost
		c.vals.clear()
		if !w.sourcedKeeps(c, "IFS") {
			c.vals.touched |= touchIFS // the file may set IFS
		}
		if keep {
			c.vals.dir, c.vals.old, c.vals.stack, c.vals.lost = dir, old, stack, lost
		}
	}
	return c, true
}

// sshSpec lists the ssh options that take a value.
var sshSpec = argv.Spec{Short: "bcDEeFIiJLlmOopQRSWwB", StopAtOperand: true}

// sshRemote emits ssh itself, which package classify rates, and parses the
// remote command as shell text that runs on the named host.
func sshRemote(w *walker, c cmd) (cmd, bool) {
	w.emit(c.invocation())
	i := 1 + sshSpec.Parse(c.args[1:]).Rest
	if i >= len(c.args) {
		return c, true
	}
	host := c.args[i]
	// OpenSSH reads options after the host too; "--" ends them.
	if rest := c.args[i+1:]; len(rest) > 0 {
		skip := sshSpec.Parse(rest).Rest
		c.args = append(append([]string(nil), c.args[:i+1]...), rest[skip:]...)
		c.dyn = append(append([]bool(nil), c.dyn[:i+1]...), c.dyn[i+1+skip:]...)
	}
	remote := c
	remote.frame = c.frame.with("ssh " + host)
	remote.frame.vals = nil // the remote shell knows none of ours
	remote.remote = host
	if i+1 >= len(c.args) {
		if c.stdin != "" {
			remote.args = c.args[:1]
			w.fromStdin(remote, "ssh "+host)
		}
		return c, true
	}
	text := strings.Join(c.args[i+1:], " ")
	if anyTrue(c.dyn[i+1:]) {
		w.opaque(remote.frame, c.source, "ssh runs a remote command that is only known at run time")
		return c, true
	}
	w.text(text, remote.frame, c.depth+1)
	return c, true
}

// readsRedirect reports a run whose input is redirected from a file
// (sh < FILE), which package classify reads on its own.
func readsRedirect(c cmd) bool {
	for _, r := range c.redirects {
		if r.Op == "<" || r.Op == "0<" || r.Op == "<>" {
			return true
		}
	}
	return false
}
