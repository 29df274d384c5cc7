package gate

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Denial texts. The full form lists the facts to present; after the
// session's budget of full denials the condensed form is one line carrying
// the denial's ordinal, so that no two denials read alike and long
// sessions do not fill with identical blocks that feed a repetition loop.

const head = "[fact-forcing gate]"

// maxQuote bounds the user's instruction quoted in a denial.
const maxQuote = 2000

// fileDenial is one file a denial is about.
type fileDenial struct {
	display string
	missing string // what evidence is missing, for edits
}

// denial is everything a denial message says.
type denial struct {
	kind    string // kindEdit, kindWrite, kindDestructive, kindRoutine
	ordinal int
	full    bool
	files   []fileDenial
	command string
	prompt  string
	agent   string // subagent id, "" for the main agent
	window  time.Duration
}

func (d *denial) names() string {
	names := make([]string, len(d.files))
	for i, f := range d.files {
		names[i] = f.display
	}
	return andList(names)
}

// text is the reason the agent reads.
func (d *denial) text() string {
	if !d.full {
		return d.condensed()
	}
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	switch d.kind {
	case kindEdit:
		each := ""
		if len(d.files) > 1 {
			each = " for each file"
		}
		line("%s Before the first edit of %s in this session, present these facts%s in your reply, then retry the same edit:", head, d.names(), each)
		line("1. Every file that imports or requires %s (search for them; do not guess).", d.names())
		line("2. The public functions, types or classes the change affects.")
		line("3. For data files: the field names, structure and date format, with masked or synthetic values (never real data).")
		line("4. %s", d.instruction())
		for _, f := range d.files {
			if f.missing != "" {
				line("%s", f.missing)
			}
		}
		line("If this edit was one of a parallel batch, other edits of %s from that batch may already have been applied: re-read the file before building on them, and send dependent edits to a file you have not touched yet one at a time.", d.names())
		line("The retry of this edit will pass, and so does the first edit of any file you have read, and whose importers you have searched for, in the last %s.", shortDuration(d.window))
	case kindWrite:
		line("%s Before creating %s, present these facts in your reply, then retry the same write:", head, d.names())
		line("1. The file(s) and line(s) that will call or use %s.", d.names())
		line("2. Confirmation that no existing file serves the same purpose (search for one first).")
		line("3. For data files: the field names, structure and date format, with masked or synthetic values (never real data).")
		line("4. %s", d.instruction())
		line("If this write was one of a parallel batch, other calls of that batch touching %s may already have been applied: re-read it before building on them.", d.names())
		line("The retry of this write will pass.")
	case kindDestructive:
		line("%s Before running the destructive command `%s`, present these facts in your reply, then retry the same command:", head, clipRunes(d.command, 300))
		line("1. Every file or datum it will change or delete.")
		line("2. A one-line rollback.")
		line("3. %s", d.instruction())
		line("The retry of exactly this command will pass; a different destructive command is asked about again.")
	case kindRoutine:
		line("%s Before the first shell command of this session, present these facts in your reply, then retry the same command:", head)
		line("1. The user's current request, in one sentence.")
		line("2. What this command checks or produces.")
		line("Read-only commands (git status, git diff, git log, ls, cat, grep, rg, …) are never asked about, and this is asked once per session.")
	}
	if d.agent != "" {
		line("You are a subagent: the reads and searches you make count for this session like the main agent's, and the user's instruction is quoted above so that you can repeat it exactly.")
	}
	return strings.TrimRight(b.String(), "\n")
}

// instruction is the fact asking for the user's words, with the words.
func (d *denial) instruction() string {
	if strings.TrimSpace(d.prompt) == "" {
		if d.agent != "" {
			return "The user's current instruction, verbatim (airlock has not seen it this session: quote it from the task you were given)."
		}
		return "The user's current instruction, verbatim (airlock has not seen it this session: quote it from the conversation)."
	}
	return "The user's current instruction, verbatim. airlock saw it as: \"" + clipRunes(sanitize(d.prompt, true), maxQuote) + "\""
}

// condensed is the one-line denial with its ordinal.
func (d *denial) condensed() string {
	prefix := fmt.Sprintf("%s (denial #%d this session) ", head, d.ordinal)
	switch d.kind {
	case kindEdit:
		return prefix + "first edit of " + d.names() + ": state importers, affected API, data schemas, the user's verbatim instruction, then retry"
	case kindWrite:
		return prefix + "first creation of " + d.names() + ": state its callers, that no existing file does the same, data schemas, the user's verbatim instruction, then retry"
	case kindDestructive:
		return prefix + "destructive command `" + clipRunes(d.command, 120) + "`: state what it changes or deletes, a one-line rollback, the user's verbatim instruction, then retry"
	}
	return prefix + "first shell command: state the user's request in one sentence and what this command checks or produces, then retry"
}

// summary is the short form for the human and the journal.
func (d *denial) summary() string {
	what := map[string]string{
		kindEdit:        "first edit of " + d.names() + "; the agent is asked for its importers, the affected API, data schemas and the user's instruction",
		kindWrite:       "creation of " + d.names() + "; the agent is asked for its callers, that nothing existing does the same, data schemas and the user's instruction",
		kindDestructive: "destructive command; the agent is asked what it changes, a rollback and the user's instruction",
		kindRoutine:     "first shell command of the session; the agent is asked for the user's request and what the command does",
	}[d.kind]
	return fmt.Sprintf("fact-forcing gate: %s (denial #%d this session; its retry passes)", what, d.ordinal)
}

// andList joins words as "a", "a and b", "a, b and c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// sanitize replaces control, format (bidi, zero-width) and separator
// characters with spaces, so a denial cannot carry text a human reviewing
// it does not see; newlines and tabs are kept when keepLines is set.
func sanitize(s string, keepLines bool) string {
	if !strings.ContainsFunc(s, hidden(keepLines)) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if hidden(keepLines)(r) {
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hidden(keepLines bool) func(rune) bool {
	return func(r rune) bool {
		if keepLines && (r == '\n' || r == '\t') {
			return false
		}
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
	}
}

// clipRunes shortens s to at most n bytes on a rune boundary, marking the
// cut.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return clipBytes(s, n) + "…"
}

func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
