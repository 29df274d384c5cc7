package render

import "strings"

// MarkdownText renders s as inline Markdown text on one line (after a
// list marker or a label, never at the start of a line): Line's escapes,
// then a backslash before each character that opens inline markup, so
// that no emphasis, strike-through, link, image, HTML tag or comment,
// entity (&#x202e;) or code span can come from the text. A viewer shows
// what Line shows.
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

// mdPunct are the characters that open inline markup in CommonMark and
// GitHub's Markdown; a backslash before one shows the character itself.
const mdPunct = "\\`*_[]<>&~|"

// MarkdownCode renders s as an inline code span on one line: Line's
// escapes between backtick fences longer than any backtick run inside,
// so the text cannot close the span.
func MarkdownCode(s string, max int) string { return CodeSpan(Line(s, max)) }

// CodeSpan wraps text that is already rendered (by Line) in a Markdown
// code span whose fences are longer than any backtick run inside.
func CodeSpan(l string) string {
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
