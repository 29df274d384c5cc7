package journal

import (
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// TestReportRunReviews: what the review after a contained run journaled
// is in the report, text and Markdown, with an agent-chosen path's
// control characters shown escaped.
func TestReportRunReviews(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	note := "/p/.gdbinit was made or changed during the run and is set aside as .gdbinit.airlock-review\nreview before it runs: .foo\x1b[2Jrc (a dot file)\n"
	if _, err := j.Record(&vocab.Event{Time: now, Agent: "airlock", Name: EventRunReview, Cwd: "/p", Note: note}); err != nil {
		t.Fatal(err)
	}
	r, err := j.MakeReport(Scope{}, now.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.RunReviews) != 1 || r.RunReviews[0].Project != "/p" {
		t.Fatalf("run reviews %+v", r.RunReviews)
	}
	for _, out := range []string{r.Text(), r.markdown()} {
		if !strings.Contains(out, ".gdbinit.airlock-review") || !strings.Contains(out, "review before it runs") {
			t.Errorf("the report does not name the review:\n%s", out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("a control character reaches the report:\n%q", out)
		}
	}
}
