package scan

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
)

// TestEveryFamilyHasPatterns derives the families from the classifier's
// specs and checks that plain text finds every held example of every
// family: written at a shell prompt it is a finding marked executed;
// quoted in prose it is a finding marked mentioned. A program the
// classifier learns to hold is thus covered here or this test fails.
func TestEveryFamilyHasPatterns(t *testing.T) {
	fams := Families()
	if len(fams) < 20 {
		t.Fatalf("only %d families derived from the classifier specs", len(fams))
	}
	var external int
	for _, f := range fams {
		if f.External {
			external++
		}
	}
	t.Logf("%d families, %d of them external", len(fams), external)
	for _, s := range classify.Specs() {
		for _, ex := range s.Examples {
			want, err := classify.ParseLabel(ex.Label)
			if err != nil {
				t.Fatal(err)
			}
			if want.Tier != classify.External && !want.Destructive {
				continue
			}
			if strings.ContainsAny(ex.Command, "\n`") {
				continue // one line of text holds one line of command
			}
			for _, form := range []struct {
				text   string
				status Status
			}{
				{"Session log:\n$ " + ex.Command + "\n", Executed},
				{"Done. You can run `" + ex.Command + "` later.\n", Mentioned},
			} {
				var sc Scanner
				res, err := sc.Scan(strings.NewReader(form.text), "t")
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, f := range res.Findings {
					if f.Status == form.status {
						found = true
					}
				}
				if !found {
					t.Errorf("%s family: %q in %q: want a finding marked %s, got %d findings", s.Programs[0], ex.Command, form.text, form.status, len(res.Findings))
				}
			}
		}
	}
}

// TestEvidenceKeysAreFamilies keeps the output markers in step with the
// classifier: each key of the evidence table must name a family.
func TestEvidenceKeysAreFamilies(t *testing.T) {
	names := map[string]bool{}
	for _, f := range Families() {
		names[f.Name] = true
	}
	for k := range evidence.Get() {
		if !names[k] {
			t.Errorf("evidence markers for %q, which is not a family name (a spec's first program)", k)
		}
	}
	a := getAnchors()
	for _, o := range outputMarkers {
		if _, ok := a.family[strings.Fields(o.command)[0]]; !ok {
			t.Errorf("output marker %q implies %q, whose program no family rates", o.text, o.command)
		}
	}
}
