// Package sanitize renders untrusted text (what an MCP source tool
// returns: messages, web pages, email bodies) so that it cannot pose as
// something else once it reaches the model.
//
// Each item becomes one line between airlock's own quotation marks, « and
// », with a provenance label that comes from configuration (the sender's
// contact name, or "not in contacts"), never from the text. Inside the
// text, line breaks collapse to spaces, terminal escapes and invisible
// controls are removed, and airlock's quotation marks are replaced by
// look-alikes, so a message cannot end its own quotation and open a forged
// one. This is structure, not detection: it does not judge what the text
// says.
package sanitize

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The proxy's delimiters. Open and Close are the only characters that
// start and end a quotation in rendered output; Text never lets them
// through.
const (
	Open  = "«"
	Close = "»"
	// End closes every quotation: "«label» text «end»".
	End = Open + "end" + Close
)

// replacements map characters that could pass for the delimiters to
// single angle quotes. Only « and » are delimiters; their look-alikes are
// mapped too so that a model skimming the text sees no double angle quote
// at all inside a quotation.
var replacements = sync.OnceValue(func() map[rune]rune {
	return map[rune]rune{
		'«': '‹', '»': '›', // the delimiters themselves
		'≪': '‹', '≫': '›', // much less-than / greater-than
		'《': '‹', '》': '›', // CJK double angle brackets
		'⟪': '‹', '⟫': '›', // mathematical double angle brackets
		'⨞': '‹', '⨟': '›',
		'ﹽ': '‹', 'ﹾ': '›',
	}
})

// Text sanitises one untrusted string: CR, LF, U+2028, U+2029, NEL,
// vertical tab and form feed become spaces (runs of them one space); ANSI
// escape sequences, other C0 and C1 controls, zero-width characters, bidi
// controls and other invisible format characters are removed; the proxy's
// delimiters and their look-alikes become single angle quotes. Invalid
// UTF-8 becomes U+FFFD. The result holds no line break.
func Text(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false // the last rune written was a collapsed break or space
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			r = unicode.ReplacementChar
			size = 1
		}
		switch {
		case r == 0x1b || r == 0x9b:
			// ESC or CSI: drop the whole escape sequence, not just its
			// first byte, so "ESC[31m" leaves no "[31m" behind.
			i += escapeLen(s[i:], size)
			continue
		case isBreak(r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
		case r == '\t':
			b.WriteByte(' ')
			space = true
		case isInvisible(r):
			// dropped
		default:
			if q, ok := replacements()[r]; ok {
				r = q
			}
			b.WriteRune(r)
			space = r == ' '
		}
		i += size
	}
	return b.String()
}

// isBreak reports line and paragraph separators.
func isBreak(r rune) bool {
	switch r {
	case '\r', '\n', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// isInvisible reports controls and format characters that render as
// nothing or reorder text: C0 and C1 controls (tab and breaks are handled
// before), DEL, zero-width characters, bidi embeddings, overrides and
// isolates, the BOM, tag characters, variation selectors and every other
// Unicode "format" (Cf) character.
func isInvisible(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// escapeLen is the length of the escape sequence at the start of s (which
// begins with ESC or CSI of the given byte size): CSI sequences up to their
// final byte, OSC/DCS/APC/PM/SOS strings up to BEL or ST, two-byte escapes
// otherwise. An unterminated sequence runs to the end of s.
func escapeLen(s string, size int) int {
	i := size
	kind := byte('[')
	if s[0] == 0x1b {
		if i >= len(s) {
			return i
		}
		kind = s[i]
		i++
	}
	switch kind {
	case '[':
		for i < len(s) {
			c := s[i]
			i++
			if c >= 0x40 && c <= 0x7e {
				return i
			}
			if c < 0x20 || c > 0x7e {
				// Not a well-formed CSI: stop before the stray byte.
				return i - 1
			}
		}
		return i
	case ']', 'P', '_', '^', 'X':
		for i < len(s) {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			i++
		}
		return i
	}
	return i
}

// Label sanitises a provenance label. Labels come from configuration, but
// the same rules keep a typo in a contact name from breaking the quoting.
func Label(s string) string {
	s = strings.TrimSpace(Text(s))
	if s == "" {
		return "unlabelled"
	}
	return s
}

// Wrap renders one untrusted item as a single quotation:
//
//	«label» text «end»
//
// label names where the item comes from, from configuration; text is
// sanitised here.
func Wrap(label, text string) string {
	return Open + Label(label) + Close + " " + strings.TrimSpace(Text(text)) + " " + End
}

// Clip shortens s to at most n runes, marking the cut with "…".
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// Value sanitises every string inside a decoded JSON value (objects' keys
// included), returning a new value; other values are kept. It is used for
// structuredContent, whose strings reach the model as they are.
func Value(v any) any {
	switch x := v.(type) {
	case string:
		return Text(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Value(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[Text(k)] = Value(e)
		}
		return out
	}
	return v
}
