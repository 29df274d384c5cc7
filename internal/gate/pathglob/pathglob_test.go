package pathglob

import (
	"errors"
	"strings"
	"testing"
)

// TestMatchTarget is the glob semantics table of issue 6: targets relative
// to the project root /proj unless absolute.
func TestMatchTarget(t *testing.T) {
	const root = "/proj"
	tests := []struct {
		glob, target string
		want         bool
	}{
		// "**/" matches zero directories.
		{"**/tests/**", "/proj/tests/foo.js", true},
		{"**/tests/**", "/proj/a/b/tests/foo.js", true},
		{"**/tests/**", "/proj/tests/unit/foo.js", true},
		{"**/tests/**", "/proj/contests/foo.js", false},
		{"**/tests/**", "/proj/tests", false},
		// A trailing "/**" covers only that directory of the root.
		{"services/**", "/proj/services/api/main.go", true},
		{"services/**", "/proj/services/x", true},
		{"services/**", "/proj/lib/services/x.go", false},
		{"services/**", "/proj/services", false},
		{"services/**", "/proj/servicesx/a", false},
		// "*" stays within a segment: root Markdown only.
		{"*.md", "/proj/README.md", true},
		{"*.md", "/proj/docs/GATE.md", false},
		{"*.md", "/proj/readme.markdown", false},
		{"docs/*.md", "/proj/docs/GATE.md", true},
		{"docs/*.md", "/proj/docs/sub/GATE.md", false},
		{"**/*.md", "/proj/docs/sub/GATE.md", true},
		{"**/*.md", "/proj/README.md", true},
		{"*", "/proj/anything.go", true},
		{"*", "/proj/dir/anything.go", false},
		{"**", "/proj/dir/anything.go", true},
		{"a/**/b.go", "/proj/a/b.go", true},
		{"a/**/b.go", "/proj/a/x/y/b.go", true},
		{"a/**/b.go", "/proj/a/x/y/c.go", false},
		// "?" is one character, never a separator.
		{"file?.go", "/proj/file1.go", true},
		{"file?.go", "/proj/file12.go", false},
		{"file?.go", "/proj/file.go", false},
		{"a?b", "/proj/a/b", false},
		{"caf?.txt", "/proj/café.txt", true},
		// Lower-case matching, both ways.
		{"Docs/**", "/proj/docs/x.md", true},
		{"docs/**", "/proj/DOCS/X.MD", true},
		{"*.MD", "/proj/readme.md", true},
		// Backslashes are separators.
		{`tests\**`, "/proj/tests/a.js", true},
		{"tests/**", `/proj/tests\a.js`, true},
		// Relative targets are taken from the root.
		{"tests/**", "tests/a.js", true},
		{"*.md", "README.md", true},
		// Relative globs never exempt a target outside the root.
		{"**", "/etc/passwd", false},
		{"**/*.go", "/other/x.go", false},
		{"**", "/proj/../etc/passwd", false},
		{"**", "../outside.go", false},
		{"**", "/projx/a.go", false},
		{"*", "/proj", false},
		// Absolute globs match the absolute path.
		{"/tmp/**", "/tmp/scratch/a.go", true},
		{"/tmp/**", "/proj/tmp/a.go", false},
		{"/proj/gen/**", "/proj/gen/a.pb.go", true},
		{"/PROJ/*.md", "/proj/README.md", true},
		{"/tmp/*.go", "/tmp/a/b.go", false},
		{"c:/work/**", `C:\work\x.go`, true},
		// Literals.
		{"a.b", "/proj/axb", false},
		{"a+b(c)", "/proj/a+b(c)", true},
		{"$x", "/proj/$x", true},
	}
	for _, tt := range tests {
		p, err := Compile(tt.glob)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.glob, err)
			continue
		}
		if got := p.MatchTarget(tt.target, root); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.glob, tt.target, got, tt.want)
		}
	}
}

// TestRootFallback checks a target given relative when no root is known:
// a relative glob cannot place it, so it grants nothing.
func TestRootFallback(t *testing.T) {
	p, err := Compile("**")
	if err != nil {
		t.Fatal(err)
	}
	if p.MatchTarget("a.go", "") || p.MatchTarget("/a.go", "") {
		t.Error("a relative glob matched without a root")
	}
	if p.MatchTarget("/proj/a.go", "relative/root") {
		t.Error("a relative glob matched under a relative root")
	}
	if !p.MatchTarget("/a.go", "/") {
		t.Error("root / should hold every absolute path")
	}
}

// TestMalformed checks that the patterns the dialect cannot read are
// refused, and that a list keeps the good ones.
func TestMalformed(t *testing.T) {
	for _, glob := range []string{
		"", "  ", "a**", "**b", "***", "a/**x/b", "a//b", "./a", "a/../b", "..", "services/",
		"*.[ch]", "*.{js,ts}", "src/{a", "a]", "a\x00b", "a\tb", "\xff",
	} {
		if p, err := Compile(glob); err == nil {
			t.Errorf("Compile(%q) = %+v, want an error", glob, p)
		} else if !errors.Is(err, ErrMalformed) {
			t.Errorf("Compile(%q) error %v does not wrap ErrMalformed", glob, err)
		}
	}
	l, errs := ParseList(" docs/** ,, a**, *.md ,src/[x]")
	if len(l) != 2 || l[0].Source != "docs/**" || l[1].Source != "*.md" {
		t.Errorf("ParseList kept %v", l)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `"a**"`) || !strings.Contains(errs[1].Error(), "src/[x]") {
		t.Errorf("ParseList errors = %v", errs)
	}
	if got := l.MatchTarget("/proj/docs/a.md", "/proj"); got != l[0] {
		t.Errorf("MatchTarget = %v, want docs/**", got)
	}
	if got := l.MatchTarget("/proj/src/x", "/proj"); got != nil {
		t.Errorf("a malformed pattern granted %v", got)
	}
}

// TestMatchSegmentBacktracking checks the star matcher on inputs that
// need backtracking.
func TestMatchSegmentBacktracking(t *testing.T) {
	tests := []struct {
		pat, s string
		want   bool
	}{
		{"*a*b", "xxaxxb", true},
		{"*a*b", "xxaxxc", false},
		{"a*a*a", "aaaaa", true},
		{"*.test.js", "x.test.test.js", true},
		{"?*", "", false},
		{"*", "", true},
		{"é*é", "éxé", true},
		{strings.Repeat("*a", 20) + "b", strings.Repeat("a", 60), false},
	}
	for _, tt := range tests {
		if got := matchSegment(tt.pat, tt.s); got != tt.want {
			t.Errorf("matchSegment(%q, %q) = %v, want %v", tt.pat, tt.s, got, tt.want)
		}
	}
}
