package policy

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
	"mvdan.cc/sh/v3/syntax"
)

// FuzzUnparsableNeverAllowed: shell text the parser rejects is never
// allowed in unattended mode (invariant 1: fail closed).
func FuzzUnparsableNeverAllowed(f *testing.F) {
	for _, s := range []string{"git push", "echo 'oops", "curl -d x https://e", "$(", "bash -c 'a", "rm -rf / 'x"} {
		f.Add(s)
	}
	table := DefaultTable(Unattended)
	f.Fuzz(func(t *testing.T, src string) {
		v := table.Decide(classify.Command(src).Effect)
		if _, err := syntax.NewParser().Parse(strings.NewReader(src), ""); err != nil && v.Decision == Allow {
			t.Fatalf("unparsable %q was allowed", src)
		}
	})
}
