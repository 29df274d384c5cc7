package shell

import "mvdan.cc/sh/v3/syntax"

// ANSIC decodes the text of bash's ANSI-C quoting ($'…') as bash's
// ansicstr does: the escapes \a \b \e \E \f \n \r \t \v \\ \' \" \?,
// octal \NNN (up to three digits, taken modulo 256), \xHH (up to two hex
// digits), \uHHHH and \UHHHHHHHH (up to four and eight, written as UTF-8
// in its original form of up to six bytes; a value past 0x7fffffff is
// dropped), and \cX (the control character of X: \c? is DEL, \c\\ one
// backslash). An escape with no digits, \c at the end and any other
// escape stay as written, backslash and all. The result is a C string in
// bash: it ends at the first NUL, however it was spelled (\0, \x00,
// \u0000, \c@, \c`, \c and a space, \400), and the rest of the quoted text
// is dropped (FINDINGS-9 S4).
func ANSIC(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'a':
			c = '\a'
		case 'b':
			c = '\b'
		case 'e', 'E':
			c = 0x1b
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'v':
			c = '\v'
		case '\\', '\'', '"', '?':
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := int(c - '0')
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				n = n*8 + int(s[i]-'0')
			}
			c = byte(n)
		case 'x', 'u', 'U':
			max := 2
			if c == 'u' {
				max = 4
			} else if c == 'U' {
				max = 8
			}
			v, k := uint64(0), 0
			for ; k < max && i+1 < len(s) && hexVal(s[i+1]) >= 0; k++ {
				i++
				v = v*16 + uint64(hexVal(s[i]))
			}
			if k == 0 {
				b = append(b, '\\', c)
				continue
			}
			if c == 'x' || v <= 0x7f {
				c = byte(v)
				break
			}
			b = appendUTF8(b, v)
			continue
		case 'c':
			if i+1 >= len(s) {
				b = append(b, '\\', 'c')
				continue
			}
			i++
			c = s[i]
			if c == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
			if c == '?' {
				c = 0x7f
			} else {
				if c >= 'a' && c <= 'z' {
					c -= 'a' - 'A'
				}
				c &= 0x1f
			}
		default:
			b = append(b, '\\', c)
			continue
		}
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// appendUTF8 writes v in UTF-8's original form (up to six bytes, as bash
// does, surrogates and all); a value past 0x7fffffff is dropped.
func appendUTF8(b []byte, v uint64) []byte {
	switch {
	case v < 0x80:
		return append(b, byte(v))
	case v < 0x800:
		return append(b, 0xc0|byte(v>>6), 0x80|byte(v&0x3f))
	case v < 0x10000:
		return append(b, 0xe0|byte(v>>12), 0x80|byte(v>>6&0x3f), 0x80|byte(v&0x3f))
	case v < 0x200000:
		return append(b, 0xf0|byte(v>>18), 0x80|byte(v>>12&0x3f), 0x80|byte(v>>6&0x3f), 0x80|byte(v&0x3f))
	case v < 0x4000000:
		return append(b, 0xf8|byte(v>>24), 0x80|byte(v>>18&0x3f), 0x80|byte(v>>12&0x3f), 0x80|byte(v>>6&0x3f), 0x80|byte(v&0x3f))
	case v < 0x80000000:
		return append(b, 0xfc|byte(v>>30), 0x80|byte(v>>24&0x3f), 0x80|byte(v>>18&0x3f), 0x80|byte(v>>12&0x3f), 0x80|byte(v>>6&0x3f), 0x80|byte(v&0x3f))
	}
	return b
}

// QuotedValue is the value of a single-quoted part: its text, or for
// $'…' what bash makes of it (ANSIC).
func QuotedValue(q *syntax.SglQuoted) string {
	if q.Dollar {
		return ANSIC(q.Value)
	}
	return q.Value
}

// DecodeANSIC replaces, in a parsed text or word, each $'…' by the plain
// quoted value bash gives it, so that every later reading of the word
// (static values, paths, command names) sees what bash runs, NUL and all.
func DecodeANSIC(node syntax.Node) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.SglQuoted); ok && q.Dollar {
			q.Value = ANSIC(q.Value)
			q.Dollar = false
		}
		return true
	})
}
