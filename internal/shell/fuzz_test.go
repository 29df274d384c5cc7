package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzParse: Parse never panics, and text the parser rejects always yields
// an opaque invocation.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"git push", "bash -c 'git push'", "echo $(rm -rf /)", "a | b && c", "f(){ f; }; f",
		"bash <<EOF\ngit push\nEOF", "xargs -I{} sh -c 'x {}'", "echo 'unterminated", "$(", "eval eval eval x",
		"find . -exec rm {} +", "ssh h 'a; b'", "env -S 'a b' c", "alias a='a'; a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		invs := Parse(src)
		if _, err := syntax.NewParser().Parse(strings.NewReader(src), ""); err != nil {
			for _, inv := range invs {
				if inv.Opaque != "" {
					return
				}
			}
			t.Fatalf("unparsable text %q gave no opaque invocation: %+v", src, invs)
		}
	})
}
