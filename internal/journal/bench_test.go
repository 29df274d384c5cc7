package journal

import (
	"fmt"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// bigJournal writes n allowed calls over 100 sessions, with a deferred
// one every 50 calls.
func bigJournal(b *testing.B, n int) *Journal {
	b.Helper()
	j, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		var ev *vocab.Event
		if i%50 == 0 {
			ev = held(fmt.Sprintf("git push origin b%d", i), "/p")
		} else {
			ev = allowed(fmt.Sprintf("go test ./pkg%d/...", i))
		}
		ev.Session = fmt.Sprintf("session-%03d", i%100)
		if _, err := j.Record(ev); err != nil {
			b.Fatal(err)
		}
	}
	return j
}

// A deferred call looks for a human's approval of it: the cost grows with
// the journal.
func BenchmarkRecordDeferIn20kJournal(b *testing.B) {
	j := bigJournal(b, 20000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := j.Record(held("npm publish", "/p")); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecordAllowIn20kJournal(b *testing.B) {
	j := bigJournal(b, 20000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := j.Record(allowed("ls")); err != nil {
			b.Fatal(err)
		}
	}
}

// The Stop hook's report of one session.
func BenchmarkSessionReportIn20kJournal(b *testing.B) {
	j := bigJournal(b, 20000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := j.MakeReport(Scope{Session: "session-042"}, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}
