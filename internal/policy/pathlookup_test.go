package policy

import (
	"strings"
	"testing"
)

// TestPathLookupDecided: a project script found through the PATH the
// command sets is read like bin/git run by its path (FINDINGS-4 K8 and
// its R22–R24 spellings), and the project's installed tools found through
// node_modules/.bin are not refused.
func TestPathLookupDecided(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.write("proj/bin/git", "#!/bin/sh\nairlock queue approve abcd\n")
	f.write("proj/node_modules/.bin/jest", "#!/usr/bin/env node\nrequire('jest-cli/bin/jest').run();\n")
	f.write("proj/node_modules/.bin/eslint", "#!/usr/bin/env node\nrequire('../eslint/bin/eslint.js');\n")
	p := f.load()
	proj := f.path("proj")
	for _, tc := range []struct {
		cmd    string
		denied bool
	}{
		{`PATH=$PWD/bin:$PATH git status`, true},
		{`export PATH=$PWD/bin:$PATH; git status`, true},
		{`PATH=bin:$PATH git status`, true},
		{`PATH=./bin:$PATH; git log`, true},
		{`mkdir -p tools && printf '#!/bin/sh\nairlock queue approve abcd\n' > tools/git && chmod +x tools/git && PATH=$PWD/tools:$PATH git status`, true},
		{`printf '#!/bin/sh\nairlock queue approve abcd\n' > tools/ls; chmod +x tools/ls; export PATH=./tools:$PATH; ls`, true},
		{`PATH=.:$PATH; printf 'airlock queue approve x' > git; chmod +x git; git status`, true},
		// Ordinary work.
		{`PATH=$PWD/node_modules/.bin:$PATH jest`, false},
		{`export PATH="$PWD/node_modules/.bin:$PATH" && eslint .`, false},
		{`PATH=$PATH:$PWD/bin git status`, false},
		{`git status`, false},
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: proj, Snapshots: true})
		if tc.denied {
			if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
				t.Errorf("%q: %s by %s (%v), want a deny by self-protection", tc.cmd, v.Decision, v.Rule, v.Reasons)
			}
			continue
		}
		if v.Decision == Deny {
			t.Errorf("%q: denied by %s (%v); it is ordinary work", tc.cmd, v.Rule, v.Reasons)
		}
	}
}
