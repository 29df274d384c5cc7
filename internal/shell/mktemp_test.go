package shell

import "testing"

// TestMktempWord: a substitution of mktemp making a new name in the
// temporary directory, and the static text after it; a template or a
// directory elsewhere, or anything run-time after it, is not one.
func TestMktempWord(t *testing.T) {
	for _, tc := range []struct {
		word, rest string
		ok         bool
	}{
		{`$(mktemp)`, "", true},
		{`"$(mktemp -d)"`, "", true},
		{`"$(mktemp -d)"/copy`, "/copy", true},
		{`"$(mktemp -d)/copy"`, "/copy", true},
		{`$(mktemp -dt build.XXXXXX)`, "", true},
		{`$(mktemp /tmp/out.XXXX)`, "", true},
		{`$(mktemp -p /var/tmp)`, "", true},
		{`$(mktemp --tmpdir=/tmp x.XXX)`, "", true},
		{"`mktemp -d`", "", true},
		{`$(mktemp settingsXXX)`, "", false},        // made in the current directory
		{`$(mktemp ~/.claude/s.XXXX)`, "", false},   // a template elsewhere
		{`$(mktemp -p ~/.claude)`, "", false},       // a directory elsewhere
		{`$(mktemp --tmpdir=/etc)`, "", false},      // likewise
		{`$(mktemp /tmp/../root/x.XXX)`, "", false}, // a step up
		{`$(mktemp -d $X)`, "", false},              // a run-time template
		{`$(TMPDIR=~ mktemp -d)`, "", false},        // an assignment
		{`$(mktemp -d > f)`, "", false},             // a redirection
		{`"$(mktemp -d)"/$x`, "", false},            // run-time text after it
		{`"$(mktemp -d)"/*`, "", false},             // a glob after it
		{`$(mktemp -d; echo x)`, "", false},         // two statements
		{`x$(mktemp -d)`, "", false},                // text before it
	} {
		rest, ok := MktempWord(tc.word)
		if ok != tc.ok || ok && rest != tc.rest {
			t.Errorf("MktempWord(%s) = %q, %v; want %q, %v", tc.word, rest, ok, tc.rest, tc.ok)
		}
	}
}
