package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// want is one expected finding: its line, status, pattern, and a piece of
// its command.
type want struct {
	line    int
	status  Status
	pattern string
	command string
}

// scanFile scans a fixture with a fresh scanner.
func scanFile(t *testing.T, name string) *Result {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s Scanner
	res, err := s.Scan(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkFindings compares findings with wants, in order.
func checkFindings(t *testing.T, res *Result, wants []want) {
	t.Helper()
	for i := 0; i < len(wants) || i < len(res.Findings); i++ {
		switch {
		case i >= len(res.Findings):
			t.Errorf("missing finding %d: %+v", i, wants[i])
		case i >= len(wants):
			f := &res.Findings[i]
			t.Errorf("unexpected finding: line %d %s %s %q (%s)", f.Line, f.Status, f.Pattern, f.Command(), f.Verdict.Effect.Label())
		default:
			f, w := &res.Findings[i], wants[i]
			if f.Line != w.line || f.Status != w.status || f.Pattern != w.pattern || !strings.Contains(f.Command(), w.command) {
				t.Errorf("finding %d:\n  got  line %d %s %s %q (%s)\n  want line %d %s %s %q", i,
					f.Line, f.Status, f.Pattern, f.Command(), f.Verdict.Effect.Label(), w.line, w.status, w.pattern, w.command)
			}
		}
	}
}

func TestText(t *testing.T) {
	cases := []struct {
		file  string
		wants []want
	}{
		{"text/print-output.txt", []want{
			{6, Mentioned, "text.git", "git push"},
			{8, Mentioned, "text.git", "git push origin fix/tokenizer"},
			{18, Executed, "text.git", "git push origin fix/tokenizer"},
			{27, Mentioned, "text.npm", "npm publish --access public"},
			{32, Executed, "text.curl", "curl -sS -X POST"},
			{36, Executed, "text.npm", "npm publish"},
			{41, Executed, "text.rm", "rm -rf ./dist"},
			{49, Executed, "output.npm-publish", "npm publish"},
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res := scanFile(t, c.file)
			if res.Format != Text {
				t.Errorf("format %s, want text", res.Format)
			}
			checkFindings(t, res, c.wants)
		})
	}
}

func readFixture(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", name))
}
