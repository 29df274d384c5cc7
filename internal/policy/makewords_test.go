package policy

import "testing"

// TestMakeWords: make's words are targets (files it may make: writes),
// variables (PREFIX=~/.local: not paths; the recipes that use them are
// followed with their values) and --eval code; its command line is not
// code that "mentions" a path.
func TestMakeWords(t *testing.T) {
	f, proj := ordinaryProject(t)
	f.write("proj/Makefile", "PREFIX ?= /usr/local\ninstall:\n\tinstall -m 755 app $(PREFIX)/bin/app\nbuild:\n\tgo build ./...\n")
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd    string
		denied bool
	}{
		{"make install PREFIX=~/.local", false},
		{"make build", false},
		{"make -j4 build", false},
		{"make ~/.claude/settings.json", true},
		{"make install PREFIX=~/.local/state/airlock", true},
		{"make -E 'x:=$(shell airlock queue approve abcd)' build", true},
		{"make --eval='$(shell airlock queue approve abcd)' build", true},
	} {
		v := p.DecideIn(Interactive, Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: proj})
		if (v.Decision == Deny) != c.denied {
			t.Errorf("%q: %s by %s (%v); want denied: %v", c.cmd, v.Decision, v.Rule, v.Reasons, c.denied)
		}
	}
}
