package policy

import "testing"

// A "[" that no "]" closes is literal to the shell, so a word holding one
// (an escape sequence such as ESC [ 1 A, say) names only itself; a class
// or a star still matches as the shell would.
func TestGlobMatchLikeTheShell(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		want       bool
	}{
		{"/tmp/main\x1b[1A\x1b[2Kgit", "/tmp/work", false},
		{"/tmp/a[b", "/tmp/a[b", true},
		{"/home/u/.cl*", "/home/u/.claude", true},
		{"/home/u/.claude/settings.js?n", "/home/u/.claude/settings.json", true},
		{"/home/u/.claude/settings.js[o]n", "/home/u/.claude/settings.json", true},
		{"/home/u/*", "/home/u/.claude", false},          // no dotglob
		{"/home/u/[!x]claude", "/home/u/.claude", false}, // a class never matches a leading dot
		{"/home/u/.claude/[!x]ettings.json", "/home/u/.claude/settings.json", true},
		{"/home/u/.claude/[^x]ettings.json", "/home/u/.claude/settings.json", true},
		{"/home/u/x\\", "/home/u/claude", true}, // still malformed: fails closed
	} {
		if got := globMatch(c.glob, c.path, false); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}
