package classify

import (
	"strings"
	"testing"
)

// TestSpecExamples runs every example of every spec: each must classify as
// its label says, and each spec must carry examples of both kinds (one
// that is held and one that is not). It reads the table through Specs,
// which builds it: the package variable is empty until the first lookup,
// so a run of this test alone would otherwise check nothing.
func TestSpecExamples(t *testing.T) {
	all := Specs()
	if len(all) == 0 {
		t.Fatal("no specs")
	}
	for _, s := range all {
		name := strings.Join(s.Programs, ",")
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			var held, free int
			for _, ex := range s.Examples {
				want, err := ParseLabel(ex.Label)
				if err != nil {
					t.Fatalf("example %q: %v", ex.Command, err)
				}
				if want.Tier == Local && !want.Destructive && !want.Opaque {
					free++
				} else {
					held++
				}
				got := Command(ex.Command)
				if got.Label() != want.Label() {
					t.Errorf("%s\n  got  %s %v\n  want %s", ex.Command, got.Label(), got.Reasons, want.Label())
				}
			}
			if held == 0 || free == 0 {
				t.Errorf("spec needs positive and negative examples: %d that are held, %d that are not", held, free)
			}
		})
	}
}

func TestLabelRoundTrip(t *testing.T) {
	for _, l := range []string{"local", "shared+destructive", "external+destructive+opaque+netread", "local+netread"} {
		e, err := ParseLabel(l)
		if err != nil {
			t.Fatal(err)
		}
		if e.Label() != l {
			t.Errorf("ParseLabel(%q).Label() = %q", l, e.Label())
		}
	}
	for _, bad := range []string{"", "remote", "local+loud", "external+"} {
		if _, err := ParseLabel(bad); err == nil {
			t.Errorf("ParseLabel(%q) accepted a bad label", bad)
		}
	}
}
