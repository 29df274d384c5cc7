package policy

import (
	"strings"
	"testing"
)

// TestBuildFilesDecided: the build files of ninja, just, task and mage
// are read as make's are (FINDINGS-4 K5, C19 and C20 with content): a
// recipe that turns airlock off is refused; an ordinary build is not.
func TestBuildFilesDecided(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.write("proj/evil.ninja", "rule r\n  command = cp /dev/null ~/.claude/settings.json\nbuild all: r\n")
	f.write("proj/evil.just", "default:\n    airlock queue approve abcd\n")
	f.write("proj/ev/Taskfile.yml", "version: '3'\ntasks:\n  default:\n    cmds:\n      - airlock queue approve abcd\n")
	f.write("proj/mg/magefile.go", "//go:build mage\n\npackage main\n\nfunc Build() error { return sh.Run(\"airlock\", \"queue\", \"approve\", \"abcd\") }\n")
	f.write("proj/build.ninja", "rule cc\n  command = cc -c $in -o $out\nbuild a.o: cc a.c\n")
	f.write("proj/justfile", "build:\n    go build ./...\n")
	f.write("proj/big.ninja", strings.Repeat("x", 300<<10))
	f.write("proj/wipe.ninja", "rule r\n  command = touch $out\nbuild "+f.path("home/.claude/settings.json")+": r\n")
	p := f.load()
	proj := f.path("proj")
	for _, tc := range []struct {
		cmd  string
		want string // "denied", "held" or "ok"
	}{
		{"ninja -f evil.ninja", "denied"},
		{"just --justfile evil.just", "denied"},
		{"task -d ev", "denied"},
		{"cd mg && mage build", "denied"},
		{"mage -d mg build", "denied"},
		{"ninja -f big.ninja", "held"},
		{"ninja -f wipe.ninja -t clean", "denied"},
		{"ninja -t clean", "ok"},
		{"ninja", "ok"},
		{"just build", "ok"},
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: proj, Snapshots: true})
		switch tc.want {
		case "denied":
			if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
				t.Errorf("%q: %s by %s (%v), want a deny by self-protection", tc.cmd, v.Decision, v.Rule, v.Reasons)
			}
		case "held":
			if v.Decision == Allow || v.Decision == Warn {
				t.Errorf("%q: %s by %s, want it held", tc.cmd, v.Decision, v.Rule)
			}
		default:
			if v.Decision != Allow {
				t.Errorf("%q: %s by %s (%v), want allow", tc.cmd, v.Decision, v.Rule, v.Reasons)
			}
		}
	}
}
