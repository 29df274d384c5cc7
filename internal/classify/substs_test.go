package classify

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestSubsts: an operand that is $(find …) or $(git ls-files …) is the
// paths the substitution can print, at its own argument index and with
// its role (FINDINGS-5 B4), when the shell's split and globbing of the
// output cannot cut or widen a name; otherwise it stays dynamic.
func TestSubsts(t *testing.T) {
	clean := fstest.MapFS{
		"src/a.pyc": {Data: []byte{}},
		"src/b.py":  {Data: []byte{}},
		".git/HEAD": {Data: []byte("ref: refs/heads/main\n")},
	}
	// A name with a blank or a glob character: the output's fields are
	// not the paths find prints.
	spaced := fstest.MapFS{"a /etc/passwd.pyc": {Data: []byte{}}}
	starred := fstest.MapFS{"src/*.pyc": {Data: []byte{}}}
	ops := func(r Result) string {
		s := ""
		var outer Invocation // the run given the substitution
		for _, inv := range r.Invocations {
			for _, a := range inv.Args {
				if strings.Contains(a, "$(") {
					outer = inv
				}
			}
		}
		for _, o := range outer.Operands {
			if o.Dynamic {
				s += "[dynamic " + o.Word + "]"
				continue
			}
			s += fmt.Sprintf("[%d %s %s %q tracked=%v]", o.Arg, o.Role, o.Word, o.Pattern, o.Tracked)
		}
		return s
	}
	for _, tt := range []struct {
		fs   fstest.MapFS
		cmd  string
		want string // the operands of the run given the substitution
	}{
		{clean, `rm $(find . -name '*.pyc')`, `[1 delete . "*.pyc" tracked=false]`},
		{clean, `rm -f $(find src . -name '*.pyc')`, `[2 delete src "*.pyc" tracked=false][2 delete . "*.pyc" tracked=false]`},
		{clean, `rm -f $(find src -name '*.pyc' 2>/dev/null)`, `[dynamic $(find src -name '*.pyc' 2>/dev/null)]`},
		{clean, `perl -i -pe 's/a/b/' $(git ls-files '*.py')`, `[4 write . "./*.py" tracked=true]`},
		{clean, `prettier --write $(git ls-files)`, `[2 write . "" tracked=true]`},
		{clean, `prettier --write $(git ls-files -o)`, `[2 write . "" tracked=false]`},
		{clean, `cat $(find src -name '*.py')`, `[1 read src "*.py" tracked=false]`},
		// A start path that cannot be listed: unknown.
		{clean, `cat $(find ~/.local -name serve.token)`, `[dynamic $(find ~/.local -name serve.token)]`},
		// Not bounded: quoted, a pipeline, links followed, NULs, a
		// computed word, another writer first, a cd first, a name the
		// split or a glob would change.
		{clean, `rm "$(find . -name '*.pyc')"`, `[dynamic "$(find . -name '*.pyc')"]`},
		{clean, `rm $(find . -name '*.pyc' | head)`, `[dynamic $(find . -name '*.pyc' | head)]`},
		{clean, `rm $(find -L . -name '*.pyc')`, `[dynamic $(find -L . -name '*.pyc')]`},
		{clean, `rm $(find . -name '*.pyc' -print0)`, `[dynamic $(find . -name '*.pyc' -print0)]`},
		{clean, `rm $(find . -name "$P")`, `[dynamic $(find . -name "$P")]`},
		{clean, `rm $(git ls-files ':/')`, `[dynamic $(git ls-files ':/')]`},
		{clean, `GIT_DIR=/x rm $(git ls-files)`, `[dynamic $(git ls-files)]`},
		{clean, `touch x; rm $(find . -name '*.pyc')`, `[dynamic $(find . -name '*.pyc')]`},
		{clean, `cd src && rm $(find . -name '*.pyc')`, `[dynamic $(find . -name '*.pyc')]`},
		{clean, `rm $(cat list)`, `[dynamic $(cat list)]`},
		{spaced, `rm $(find . -name '*.pyc')`, `[dynamic $(find . -name '*.pyc')]`},
		{starred, `rm $(find . -name '*.pyc')`, `[dynamic $(find . -name '*.pyc')]`},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: tt.fs}
		if got := ops(c.Command(tt.cmd)); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.cmd, got, tt.want)
		}
	}
}
