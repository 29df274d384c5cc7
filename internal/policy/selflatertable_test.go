package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLaterHomeTable runs every entry of laterHomeTargets both ways: a
// write to the entry (or below it, for a directory) by the Write tool,
// cp, a redirection and tee is refused, and says the entry's reason; a
// write to its neighbour (miss) and a read of the entry are not refused
// for it. A row that stops matching, or one that grows to take in the
// files beside it, fails here.
func TestLaterHomeTable(t *testing.T) {
	f := newFixture(t)
	p := f.load()
	home, proj := f.env["HOME"], f.path("proj")
	seen := map[string]bool{}
	for _, e := range laterHomeTargets {
		if seen[e.rel] {
			t.Errorf("%s: listed twice", e.rel)
		}
		seen[e.rel] = true
		if e.why == "" || e.miss == "" || e.miss == e.rel {
			t.Errorf("%s: an entry needs a reason and a neighbour that differs from it", e.rel)
		}
		hit := filepath.Join(home, e.rel)
		if e.dir {
			hit += "/x/y.conf"
		}
		q := "'" + hit + "'"
		for name, a := range map[string]Action{
			"Write":    {Kind: Write, Tool: "Write", Paths: []string{hit}, Cwd: proj, Content: "x\n"},
			"cp":       shellIn("cp /tmp/evil.sh "+q, proj),
			"redirect": shellIn("echo x > "+q, proj),
			"tee":      shellIn("tee -a "+q+" < /tmp/evil.sh", proj),
		} {
			v := p.DecideIn(Interactive, a)
			if v.Decision != Deny || v.Rule != RuleProtectedPath {
				t.Errorf("%s (%s): got %s by %s (%s), want a refusal", e.rel, name, v.Decision, v.Rule, clipText(v.Message))
				continue
			}
			if name == "Write" && !strings.Contains(v.Message, e.why) {
				t.Errorf("%s (Write): the refusal does not give the entry's reason: %s", e.rel, v.Message)
			}
		}
		nb := filepath.Join(home, e.miss)
		for _, a := range []Action{
			{Kind: Write, Tool: "Write", Paths: []string{nb}, Cwd: proj, Content: "x\n"},
			shellIn("echo x > '"+nb+"'", proj),
			shellIn("cat '"+filepath.Join(home, e.rel)+"'", proj),
		} {
			if v := p.DecideIn(Interactive, a); v.Decision == Deny {
				t.Errorf("%s: the neighbour %s or a read (%s %s) got %s by %s: %s", e.rel, e.miss, a.Tool, a.Command, v.Decision, v.Rule, clipText(v.Message))
			}
		}
	}
}
