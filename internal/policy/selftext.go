package policy

import (
	"path/filepath"
	"strings"
)

// This file is the phase of self-protection that reads text airlock cannot
// parse as commands: interpreter code, computed commands, and the lines an
// edit puts in a shell start-up file. Airlock cannot tell what such text
// does, so it looks for what it protects by name; a mention is a refusal.

// mentionList builds the spellings of protected things to look for:
// "airlock" itself (AIRLOCK_POLICY, .airlock, airlock-mcp, the verbs), the
// protected paths in their absolute and home-relative forms, the agents'
// configuration directory names and the variables that move them.
func (g *guard) mentionList() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = fold(s)
		if s != "" && s != "/" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	add("airlock")
	home := ""
	if g.home != "" {
		home = filepath.Clean(g.home) + "/"
	}
	for _, t := range append(append([]target(nil), g.targets...), g.secrets) {
		if t.path == "" {
			continue
		}
		if home != "" && strings.HasPrefix(t.path, home) {
			rel := strings.TrimPrefix(t.path, home)
			add(rel)
			if first, _, _ := strings.Cut(rel, "/"); strings.HasPrefix(first, ".") && first != ".config" && first != ".local" {
				add(first)
			}
			continue
		}
		add(t.path)
	}
	for _, t := range g.tails {
		add(t.parts[0])
		add(strings.Join(t.parts, "/"))
	}
	for _, s := range []string{"config.fish", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "BASH_ENV", "ZDOTDIR", "disableAllHooks"} {
		add(s)
	}
	return out
}

// mentionedInCode is mentioned for code a program runs: "airlock" alone
// (a repository path, a comment) counts only beside a word of a mutating
// verb; AIRLOCK_*, .airlock, airlock's other binaries and airlock's paths
// always count.
func (g *guard) mentionedInCode(text string) string {
	if m := g.mentionedExcept(text, "airlock"); m != "" {
		return m
	}
	t := fold(text)
	if !strings.Contains(t, "airlock") {
		return ""
	}
	for _, sp := range append([]string{"airlock_", ".airlock"}, airlockBinaries[1:]...) {
		if strings.Contains(t, sp) {
			return sp
		}
	}
	if m := signalMention(t); m != "" { // selfsignal.go
		return m
	}
	for _, v := range mutatingWords() {
		for from := 0; ; {
			i := strings.Index(t[from:], v)
			if i < 0 {
				break
			}
			i += from
			if boundary(t, i-1) && boundary(t, i+len(v)) {
				return "airlock and its verb " + v
			}
			from = i + 1
		}
	}
	return ""
}

// mutatingWords are the words of airlock's verbs that are not read-only.
func mutatingWords() []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range airlockVerbs.Get() {
		if v.ReadOnly {
			continue
		}
		for _, w := range strings.Fields(v.Path) {
			if !seen[w] && !airlockGroups(w) {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// mentioned returns the first protected spelling text holds, or "". A
// spelling that starts with "." must stand as a path component
// (".profile" in "~/.profile", not in "user.profile").
func (g *guard) mentioned(text string) string { return g.mentionedExcept(text, "") }

// mentionedExcept is mentioned, not counting one spelling.
func (g *guard) mentionedExcept(text, except string) string {
	if g.mentions == nil {
		m := g.mentionList()
		g.mentions = &m
	}
	t := fold(text)
	for _, m := range *g.mentions {
		if m == except {
			continue
		}
		for from := 0; ; {
			i := strings.Index(t[from:], m)
			if i < 0 {
				break
			}
			i += from
			if m[0] != '.' || boundary(t, i-1) && boundary(t, i+len(m)) {
				return m
			}
			from = i + 1
		}
	}
	return ""
}

// boundary reports whether the byte at i (or the text's edge) does not
// continue a name.
func boundary(t string, i int) bool {
	if i < 0 || i >= len(t) {
		return true
	}
	b := t[i]
	return !(b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9')
}

// startupEdit decides a file tool's write to a shell start-up file. It is
// allowed only when every line it writes, and every line it changes, is
// shown harmless: blank, a comment, or a plain assignment of a variable
// that does not steer airlock or what runs (PATH, AIRLOCK_*, BASH_ENV, …).
// The lines an Edit touches are taken whole from the file as it is, so
// uncommenting "# export AIRLOCK_POLICY=…" is seen for what it makes.
func (g *guard) startupEdit(path string, a *Action) (string, bool) {
	if a.Edits == nil {
		return "the new content is not known", true
	}
	var content string
	loaded := false
	for _, e := range a.Edits {
		if e.Whole {
			if l, bad := harmfulLines(e.New); bad {
				return "it would write the line " + quoteLine(l), true
			}
			content, loaded = e.New, true
			continue
		}
		if !loaded {
			real := path
			if r, unknown := (&resolver{fs: g.fs}).resolve(path); !unknown {
				real = r
			}
			b, err := g.fs.ReadFile(real)
			if err != nil {
				return "airlock cannot read the file to see what the edit changes", true
			}
			content, loaded = string(b), true
		}
		if e.Old == "" {
			return "an edit with no old text cannot be placed", true
		}
		for from := 0; ; {
			i := strings.Index(content[from:], e.Old)
			if i < 0 {
				break
			}
			i += from
			ls := strings.LastIndex(content[:i], "\n") + 1
			end := i + len(e.Old)
			le := len(content)
			if j := strings.Index(content[end:], "\n"); j >= 0 {
				le = end + j
			}
			before := content[ls:le]
			after := content[ls:i] + e.New + content[end:le]
			if l, bad := harmfulLines(before); bad {
				return "it would change the line " + quoteLine(l), true
			}
			if l, bad := harmfulLines(after); bad {
				return "it would write the line " + quoteLine(l), true
			}
			content = content[:i] + e.New + content[end:]
			if !e.All {
				break
			}
			from = i + len(e.New)
		}
	}
	return "", false
}

func quoteLine(l string) string {
	return "\"" + clipText(strings.TrimSpace(l)) + "\""
}

// harmfulLines returns the first line of text that is not shown harmless.
func harmfulLines(text string) (string, bool) {
	for _, l := range strings.Split(text, "\n") {
		if !harmlessLine(l) {
			return l, true
		}
	}
	return "", false
}

// harmlessLine reports whether a start-up file line is blank, a comment,
// or "[export ]NAME=VALUE" with an insensitive NAME and a VALUE that runs
// nothing (no command substitution, no separators, no line joining).
func harmlessLine(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "#") && !strings.HasSuffix(t, "\\") {
		return true
	}
	t = strings.TrimSpace(strings.TrimPrefix(t, "export "))
	name, value, ok := strings.Cut(t, "=")
	if !ok || !isIdent(name) || sensitiveVar(name) {
		return false
	}
	if strings.ContainsAny(value, "`;&|<>()\\\n{}") {
		return false
	}
	if strings.Count(value, "'")%2 != 0 || strings.Count(value, "\"")%2 != 0 {
		return false
	}
	return !strings.Contains(fold(value), "airlock")
}

// sensitiveVar reports whether a variable steers airlock, the agents'
// configuration, or what a later command runs.
func sensitiveVar(name string) bool {
	n := strings.ToUpper(name)
	switch n {
	case "PATH", "BASH_ENV", "ENV", "ZDOTDIR", "HOME", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "IFS",
		"PS0", "PS1", "PS2", "PS3", "PS4", "CDPATH", "FPATH", "SHELL", "GLOBIGNORE":
		return true
	}
	for _, p := range []string{"AIRLOCK", "XDG_", "CLAUDE", "CODEX", "GEMINI", "COPILOT", "OPENCODE", "QWEN", "LD_", "DYLD_", "BASH_FUNC"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}
