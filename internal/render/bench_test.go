package render

import (
	"strings"
	"testing"
)

// BenchmarkLine renders a list row of an ordinary command.
func BenchmarkLine(b *testing.B) {
	s := "git -C /home/user/src/project push origin main && curl -X POST https://api.example.test/v1/items -d @items.json"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Line(s, 70)
	}
}

// BenchmarkBlockLarge renders a 100 KB command (the hook's input limit
// is 128 KiB) in full, with a long blank run and escapes in it.
func BenchmarkBlockLarge(b *testing.B) {
	s := strings.Repeat("echo hello \x1b[2K world\n", 4000) + strings.Repeat(" ", 4000) + "git push"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Block(s, Limits{})
	}
}

// BenchmarkLinePlain renders a short printable command: the common case,
// shown as it is without tokens.
func BenchmarkLinePlain(b *testing.B) {
	s := "git -C /home/user/src/project push origin main"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Line(s, 70)
	}
}
