package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// JSON writes v as indented JSON whose strings carry every invisible rune
// (see Invisible) as a \uXXXX escape: the same data for a program, and no
// raw ESC, bidi or zero-width character for a terminal that shows it.
// Whitespace is kept as the data has it (JSON escapes line breaks and
// tabs already); nothing is collapsed or cut.
func JSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Commands are full of && and >, which are clearer unescaped.
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(buf.Bytes()))
	return err
}

// EscapeJSON rewrites encoded JSON so that every invisible rune is a
// \uXXXX escape (a surrogate pair above U+FFFF) and every byte that is
// not UTF-8 is \ufffd. Outside strings JSON is ASCII, so the rewrite only
// ever touches string contents and keeps the document's meaning.
func EscapeJSON(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); {
		if b[i] < 0x80 && b[i] != 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || Invisible(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); {
		if b[i] < 0x80 && b[i] != 0x7f {
			out = append(out, b[i])
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case !Invisible(r):
			out = append(out, b[i:i+size]...)
		case r > 0xffff:
			r1, r2 := surrogates(r)
			out = append(out, `\u`+pad(strconv.FormatInt(int64(r1), 16), 4)+`\u`+pad(strconv.FormatInt(int64(r2), 16), 4)...)
		default:
			out = append(out, `\u`+pad(strconv.FormatInt(int64(r), 16), 4)...)
		}
		i += size
	}
	return out
}

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
