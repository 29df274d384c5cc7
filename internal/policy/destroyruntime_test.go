package policy

import (
	"reflect"
	"sort"
	"testing"
)

// TestDestructionRuntimeParts: a word whose run-time parts have a known
// alphabet (no "/", never "." or "..") is placed as the globs it stands
// for, like self-protection reads it (FINDINGS-4 R3): inside the project
// it is snapshotted (the glob's matches now and the static prefix the
// empty variant names); a part that can hold "/" or "..", or a glob that
// lands outside the project, stays refused.
func TestDestructionRuntimeParts(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.write("proj/build/tmp.42/x", "x")
	f.write("proj/build/keep", "x")
	f.write("proj/dist-1a2b/x", "x")
	f.write("home/.ssh/id_ed25519", "k")
	f.write("other/tmp.7/x", "x")
	p := f.load()
	proj := f.path("proj")
	const snap, deny = "snapshot", "deny"
	tests := []struct {
		cmd   string
		want  string
		paths []string
	}{
		{`tmp=build/tmp.$RANDOM; mkdir -p $tmp && rm -rf $tmp`, snap, []string{"build/tmp.", "build/tmp.42"}},
		{`rm -rf "build/tmp.$RANDOM"`, snap, []string{"build/tmp.", "build/tmp.42"}},
		{`rm -rf build/tmp.$$`, snap, []string{"build/tmp.", "build/tmp.42"}},
		{`rm -rf "build/$(date +%s)"`, snap, []string{"build"}},
		{`rm -rf dist-$(git rev-parse --short HEAD)`, snap, []string{"dist-", "dist-1a2b"}},
		{`rm -rf build/log.$((n+1))`, snap, []string{"build/log."}},
		{`d=build; rm -rf $d/tmp.$RANDOM`, snap, []string{"build/tmp.", "build/tmp.42"}},
		{`truncate -s 0 build/log.$$`, snap, []string{"build/log."}},
		// A part that can hold "/" or "..", or whose output is not known.
		{`rm -rf build/$(git describe)`, deny, nil},
		{`rm -rf build/$(cat f)`, deny, nil},
		{`rm -rf build/$1`, deny, nil},
		{`rm -rf build/${f##*/}`, deny, nil},
		{`rm -rf build/$(date)`, deny, nil},
		{`rm -rf build/$(date +%Y/%m)`, deny, nil},
		// Outside the project, wherever the run-time part lands.
		{`rm -rf $HOME/$RANDOM`, deny, nil},
		{`rm -rf ~/.ssh.$RANDOM`, deny, nil},
		{`rm -rf ~/.ssh/id.$$`, deny, nil},
		{`rm -rf ../other/tmp.$RANDOM`, deny, nil},
		{`rm -rf /tmp/../etc/x.$$`, deny, nil},
		// The empty variant: $(date) may print nothing, and then the
		// project itself is named.
		{`rm -rf ./$(date +%s)`, deny, nil},
		{`rm -rf .git/$RANDOM`, deny, nil},
		// Climbing out of a directory named at run time.
		{`rm -rf build/d$RANDOM/../../x`, deny, nil},
		{`mkdir d$$ && rm -rf d$$/../x`, deny, nil},
	}
	for _, tt := range tests {
		a := Action{Kind: Shell, Tool: "Bash", Command: tt.cmd, Cwd: proj, Snapshots: true}
		v := p.DecideIn(Unattended, a)
		if tt.want == snap {
			if v.Decision != Warn || v.Rule != RuleSnapshot || v.Snapshot == nil {
				t.Errorf("%q: got %s by %s (%v), want a snapshot", tt.cmd, v.Decision, v.Rule, v.Reasons)
				continue
			}
			got := append([]string(nil), v.Snapshot.Paths...)
			sort.Strings(got)
			if !reflect.DeepEqual(got, tt.paths) {
				t.Errorf("%q: snapshot paths %v, want %v", tt.cmd, got, tt.paths)
			}
			continue
		}
		if v.Decision != Deny || v.Snapshot != nil {
			t.Errorf("%q: got %s by %s (%v), want deny", tt.cmd, v.Decision, v.Rule, v.Reasons)
		}
	}
}
