//go:build linux

package runner

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

// TestReportReviewClipsAndBounds: the summary shows an agent-chosen path
// with its control characters escaped, says what was set aside with the
// mv that keeps it, groups named files by reason, and bounds each group.
func TestReportReviewClipsAndBounds(t *testing.T) {
	r := run.Reviewed{Found: []run.Found{
		{Path: "/p/flake.nix", AsideAs: "/p/flake.nix.airlock-review", Why: "nix", Restored: true},
		{Path: "/p/x\x1b[2J.gdbinit", Why: "gdb", Err: errors.New("rename /p/x\x1b[2J.gdbinit: busy")},
	}, Truncated: true}
	for i := 0; i < 30; i++ {
		r.Found = append(r.Found, run.Found{Path: "/p/.f" + strconv.Itoa(i), Why: run.WhyDot})
	}
	var out bytes.Buffer
	reportReview("/p", r, "", &out)
	s := out.String()
	if strings.Contains(s, "\x1b") {
		t.Errorf("a control character reaches the terminal:\n%q", s)
	}
	for _, want := range []string{"mv /p/flake.nix.airlock-review /p/flake.nix", "back in its place", "could not be set aside", "and 18 more", "too many files"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "review before it runs:"); n != 1 {
		t.Errorf("%d lines for one reason:\n%s", n, s)
	}
}
