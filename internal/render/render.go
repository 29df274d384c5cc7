// Package render is the one way airlock shows text an agent controls to a
// human: a held command, a path, an MCP tool's arguments, a note. What a
// human reads must be what would run (DESIGN.md invariant 8), so nothing
// in the text may move the cursor, hide itself, reorder what follows or
// push the end of a command off the screen.
//
// Rendering is structural, not a blocklist of known sequences: every rune
// that a terminal, a Markdown viewer or a JSON pretty-printer might not
// show as one visible glyph is written as an escape, and runs that would
// push text away are counted instead of shown:
//
//   - C0 controls, DEL and C1 controls: \t, \n, \r, \x1b, \x7f, \u009b.
//   - Everything unicode.IsPrint rejects (format characters such as the
//     bidi controls U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C,
//     the zero-width U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E, the
//     soft hyphen U+00AD and the tag characters U+E0000–U+E007F; line and
//     paragraph separators; spaces other than U+0020; private-use,
//     surrogate and unassigned code points) and the invisible marks and
//     letters it accepts (variation selectors, Hangul fillers, the
//     combining grapheme joiner, the braille blank): \u202e, \U000e0041.
//   - A combining mark after the fourth in a row (a stack that would
//     paint over the lines around it).
//   - Invalid UTF-8, byte by byte: \xff. A \x escape of 80 or more is
//     always a byte that is not UTF-8; a C1 control, which is valid
//     UTF-8, is written \u0080–\u009f.
//   - A backslash is written \\, so that every backslash in the output
//     starts an escape and an agent cannot spell a fake one.
//   - ⟨ and ⟩ (U+27E8, U+27E9) are written \u27e8 and \u27e9: they mark
//     what airlock counted or cut, and an agent cannot forge a marker.
//
// A run of more than RunMax identical spaces, tabs or escaped runes is
// shown as one marker (⟨4000 spaces⟩, ⟨60 newlines⟩, ⟨300 × \r⟩), and the
// whole rendering is bounded: past the limit, the middle is replaced by
// ⟨N bytes cut⟩ so that both the start and the end stay on screen.
//
// What this cannot do is said in docs/THREAT-MODEL.md: homoglyphs
// (Cyrillic а for Latin a) and confusable but printable text are shown as
// they are.
package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RunMax is the longest run of one space, tab or escaped rune shown as
// it is; a longer run is counted in a marker.
const RunMax = 8

// MarksMax is the most combining marks in a row shown as they are.
const MarksMax = 4

// Default limits, in bytes of rendered output and in lines.
const (
	// LineMax bounds a Line: a list row or a one-line summary.
	LineMax = 300
	// BlockMax and BlockLines bound a Block: a command shown in full.
	BlockMax   = 4000
	BlockLines = 60
)

// The markers. Their brackets never come from the text (see the package
// comment).
const (
	open  = "⟨"
	close = "⟩"
)

// Line renders s on one line, at most max bytes (LineMax when max <= 0)
// plus a marker: line breaks are escapes, like every other control.
func Line(s string, max int) string {
	l, _ := LineHidden(s, max)
	return l
}

// LineHidden is Line, and how many bytes of s the cut left out (0 when
// s is shown whole: counted runs are shown, by their count).
func LineHidden(s string, max int) (string, int) {
	if max <= 0 {
		max = LineMax
	}
	if len(s) <= max && plain(s) {
		return s, 0
	}
	toks, hidden := bound(tokenizeEnds(s, false, max), max)
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String(), hidden
}

// Limits bound a Block.
type Limits struct {
	// Bytes is the most rendered bytes shown (BlockMax when 0).
	Bytes int
	// Lines is the most lines shown (BlockLines when 0).
	Lines int
}

// Block renders s as lines, for a command shown in full: a line feed
// starts a new line, more than two blank lines in a row become one
// marker line, and past the limits the middle is cut, keeping the first
// and last lines. hidden is how many bytes of s are not shown at all
// (counted runs are shown, by their count, and are not hidden).
func Block(s string, lim Limits) (lines []string, hidden int) {
	if lim.Bytes <= 0 {
		lim.Bytes = BlockMax
	}
	if lim.Lines <= 0 {
		lim.Lines = BlockLines
	}
	toks := tokenizeEnds(s, true, lim.Bytes)
	toks, hidden = bound(toks, lim.Bytes)
	var b strings.Builder
	for _, t := range toks {
		if t.newline {
			lines = append(lines, b.String())
			b.Reset()
			continue
		}
		b.WriteString(t.text)
	}
	lines = append(lines, b.String())
	if len(lines) > lim.Lines {
		head := lim.Lines * 2 / 3
		tail := lim.Lines - head - 1
		if tail < 1 {
			tail = 1
		}
		cut := lines[head : len(lines)-tail]
		for _, l := range cut {
			hidden += len(l) + 1
		}
		marker := open + strconv.Itoa(len(cut)) + " lines cut" + close
		lines = append(append(lines[:head:head], marker), lines[len(lines)-tail:]...)
	}
	return lines, hidden
}

// plain reports whether s renders as itself on one line: printable
// ASCII without a backslash or a run of more than RunMax spaces. Most
// commands are, and skip the tokens.
func plain(s string) bool {
	spaces := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '\\' {
			return false
		}
		if c == ' ' {
			if spaces++; spaces > RunMax {
				return false
			}
		} else {
			spaces = 0
		}
	}
	return true
}

// token is a piece of the rendering and the input it stands for.
type token struct {
	text    string
	src     int
	newline bool
	// gap marks the middle of a long input that was never tokenized: it
	// is always cut.
	gap bool
}

// tokenizeEnds tokenizes s, or for an input far longer than max only
// its two ends, with a gap token between them that bound always cuts:
// a 128 KiB command costs what its shown ends cost. A run that crosses
// an end is counted in part and the rest is cut, with its bytes.
func tokenizeEnds(s string, block bool, max int) []token {
	keep := 4 * max
	if len(s) <= 4*keep {
		return tokenize(s, block)
	}
	h := keep
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - keep
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	// A run that crosses an end is read whole, so that it is counted
	// whole (⟨4000 spaces⟩): a run is one token however long.
	if h > 0 {
		last, size := utf8.DecodeLastRuneInString(s[:h])
		for h < t {
			r, n := utf8.DecodeRuneInString(s[h:])
			if r != last || n != size {
				break
			}
			h += n
		}
	}
	if t < len(s) {
		first, size := utf8.DecodeRuneInString(s[t:])
		for t > h {
			r, n := utf8.DecodeLastRuneInString(s[:t])
			if r != first || n != size {
				break
			}
			t -= n
		}
	}
	if h >= t {
		return tokenize(s, block)
	}
	toks := tokenize(s[:h], block)
	toks = append(toks, token{src: t - h, gap: true})
	return append(toks, tokenize(s[t:], block)...)
}

// tokenize escapes s and counts its runs. In block mode a line feed is a
// newline token and runs of blank lines are counted.
func tokenize(s string, block bool) []token {
	toks := make([]token, 0, len(s))
	marks := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && size == 1
		// Count the run of this same rune (or same invalid byte).
		n, j := 1, i+size
		for j < len(s) {
			r2, size2 := utf8.DecodeRuneInString(s[j:])
			if r2 != r || size2 != size || invalid && s[j] != s[i] {
				break
			}
			n, j = n+1, j+size2
		}
		mark := !invalid && isMark(r)
		if mark {
			marks += n
		} else {
			marks = 0
		}
		switch {
		case block && r == '\n':
			// n line feeds make n-1 blank lines.
			if n-1 > 2 {
				toks = append(toks, token{newline: true, src: 1},
					token{text: open + strconv.Itoa(n) + " newlines" + close, src: n - 2},
					token{newline: true, src: 1})
			} else {
				for k := 0; k < n; k++ {
					toks = append(toks, token{newline: true, src: 1})
				}
			}
		case invalid:
			toks = run(toks, n, `\x`+hex2(s[i]), 1)
		default:
			esc := escape(r, mark && marks > MarksMax)
			if esc == "" {
				if r == ' ' {
					toks = run(toks, n, " ", 1)
				} else {
					// A visible rune: runs of it are visible too.
					for k := 0; k < n; k++ {
						toks = append(toks, token{text: s[i : i+size], src: size})
					}
				}
			} else {
				toks = run(toks, n, esc, size)
			}
		}
		i = j
	}
	return toks
}

// run appends n copies of text (each standing for size input bytes), or
// one marker when n is over RunMax.
func run(toks []token, n int, text string, size int) []token {
	if n <= RunMax {
		for k := 0; k < n; k++ {
			toks = append(toks, token{text: text, src: size})
		}
		return toks
	}
	var what string
	switch text {
	case " ":
		what = " spaces"
	case `\t`:
		what = " tabs"
	case `\n`:
		what = " newlines"
	default:
		what = " × " + text
	}
	return append(toks, token{text: open + strconv.Itoa(n) + what + close, src: n * size})
}

// bound keeps the rendering within max bytes: the first two thirds of the
// budget from the start, the rest from the end, and a marker saying how
// many input bytes were cut between them.
func bound(toks []token, max int) ([]token, int) {
	total := 0
	for _, t := range toks {
		total += len(t.text)
		switch {
		case t.gap:
			total += max + 1
		case t.newline:
			total++
		}
	}
	if total <= max {
		return toks, 0
	}
	size := func(t token) int {
		switch {
		case t.gap:
			return max + 1
		case t.newline:
			return 1
		}
		return len(t.text)
	}
	headBudget := max * 2 / 3
	tailBudget := max - headBudget
	h, used := 0, 0
	for h < len(toks) && used+size(toks[h]) <= headBudget {
		used += size(toks[h])
		h++
	}
	t, used := len(toks), 0
	for t > h && used+size(toks[t-1]) <= tailBudget {
		used += size(toks[t-1])
		t--
	}
	cut := 0
	for _, tk := range toks[h:t] {
		cut += tk.src
	}
	out := make([]token, 0, h+1+len(toks)-t)
	out = append(out, toks[:h]...)
	out = append(out, token{text: open + strconv.Itoa(cut) + " bytes cut" + close})
	out = append(out, toks[t:]...)
	return out, cut
}

// escape is the visible form of r, or "" when r is shown as it is.
// stacked is true for a combining mark past MarksMax in a row.
func escape(r rune, stacked bool) string {
	switch r {
	case '\\':
		return `\\`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case ' ':
		return ""
	case '⟨', '⟩':
		return uEscape(r)
	}
	if r < 0x20 || r == 0x7f {
		return `\x` + hex2(byte(r))
	}
	if Invisible(r) || stacked {
		return uEscape(r)
	}
	return ""
}

// Invisible reports whether a terminal or viewer might not show r as one
// visible glyph of its own: controls, format characters (bidi, zero
// width), separators and spaces other than U+0020, private-use, surrogate
// and unassigned code points, and the marks and letters that draw
// nothing.
func Invisible(r rune) bool {
	if r == ' ' {
		return false
	}
	if r < 0x20 || r >= 0x7f && r < 0xa0 {
		return true
	}
	if r < 0x7f {
		return false
	}
	if !unicode.IsPrint(r) {
		return true
	}
	switch {
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r >= 0x180b && r <= 0x180f: // Mongolian variation selectors
		return true
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r == 0x2800, r == 0x17b4, r == 0x17b5:
		// combining grapheme joiner, Hangul fillers, braille blank, Khmer
		// inherent vowels
		return true
	}
	return false
}

// isMark reports a combining mark, which draws on the glyph before it.
func isMark(r rune) bool { return r >= 0x300 && unicode.In(r, unicode.Mn, unicode.Me) }

func uEscape(r rune) string {
	if r > 0xffff {
		return `\U` + pad(strconv.FormatInt(int64(r), 16), 8)
	}
	return `\u` + pad(strconv.FormatInt(int64(r), 16), 4)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}

// Unclean returns the byte offset of the first raw control (line feed
// included), invisible rune or invalid UTF-8 byte in s, or -1 when there
// is none: the test every rendering passes, exported for the tests of
// the packages that use it.
func Unclean(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r != ' ' && Invisible(r) {
			return i
		}
		i += size
	}
	return -1
}
