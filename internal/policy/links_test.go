package policy

import (
	"strings"
	"testing"
)

// TestScratchLinks: a link the command makes in scratch space is the file
// it links to: writing or emptying it there is a write of that file, and
// find following links (-L, -H, -follow) deletes through them; scratch
// files with no link, and links the command only removes, stay scratch
// (FINDINGS-8 H9).
func TestScratchLinks(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"home/docs/a.txt":                               "the human's notes\n",
		"proj/x":                                        "x\n",
		"proj/README.md":                                "hi\n",
	}
	cases := []findingCase{
		{finding: "hard link of ~/docs/a.txt in mktemp, truncated", cmd: `t=$(mktemp -d); ln ~/docs/a.txt "$t/h"; : > "$t/h"`, want: held},
		{finding: "hard link with -f, emptied by truncate", cmd: `t=$(mktemp -d); ln -f ~/docs/a.txt $t/h && truncate -s 0 $t/h`, want: held},
		{finding: "cp -al of ~/docs into mktemp, a file emptied", cmd: `t=$(mktemp -d); cp -al ~/docs $t/d; : > $t/d/a.txt`, want: held},
		{finding: "symlink to /srv/data in mktemp, a file emptied", cmd: `t=$(mktemp -d); ln -s /srv/data $t/d; : > $t/d/db`, want: held},
		{finding: "hard link in /tmp, shredded", cmd: `ln ~/docs/a.txt /tmp/h; shred /tmp/h`, want: held},
		{finding: "hard link of the hook settings, truncated", cmd: `t=$(mktemp -d); ln ~/.claude/settings.json $t/h; : > $t/h`, want: denied},
		{finding: "find -H /tmp/q -delete", cmd: `ln -s /srv/data /tmp/q; find -H /tmp/q -delete`, want: held},
		{finding: "find mktemp -L -type f -delete", cmd: `t=$(mktemp -d); ln -s ~/docs $t/d; find -L "$t" -type f -delete`, want: held},

		{finding: "find -L -exec rm through a link in /tmp", cmd: `ln -s /srv/data /tmp/q/d; find -L /tmp/q -type f -exec rm {} +`, want: held},
		{finding: "find -follow -exec rm -f in mktemp", cmd: `t=$(mktemp -d); ln -s ~/docs $t/d; find $t -follow -type f -exec rm -f {} \;`, want: held},

		// Ordinary work.
		{finding: "ln -s ../x link", cmd: `ln -s ../x link`, want: notHeld},
		{finding: "find /tmp/x -delete", cmd: `find /tmp/x -delete`, want: notHeld},
		{finding: "a scratch file written, linked and removed", cmd: `t=$(mktemp -d); echo hi > $t/a; ln $t/a $t/b; : > $t/b; rm -rf "$t"`, want: notHeld},
		{finding: "a hard link in mktemp removed", cmd: `t=$(mktemp -d); ln README.md $t/r; rm $t/r`, want: notHeld},
		{finding: "a symlink to /usr/share/doc in mktemp, read", cmd: `t=$(mktemp -d); ln -s /usr/share/doc $t/d; ls $t/d; cat $t/d/x 2>/dev/null`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "8c", base, cases)
}
