package render

import "strings"

// MarkdownText renders s as inline Markdown text on one line: Line's
// escapes, then a backslash before every ASCII punctuation character, so
// that no emphasis, link, image, HTML tag, entity (&#x202e;) or code span
// can come from the text. A viewer shows exactly what Line shows.
func MarkdownText(s string, max int) string {
	l := Line(s, max)
	var b strings.Builder
	b.Grow(len(l) + len(l)/4)
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c < 0x80 && strings.IndexByte(mdPunct, c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdPunct is CommonMark's ASCII punctuation: a backslash before any of
// these shows the character itself.
const mdPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// MarkdownCode renders s as an inline code span on one line: Line's
// escapes between backtick fences longer than any backtick run inside,
// so the text cannot close the span.
func MarkdownCode(s string, max int) string {
	l := Line(s, max)
	fence := strings.Repeat("`", longestRun(l, '`')+1)
	if strings.HasPrefix(l, "`") || strings.HasSuffix(l, "`") || l == "" {
		l = " " + l + " "
	}
	return fence + l + fence
}

// MarkdownBlock renders lines (from Block) as a fenced code block whose
// fence is longer than any backtick run in them, with info as its info
// string. Inside a fence Markdown shows text literally, HTML included.
func MarkdownBlock(lines []string, info string) string {
	n := 2
	for _, l := range lines {
		if r := longestRun(l, '`'); r > n {
			n = r
		}
	}
	fence := strings.Repeat("`", n+1)
	return fence + info + "\n" + strings.Join(lines, "\n") + "\n" + fence + "\n"
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			if cur > best {
				best = cur
			}
		} else {
			cur = 0
		}
	}
	return best
}
