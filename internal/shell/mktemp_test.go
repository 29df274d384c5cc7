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

// TestNamesAFile: a command name computed at run time with a "/" in its
// static text runs a file, so the shell keeps what it knows of its
// variables after it; one without may be read, eval or cd, so it does not.
func TestNamesAFile(t *testing.T) {
	for _, tc := range []struct {
		word string
		want bool
	}{
		{`"$out/p"`, true},
		{`$d/bin/app`, true},
		{`"$(mktemp -d)"/p`, true},
		{`'./'$x`, true},
		{`$x`, false},
		{`"$x"`, false},
		{`${x:-/bin/ls}`, false},
		{`$(echo /bin/ls)`, false},
	} {
		if got := NamesAFile(tc.word); got != tc.want {
			t.Errorf("NamesAFile(%s) = %v, want %v", tc.word, got, tc.want)
		}
	}
	for _, tc := range []struct {
		text  string
		keeps bool
	}{
		{`d=$(mktemp -d); "$d/p" -h; rm -rf "$d"`, true},
		{`d=$(mktemp -d); $cmd; rm -rf "$d"`, false},
	} {
		invs := Parse(tc.text)
		last := invs[len(invs)-1]
		kept := !last.IsDynamic(2) || last.Args[2] == `"$(mktemp -d)"`
		if kept != tc.keeps {
			t.Errorf("%s: rm's word is %q after the computed name; kept %v, want %v", tc.text, last.Args[2], kept, tc.keeps)
		}
		if mid := invs[len(invs)-2]; mid.Opaque == "" {
			t.Errorf("%s: the computed name is not opaque: %+v", tc.text, mid)
		}
	}
}
