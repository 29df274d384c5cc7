package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFeedsSelfProtection: the words xargs and parallel add are checked
// against airlock's files as find -exec's are. A clean-up whose find
// pattern, pathspec or list cannot reach them is snapshotted; one that
// can is refused in every mode.
func TestFeedsSelfProtection(t *testing.T) {
	f, proj := ordinaryProject(t)
	for rel, text := range map[string]string{
		"old.orig":     "",
		"orig.list":    "old.orig\n",
		"evil.list":    "old.orig\n.airlock/policy.yaml\n",
		"settings.lst": ".claude/settings.json\n",
	} {
		if err := os.WriteFile(filepath.Join(proj, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// git ls-files lists what git's index holds: every file here is
	// tracked, the project's hook settings and policy included.
	gitTrackAll(t, proj)
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		`find . -name '*.pyc' -print0 | xargs -0 rm -f`,
		`find . -name '*.pyc' | xargs rm -f`,
		`find . -type d -name __pycache__ -print0 | xargs -0 rm -rf`,
		`git ls-files -z '*.orig' | xargs -0 rm -f`,
		`xargs -a orig.list rm -f`,
		`find build -type f | parallel rm`,
	} {
		for _, mode := range []Mode{Interactive, Unattended} {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj, Snapshots: true})
			if v.Decision != Warn || v.Rule != RuleSnapshot {
				t.Errorf("%s in %s mode: %s by %s (%v), want a snapshot", cmd, mode, v.Decision, v.Rule, v.Reasons)
			}
		}
	}
	for _, cmd := range []string{
		`find . -name '*.json' -print0 | xargs -0 rm -f`,
		`find . -name 'settings.*' | xargs rm -f`,
		`find .claude -print0 | xargs -0 rm -f`,
		`find . -path './.airlock/*' -print0 | xargs -0 rm -f`,
		`git ls-files -z | xargs -0 rm -f`,
		`git ls-files -z .claude | xargs -0 rm -f`,
		`git ls-files -z '*.yaml' | xargs -0 rm -f`,
		`xargs -a evil.list rm -f`,
		`xargs rm -f < settings.lst`,
		`xargs -a settings.lst -I{} cp /dev/null {}`,
		`find . -name '*.json' | parallel rm`,
	} {
		for _, mode := range []Mode{Interactive, Unattended} {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj, Snapshots: true})
			if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
				t.Errorf("%s in %s mode: %s by %s (%v), want a deny by self-protection", cmd, mode, v.Decision, v.Rule, v.Reasons)
			}
		}
	}
}
