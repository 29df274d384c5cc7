package shell

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file follows what changes the program a name runs without a
// function or an alias of that name (FINDINGS-9 S1): hash -p FILE NAME and
// bash's hash table as an array (BASH_CMDS[NAME]=FILE) make NAME run FILE;
// BASH_ALIASES[NAME]=TEXT is an alias; enable -n NAME makes the PATH's
// program run for a builtin, enable -f loads a builtin from a shared
// object; command_not_found_handle runs for every name not found.

// bashBuiltin reports a bash builtin or keyword-like command: hash -p
// does not change what these run.
func bashBuiltin(name string) bool {
	switch name {
	case ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete",
		"compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export",
		"false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout",
		"mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift",
		"shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
		"unalias", "unset", "wait":
		return true
	}
	return false
}

// hashed handles hash -p FILE NAME…: each NAME (not a builtin, no slash)
// now runs FILE, which is walked as an alias of NAME to FILE would be.
func (w *walker) hashed(c cmd) {
	args, dyn := c.args[1:], c.dyn[1:]
	file, fileDyn, set := "", false, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if dyn[i] && strings.HasPrefix(a, "-") {
			w.opaque(c.frame, c.source, "hash's options are known only at run time, so what a name runs is not known")
			return
		}
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		for j := 1; j < len(a); j++ {
			if a[j] != 'p' {
				continue
			}
			set = true
			if rest := a[j+1:]; rest != "" {
				file, fileDyn = rest, dyn[i]
			} else if i+1 < len(args) {
				i++
				file, fileDyn = args[i], dyn[i]
			}
			break
		}
	}
	if !set {
		return
	}
	for ; i < len(args); i++ {
		name := args[i]
		if dyn[i] || fileDyn {
			w.opaque(c.frame, c.source, "hash -p makes a name run a program known only at run time, so what later commands run is not known")
			return
		}
		w.rename(c.frame, c.source, name, Join([]string{file}), "hash -p "+file+" "+name)
	}
}

// rename makes name run text from here on (an alias of it), unless name
// is a builtin or holds a slash, which bash's hash table does not change.
func (w *walker) rename(f frame, source, name, text, how string) {
	if strings.Contains(name, "/") || bashBuiltin(name) || name == "" {
		return
	}
	w.aliases[name] = text
	w.shadowed(f, name, source)
}

// enabled handles enable: -n NAME makes the PATH's program of a builtin's
// name run instead of it; -f FILE loads a builtin from a shared object,
// code airlock cannot read.
func (w *walker) enabled(c cmd) {
	off := false
	for i, a := range c.args[1:] {
		if c.dyn[i+1] {
			w.opaque(c.frame, c.source, "enable's words are known only at run time, so what a builtin's name runs is not known")
			return
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			if strings.ContainsAny(a, "f") {
				w.opaque(c.frame, c.source, "enable -f loads a builtin from a shared object, code airlock cannot read")
				return
			}
			if strings.Contains(a, "n") {
				off = true
			}
			continue
		}
		if off {
			w.shadowed(c.frame, a, c.source)
		}
	}
}

// hashVars reports an assignment to bash's hash table or alias table
// as arrays: BASH_CMDS[NAME]=FILE makes NAME run FILE,
// BASH_ALIASES[NAME]=TEXT is alias NAME=TEXT. A key or a value known only
// at run time, or the array assigned whole, makes the run opaque.
func (s *stmtWalker) hashVars(a *syntax.Assign) {
	if a.Name == nil || a.Name.Value != "BASH_CMDS" && a.Name.Value != "BASH_ALIASES" {
		return
	}
	table := a.Name.Value
	set := func(key syntax.ArithmExpr, val *syntax.Word) bool {
		kw, ok := key.(*syntax.Word)
		if !ok || val == nil {
			return false
		}
		k, kok := s.static(kw, false)
		v, vok := s.static(val, false)
		if !kok || !vok {
			return false
		}
		if table == "BASH_CMDS" {
			s.w.rename(s.f, s.source(a), k, Join([]string{v}), "BASH_CMDS["+k+"]")
		} else {
			s.w.aliases[k] = v
			s.w.shadowed(s.f, k, s.source(a))
		}
		return true
	}
	switch {
	case a.Index != nil:
		if set(a.Index, a.Value) {
			return
		}
	case a.Array != nil:
		all := true
		for _, e := range a.Array.Elems {
			if e.Index == nil || !set(e.Index, e.Value) {
				all = false
			}
		}
		if all {
			return
		}
	case a.Value == nil && !a.Append:
		return // declare -A BASH_CMDS: no entry yet
	}
	s.w.opaque(s.f, s.source(a), "the command sets bash's "+table+" table to what is known only at run time, so what a name runs is not known")
}

// setsNameTables reports a builtin that assigns a variable named by its
// words (read -a, printf -v, mapfile) naming BASH_CMDS or BASH_ALIASES.
func setsNameTables(c cmd) bool {
	switch normName(c.args[0]) {
	case "read", "printf", "mapfile", "readarray", "declare", "typeset", "local", "export", "readonly", "getopts", "let":
	default:
		return false
	}
	for _, a := range c.args[1:] {
		if strings.Contains(a, "BASH_CMDS") || strings.Contains(a, "BASH_ALIASES") {
			return true
		}
	}
	return false
}

// shadowsFunc handles a function named like a program whose output the
// analysis reads (FINDINGS-9 B3): echo() { builtin echo "[log] $*"; }
// changes nothing airlock reads while no output is read as words or fed
// to another program. The run becomes opaque when the text, or the text
// the definition is in, reads some command's output ($(…), `…`, <(…),
// >(…), a pipe), or when such a reading is walked later (outputRead).
// When the function is called, its body is walked in its place.
func (s *stmtWalker) shadowsFunc(name, source string) {
	if !shadowedName(name) {
		return
	}
	if readsOutput(s.src) || readsOutput(s.w.top) || importedFunc(s.f.env, name) {
		s.w.shadowed(s.f, name, source)
		return
	}
	if s.w.pending == nil {
		s.w.pending = map[string]pendingFunc{}
	}
	s.w.pending[name] = pendingFunc{f: s.f, source: source}
}

// importedFunc reports a function of the name exported to the shell in
// its environment (BASH_FUNC_name%%): its text is not the command's own,
// and it stays opaque (FINDINGS-8 H3).
func importedFunc(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, "BASH_FUNC_"+name+"%%=") || strings.HasPrefix(kv, "BASH_FUNC_"+name+"()=") {
			return true
		}
	}
	return false
}

// pendingFunc is a function definition whose output is not read yet.
type pendingFunc struct {
	f      frame
	source string
}

// outputRead is called where a command's output is read (a substitution,
// a pipe): the functions pending make the run opaque from there.
func (s *stmtWalker) outputRead() {
	s.w.outputRead()
}

func (w *walker) outputRead() {
	names := make([]string, 0, len(w.pending))
	for name := range w.pending {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		w.shadowed(w.pending[name].f, name, w.pending[name].source)
	}
	w.pending = nil
}

// readsOutput reports text that may read a command's output: a command or
// process substitution, backquotes, or a pipe.
func readsOutput(text string) bool {
	if strings.Contains(text, "$(") || strings.ContainsAny(text, "`") || strings.Contains(text, "<(") || strings.Contains(text, ">(") {
		return true
	}
	return strings.Contains(strings.ReplaceAll(text, "||", ""), "|")
}

func shadowedName(name string) bool {
	switch name {
	case "mktemp", "echo", "printf", "cat", "ls", "find", "stat", "realpath", "readlink", "basename", "dirname",
		"pwd", "cd", "test", "[", "read", "builtin", "command", "type", "which":
		return true
	}
	return false
}

// shadowed makes a run opaque when a name airlock reads the output of is
// given a new meaning (a function, an alias, hash -p, enable -n):
// self-protection and the destruction grades read $(mktemp …) as a new
// temporary name, $(echo x) as x, $(cat f) as f's lines (FINDINGS-8 H3).
func (w *walker) shadowed(f frame, name, source string) {
	if shadowedName(name) {
		w.opaque(f, source, "the command gives "+name+" a new meaning, so what $("+name+" …) prints is not known")
	}
}

// History (FINDINGS-9, found while fixing S5): a non-interactive bash
// keeps the entries history -s and history -r add, and fc -s (or fc -e
// EDITOR) runs one as shell text; history -w and -a write $HISTFILE.

// historyCmd handles history: -s TEXT adds TEXT as an entry, -r FILE
// entries known only at run time; -w, -a and -n with no file write or
// read $HISTFILE, which the run then names as its file.
func (w *walker) historyCmd(c cmd) (cmd, bool) {
	flags, ops := "", []int{}
	for i := 1; i < len(c.args); i++ {
		if !c.dyn[i] && len(c.args[i]) > 1 && c.args[i][0] == '-' && len(ops) == 0 {
			flags += c.args[i][1:]
			continue
		}
		ops = append(ops, i)
	}
	switch {
	case strings.Contains(flags, "s"):
		if anyTrue(c.dyn[1:]) {
			w.histUnknown = true
		} else if len(ops) > 0 {
			w.history = append(w.history, strings.Join(c.args[ops[0]:], " "))
		}
	case strings.ContainsAny(flags, "rn"):
		w.histUnknown = true
	}
	if strings.ContainsAny(flags, "wanr") && len(ops) == 0 {
		v, known, set := histfile(c)
		if set && !known {
			w.opaque(c.frame, c.source, "history writes $HISTFILE, which is known only at run time")
			return c, true
		}
		if set && v != "" {
			n := c
			n.args = append(append([]string(nil), c.args...), v)
			n.dyn = append(append([]bool(nil), c.dyn...), false)
			return n, false
		}
	}
	return c, false
}

// histfile is HISTFILE for a run: its prefix assignment, or the value
// the text gave it.
func histfile(c cmd) (string, bool, bool) {
	for i := len(c.env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(c.env[i], "HISTFILE="); ok {
			return v, !strings.ContainsAny(v, "$`"), true
		}
	}
	if c.vals == nil {
		return "", true, false
	}
	b, ok := c.vals.get("HISTFILE")
	if !ok {
		return "", true, false
	}
	return b.text, !b.dynamic && !b.array, true
}

// fcCmd handles fc: -l lists; anything else runs an entry of the
// history as shell text (after an editor, with -e). The entries history
// -s added are walked; any other (history -r, a substitution, an editor
// that may change the text, entries the walker does not hold) makes the
// run opaque.
func (w *walker) fcCmd(c cmd) bool {
	edit, subst := false, false
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			subst = true
			continue
		}
		if strings.HasPrefix(a, "-") && !isNumber(strings.TrimPrefix(a, "-")) {
			if strings.Contains(a, "l") {
				return false // a listing
			}
			if strings.Contains(a, "e") && !strings.Contains(a, "s") {
				edit = true
			}
			continue
		}
		if strings.Contains(a, "=") {
			subst = true
		}
	}
	if !strings.Contains(strings.Join(c.args[1:], " "), "-s") {
		edit = true // fc with no -s opens $FCEDIT, then runs the text
	}
	for _, h := range w.history {
		n := c
		n.args, n.dyn = []string{"fc", h}, []bool{false, false}
		w.nested(n, h, false, "fc -s")
	}
	if w.histUnknown || len(w.history) == 0 || edit || subst {
		w.opaque(c.frame, c.source, "fc runs a command from the shell's history, which is not known")
	}
	return true
}

// histExpands reports set -H or set -o histexpand (or options known only
// at run time): a line's ! is then history expansion, which a
// non-interactive bash does too once history is on.
func histExpands(c cmd) bool {
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case c.dyn[i]:
			return true
		case a == "-o" && i+1 < len(c.args) && (c.dyn[i+1] || c.args[i+1] == "histexpand"):
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "H"):
			return true
		}
	}
	return false
}

// setsPATH reports a builtin that assigns PATH from its words (read
// PATH, printf -v PATH, mapfile PATH, getopts … PATH).
func setsPATH(c cmd) bool {
	switch normName(c.args[0]) {
	case "read", "printf", "mapfile", "readarray", "getopts":
	default:
		return false
	}
	if normName(c.args[0]) == "printf" {
		for i := 1; i < len(c.args); i++ {
			if c.args[i] == "-vPATH" || c.args[i] == "-v" && i+1 < len(c.args) && (c.dyn[i+1] || c.args[i+1] == "PATH") {
				return true
			}
		}
		return false
	}
	for i, a := range c.args[1:] {
		if a == "PATH" || c.dyn[i+1] && !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// declNameref handles declare -n NAME=TARGET (typeset, local) whose
// target is one of the variables that change what runs or where (PATH,
// IFS, HOME, CDPATH, …) or known only at run time: an assignment to NAME
// then sets it unseen, so the run is opaque.
func (s *stmtWalker) declNameref(n *syntax.DeclClause) {
	ref := false
	for _, a := range n.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if f, ok := s.static(a.Value, false); !ok {
				ref = true // options known only at run time
			} else if strings.HasPrefix(f, "-") && strings.Contains(f, "n") {
				ref = true
			}
			continue
		}
		if !ref || a.Name == nil || a.Value == nil {
			continue
		}
		target, ok := s.static(a.Value, false)
		if ok {
			switch target {
			case "PATH", "IFS", "HOME", "CDPATH", "OLDPWD", "PWD", "HISTFILE", "BASH_CMDS", "BASH_ALIASES", "BASH_ENV",
				"ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "GLOBIGNORE", "TMPDIR":
			default:
				continue
			}
		}
		s.w.opaque(s.f, s.source(n), "the command makes "+a.Name.Value+" refer to one of the shell's own variables (declare -n), so what later assignments change is not followed")
		return
	}
}
