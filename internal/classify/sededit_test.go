package classify

import "testing"

// TestSedSubstitute applies s commands as GNU sed 4 does: each want was
// printed by sed on this input (printf 'aab.ab/xA\nbab\n' | sed SCRIPT).
func TestSedSubstitute(t *testing.T) {
	const in = "aab.ab/xA\nbab\n"
	for _, c := range []struct {
		script string
		ere    bool
		want   string
	}{
		{`s/a/b/`, false, "bab.ab/xA\nbbb\n"},
		{`s/a/b/g`, false, "bbb.bb/xA\nbbb\n"},
		{`s/a/b/2`, false, "abb.ab/xA\nbab\n"},
		{`s/\(a\)\(b\)/\2\1/g`, false, "aba.ba/xA\nbba\n"},
		{`s/a*/X/g`, false, "XbX.XbX/XxXAX\nXbXbX\n"},
		{`s|/|_|g`, false, "aab.ab_xA\nbab\n"},
		{`s/x/[&]/`, false, "aab.ab/[x]A\nbab\n"},
		{`s/A/z/Ig`, false, "zzb.zb/xz\nbzb\n"},
		{`s/\./!/g`, false, "aab!ab/xA\nbab\n"},
		{`s/b\+/B/`, false, "aaB.ab/xA\nBab\n"},
		{`s/(a)(b)/\2\1/g`, true, "aba.ba/xA\nbba\n"},
		{`s/b+/B/`, true, "aaB.ab/xA\nBab\n"},
		{`s/a|b/_/g`, true, "___.__/xA\n___\n"},
	} {
		got, ok := sedSubstitute(in, c.script, c.ere)
		if !ok || got != c.want {
			t.Errorf("%s (ERE %v): %q, %v; sed prints %q", c.script, c.ere, got, ok, c.want)
		}
	}
	// What is not applied exactly is refused, not guessed.
	for _, s := range []string{`s/a/\U&/`, `s/\(a\)\1/x/`, `s/\w/x/`, `2s/a/b/`, `s/a/b/w out`, `s/a/b/m`} {
		if _, ok := sedSubstitute(in, s, false); ok {
			t.Errorf("%s was applied", s)
		}
	}
}
