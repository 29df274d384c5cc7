package policy

import (
	"strings"
	"testing"
)

// TestPrintfPathParallel holds the close variants and the ordinary work
// around FINDINGS-8 H1, H2, H3, H5 (sem) and B4: printf's value as bash
// prints it, exported functions and a PATH the text sets, and GNU
// parallel and sem joining their words into one shell line.
func TestPrintfPathParallel(t *testing.T) {
	approve := "airlock queue approve abcd"
	runsApprove := "#!/bin/sh\n" + approve + "\n"
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/src/a.go":                                 "package a\n",
		"proj/Makefile":                                 "build:\n\techo hi\n",
		"proj/package.json":                             `{"name":"p","scripts":{"build":"tsc","test":"jest"}}`,
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
		"proj/x.sh":                                     runsApprove,
		"proj/ok.sh":                                    "#!/bin/sh\necho ok\n",
		"proj/a.log":                                    "log\n",
	}
	cases := []findingCase{
		// H2: printf as bash prints it.
		{finding: "H2 %b \\0141 in the middle", cmd: `$(printf 'ai%b' '\0162lock') queue approve abcd`, want: denied},
		{finding: "H2 %b \\c after a %s", cmd: `$(printf '%s%b%s' air 'lock\c' junk) queue approve abcd`, want: denied},
		{finding: "H2 %b \\c cut by a precision", cmd: `$(printf '%.7b' 'airlockzz\c') queue approve abcd`, want: denied},
		{finding: "H2 %b \\c, the format taken again", cmd: `$(printf '%b' 'airlock\c' 'junk') queue approve abcd`, want: denied},
		{finding: "H2 %x of a number", cmd: `$(printf '%xirlock' 10) queue approve abcd`, want: denied},
		{finding: "H2 format \\NNN", cmd: `$(printf '\141irlock') queue approve abcd`, want: denied},
		{finding: "H2 %b \\0NNN in a path read", cmd: `cat "$(printf '%b' '@HOME@/.local/state/airlock/secrets/serve\0056token')"`, want: denied},
		{finding: "H2 printf -v with %b \\c", cmd: `printf -v p '%b' '@HOME@/.claude/settings.json\c/../x'; : > "$p"`, want: denied},
		{finding: "H2 format \\c (zsh ends there, bash does not): unknown", cmd: `$(printf 'airlock\c x') queue approve abcd`, want: held},
		{finding: "H2 %b \\141 (zsh: literal): unknown", cmd: `$(printf '%b' '\141irlock') queue approve abcd`, want: held},
		{finding: "H2 format \\x (dash: literal): unknown", cmd: `$(printf '\x61irlock') queue approve abcd`, want: held},
		// Ordinary work.
		{finding: "printf %b of a variable", cmd: `msg='done\n'; printf '%b\n' "$msg"`, want: notHeld},
		{finding: "printf %s of a glob", cmd: `printf '%s\n' *.go`, want: notHeld},
		{finding: "printf %b escapes to a file", cmd: `printf '%b' 'a\tb\n' > build.txt`, want: notHeld},
		{finding: "printf a padded table", cmd: `printf '%-10s %5d\n' a 1 b 2`, want: notHeld},
		{finding: "ls of a printf path", cmd: `ls "$(printf '%s/%s' src m.py)"`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "8b", base, cases)
}
