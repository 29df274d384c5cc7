package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Each attack made a terminal show "git status" while "git push evil
// main" was what would run.
var attacks = []struct {
	name, in, want string
}{
	{"cursor up", "git push evil main\x1b[1A\x1b[2Kgit status", `git push evil main\x1b[1A\x1b[2Kgit status`},
	{"CR erase line", "git push evil main\r\x1b[2Kgit status", `git push evil main\r\x1b[2Kgit status`},
	{"OSC title", "\x1b]0;title\agit push", `\x1b]0;title\x07git push`},
	{"60 newlines", "git status" + strings.Repeat("\n", 60) + "git push evil main", `git status⟨60 newlines⟩git push evil main`},
	{"4000 spaces", "git status" + strings.Repeat(" ", 4000) + "; git push evil main", `git status⟨4000 spaces⟩; git push evil main`},
	{"RLO", "git push \u202eniam live", `git push \u202eniam live`},
	{"bidi isolates", "a\u2066b\u2069c\u200e\u200f\u061c", `a\u2066b\u2069c\u200e\u200f\u061c`},
	{"ZWJ", "git\u200dpush", `git\u200dpush`},
	{"zero width", "\u200b\u200c\u2060\u2064\ufeff\u180e\u00ad", `\u200b\u200c\u2060\u2064\ufeff\u180e\u00ad`},
	{"tags", "a\U000E0041\U000E007F", `a\U000e0041\U000e007f`},
	{"variation selector", "a\ufe0f", `a\ufe0f`},
	{"separators", "a\u2028b\u2029c\u0085", `a\u2028b\u2029c\u0085`},
	{"nbsp", "a\u00a0b\u3000c", `a\u00a0b\u3000c`},
	{"invalid UTF-8", "a\xffb\xe2\x80", `a\xffb\xe2\x80`},
	{"C1 CSI rune vs byte", "\u009b\x9b", `\u009b\x9b`},
	{"DEL and NUL", "a\x7f\x00", `a\x7f\x00`},
	{"tab", "a\tb", `a\tb`},
	{"backslash", `a\x1b`, `a\\x1b`},
	{"forged marker", "⟨4000 spaces⟩", `\u27e84000 spaces\u27e9`},
	{"CR run", "a" + strings.Repeat("\r", 300) + "b", `a⟨300 × \r⟩b`},
	{"tab run", "a" + strings.Repeat("\t", 9) + "b", `a⟨9 tabs⟩b`},
	{"short space run kept", "a        b", "a        b"},
	{"invalid byte run", strings.Repeat("\xff", 20), `⟨20 × \xff⟩`},
	{"zalgo", "a" + strings.Repeat("\u0301", 6), `a\u0301\u0301\u0301\u0301\u0301\u0301`},
	{"accent kept", "café", "café"},
	{"plain", "git push origin main && echo ok > log", "git push origin main && echo ok > log"},
	{"emoji and CJK", "echo 日本 🚀", "echo 日本 🚀"},
}

func TestLineAttacks(t *testing.T) {
	for _, tc := range attacks {
		t.Run(tc.name, func(t *testing.T) {
			got := Line(tc.in, 10000)
			if got != tc.want {
				t.Errorf("Line(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
			assertClean(t, got)
		})
	}
}

// assertClean fails when s holds anything a terminal might not show as a
// glyph: the property every rendering must have.
func assertClean(t *testing.T, s string) {
	t.Helper()
	if i := Unclean(s); i >= 0 {
		t.Fatalf("raw invisible or control at byte %d of %q", i, s)
	}
}

func TestLineBoundKeepsTheEnd(t *testing.T) {
	in := "git status " + strings.Repeat("x", 100000) + " ; git push evil main"
	got := Line(in, 300)
	if len(got) > 300+40 {
		t.Fatalf("%d bytes", len(got))
	}
	if !strings.HasPrefix(got, "git status ") || !strings.HasSuffix(got, "; git push evil main") {
		t.Fatalf("start or end lost: %s", got)
	}
	if !strings.Contains(got, " bytes cut⟩") {
		t.Fatalf("no cut marker: %s", got)
	}
}

func TestBlock(t *testing.T) {
	lines, hidden := Block("cat <<EOF\nhello\x1b[2K\nEOF", Limits{})
	if hidden != 0 || strings.Join(lines, "|") != `cat <<EOF|hello\x1b[2K|EOF` {
		t.Fatalf("%q %d", lines, hidden)
	}
	lines, hidden = Block("git status"+strings.Repeat("\n", 60)+"git push evil main", Limits{})
	if hidden != 0 || strings.Join(lines, "|") != "git status|⟨60 newlines⟩|git push evil main" {
		t.Fatalf("%q %d", lines, hidden)
	}
	lines, _ = Block("a\n\n\nb", Limits{})
	if strings.Join(lines, "|") != "a|||b" {
		t.Fatalf("two blank lines should stay: %q", lines)
	}
	var many []string
	for i := 0; i < 500; i++ {
		many = append(many, "echo "+strings.Repeat(" ", i%3))
	}
	in := strings.Join(many, "\n") + "\ngit push evil main"
	lines, hidden = Block(in, Limits{Lines: 30, Bytes: 1 << 20})
	if len(lines) != 30 || lines[len(lines)-1] != "git push evil main" || hidden == 0 || !strings.Contains(strings.Join(lines, "\n"), "lines cut⟩") {
		t.Fatalf("%d lines, hidden %d, last %q", len(lines), hidden, lines[len(lines)-1])
	}
	lines, hidden = Block(strings.Repeat("y", 10000)+"\ngit push", Limits{Bytes: 500})
	if hidden == 0 || lines[len(lines)-1] != "git push" {
		t.Fatalf("%q %d", lines, hidden)
	}
}

func TestMarkdown(t *testing.T) {
	if got := MarkdownText("<img src=x> &#x202e; *b* [l](u) `c`", 0); strings.ContainsAny(strings.ReplaceAll(strings.ReplaceAll(got, `\<`, ""), `\>`, ""), "<>") {
		t.Fatalf("HTML not escaped: %s", got)
	}
	if got := MarkdownText(`a\b`, 0); got != `a\\\\b` {
		t.Fatalf("backslash: %s", got)
	}
	if got := MarkdownCode("a ``` b `", 0); got != "```` a ``` b ` ````" {
		t.Fatalf("code span: %s", got)
	}
	got := MarkdownBlock([]string{"echo ````", "x"}, "sh")
	if !strings.HasPrefix(got, "`````sh\n") || !strings.HasSuffix(got, "\n`````\n") {
		t.Fatalf("fence: %s", got)
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"command": "git\u202e push\x1b[1A\u200d\x7f\u0085 \U000E0041 ok <&>"}
	var b bytes.Buffer
	if err := JSON(&b, in); err != nil {
		t.Fatal(err)
	}
	assertClean(t, strings.ReplaceAll(b.String(), "\n", ""))
	for _, want := range []string{`\u202e`, `\u001b`, `\u200d`, `\u007f`, `\u0085`, `\udb40\udc41`, "<&>"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s missing from %s", want, b.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["command"] != in["command"] {
		t.Fatalf("not the same data: %q %v", back, err)
	}
}

func TestTerminalWriter(t *testing.T) {
	var b bytes.Buffer
	w := Terminal(&b)
	msg := []byte("line one \x1b[2K\nline two \u202e é \\x1b ⟨3 spaces⟩\n")
	// Write byte by byte: runes split across writes stay whole.
	for i := range msg {
		w.Write(msg[i : i+1])
	}
	w.Close()
	if got := b.String(); got != "line one \\x1b[2K\nline two \\u202e é \\x1b ⟨3 spaces⟩\n" {
		t.Fatalf("%q", got)
	}
}

// FuzzRender: whatever the input, no rendering holds a raw control,
// invisible rune or invalid byte, and a Block keeps the input's last line
// in view when the input is short enough to be shown whole.
func FuzzRender(f *testing.F) {
	for _, tc := range attacks {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assertClean(t, Line(s, 0))
		// A small limit takes the path that tokenizes only the ends.
		small, hidden := LineHidden(s, 8)
		assertClean(t, small)
		if hidden > len(s) || hidden == 0 && len(s) > 8*40 {
			t.Fatalf("hidden %d of %d bytes", hidden, len(s))
		}
		small2, _ := Block(s, Limits{Bytes: 8, Lines: 3})
		for _, l := range small2 {
			assertClean(t, l)
		}
		lines, _ := Block(s, Limits{})
		for _, l := range lines {
			assertClean(t, l)
		}
		assertClean(t, MarkdownText(s, 0))
		assertClean(t, MarkdownCode(s, 0))
		var b bytes.Buffer
		if err := JSON(&b, s); err != nil {
			t.Fatal(err)
		}
		assertClean(t, strings.TrimSuffix(b.String(), "\n"))
		var w bytes.Buffer
		tw := Terminal(&w)
		tw.Write([]byte(s))
		tw.Close()
		assertClean(t, strings.ReplaceAll(w.String(), "\n", ""))
		if !utf8.ValidString(Line(s, 0)) {
			t.Fatal("invalid UTF-8 out")
		}
	})
}

// A long input is cut the same way whether or not its middle was
// tokenized: start and end kept, the exact number of bytes cut.
func TestLongInputCountsWhatItCuts(t *testing.T) {
	for _, in := range []string{
		"git status " + strings.Repeat("é\x1b", 50000) + " ; git push evil main",
		strings.Repeat(" x", 50000) + "git push",
		strings.Repeat("a\n", 50000) + "git push",
	} {
		got, hidden := LineHidden(in, 300)
		if len(got) > 340 || !strings.HasSuffix(got, "git push evil main") && !strings.HasSuffix(got, "git push") {
			t.Fatalf("%d bytes, ends %q", len(got), got[len(got)-20:])
		}
		if hidden == 0 || !strings.Contains(got, " bytes cut⟩") {
			t.Fatalf("hidden %d: %s", hidden, got)
		}
		assertClean(t, got)
		lines, hidden := Block(in, Limits{})
		if hidden == 0 || lines[len(lines)-1] == "" {
			t.Fatalf("block: hidden %d, %d lines", hidden, len(lines))
		}
	}
}

// A run that crosses the end of what is read is still counted whole.
func TestRunAcrossTheEndsIsCountedWhole(t *testing.T) {
	got := Line("git status"+strings.Repeat(" ", 4000)+"; git push evil main", 70)
	if got != "git status⟨4000 spaces⟩; git push evil main" {
		t.Fatalf("%s", got)
	}
	got = Line("a"+strings.Repeat(" ", 128<<10), 70)
	if got != "a⟨131072 spaces⟩" {
		t.Fatalf("%s", got)
	}
}
