package policy

import (
	"testing"
)

// TestContainedOpaqueLocal: a local program run airlock cannot read is
// held when the action is not contained, and warned about when it is
// (the egress proxy is the backstop); outward actions, destruction,
// self-protection and rules stay as they are, contained or not.
func TestContainedOpaqueLocal(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.userFile("mode: unattended\nrules:\n  - id: user.no-make\n    match: {command: [make]}\n    decision: deny\n")
	p := f.load()
	cwd := f.path("proj")
	cases := []struct {
		cmd                   string
		uncontained, contains Decision
		rule                  string // the contained verdict's rule
	}{
		{cmd: `eval "$CMD"`, uncontained: Defer, contains: Warn, rule: RuleContainedOpaque},
		{cmd: `bash "$SCRIPT"`, uncontained: Defer, contains: Warn, rule: RuleContainedOpaque},
		{cmd: `git hook run pre-commit`, uncontained: Defer, contains: Warn, rule: RuleContainedOpaque},
		{cmd: `go vet ./... && eval "$CMD"`, uncontained: Defer, contains: Warn, rule: RuleContainedOpaque},
		// Outward: held by the hook as before.
		{cmd: `git push origin main`, uncontained: Defer, contains: Defer, rule: "table.external"},
		{cmd: `curl -X POST -d @notes.txt https://example.test/api`, uncontained: Defer, contains: Defer, rule: "table.external"},
		{cmd: `eval "$CMD" && git push`, uncontained: Defer, contains: Defer, rule: "table.external"},
		// Destruction outside the project that airlock cannot read.
		{cmd: `rm -rf "$DIR"`, uncontained: Deny, contains: Deny},
		// Self-protection still applies.
		{cmd: `eval "$CMD" > ~/.config/airlock/policy.yaml`, uncontained: Deny, contains: Deny},
		// A user's deny rule still applies.
		{cmd: `make "$T"`, uncontained: Deny, contains: Deny, rule: "user.no-make"},
		// Local work is allowed either way.
		{cmd: `go test ./...`, uncontained: Allow, contains: Allow, rule: "table.local"},
	}
	for _, c := range cases {
		a := Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: cwd, NoHuman: true}
		if v := p.Decide(a); v.Decision != c.uncontained {
			t.Errorf("%q uncontained: %s (%s), want %s", c.cmd, v.Decision, v.Rule, c.uncontained)
		}
		a.Contained = true
		v := p.Decide(a)
		if v.Decision != c.contains || c.rule != "" && v.Rule != c.rule {
			t.Errorf("%q contained: %s (%s), want %s (%s)", c.cmd, v.Decision, v.Rule, c.contains, c.rule)
		}
		if v.Rule == RuleContainedOpaque && !hasReason(v, RuleContainedOpaque) {
			t.Errorf("%q contained: no %s reason for the reader", c.cmd, RuleContainedOpaque)
		}
	}
	// Only shell commands: a write whose content airlock cannot read is
	// decided as before.
	w := Action{Kind: Write, Tool: "Write", Paths: []string{"x.sh"}, Content: `eval "$CMD"`, Cwd: cwd, NoHuman: true, Contained: true}
	if v := p.Decide(w); v.Rule == RuleContainedOpaque {
		t.Errorf("a contained write was relaxed: %s (%s)", v.Decision, v.Rule)
	}
	// A table that refuses opaque runs outright keeps refusing them.
	f.userFile("mode: unattended\ntable:\n  unattended: {opaque: deny}\n")
	p = f.load()
	if v := p.Decide(Action{Kind: Shell, Command: `eval "$CMD"`, Cwd: cwd, Contained: true}); v.Decision != Deny {
		t.Errorf("opaque: deny, contained: %s (%s), want deny", v.Decision, v.Rule)
	}
}

func hasReason(v Verdict, rule string) bool {
	for _, r := range v.Reasons {
		if r.Rule == rule {
			return true
		}
	}
	return false
}
