package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A script run with source or . runs in the shell that reads it, so it
// may set any variable and change directory: the walker forgets both.
// Most sourced files only set variables (a virtual environment's
// activate script, an env.sh): when the caller can read the file
// (Limits.SourceText) and its text cannot change directory, the walker
// keeps the directory, so that the runs after it are still known to
// happen where the text's own cd left them.

// dirChanger: the commands that change the shell's directory, or
// make something else do it later or by another name: cd and the
// directory stack, text run in this shell (eval, source, a trap), names
// given new meanings (alias, enable), and the builtins and wrappers that
// run them.
func dirChanger(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "eval", "source", ".", "trap", "alias", "enable", "builtin",
		"command", "exec", "shopt":
		return true
	}
	return false
}

// KeepsDir reports whether shell text, sourced, cannot change the
// directory of the shell that sources it: no command in it, function
// bodies included, is a dirChanger or a name computed at run time,
// and it does not name CDPATH or cdable_vars (which send a later cd
// elsewhere). Text that does not parse does not keep it.
func KeepsDir(text string) bool {
	if strings.Contains(text, "CDPATH") || strings.Contains(text, "cdable_vars") || strings.Contains(text, "autocd") {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return false
	}
	keeps := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !keeps {
			return false
		}
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		name, ok := staticName(call.Args[0])
		if !ok || dirChanger(name) {
			keeps = false
			return false
		}
		return true
	})
	return keeps
}

// staticName is a command word's text when it is all literal.
func staticName(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return normName(b.String()), true
}

// sourcedKeepsDir reports whether the script a source run names, read
// through the walker's limits, cannot change directory. Only a name with
// a "/" is read: bash looks a bare name up in PATH first.
func (w *walker) sourcedKeepsDir(c cmd) bool {
	read := w.limits.SourceText
	if read == nil || len(c.args) < 2 || c.dyn[1] || !strings.Contains(c.args[1], "/") || c.vals.dir == DirUnknown {
		return false
	}
	text, ok := read(c.vals.dir, c.args[1])
	return ok && KeepsDir(text)
}

// sourcedKeeps reports whether a sourced file, read, does not name the
// variable word (IFS): what it held before is then what it holds after.
func (w *walker) sourcedKeeps(c cmd, word string) bool {
	read := w.limits.SourceText
	if read == nil || len(c.args) < 2 || c.dyn[1] || c.vals.dir == DirUnknown {
		return false
	}
	text, ok := read(c.vals.dir, c.args[1])
	return ok && !strings.Contains(text, word)
}

// ifsSet reports a command run with IFS other than the usual: a prefix
// IFS=…, or one the text assigned.
func ifsSet(c cmd) bool {
	if _, ok := c.shellEnv["IFS"]; ok {
		return true
	}
	if c.vals == nil || c.vals.touched&touchIFS == 0 {
		return false
	}
	b, ok := c.vals.get("IFS")
	return !ok || b.dynamic || b.array || b.text != " \t\n"
}
