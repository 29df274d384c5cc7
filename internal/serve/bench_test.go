package serve

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// BenchmarkQueuePage serves the queue page with 1,000 pending items, and
// splits its cost: the queue read from the journal's index (open) and
// the whole handler (page). bench/serve-timing.sh times it over loopback
// on a journal of 1M events.
//
//	go test ./internal/serve -run '^$' -bench QueuePage -benchtime 50x
func BenchmarkQueuePage(b *testing.B) {
	state := b.TempDir()
	j, err := journal.Open(journal.DirIn(state))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		cmd := fmt.Sprintf("git push origin b%d", i)
		if _, err := j.Record(&vocab.Event{Time: time.Now(), Agent: "claude-code", Name: "PreToolUse", Session: "s", Cwd: "/p", Tool: "Bash",
			Action:  &policy.Action{Kind: policy.Shell, Tool: "Bash", Command: cmd, Cwd: "/p"},
			Verdict: (&policy.Verdict{Decision: policy.Defer, Rule: "table.external", Effect: classify.Effect{Tier: classify.External}}).Record()}); err != nil {
			b.Fatal(err)
		}
	}
	s, err := New(Config{Journal: j, Addr: "127.0.0.1:7777"})
	if err != nil {
		b.Fatal(err)
	}
	s.g.sessions["bench"] = session{start: time.Now()}
	h := s.Handler()
	b.Run("open", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := j.Open(time.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
	page := func(b *testing.B, cold, moved bool) {
		for i := 0; i < b.N; i++ {
			if cold {
				s.rows.stamp = ""
			}
			if moved {
				b.StopTimer()
				if _, err := j.Record(&vocab.Event{Time: time.Now(), Agent: "claude-code", Name: "PreToolUse", Session: "s", Cwd: "/p", Tool: "Bash",
					Action:  &policy.Action{Kind: policy.Shell, Tool: "Bash", Command: "go test ./...", Cwd: "/p"},
					Verdict: (&policy.Verdict{Decision: policy.Allow, Rule: "table.local"}).Record()}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			req := httptest.NewRequest("GET", "http://127.0.0.1:7777/", nil)
			req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "bench"})
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != 200 {
				b.Fatalf("status %d", w.Code)
			}
		}
	}
	// cold: the cache is dropped; moved: an allowed call is recorded
	// before each page, as hooks do; cached: the journal did not move.
	b.Run("cold", func(b *testing.B) { page(b, true, false) })
	b.Run("moved", func(b *testing.B) { page(b, false, true) })
	b.Run("cached", func(b *testing.B) { page(b, false, false) })
}
