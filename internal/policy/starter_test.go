package policy

import "testing"

func TestStarter(t *testing.T) {
	f := newFixture(t)
	f.userFile(Starter)
	p := f.load()
	if p.Mode != Interactive || len(p.Rules) != len(builtinRules())+1 {
		t.Fatalf("starter: mode %s, %d rules", p.Mode, len(p.Rules))
	}
	for _, r := range p.RunExamples() {
		if !r.OK() {
			t.Errorf("starter example of %s fails: %+v", r.Rule.ID, r.Example)
		}
	}
}
