package classify

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestFeeds checks which paths the arguments xargs and parallel read at
// run time are bounded to: below find's start paths with its pattern,
// below git ls-files's directory with its pathspec, or the words of a
// list file, and only when the split cannot cut a name in two.
func TestFeeds(t *testing.T) {
	clean := fstest.MapFS{
		"src/a.pyc":     {Data: []byte{}},
		"src/b.py":      {Data: []byte{}},
		"files.txt":     {Data: []byte("src/a.pyc\nsrc/b.py\n")},
		"nul.txt":       {Data: []byte("src/a.pyc\x00build\x00")},
		"quoted.txt":    {Data: []byte("'src/a.pyc'\n")},
		"dash.txt":      {Data: []byte("-rf\nsrc\n")},
		"build/x.o":     {Data: []byte{}},
		".git/HEAD":     {Data: []byte("ref: refs/heads/main\n")},
		".git/a b/c d":  {Data: []byte{}}, // never listed by find -name, never by git: .git is skipped
		"docs/guide.md": {Data: []byte{}},
	}
	// A directory named "a " holding etc/passwd: find prints
	// "./a /etc/passwd", which xargs's default split hands over as
	// "./a" and "/etc/passwd".
	spaced := fstest.MapFS{"a /etc/passwd.pyc": {Data: []byte{}}, "src/a.pyc": {Data: []byte{}}}
	derived := func(ops []Operand) string {
		s := ""
		for _, o := range ops {
			if o.Arg < 0 {
				s += fmt.Sprintf("[%s %s %q]", o.Role, o.Word, o.Pattern)
			}
			if o.Dynamic {
				s += "[dynamic " + o.Word + "]"
			}
		}
		return s
	}
	tests := []struct {
		fs   fstest.MapFS
		cmd  string
		want string // the derived and dynamic operands of the last run
	}{
		// find: below the start paths, matching the pattern.
		{clean, `find . -name '*.pyc' -print0 | xargs -0 rm -f`, `[delete . "*.pyc"]`},
		{clean, `find . -name '*.pyc' | xargs rm -f`, `[delete . "*.pyc"]`},
		{clean, `find src build -name '*.o' -print0 | xargs -0 rm -f`, `[delete src "*.o"][delete build "*.o"]`},
		{clean, `find . -type d -name __pycache__ -print0 | xargs -0 rm -rf`, `[delete . "__pycache__"]`},
		{clean, `find . -name '*.pyc' | xargs -I{} rm {}`, `[delete . "*.pyc"]`},
		{clean, `find src -name '*.pyc' | parallel rm`, `[delete src "*.pyc"]`},
		{clean, `find src -name '*.pyc' | parallel rm {}`, `[delete src "*.pyc"]`},
		// A word made from the input (its directory, its base name) is not
		// the input.
		{clean, `find src -name '*.pyc' | parallel rm -rf {//}`, `[dynamic {parallel input}]`},
		{clean, `find src -name '*.pyc' | parallel rm -rf {#}`, `[dynamic {parallel input}]`},
		{clean, `find . -name '*.pyc' | xargs -d '\n' rm`, `[delete . "*.pyc"]`},
		// A negated test only takes matches away; the positive one bounds.
		{clean, `find . -name '*.pyc' -not -path './build/*' -print0 | xargs -0 rm`, `[delete . "*.pyc"]`},
		{clean, `find . ! -name '*.pyc' -print0 | xargs -0 rm`, `[delete . ""]`},
		// -print0 binds to its own branch: only *.py is printed
		// (findexpr.go); alternatives each bound what they print.
		{clean, `find . -name '*.pyc' -o -name '*.py' -print0 | xargs -0 rm`, `[delete . "*.py"]`},
		{clean, `find . \( -name '*.pyc' -o -name '*.py' \) -print0 | xargs -0 rm`, `[delete . "*.pyc"][delete . "*.py"]`},
		{clean, `find . -name '*.pyc' -o -print0 | xargs -0 rm`, `[delete . ""]`},
		{clean, `find . -name '*.pyc' -o ! -name x -print0 | xargs -0 rm`, `[delete . ""]`},
		{spaced, `find . -name '*.pyc' -print0 | xargs -0 rm -f`, `[delete . "*.pyc"]`},
		// A split that can cut a name, links followed, more than paths
		// printed, a mismatched separator, no filesystem to look at: the
		// words stay unknown.
		{spaced, `find . -name '*.pyc' | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `find -L . -name '*.pyc' -print0 | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -follow -name '*.pyc' -print0 | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -name '*.pyc' -printf '%p\n' | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -name '*.txt' -exec cat {} + | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -name '*.pyc' | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -name '*.pyc' -print0 | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -name '*.pyc' | xargs -d , rm -f`, `[dynamic {xargs input}]`},
		{nil, `find . -name '*.pyc' | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `FOO=1 find . -name '*.pyc' -print0 | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `sudo find . -name '*.pyc' -print0 | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `find . -name '*.pyc' -print0 > l; xargs -0 rm -f < l`, `[read l ""][dynamic {xargs input}]`},
		// git ls-files: below here, matching the pathspec.
		{clean, `git ls-files -z '*.orig' | xargs -0 rm -f`, `[delete . "./*.orig"]`},
		{clean, `git ls-files -z -o --exclude-standard -- docs/ | xargs -0 rm -f`, `[delete . "./docs"]`},
		{clean, `git ls-files '*.orig' | xargs rm -f`, `[delete . "./*.orig"]`},
		{clean, `git ls-files -z | xargs -0 rm -f`, `[delete . ""]`},
		{spaced, `git ls-files '*.orig' | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `git ls-files -z ':/*.orig' | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `git ls-files -z ../x | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `git ls-files -z /etc | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `git ls-files -z --format='%(path)' | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `git -C .. ls-files -z | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `git diff --name-only -z | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `export GIT_WORK_TREE=/; git ls-files -z | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		{clean, `find -D tree /etc -name x -print0 | xargs -0 rm -f`, `[delete /etc "x"]`},
		{clean, `find -H . -name x -print0 | xargs -0 rm -f`, `[dynamic {xargs input}]`},
		// A list file: its words, read now.
		{clean, `xargs -a files.txt rm -f`, `[delete src/a.pyc ""][delete src/b.py ""]`},
		{clean, `xargs rm -f < files.txt`, `[read files.txt ""][delete src/a.pyc ""][delete src/b.py ""]`},
		// Another run of the command writes or makes something first: what
		// is on disk now may not be what the run gets.
		{clean, `echo /etc/passwd > files.txt; xargs -a files.txt rm -f`, `[dynamic {xargs input}]`},
		{clean, `mkdir -p 'a /etc' && find . -name '*.pyc' | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `mkdir -p 'a /etc' && find . -name '*.pyc' -print0 | xargs -0 rm -f`, `[delete . "*.pyc"]`},
		// After a cd the names on disk here are not those it walks or reads.
		{clean, `cd /tmp/x && find . -name '*.pyc' | xargs rm -f`, `[dynamic {xargs input}]`},
		{clean, `cd src && xargs -a files.txt rm -f`, `[dynamic {xargs input}]`},
		{clean, `cd src && find . -name '*.pyc' -print0 | xargs -0 rm -f`, `[delete . "*.pyc"]`},
		{clean, `xargs -0 -a nul.txt rm -rf`, `[delete src/a.pyc ""][delete build ""]`},
		{clean, `xargs -a quoted.txt rm -f`, `[dynamic {xargs input}]`},
		{clean, `xargs -a dash.txt rm -f`, `[dynamic {xargs input}]`},
		{clean, `xargs -a missing.txt rm -f`, `[dynamic {xargs input}]`},
		{nil, `xargs -a files.txt rm -f`, `[dynamic {xargs input}]`},
		{clean, `cat files.txt | xargs rm -f`, `[dynamic {xargs input}]`},
	}
	for _, tt := range tests {
		c := Classifier{Limits: shell.DefaultLimits}
		if tt.fs != nil {
			c.FS = tt.fs
		}
		r := c.Command(tt.cmd)
		if len(r.Invocations) == 0 {
			t.Errorf("%s: no runs", tt.cmd)
			continue
		}
		last := r.Invocations[len(r.Invocations)-1]
		if got := derived(last.Operands); got != tt.want {
			t.Errorf("%s:\n  got  %s\n  want %s", tt.cmd, got, tt.want)
		}
	}
}

// TestFindExecText: find -exec echo {} prints the matches; it touches
// none of them.
func TestFindExecText(t *testing.T) {
	for _, cmd := range []string{`find . -exec echo {} \;`, `find . -type f -exec printf '%s\n' {} +`} {
		for _, inv := range Command(cmd).Invocations {
			for _, o := range inv.Operands {
				if o.Role != RoleRead {
					t.Errorf("%s: %s gets %s %s, want read", cmd, inv.Name(), o.Word, o.Role)
				}
			}
		}
	}
	for _, o := range Command(`find . -exec rm {} \;`).Invocations[0].Operands {
		if o.Arg < 0 && o.Role != RoleDelete {
			t.Errorf("find -exec rm {}: derived %s %s, want delete", o.Word, o.Role)
		}
	}
}
