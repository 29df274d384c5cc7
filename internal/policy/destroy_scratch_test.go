package policy

import "testing"

// TestScratchDestination: rsync --delete into scratch space deletes only
// there, as rm -rf /tmp/x does; its sources removed, or a destination
// that climbs out of /tmp, are not scratch.
func TestScratchDestination(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": "t\n",
		"proj/src/a.go":                                 "package a\n",
		"proj/build/old":                                "",
	}
	cases := []findingCase{
		{finding: "rsync --delete into /tmp/mirror", cmd: `rsync -av --delete src/ /tmp/mirror/`, want: notHeld},
		{finding: "rsync --delete-after into /var/tmp/m", cmd: `rsync -a --delete-after src/ /var/tmp/m`, want: notHeld},
		{finding: "a lock file named by the pid, removed by a trap", cmd: "trap 'rm -f /tmp/lock.$$' EXIT; touch /tmp/lock.$$; make build", want: notHeld},
		{finding: "a build directory named by the time in /tmp", cmd: `rm -rf /tmp/build-$(date +%s)`, want: notHeld},
		{finding: "a pid directory that climbs out of /tmp", cmd: `rm -rf /tmp/$$/../../srv/data`, want: held},
		{finding: "sleep, then rm -rf build", cmd: `sleep 1; rm -rf build`, want: notHeld},
		{finding: "whoami, then rm -rf build", cmd: `whoami; rm -rf build`, want: notHeld},
		{finding: "env printing, then rm -rf build", cmd: `env | grep -c PATH; rm -rf build`, want: notHeld},
		{finding: "env running a program, then rm -rf build (it names no path: FINDINGS-9 B6)", cmd: `env X=1 python3 -V; rm -rf build`, want: notHeld},
		{finding: "env running a program, then rm -rf below build (it could link build)", cmd: `env X=1 python3 -V; rm -rf build/y`, want: held},
		{finding: "rsync --delete into build", cmd: `rsync -a --delete src/ build/`, want: notHeld},
		{finding: "rsync --delete climbing out of /tmp", cmd: `rsync -a --delete src/ /tmp/../srv/data/`, want: held},
		{finding: "rsync --remove-source-files of the project's sources into /tmp", cmd: `rsync -a --remove-source-files /srv/data/ /tmp/d/`, want: held},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "SCRATCH", base, cases)
}
