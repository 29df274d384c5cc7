package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads in-place edits of git's configuration by programs other
// than git config (FINDINGS-10 J1): sed -i '1a fsmonitor = ./x.sh'
// .git/config, perl -pi, ed and ex fed a script, crudini --set. What such
// an edit adds is the edit's own text (its arguments, and the script fed
// on its standard input); when that text names a setting git runs a
// program from (core.fsmonitor, a pager, an editor, hooksPath, a ! alias,
// an ext:: url, an include, core.worktree), or cannot be read, the edit
// is held: it may make every later git command run a program. An edit
// that names none (a remote's url changed by sed) stays a shared write.

// gitEditWords are the spellings, lower case, of settings whose value git
// runs or follows to more settings or another work tree.
var gitEditWords = []string{"fsmonitor", "pager", "editor", "sshcommand", "askpass", "helper", "external",
	"program", "gitproxy", "browser", "difffilter", "packobjectshook", "sendmail", "smtpserver", "tocmd", "cccmd",
	"hookspath", "worktree", "textconv", "driver", "clean", "smudge", "process", "cmd", "uploadpack",
	"receivepack", "alias", "!", "ext::", "include", "templatedir", "update", "command", "keycommand", "path"}

// gitConfigEditors are the programs that edit a file in place from a
// script or arguments.
func gitConfigEditor(name string) bool {
	switch name {
	case "sed", "gsed", "perl", "ed", "red", "ex", "vi", "vim", "nvim", "crudini", "git-config-editor":
		return true
	}
	return false
}

// gitConfigEdits rates an in-place edit of git's configuration.
func (c *Classifier) gitConfigEdits(inv *shell.Invocation) Effect {
	if !gitConfigEditor(inv.Name()) {
		return nothing
	}
	edited := ""
	var text strings.Builder
	for i, a := range inv.Args[1:] {
		if t := c.surfaceName(a); t != "" && !inv.IsDynamic(i+1) {
			if kind, _ := surfaceKind(t); kind == "git configuration" {
				edited = a
				continue
			}
		}
		if inv.IsDynamic(i + 1) {
			text.WriteString("\x00dynamic\x00")
		}
		text.WriteString(a)
		text.WriteByte('\n')
	}
	if edited == "" {
		return nothing
	}
	switch inv.Name() {
	case "sed", "gsed", "perl":
		if !hasPrefixArg(inv.Args[1:], "-i") && !hasAny(inv.Args[1:], "--in-place", "-pi", "-pie") && !(inv.Name() != "perl" && sedInPlace(inv.Args[1:])) {
			return nothing // prints the edited text: the file is read, not changed
		}
	}
	unknown := strings.Contains(text.String(), "\x00dynamic\x00")
	if inv.StdinKnown {
		text.WriteString(inv.StdinText)
	} else if inv.Stdin != "" {
		unknown = true
	}
	for _, r := range inv.Redirects {
		if r.Reads() && r.Op == "<" {
			unknown = true // a script from a file: read by the editor, not here
		}
	}
	if unknown {
		return opaque("git.config-edit", inv.Name()+" edits "+clip(edited)+", git's configuration, with text known only when it runs; git runs programs that settings there name (core.fsmonitor, aliases, pagers); use git config")
	}
	low := strings.ToLower(text.String())
	for _, w := range gitEditWords {
		if strings.Contains(low, w) {
			return opaque("git.config-edit", inv.Name()+" edits "+clip(edited)+", git's configuration, adding text that names "+clip(w)+": a setting git runs a program from or follows elsewhere; use git config, which airlock reads")
		}
	}
	return nothing
}
