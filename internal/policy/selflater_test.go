package policy

import (
	"strings"
	"testing"
)

// TestPathShadowFromPATH: a directory on the hook's own PATH counts as
// one the human's shell looks programs up in, beside the home's usual
// ones; a relative PATH entry does not.
func TestPathShadowFromPATH(t *testing.T) {
	f := newFixture(t)
	f.env["PATH"] = "/opt/tools/bin:.:/usr/bin"
	p := f.load()
	for _, tc := range []struct {
		cmd     string
		refused bool
	}{
		{"cp /tmp/x /opt/tools/bin/git", true},
		{"ln -s /tmp/x /opt/tools/bin/airlock", true},
		{"echo x > /opt/tools/bin/NPM", true}, // case folded: macOS
		{"cp /tmp/x /opt/tools/bin/mytool", false},
		{"cp /tmp/x ./git", false},          // "." on PATH is not a later shell's
		{"cp /tmp/x /opt/other/git", false}, // not on PATH
		{"rm /opt/tools/bin/git", false},    // a deletion plants nothing (graded as destruction instead)
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: f.path("proj")})
		refused := v.Decision == Deny && strings.HasPrefix(v.Rule, "self.")
		if refused != tc.refused {
			t.Errorf("%s: got %s by %s (%s), want refused=%v", tc.cmd, v.Decision, v.Rule, clipText(v.Message), tc.refused)
		}
	}
}

// TestSiteCustomize: the paths Python runs at every start.
func TestSiteCustomize(t *testing.T) {
	for _, tc := range []struct {
		p       string
		parents bool
		want    bool
	}{
		{"/h/.local/lib/python3.11/site-packages/usercustomize.py", false, true},
		{"/usr/lib/python3/dist-packages/sitecustomize.cpython-311.pyc", false, true},
		{"/v/lib/python3.12/site-packages/sitecustomize/__init__.py", false, true},
		{"/v/lib/python3.12/site-packages/x.pth", false, true},
		{"/v/lib/python3.12/site-packages", true, true},
		{"/v/lib/python3.12/site-packages", false, false},
		{"/v/lib/python3.12/site-packages/pkg/x.pth", false, false}, // only the directory's own .pth files are read
		{"/v/lib/python3.12/site-packages/mymod.py", false, false},
		{"/src/usercustomize.py", false, false},
	} {
		if _, got := siteCustomize(tc.p, tc.parents); got != tc.want {
			t.Errorf("siteCustomize(%q, %v) = %v, want %v", tc.p, tc.parents, got, tc.want)
		}
	}
}

// TestNestedAgentMode (H11): a nested agent may be given a mode as strict
// as the session's or stricter, never a weaker one; and airlock's
// variables the human set for the session may not be dropped before an
// agent runs.
func TestNestedAgentMode(t *testing.T) {
	f := newFixture(t)
	f.env["AIRLOCK_MODE"] = "unattended"
	p := f.load()
	for _, tc := range []struct {
		mode    Mode
		cmd     string
		refused bool
	}{
		{Interactive, "AIRLOCK_MODE=unattended claude -p hi", false},
		{Interactive, "AIRLOCK_MODE=supervised claude -p hi", false},
		{Interactive, "AIRLOCK_MODE=interactive claude -p hi", false},
		{Supervised, "AIRLOCK_MODE=interactive claude -p hi", true},
		{Supervised, "AIRLOCK_MODE=bogus claude -p hi", true},
		{Unattended, "env -u AIRLOCK_MODE claude -p hi", true},
		{Unattended, "unset AIRLOCK_MODE; claude -p hi", true},
		{Unattended, "env -i PATH=/usr/bin claude -p hi", true},
		{Unattended, "env -u FOO claude -p hi", false},
		{Unattended, "unset AIRLOCK_MODE; ls", false}, // no agent runs
	} {
		v := p.DecideIn(tc.mode, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: f.path("proj")})
		refused := v.Decision == Deny && v.Rule == RuleAgentGuardOff
		if refused != tc.refused {
			t.Errorf("%s in %s: got %s by %s (%s), want refused=%v", tc.cmd, tc.mode, v.Decision, v.Rule, clipText(v.Message), tc.refused)
		}
	}
}

// TestJournalReadable (H12): reading airlock's journal is allowed, by
// decision (docs/THREAT-MODEL.md): it holds queue ids and held commands,
// and an id approves nothing without the human key, which stays
// unreadable, and airlock's approve verb stays refused. Changing the
// journal stays refused.
func TestJournalReadable(t *testing.T) {
	f := newFixture(t)
	j := f.write("home/.local/state/airlock/journal/journal-000001.jsonl", "{}\n")
	f.write("home/.local/state/airlock/secrets/human.key", "k\n")
	p := f.load()
	for _, tc := range []struct {
		cmd     string
		refused bool
	}{
		{"cat " + j, false},
		{"grep -h '\"decision\":\"defer\"' ~/.local/state/airlock/journal/*.jsonl", false},
		{"tail -n 50 ~/.local/state/airlock/journal/journal-000001.jsonl", false},
		{"echo '{}' >> " + j, true},
		{"rm ~/.local/state/airlock/journal/journal-000001.jsonl", true},
		{"cat ~/.local/state/airlock/secrets/human.key", true},
		{"id=$(grep -o 'queue_id\":\"[a-f0-9]*' " + j + " | tail -1); airlock queue approve \"$id\"", true},
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: f.path("proj")})
		refused := v.Decision == Deny && strings.HasPrefix(v.Rule, "self.")
		if refused != tc.refused {
			t.Errorf("%s: got %s by %s (%s), want refused=%v", tc.cmd, v.Decision, v.Rule, clipText(v.Message), tc.refused)
		}
	}
	// The Read tool too.
	if v := p.DecideIn(Unattended, Action{Kind: Read, Tool: "Read", Paths: []string{j}, Cwd: f.path("proj")}); v.Decision == Deny {
		t.Errorf("Read of the journal: %s by %s", v.Decision, v.Rule)
	}
}
