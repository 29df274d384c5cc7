package guard

import (
	"encoding/json"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// BenchmarkSinkCheckOnAJournal is the MCP sink check in process (rate,
// dedup, quarantine and out-of-band approvals, read from the journal's
// index) against a journal made by bench/genjournal:
//
//	go run ./bench/genjournal -n 1000000 -dir /tmp/j/journal
//	AIRLOCK_BENCH_JOURNAL=/tmp/j/journal go test -run '^$' -bench SinkCheckOnAJournal -benchtime 200x ./internal/mcp/guard
//
// It records a source's result first, so that the window holds a line
// (the quarantine's), and reports CPU time per check beside wall time.
func BenchmarkSinkCheckOnAJournal(b *testing.B) {
	dir := os.Getenv("AIRLOCK_BENCH_JOURNAL")
	if dir == "" {
		b.Skip("set AIRLOCK_BENCH_JOURNAL to a journal directory (bench/genjournal)")
	}
	j, err := journal.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	d, _ := json.Marshal(Detail{Server: "texts", Tool: "read_messages", Class: "source", Phase: "result"})
	if _, err := j.Record(&vocab.Event{Time: time.Now(), Agent: Agent, Name: "tools/result", Tool: "mcp__texts__read_messages", Detail: d}); err != nil {
		b.Fatal(err)
	}
	g := &Guard{Policy: benchPolicy(b, 0, ""), History: Journal{J: j}}
	if o := g.Check(policy.Interactive, send("Bob", "hi")); o.Class != mcpconfig.ClassSink {
		b.Fatalf("not a sink check: %+v", o.Verdict)
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.ResetTimer()
	start := cpu()
	for i := 0; i < b.N; i++ {
		g.Check(policy.Interactive, send("Bob", "hi"))
	}
	b.ReportMetric(float64(cpu()-start)/float64(b.N)/1e6, "cpu-ms/op")
}
