package policy

import (
	"strings"
	"testing"
)

// TestDynamicTrailingSlash: a directory known only at run time, written
// with a trailing "/" or "/." (cp -r evil/. "$D/.config/"), is the
// directory itself: its static end is checked as it is without them,
// and a bare run-time directory stays refused with or without them.
func TestDynamicTrailingSlash(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/dist/a.js":                                "",
	}
	cases := []findingCase{
		{finding: "cp -r into $D/.config/", cmd: `cp -r /tmp/evil/. $D/.config/`, want: denied},
		{finding: "cp -r into $(foo)/.config/", cmd: `cp -r /tmp/evil/. "$(foo)/.config/"`, want: denied},
		{finding: "cp -r into $D/.config/.", cmd: `cp -r /tmp/evil/. $D/.config/.`, want: denied},
		{finding: "cp -r into $D/.config//", cmd: `cp -r /tmp/evil/. $D/.config//`, want: denied},
		{finding: "rsync into $D/.claude/", cmd: `rsync -a /tmp/evil/ "$D/.claude/"`, want: denied},
		{finding: "cp -r into $D/.config/x/..", cmd: `cp -r /tmp/evil/. "$D/.config/x/.."`, want: denied},
		{finding: "cp -r into $D/build/x/..", cmd: `cp -r /tmp/evil/. "$D/build/x/.."`, want: denied},
		{finding: "cp -r into $D/", cmd: `cp -r /tmp/evil/. "$D/"`, want: denied},
		{finding: "cp -r into $D/build/", cmd: `cp -r dist/. "$D/build/"`, want: notDeny},
		{finding: "tail of a mktemp file", cmd: `tmp=$(mktemp) && go test ./... > "$tmp"; tail -5 "$tmp"; rm -f "$tmp"`, want: notHeld},
		{finding: "a mktemp path that climbs to a secret", cmd: `cat "$(mktemp -d)/../../home/.local/state/airlock/secrets/serve.token"`, want: denied},
		{finding: "cp into a directory set in the text", cmd: `out=dist/x; mkdir -p "$out/" && cp dist/a.js "$out/"`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "SLASH", base, cases)
}
