package teamview

import (
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

// TestAgentTextIsRendered: what an agent wrote on a machine reaches the
// reviewer with its escapes, bidi and zero-width characters visible.
func TestAgentTextIsRendered(t *testing.T) {
	now := time.Now()
	ti := wire.TeamItem{Key: "laptop-a:abc", Machine: "laptop-a", Status: "pending", Received: now,
		Item: wire.HeldItem{ID: "abc", Time: now.Add(-2 * time.Hour), Kind: "shell", Repo: "acme/\u202eweb",
			Command: "git push origin main\x1b[2K\r# looks harmless\u200b", Effect: "external",
			Reasons: []wire.Reason{{Rule: "external", Message: "publishes\x07"}}},
		Decision:   &wire.Decision{Verdict: "approve", Reviewer: "alice", Time: now.Format(time.RFC3339), Note: "ok\u2066"},
		Settlement: &wire.Settlement{Status: "refused", Channel: "team", Refused: "bad\x1bsig", Time: now}}
	text := Text(ti, now)
	for _, raw := range []string{"\x1b", "\u202e", "\u200b", "\x07", "\u2066", "\r"} {
		if strings.Contains(text, raw) {
			t.Errorf("the text holds %q raw:\n%s", raw, text)
		}
	}
	for _, want := range []string{`\x1b[2K`, `\u202e`, `\u200b`, "git push origin main", "laptop-a:abc", "held 2h ago", "alice", "refused the team decision"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	r := RowOf(ti)
	for _, f := range []string{r.What, r.Repo} {
		if strings.ContainsAny(f, "\x1b\u202e\u200b\r") {
			t.Errorf("a row field holds a raw control: %q", f)
		}
	}
	if !strings.Contains(r.What, "git push") || r.Effect == "" {
		t.Errorf("row: %+v", r)
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{-time.Second: "0s", 5 * time.Second: "5s", 3 * time.Minute: "3m", 5 * time.Hour: "5h", 72 * time.Hour: "3d"} {
		if got := Age(d); got != want {
			t.Errorf("Age(%s) = %q, want %q", d, got, want)
		}
	}
}
