package scan

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/shell"
)

// quick passes over plain text that is certainly local, without the shell
// parser. Parsing a candidate with package shell costs microseconds, and
// a terminal log holds a command every few hundred bytes ("git commit -m
// '…'", "kubectl get pods"), which is what kept the scanner under its
// speed bar. Most of those are one simple command: words, quotes, no
// operator, no expansion. For those, quick splits the words itself and
// asks the program's spec directly (classify.Spec.Classify, the function
// classify.Command calls after parsing).
//
// It is a filter for the negative case only: when the spec says local and
// known, the text is passed over; in every other case (held, opaque, not a
// simple command, a program the shell unwraps) the caller classifies the
// text the full way, and a finding always carries the full verdict. A
// differential test holds quick to classify.Command on every command the
// project's corpora and the spec examples hold.
type quick struct {
	specs map[string]*classify.Spec
	c     classify.Classifier
}

// newQuick indexes the specs of programs that package shell runs as
// written. A program the shell treats as a wrapper or a nested shell
// (ssh runs its operands remotely, find -exec runs a command) is left out:
// probes that such a wrapper would change are parsed, and a program whose
// probes do not come back as exactly one plain run of itself is left to
// the full path.
func newQuick() *quick {
	q := &quick{specs: map[string]*classify.Spec{}, c: classify.Classifier{Limits: shell.DefaultLimits}}
	for _, s := range classify.Specs() {
		for _, p := range s.Programs {
			if plainRun(p) && classify.RatesAlone(p) {
				q.specs[p] = s
			}
		}
	}
	return q
}

// probes are argument lists that make a wrapper show itself.
var probes = [][]string{{"a", "b", "c"}, {"-exec", "a", ";"}, {"-c", "a"}, {"--", "a", "b"}, {"-e", "a"}}

func plainRun(p string) bool {
	for _, args := range probes {
		want := append([]string{p}, args...)
		invs := shell.Parse(shell.Join(want))
		if len(invs) != 1 {
			return false
		}
		inv := &invs[0]
		if inv.Opaque != "" || len(inv.Via) > 0 || inv.Remote != "" || len(inv.Env) > 0 || !slices.Equal(inv.Args, want) {
			return false
		}
	}
	return true
}

// local reports whether text is one simple command of a known program
// that its spec rates local, not destructive, not opaque. false means
// "not known here", never "held". buf is scratch space for the words.
func (q *quick) local(text string, buf *[]string) bool {
	words, ok := simpleWords(text, (*buf)[:0])
	*buf = words
	if !ok || len(words) == 0 || strings.IndexByte(words[0], '=') >= 0 {
		return false
	}
	name := normName(words[0])
	s := q.specs[name]
	if s == nil {
		return false
	}
	words[0] = name
	inv := shell.Invocation{Args: words, Source: text}
	e := s.Classify(&q.c, &inv)
	return e.Tier == classify.Local && !e.Destructive && !e.Opaque
}

// normName is package shell's normalisation of a command word: base name
// (a backslash separates too), lower case, without ".exe".
func normName(w string) string {
	name := path.Base(strings.ReplaceAll(w, `\`, "/"))
	if name == "." || name == "/" {
		name = w
	}
	return strings.TrimSuffix(strings.ToLower(name), ".exe")
}

// simpleWords splits text into the words of one simple command, or
// reports false when the text holds anything the shell would read as more
// than literal words: operators, redirections, expansions, globs, braces,
// comments, escapes, or bytes outside printable ASCII.
func simpleWords(text string, words []string) ([]string, bool) {
	if !utf8.ValidString(text) {
		return nil, false // the shell parser refuses it: opaque
	}
	// A word without quotes is a substring of text; only a quoted one is
	// built in cur.
	var cur []byte
	start, quoted := -1, false
	end := func(i int) {
		if start < 0 {
			return
		}
		if quoted {
			words = append(words, string(cur))
		} else {
			words = append(words, text[start:i])
		}
		cur, start, quoted = cur[:0], -1, false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' {
			end(i)
			continue
		}
		if start < 0 {
			start = i
		}
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 {
				return nil, false
			}
			inner := text[i+1 : i+1+j]
			if hasControl(inner) || c == '"' && strings.ContainsAny(inner, "$`\\!") {
				return nil, false
			}
			if !quoted {
				cur, quoted = append(cur[:0], text[start:i]...), true
			}
			cur = append(cur, inner...)
			i += j + 1
		case plainByte[c]:
			if quoted {
				cur = append(cur, c)
			}
		default:
			return nil, false
		}
	}
	end(len(text))
	return words, true
}

// hasControl reports control bytes other than a tab in quoted text.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' && s[i] != '\t' || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// plainByte lists the bytes that mean themselves in an unquoted word
// wherever they stand. '=' is among them: only in the first word would it
// make an assignment, which local rejects.
var plainByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-_./:@,+=%^" {
		t[c] = true
	}
	return t
}()
