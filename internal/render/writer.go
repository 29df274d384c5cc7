package render

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Terminal wraps w so that text written through it keeps its line feeds
// and shows every other control, invisible rune and invalid byte as
// Line does (\x1b, \r, \u202e, \xff). It is the safety net for output
// whose lines airlock lays out itself (a scanner's findings, doctor's
// report) but whose values may come from an agent. Backslashes and
// markers pass as they are, so that values already rendered by Line are
// not escaped twice; render values with Line for an unambiguous display.
// It neither collapses runs nor cuts: callers bound their values.
func Terminal(w io.Writer) io.WriteCloser { return &terminal{w: w} }

type terminal struct {
	w    io.Writer
	part []byte // an incomplete UTF-8 sequence held for the next Write
}

func (t *terminal) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.part) > 0 {
		p = append(t.part, p...)
		t.part = nil
	}
	// Hold back a trailing sequence that may complete in the next write.
	if k := partialTail(p); k > 0 {
		t.part = append([]byte(nil), p[len(p)-k:]...)
		p = p[:len(p)-k]
	}
	_, err := io.WriteString(t.w, escapeKeepLF(p))
	return n, err
}

// Close flushes a sequence that never completed, escaped.
func (t *terminal) Close() error {
	if len(t.part) == 0 {
		return nil
	}
	p := t.part
	t.part = nil
	_, err := io.WriteString(t.w, escapeKeepLF(p))
	return err
}

// partialTail is the length of an incomplete but possibly valid UTF-8
// sequence at the end of p (0 when there is none).
func partialTail(p []byte) int {
	for k := 1; k <= 3 && k <= len(p); k++ {
		c := p[len(p)-k]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(p[len(p)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

func escapeKeepLF(p []byte) string {
	var b strings.Builder
	b.Grow(len(p))
	marks := 0
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + hex2(p[i]))
			marks = 0
		case r == '\n':
			b.WriteByte('\n')
			marks = 0
		default:
			if isMark(r) {
				marks++
			} else {
				marks = 0
			}
			if esc := escape(r, marks > MarksMax); esc != "" && r != '\\' && r != '⟨' && r != '⟩' {
				b.WriteString(esc)
			} else {
				b.Write(p[i : i+size])
			}
		}
		i += size
	}
	return b.String()
}
