package shell

import (
	"os/exec"
	"testing"
)

// ansicCases are spellings inside $'…' and the bytes bash 5.2 makes of
// them (checked with printf '%s|' $'…' | od -c): a NUL, however spelled,
// ends the quoted text.
var ansicCases = []struct{ in, want string }{
	{`a\c@b`, "a"},
	{"a\\c`b", "a"},
	{`a\c b`, "a"},
	{`a\cAb`, "a\x01b"},
	{`a\cab`, "a\x01b"},
	{`a\c?b`, "a\x7fb"},
	{`a\c\\b`, "a\x1cb"},
	{`a\c\b`, "a\x1cb"},
	{`a\c`, `a\c`},
	{`a\0b`, "a"},
	{`a\x00b`, "a"},
	{`a\x0`, "a"},
	{`a\xg`, `a\xg`},
	{`a\x`, `a\x`},
	{`a\u41b`, "a\xd0\x9b"},
	{`a\u`, `a\u`},
	{`a\U0001F600b`, "a\xf0\x9f\x98\x80b"},
	{`a\k`, `a\k`},
	{`a\"b`, `a"b`},
	{`a\'b`, `a'b`},
	{`a\?b`, `a?b`},
	{`a\1010`, "aA0"},
	{`a\400`, "a"},
	{`a\777`, "a\xff"},
	{`a\08b`, "a"},
	{`a\E[b`, "a\x1b[b"},
	{`a\e[b`, "a\x1b[b"},
	{`a\cJb`, "a\nb"},
	{`a\c[b`, "a\x1bb"},
	{`a\c]b`, "a\x1db"},
	{`a\c^`, "a\x1e"},
	{`a\c_b`, "a\x1fb"},
	{`a\c{b`, "a\x1bb"},
	{`a\c~b`, "a\x1eb"},
	{`a\c1b`, "a\x11b"},
	{`a\c-b`, "a\rb"},
	{`a\c\0`, "a\x1c0"},
	{"a\\c\xc3\xa9", "a\x03\xa9"},
	{`a\u00e9`, "a\xc3\xa9"},
	{`a\U110000b`, "a\xf9\x84\x80\x80\x8b"},
	{`a\x41\x42`, "aAB"},
	{`a\101`, "aA"},
	{`a\\`, `a\`},
	{`a\ud800b`, "a\xed\xa0\x80b"},
	{`a\U7FFFFFFF`, "a\xfd\xbf\xbf\xbf\xbf\xbf"},
	{`a\U80000000b`, "ab"},
	{`a\u0000x`, "a"},
	{`a\t\n\r\v\f\a\b`, "a\t\n\r\v\f\a\b"},
	{`airlock\c@ queue`, "airlock"},
	{`/srv/data\c@/../../tmp/x`, "/srv/data"},
	{`air\x6cock`, "airlock"},
	{`air\154ock`, "airlock"},
	{`air\u006cock`, "airlock"},
	{`\xAg`, "\ng"},
}

func TestANSIC(t *testing.T) {
	for _, c := range ansicCases {
		if got := ANSIC(c.in); got != c.want {
			t.Errorf("$'%s': got %q, want %q", c.in, got, c.want)
		}
	}
}

// TestANSICBash compares the table with the bash on this machine, when
// there is one.
func TestANSICBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, c := range ansicCases {
		out, err := exec.Command(bash, "-c", `printf '%s' $'`+c.in+`'`).Output()
		if err != nil {
			t.Errorf("bash $'%s': %v", c.in, err)
			continue
		}
		if string(out) != c.want {
			t.Errorf("bash makes $'%s' %q; the table says %q", c.in, out, c.want)
		}
		if got := ANSIC(c.in); got != string(out) {
			t.Errorf("$'%s': ANSIC %q, bash %q", c.in, got, out)
		}
	}
}

// TestANSICWords reads words with $'…' through Parse: the word ends at
// the NUL, what follows the quote stays.
func TestANSICWords(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`echo $'airlock\c@junk'`, "airlock"},
		{`echo x$'a\c@b'y`, "xay"},
		{`echo $'a\0b'c`, "ac"},
		{`echo $'a\tb'`, "a\tb"},
	} {
		invs := Parse(c.src)
		if len(invs) != 1 || len(invs[0].Args) != 2 || invs[0].Args[1] != c.want {
			t.Errorf("%s: %+v; want the word %q", c.src, invs, c.want)
		}
	}
}
