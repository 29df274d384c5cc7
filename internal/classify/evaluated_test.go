package classify

import (
	"testing"

	"github.com/airlock-dev/airlock/internal/shell"
)

// Every builtin bash evaluates a name or an arithmetic argument of, fed an
// array subscript holding a command substitution in each argument
// position, must carry the inner command's effect: bash runs it even from
// a single-quoted word.
func TestEvaluatedSubscriptsCarryTheirCommand(t *testing.T) {
	c := Classifier{Limits: shell.DefaultLimits}
	const sub = `'a[$(git push origin main)]'`
	for _, prefix := range []string{
		"let", "let x=1", "declare", "declare -i", "typeset -i", "local -i", "readonly", "export", "declare -n",
		"test -v", "[ -v", "printf -v", "read", "read -r -a", "unset", "unset -v", "mapfile -t", "readarray",
		"getopts ab", "wait -p", "builtin let", "command let", "x=1 let",
	} {
		for _, tail := range []string{"", " x", " ]"} {
			cmd := prefix + " " + sub + tail
			if r := c.Command(cmd); r.Tier != External && !r.Effect.Opaque {
				t.Errorf("%s: tier %s, want external or opaque (%s)", cmd, r.Tier, r.Effect.Label())
			}
		}
	}
}
