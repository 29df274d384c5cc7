package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell runs code the command line does not show (FINDINGS-7 G5): the
// start-up files an option or a variable names (bash --init-file F,
// --rcfile F; ZDOTDIR's .zshrc; a login or interactive shell's files under
// a HOME the text set), the command substitutions of its prompt and trace
// strings (PS4 with -x or SHELLOPTS=xtrace, PS0/PS1/PS2 interactive), and
// the exported functions bash imports from its environment
// (BASH_FUNC_git%%='() { …; }' makes every git the script runs that body).
// The walker makes each of them a run of its own: a start-up file is
// sourced (". FILE", which package classify reads like any sourced
// script), a prompt's substitutions and a function's body are shell text
// walked through a wrapper naming the variable. BASH_ENV, ENV and
// PROMPT_COMMAND are package classify's (startupEnv, commandEnv).

// promptVars are the variables whose value a shell expands, command
// substitutions included, before it prints a prompt or a trace line.
func promptVar(name string) bool {
	switch name {
	case "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT", "RPROMPT", "RPS1", "RPS2", "PROMPT2", "PROMPT3", "PROMPT4", "SPROMPT":
		return true
	}
	return false
}

// envValue is the last value of name in a run's environment.
func envValue(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// shellStartup walks what a shell run (c, a program of shellNames) runs
// before or beside its commands. login and interactive say how it starts;
// initFile is --init-file's or --rcfile's value ("" for none). sourced
// says a start-up file runs in the shell before its commands.
func (w *walker) shellStartup(c cmd, name string, login, interactive bool, initFile string, initDyn bool) (sourced bool) {
	f := c.frame.with(name + " start-up")
	f.vals = nil
	source := func(file string, dyn bool) {
		sourced = true
		inv := cmd{frame: f, depth: c.depth, line: c.line, source: c.source, args: []string{".", file}, dyn: []bool{false, dyn}}
		w.emit(inv.invocation())
	}
	if initFile != "" {
		source(initFile, initDyn)
	}
	// Start-up files under a directory the text named: ZDOTDIR for zsh,
	// or a HOME the text set. The shell's own home is the human's, whose
	// start-up files the agent may not write.
	var dirs []string
	if z, ok := envValue(c.env, "ZDOTDIR"); ok && name == "zsh" {
		dirs = append(dirs, z)
	} else if h, ok := envValue(c.env, "HOME"); ok {
		dirs = append(dirs, h)
	} else if c.vals != nil && !c.vals.homeKnown() {
		dirs = append(dirs, c.vals.homeText())
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		dyn := strings.ContainsAny(d, "$`")
		for _, file := range startupFiles(name, login, interactive) {
			source(path.Join(d, file), dyn)
		}
	}
	for _, kv := range c.env {
		n, v, _ := strings.Cut(kv, "=")
		if promptVar(n) {
			w.promptText(c, n, v)
		}
	}
	return sourced
}

// startupFiles are the files, relative to the home (or ZDOTDIR), a shell
// of that name reads as it starts.
func startupFiles(name string, login, interactive bool) []string {
	var out []string
	switch name {
	case "zsh":
		out = append(out, ".zshenv")
		if login {
			out = append(out, ".zprofile", ".zlogin")
		}
		if interactive {
			out = append(out, ".zshrc")
		}
	case "bash", "rbash":
		if login {
			out = append(out, ".bash_profile", ".bash_login", ".profile")
		}
		if interactive {
			out = append(out, ".bashrc")
		}
	case "fish":
		out = append(out, ".config/fish/config.fish")
	default:
		if login {
			out = append(out, ".profile")
		}
		if interactive && (name == "ksh" || name == "mksh") {
			out = append(out, ".kshrc", ".mkshrc")
		}
	}
	return out
}

// promptText walks the command substitutions of a prompt or trace string
// (name's value): the shell runs them each time it prints it.
func (w *walker) promptText(c cmd, name, value string) {
	if !strings.ContainsAny(value, "$`") {
		return
	}
	doc, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(value))
	f := c.frame.with(name)
	if err != nil {
		w.opaque(f, c.source, name+" holds text the shell expands that airlock cannot parse")
		return
	}
	syntax.Walk(doc, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			start, end := int(n.Pos().Offset()), int(n.End().Offset())
			if start >= 0 && end <= len(value) && start < end {
				text := value[start:end]
				// $( … ) or ` … `: the commands inside.
				switch {
				case strings.HasPrefix(text, "$("):
					text = strings.TrimSuffix(text[2:], ")")
				case strings.HasPrefix(text, "`"):
					text = strings.Trim(text, "`")
				}
				w.text(text, f, c.depth+1)
			}
			return false
		}
		return true
	})
}

// exportedFuncs walks the bodies of the functions a run's environment
// exports to bash (BASH_FUNC_NAME%%=() { BODY }): a bash the run starts,
// at any depth, runs BODY for NAME. Each body is walked once per text.
func (w *walker) exportedFuncs(c cmd) {
	for _, kv := range c.env {
		n, v, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(n, "BASH_FUNC_") {
			continue
		}
		if w.funcEnv == nil {
			w.funcEnv = map[string]bool{}
		}
		if w.funcEnv[kv] {
			continue
		}
		w.funcEnv[kv] = true
		fn := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(n, "BASH_FUNC_"), "%%"), "()")
		body := strings.TrimSpace(v)
		body = strings.TrimSpace(strings.TrimPrefix(body, "()"))
		f := c.frame.with("exported function " + fn)
		f.vals = nil
		w.text(body, f, c.depth+1)
	}
}

// xtrace walks the trace string PS4 of this shell when set -x (or set -o
// xtrace) turns tracing on: its command substitutions run before every
// command that follows.
func (w *walker) xtrace(c cmd) {
	on := false
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			continue
		}
		switch {
		case a == "-o" && i+1 < len(c.args) && c.args[i+1] == "xtrace":
			on = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && a[1] != 'o' && strings.ContainsRune(a[1:], 'x'):
			on = true
		}
	}
	if !on || c.vals == nil {
		return
	}
	w.xtraceOn = true
	b, ok := c.vals.get("PS4")
	switch {
	case ok && !b.dynamic && !b.array:
		w.promptText(c, "PS4", b.text)
	case ok:
		w.opaque(c.frame.with("PS4"), c.source, "set -x expands PS4 before every command, and its value is only known at run time")
	}
}

// promptOp reports ${x@P}: x's value expanded as a prompt string, which
// runs its command substitutions.
func promptOp(p *syntax.ParamExp) bool {
	return p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && p.Exp.Word.Lit() == "P"
}

// promptExpansion walks what ${x@P} runs: the command substitutions of x's
// held value; a value known only at run time is opaque.
func (s *stmtWalker) promptExpansion(p *syntax.ParamExp) {
	c := cmd{frame: s.f, depth: s.depth, line: s.line(p), source: s.source(p)}
	b, ok := s.f.vals.get(paramName(p))
	if ok && !b.dynamic && !b.array && p.Index == nil {
		s.w.promptText(c, "${"+paramName(p)+"@P}", b.text)
		return
	}
	s.w.opaque(c.frame, c.source, "${"+paramName(p)+"@P} expands a value known only at run time as a prompt, which runs the commands it holds")
}
