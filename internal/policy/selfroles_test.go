package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfProtectionByRole: in a project-scope install, a path is judged
// by what the run does to it. A read of a parent of a protected file is
// no change to it; a recursive write, delete or move of a parent is; a
// find pattern that cannot match a protected file leaves it alone.
func TestSelfProtectionByRole(t *testing.T) {
	f, proj := ordinaryProject(t)
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd     string
		refused bool
	}{
		// Refused: they change a protected file.
		{"rm -rf .claude", true},
		{"rm -rf .", true},
		{"rm .claude/settings.json", true},
		{"find . -delete", true},
		{"find . -exec rm -rf {} +", true},
		{"chmod -R a-w .", true},
		{"find . -name '*.yaml' -delete", true}, // .airlock/policy.yaml
		{"find . -name settings.json -exec rm {} +", true},
		{"find . -iname SETTINGS.JSON -delete", true},
		{"find . -path './.claude/*' -delete", true},
		{"find . -name '*.json' -exec sed -i s/a/b/ {} +", true},
		{"find . -name .claude -exec rm -rf {} +", true},
		{"find . -name '*.pyc' -o -name '*.json' -delete", true}, // not a plain conjunction: every file
		{"find . -exec frobnicate {} +", true},                   // unknown role: a write to everything below
		{"cp /tmp/settings.json .claude", true},
		{"cp -r /tmp/evil/. .claude", true},
		{"mv .airlock /tmp/x", true},
		{"mv /tmp/x .airlock/policy.yaml", true},
		{"tar -xf x.tar -C .claude", true},
		{"unzip -o x.zip -d .", true},
		{"echo x > .claude/settings.json", true},
		{"touch .airlock/x", true},
		// A container mount is a read and a write of its source.
		{"docker run -v \"$PWD/.claude\":/c alpine sh", true},
		{"docker run -v ./.claude:/c alpine true", true},
		{"podman run --mount type=bind,src=.airlock,dst=/a alpine true", true},
		{"docker run --volume=.:/w --entrypoint sh img -c x", true}, // a shell airlock cannot read, on the project
		// Allowed: reads, and writes that cannot reach a protected file.
		{"find . -name '*.pyc' -delete", false},
		{"find . -type d -name __pycache__ -exec rm -rf {} +", false},
		{"find . -name '*.py' -exec grep -l requests {} +", false},
		{"find . -type f -exec cat {} +", false},
		{"find . -type d -empty -delete", false},
		{"find .claude -name '*.bak' -delete", false},
		{"tar czf /tmp/backup.tgz .", false},
		{"zip -r /tmp/p.zip . -x 'node_modules/*'", false},
		{"cat .claude/settings.json", false},
		{"cp .claude/settings.json /tmp/backup.json", false},
		{"grep -r hooks .claude", false},
		{"ls -la .claude .airlock", false},
		{"rm -rf node_modules build", false},
		{"chmod -R u+w build", false},
		{"cp -r src /tmp/out", false},
		{"wc /", false},
		{"docker run --rm -v \"$PWD\":/w -w /w golang go build ./...", false}, // the project, for a command airlock reads
		{"docker run --rm -v \"$PWD\":/w myimage", true},                      // the image's own entrypoint, on the project
		{"docker run -v ./.claude:/c:ro alpine cat /c/settings.json", false},  // read-only: a read
		{"docker run -v /tmp/data:/data alpine ls /data", false},
		{"find . -name '*.pyc' -exec frobnicate {} +", false}, // a write, but only to what matches
	} {
		v := p.DecideIn(Interactive, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: proj, Snapshots: true})
		refused := strings.HasPrefix(v.Rule, "self.")
		if refused != tc.refused {
			t.Errorf("%s: got %s by %s (%s), want refused=%v", tc.cmd, v.Decision, v.Rule, clipText(v.Message), tc.refused)
		}
	}
}
