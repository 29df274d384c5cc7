package policy

import (
	"strings"
	"testing"
)

// TestDeletionBesideProgram: a program that may relink paths, run before
// or beside a deletion, makes what looks inside the project unknown; it
// never makes a deletion that lands outside now look harmless (a single
// rm FILE outside is held, as alone). A run-time operand that climbs out
// with "..", or whose static end is an existing path outside, is held too.
func TestDeletionBesideProgram(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"home/docs/a.txt":                               "mine\n",
		"home/.ssh/id_ed25519":                          "key\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/build/old":                                "",
		"x/data/db":                                     "rows\n",
	}
	cases := []findingCase{
		{finding: "python3 -V then rm a file outside", cmd: `python3 -V; rm ~/docs/a.txt`, want: held},
		{finding: "cp into build then rm the ssh key", cmd: `cp src/m.py build/m; rm ~/.ssh/id_ed25519`, want: held},
		{finding: "copy out then delete outside", cmd: `cp /srv/data/db build/db; rm -f /srv/data/db; rm -f build/db`, want: held},
		{finding: "go build && unlink outside", cmd: `go build ./... && unlink /srv/data/db`, want: held},
		{finding: "rm beside in the background", cmd: `rm ~/docs/a.txt & cp src/m.py build/m`, want: held},
		{finding: "chmod -R 000 outside after a copy", cmd: `cp src/m.py build/m; chmod -R 000 ~/docs`, want: held},
		{finding: "rm of $HOME/docs/a.txt", cmd: `rm -f "$HOME/docs/a.txt"`, want: held},
		{finding: "unlink of ${HOME}/docs/a.txt", cmd: `unlink "${HOME}/docs/a.txt"`, want: held},
		{finding: "rm of $TMPDIR/../ outside", cmd: `rm -f $TMPDIR/../x/data/db`, want: held},
		{finding: "rm of an unset variable then an existing path", cmd: `rm -f $NOPE@ROOT@/x/data/db`, want: held},
		{finding: "the secret beside a program", cmd: `python3 -V; rm -f ~/.local/state/airlock/secrets/serve.token`, want: denied},

		{finding: "fallocate punching a hole in a file outside", cmd: `fallocate --punch-hole -o 0 -l 1M /srv/data/db`, want: held},
		{finding: "ordinary: rm of objects under a run-time directory", cmd: `rm -f "$BUILD"/*.o "${OUT:-build}/x.o" $D/{a,b}.o`, want: notHeld},
		{finding: "ordinary: fallocate of a new image in build", cmd: `fallocate -l 1G build/big.img`, want: notHeld},
		{finding: "ordinary: copy then remove in build", cmd: `cp src/m.py build/m; rm -f build/old`, want: notHeld},
		{finding: "ordinary: test output to scratch, removed", cmd: `go test ./... > /tmp/o.txt; rm -f /tmp/o.txt`, want: notHeld},
		{finding: "ordinary: rm of a run-time name in build", cmd: `rm -f "$BUILD/x.o"`, want: notHeld},
		{finding: "ordinary: rm of each log", cmd: `for f in *.log; do rm -f "$f"; done`, want: notHeld},
		{finding: "ordinary: rm in the project beside a build", cmd: `go build ./... && rm -f build/old`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "BESIDE", base, cases)
}
