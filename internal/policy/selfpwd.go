package policy

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// $PWD and $(pwd) name the directory the command runs in, which airlock
// knows, as long as nothing in the command changes directory or sets PWD
// (FINDINGS-10 B12: `export GOBIN="$PWD/bin" && go install ./...` writes
// the project's bin/, not airlock's binary, and B7's `ln -sf
// "$PWD/scripts/gen.sh" build/gen`). A cd, pushd or popd anywhere in the
// command (a followed script's too), a run in another directory, or any
// other use of the name PWD (an assignment, read, export, a loop
// variable) leaves the words known only at run time, as before.

// pwd returns the directory $PWD names in the command being checked.
func (c *call) pwd() (string, bool) {
	if len(c.cwds) != 1 || c.text == "" || c.result == nil || pwdRebound(c.text) {
		return "", false
	}
	for _, runs := range [][]classify.Invocation{c.result.Invocations, c.result.Followed} {
		for _, r := range runs {
			if r.Dir != "" {
				return "", false
			}
			switch r.Name() {
			case "cd", "pushd", "popd", "":
				return "", false
			}
		}
	}
	return c.cwds[0], true
}

// pwdRebound reports whether the text names PWD other than as $PWD or
// ${PWD} (PWD=/x, export PWD, read PWD, for PWD in …, ${PWD:=…}).
func pwdRebound(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "PWD")
		if j < 0 {
			return false
		}
		j += i
		switch {
		case j >= 1 && text[j-1] == '$' && !identByte(text, j+3):
		case j >= 2 && text[j-2:j] == "${" && j+3 < len(text) && text[j+3] == '}':
		case j >= 1 && identByte(text, j-1) || identByte(text, j+3):
			// OLDPWD, PWDX: another name.
		default:
			return true
		}
		i = j + 3
	}
}

func identByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	b := s[i]
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// known is the guard's known (selfprotect.go) with $PWD, ${PWD}, $(pwd)
// and `pwd` read as the directory the command runs in, when pwd knows it.
func (c *call) known(w string) (string, bool) {
	if strings.Contains(w, "PWD") || strings.Contains(w, "pwd") {
		if p, ok := c.pwd(); ok {
			w = strings.NewReplacer("${PWD}", p, "$(pwd)", p, "`pwd`", p).Replace(w)
			for {
				i := strings.Index(w, "$PWD")
				if i < 0 || identByte(w, i+4) {
					break
				}
				w = w[:i] + p + w[i+4:]
			}
		}
	}
	return c.g.known(w)
}
