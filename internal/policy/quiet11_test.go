package policy

import "testing"

// TestQuiet11 holds the attack variants of the loosenings that fix
// FINDINGS-10's ordinary work refused (B1–B13): each loosening's close
// variant that must stay held, beside the ordinary work it lets through.
func TestQuiet11(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	cases := []findingCase{
		// B1: find's -o. An action binds to its own branch; what a
		// disjunction prints or deletes matches one of its patterns
		// (classify findexpr.go). A branch with no name test, a negation,
		// a "," list or a primary airlock cannot read bounds nothing.
		{finding: "B1 ordinary: find . -name '*.orig' -o -name '*.rej' -print0 | xargs -0 rm -f", cmd: `find . -name '*.orig' -o -name '*.rej' -print0 | xargs -0 rm -f`, want: notHeld, fixed: true},
		{finding: "B1 ordinary: find ( -name … -o -name … ) -exec rm -f {} +", cmd: `find . \( -name '*.orig' -o -name '*.rej' \) -exec rm -f {} +`, want: notHeld, fixed: true},
		{finding: "B1 variant: -o -name settings.json -delete", cmd: `find . -name '*.orig' -o -name 'settings.json' -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -delete (the second branch has no test)", cmd: `find . -name '*.orig' -o -delete`, want: denied, fixed: true},
		{finding: "B1 variant: ( -name … -o -true ) -delete", cmd: `find . \( -name '*.orig' -o -true \) -delete`, want: denied, fixed: true},
		{finding: "B1 variant: ( -name … -o -name '*.json' ) -delete", cmd: `find . \( -name '*.orig' -o -name '*.json' \) -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -name 'settings.*' | xargs rm -f", cmd: `find . -name '*.orig' -o -name 'settings.*' | xargs rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: -o ! -name x | xargs rm -f", cmd: `find . -name '*.orig' -o ! -name x | xargs rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: -name … , -delete (a list: the action runs on every file)", cmd: `find . -name '*.orig' , -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -path './.claude/*' -delete", cmd: `find . -name '*.orig' -o -path './.claude/*' -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -iname SETTINGS.JSON | xargs rm -f", cmd: `find . -iname '*.orig' -o -iname 'SETTINGS.JSON' | xargs rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: rm -rf $(find … -o -name settings.json)", cmd: `rm -rf $(find . -name '*.orig' -o -name 'settings.json')`, want: denied, fixed: true},
		{finding: "B1 variant: ( -name x -o -name .claude ) -exec rm -rf {} +", cmd: `find . \( -name x -o -name '.claude' \) -exec rm -rf {} +`, want: denied, fixed: true},
		{finding: "B1 variant: -print -o -name settings.json -print0 (two printing branches)", cmd: `find . -name '*.orig' -print -o -name 'settings.json' -print0 | xargs -0 rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: -not ( -name a -o -name b ) -delete", cmd: `find . -not \( -name a -o -name b \) -delete`, want: denied, fixed: true},
		{finding: "B1 variant: an unknown primary in the expression", cmd: `find . -name '*.orig' -frobnicate x -o -name '*.rej' -delete`, want: held, fixed: true},
	}
	runFindingCases(t, "10", base, cases)
}
