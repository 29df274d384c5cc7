package policy

import (
	"strings"
	"testing"
)

// findingCheck is what a FINDINGS test case wants of its decision in
// unattended mode; checkFinding is the one reading of it that
// TestFindings3Open … TestFindings6Open share.
type findingCheck int

const (
	held    findingCheck = iota // not allow, not warn
	denied                      // deny by a self-protection rule
	notDeny                     // ordinary work: not refused in unattended mode
	notHeld                     // ordinary work: allowed or warned in unattended mode
)

func checkFinding(t *testing.T, cmd string, v Verdict, want findingCheck) {
	t.Helper()
	switch want {
	case held:
		if v.Decision == Allow || v.Decision == Warn {
			t.Errorf("%q was %s by %s (%v); want it held", cmd, v.Decision, v.Rule, v.Reasons)
		}
	case denied:
		if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was %s by %s (%v); want a deny by self-protection", cmd, v.Decision, v.Rule, v.Reasons)
		}
	case notDeny:
		if v.Decision == Deny {
			t.Errorf("%q was denied by %s (%v); it is ordinary work", cmd, v.Rule, v.Reasons)
		}
	case notHeld:
		if v.Decision != Allow && v.Decision != Warn {
			t.Errorf("%q was %s by %s (%v); it is ordinary work, not to be held unattended", cmd, v.Decision, v.Rule, v.Reasons)
		}
	}
}
