package classify

import (
	"slices"
	"testing"
)

// TestMakeEvalFunctions checks what the makefile reader makes of make's
// functions and rule lines (FINDINGS-9 M9): the value, and the commands
// an argument runs kept in it.
func TestMakeEvalFunctions(t *testing.T) {
	m := parseMakefile("Makefile", "X = 1\nY := a b c\n")
	for _, c := range []struct{ in, want string }{
		{"$(let a b,x y z,$(b)-$(a))", "y z-x"},
		{"$(let a,,<$(a)>)", "<>"},
		{"$(intcmp 1,2,lt,eq,gt)", "lt"},
		{"$(intcmp 2,2,lt,eq,gt)", "eq"},
		{"$(intcmp 3,2,lt,eq)", "eq"},
		{"$(intcmp 3,3)", "3"},
		{"$(origin X) $(origin NOPE) $(flavor X)", "file undefined recursive"},
		{"$(origin $(shell ./x.sh))", "undefined $(./x.sh)"},
		{"$(and $(shell ./x.sh),)", "$(./x.sh)"},
		{"$(value $(shell ./x.sh))", "$(./x.sh)"},
		{"$(X$(shell ./x.sh))", "$(./x.sh)"},
		{"$(words $(Y))", "3"},
	} {
		if got := m.expand(c.in, "", nil, 0); got != c.want {
			t.Errorf("%s expands to %q; want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		text, target string
		dynamic      bool
	}{
		{"T := build\n$(T): ; echo x\n", "build", false},
		{"N = bu$(empty)ild\n$(N):\n\techo x\n", "build", false},
		{"R := build: ; echo x\n$(R)\n", "build", false},
		{"$(X:%=%):\n\techo x\nX := build\n", "", true},
		{"$(shell echo build) other: ; echo x\n", "$(echo build)", true},
		{"a.o: $(shell echo a.c) ; echo x\n", "a.o", false},
	} {
		m := parseMakefile("Makefile", c.text)
		r := m.rules[c.target]
		if c.target == "" {
			if len(m.dynTargets) == 1 {
				r = m.rules[m.dynTargets[0]]
			}
		}
		if r == nil || len(r.recipe) == 0 {
			t.Errorf("%q: no rule for %q with a recipe (rules %v)", c.text, c.target, m.rules)
			continue
		}
		if dyn := len(m.dynTargets) > 0; dyn != c.dynamic || c.dynamic && c.target != "" && !slices.Contains(m.dynTargets, c.target) {
			t.Errorf("%q: targets known only at run time %q; want %v", c.text, m.dynTargets, c.dynamic)
		}
	}
}
