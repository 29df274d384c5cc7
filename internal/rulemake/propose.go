package rulemake

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// Errors of a proposal: the command is one a standing allow rule must not
// be made of.
var (
	// ErrOpaque: part of the command cannot be known statically, so no
	// pattern can say what the rule would allow.
	ErrOpaque = errors.New("rulemake: the command cannot be read statically")
	// ErrDestructive: the command loses data; an allow rule for it would
	// let every later run lose data without a human.
	ErrDestructive = errors.New("rulemake: the command loses data")
	// ErrNothingHeld: no program run in the command is held by its
	// effect, so there is nothing an allow rule would change.
	ErrNothingHeld = errors.New("rulemake: nothing in the command is held by its effect")
	// ErrNotShell: only shell commands become rules here.
	ErrNotShell = errors.New("rulemake: not a shell command")
)

// maxPatternWords is how many words after the program a proposed pattern
// keeps: enough for "git push origin" or "gh pr create", few enough that
// the rule names a kind of action, not one branch or file.
const maxPatternWords = 2

// Proposal is a rule made from one held shell command, before it is
// written.
type Proposal struct {
	// ID is the rule's id.
	ID string `json:"id"`
	// Patterns are the argv-prefix patterns of the rule's match.command.
	Patterns []string `json:"patterns"`
	// Example is the held command, kept as the rule's match example.
	Example string `json:"example"`
	// Message is the rule's message.
	Message string `json:"message"`
	// YAML is the rule as it is written: one item of the rules list, with
	// the dash at column 0.
	YAML string `json:"yaml"`
}

// Propose makes an allow rule of a held shell command. Every program run
// the table would hold (shared or external) contributes one pattern: its
// program and up to maxPatternWords of the words after it that are
// neither an option nor an option's value. The rule also requires
// destructive: false and opaque: false, so the same program run with
// --force, or reached through a computed word, stays held.
//
// A command that is opaque or destructive in any part is refused: a rule
// cannot say what it would allow. itemID names the queue item the
// command came from ("" when none).
func Propose(command, itemID string) (*Proposal, error) {
	if strings.TrimSpace(command) == "" {
		return nil, ErrNotShell
	}
	res := classify.Command(command)
	var pats []string
	seen := map[string]bool{}
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		switch {
		case inv.Effect.Opaque || inv.Opaque != "":
			return nil, fmt.Errorf("%w: %s", ErrOpaque, firstReason(inv.Effect, "a program run that cannot be known"))
		case inv.Effect.Destructive:
			return nil, fmt.Errorf("%w: %s", ErrDestructive, firstReason(inv.Effect, "a program run that loses data"))
		case inv.Effect.Tier == classify.Local:
			continue
		}
		p, err := pattern(inv)
		if err != nil {
			return nil, err
		}
		if !seen[p] {
			seen[p] = true
			pats = append(pats, p)
		}
	}
	if res.Opaque {
		return nil, fmt.Errorf("%w: %s", ErrOpaque, firstReason(res.Effect, "the command as a whole"))
	}
	if res.Destructive {
		return nil, fmt.Errorf("%w: %s", ErrDestructive, firstReason(res.Effect, "the command as a whole"))
	}
	if len(pats) == 0 {
		return nil, ErrNothingHeld
	}
	p := &Proposal{ID: ruleID(pats, itemID), Patterns: pats, Example: command}
	p.Message = "a human made this a rule"
	if itemID != "" {
		p.Message += " from queue item " + itemID
	}
	p.YAML = p.render()
	return p, nil
}

// pattern is the argv-prefix pattern of one program run: the program and
// the first words after it that are not options or options' values, by
// the program's option table (classify.OptionArity); an option of unknown
// arity ends it. A
// word known only at run time, or holding a wildcard character or a
// blank, ends the pattern there: the pattern must mean exactly those
// words.
func pattern(inv *classify.Invocation) (string, error) {
	if len(inv.Args) == 0 || inv.IsDynamic(0) || !literalWord(inv.Args[0]) {
		return "", fmt.Errorf("%w: the program's name is not a plain word", ErrOpaque)
	}
	words := []string{inv.Args[0]}
	for i := 1; i < len(inv.Args) && len(words) <= maxPatternWords; i++ {
		a := inv.Args[i]
		if a == "--" {
			break
		}
		if isOption(a) {
			// Only an option airlock knows the arity of may be left
			// out: a boolean flag alone, a value-taking one with its
			// value. Past an unknown option the next word may be a
			// value or a host, so the pattern ends there.
			sep, known := classify.OptionArity(inv.Args, i)
			if !known {
				break
			}
			if sep {
				i++
			}
			continue
		}
		if inv.IsDynamic(i) || !literalWord(a) {
			break
		}
		words = append(words, a)
	}
	return strings.Join(words, " "), nil
}

func isOption(w string) bool { return len(w) > 1 && w[0] == '-' && w != "--" }

// literalWord reports whether a word means itself in a pattern: no
// wildcard, no blank, no control character, not empty.
func literalWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if r <= ' ' || r == 0x7f || r == '*' || r == '?' || r == '[' || r == '"' || r == '\\' || r > 0x7e {
			return false
		}
	}
	return true
}

func firstReason(e classify.Effect, def string) string {
	if len(e.Reasons) > 0 {
		return e.Reasons[0].Message
	}
	return def
}

// ruleID names the rule after its first pattern and the queue item, in
// the characters a rule id reads best in.
func ruleID(pats []string, itemID string) string {
	var b strings.Builder
	b.WriteString("approved")
	if itemID != "" {
		b.WriteString("-" + itemID)
	}
	dash := true
	b.WriteByte('-')
	for _, r := range strings.ToLower(pats[0]) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() > 60 {
			break
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// quote writes s as a YAML double-quoted scalar. Go's escapes (\n, \t,
// \xNN, \uNNNN, \", \\) are all YAML escapes too, so any command, with
// any byte in it, round-trips.
func quote(s string) string { return strconv.Quote(s) }

// render is the rule as a YAML list item at column 0.
func (p *Proposal) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "- id: %s\n", quote(p.ID))
	b.WriteString("  match:\n")
	qs := make([]string, len(p.Patterns))
	for i, s := range p.Patterns {
		qs[i] = quote(s)
	}
	fmt.Fprintf(&b, "    command: [%s]\n", strings.Join(qs, ", "))
	b.WriteString("    destructive: false\n")
	b.WriteString("    opaque: false\n")
	b.WriteString("  decision: allow\n")
	fmt.Fprintf(&b, "  message: %s\n", quote(p.Message))
	b.WriteString("  examples:\n")
	fmt.Fprintf(&b, "    match: [%s]\n", quote(p.Example))
	return b.String()
}
