package hookline

import (
	"path/filepath"
	"strings"
)

// ClientName is the file name of the hook client (cmd/airlock-hook). A
// hook line whose program has this base name takes the hook's arguments
// without the "hook" verb.
const ClientName = "airlock-hook"

// Form is how an installed hook line runs airlock.
type Form string

const (
	// InProcess is "airlock hook AGENT ...": every call starts airlock.
	InProcess Form = "in-process"
	// Service is "airlock-hook AGENT ...": the client hands the call to
	// the resident service (docs/HOOKD.md) and falls back to airlock hook.
	Service Form = "service"
)

// FormOf is the form of a line that runs bin.
func FormOf(bin string) Form {
	if filepath.Base(bin) == ClientName {
		return Service
	}
	return InProcess
}

// Prefix is the line without its event: bin by absolute path, quoted for
// a POSIX shell, then the arguments its form takes.
func Prefix(bin, agent string) string {
	if FormOf(bin) == Service {
		return Quote(bin) + " " + agent
	}
	return Quote(bin) + " hook " + agent
}

// Command is the line an agent runs for an event.
func Command(bin, agent, event string) string {
	return Prefix(bin, agent) + " --event " + event
}

// Args are the arguments bin takes after its own name (for a plugin that
// runs it without a shell).
func Args(bin, agent string) []string {
	if FormOf(bin) == Service {
		return []string{agent}
	}
	return []string{"hook", agent}
}

// Parse reports whether a hook command is airlock's hook for an agent,
// and which program and form it runs. It is airlock's when its first
// shell word is a program quoted exactly as Quote quotes it (so the word
// is one the installer could have written) and what follows is
// " hook AGENT" (any program: an older install, another build's path) or,
// for a program named airlock-hook, " AGENT" — each followed by nothing
// or a space. Anything else is someone else's line, never replaced or
// removed: "notify.sh 'x hook codex'" (the words sit inside an argument),
// "airlock-hookx codex", "sh -c '… hook codex'", a path with spaces
// quoted differently.
func Parse(command, agent string) (bin string, form Form, ok bool) {
	word, rest, ok := firstWord(command)
	if !ok {
		return "", "", false
	}
	bin = Unquote(word)
	if bin == "" || Quote(bin) != word {
		return "", "", false
	}
	if follows(rest, " hook "+agent) {
		return bin, InProcess, true
	}
	if FormOf(bin) == Service && follows(rest, " "+agent) {
		return bin, Service, true
	}
	return "", "", false
}

// follows reports whether rest is want, alone or followed by a space.
func follows(rest, want string) bool {
	tail, ok := strings.CutPrefix(rest, want)
	return ok && (tail == "" || tail[0] == ' ')
}

// firstWord splits a command at the end of its first word: a run of
// single-quoted strings and \' escapes (as Quote writes them), or of
// characters other than a space.
func firstWord(command string) (word, rest string, ok bool) {
	if !strings.HasPrefix(command, "'") {
		word, _, _ = strings.Cut(command, " ")
		return word, command[len(word):], word != ""
	}
	i := 0
	for {
		if !strings.HasPrefix(command[i:], "'") {
			return "", "", false
		}
		end := strings.IndexByte(command[i+1:], '\'')
		if end < 0 {
			return "", "", false
		}
		i += end + 2
		if strings.HasPrefix(command[i:], `\'`) {
			i += 2
			continue
		}
		return command[:i], command[i:], true
	}
}

// Binary is the program a hook command line runs: its first word,
// unquoted; "" when it has none.
func Binary(command string) string {
	word, _, ok := firstWord(command)
	if !ok {
		return ""
	}
	return Unquote(word)
}

// Unquote undoes Quote on one word; a word Quote could not have written
// unquotes to "" or to a string that quotes back differently.
func Unquote(word string) string {
	if !strings.HasPrefix(word, "'") {
		return word
	}
	var b strings.Builder
	s := word
	for strings.HasPrefix(s, "'") {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return ""
		}
		b.WriteString(s[1 : 1+end])
		s = s[2+end:]
		if strings.HasPrefix(s, `\'`) {
			b.WriteByte('\'')
			s = s[2:]
			continue
		}
		break
	}
	if s != "" {
		return ""
	}
	return b.String()
}

// Quote quotes a path for a POSIX shell: as it is when it holds only
// characters no shell treats specially, else in single quotes.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
