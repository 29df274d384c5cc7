//go:build unix

package journal

import (
	"bufio"

	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// synthJournal writes n chained events straight into dir as
// bench/genjournal does (sessions of 2,000 calls, 1,000 held calls
// spread over the journal, an MCP firewall line every 100 events; the
// last 2,000 events in session "bench-session"), then lets the journal
// index it on first use.
func synthJournal(b *testing.B, dir string, n int) *Journal {
	b.Helper()
	os.MkdirAll(dir, 0o700)
	seg, size := 1, 0
	f, _ := os.OpenFile(filepath.Join(dir, segmentName(seg)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	w := bufio.NewWriterSize(f, 1<<20)
	prev := ""
	t := time.Now().Add(-time.Duration(n) * 30 * time.Second)
	every := max(n/1000, 1)
	for i := 1; i <= n; i++ {
		t = t.Add(30 * time.Second)
		s := "session-" + strconv.Itoa(i/2000)
		if i > n-2000 {
			s = "bench-session"
		}
		e := &Entry{Seq: int64(i), Time: t, Event: "PreToolUse", Agent: "claude-code", Session: s, Cwd: "/home/u/proj",
			Tool: "Bash", Kind: "shell", Command: fmt.Sprintf("go test ./pkg%d/...", i%97), Decision: "allow", Rule: "table.local", Prev: prev}
		switch {
		case i%every == 0:
			e.Command, e.Decision, e.Rule, e.Effect = fmt.Sprintf("git push origin b%d", i), "defer", "table.external", "external"
			e.ID = queueID(prev, int64(i))
		case i%100 == 0:
			e.Agent, e.Event, e.Tool, e.Kind, e.Command = "mcp-proxy", "tools/call", "mcp__mail__send", "local-tool", ""
			e.Detail = json.RawMessage(`{"server":"mail","tool":"send","class":"sink","phase":"call","decision":"allow","sent":true}`)
		}
		line, err := marshalLine(e)
		if err != nil {
			b.Fatal(err)
		}
		prev = lineHash(line)
		if size >= DefaultMaxSegment {
			w.Flush()
			f.Close()
			seg, size = seg+1, 0
			f, _ = os.OpenFile(filepath.Join(dir, segmentName(seg)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			w = bufio.NewWriterSize(f, 1<<20)
		}
		w.Write(line)
		w.WriteByte('\n')
		size += len(line) + 1
	}
	w.Flush()
	f.Close()
	j, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := j.Open(time.Now()); err != nil { // builds the index
		b.Fatal(err)
	}
	// A journal written over months has no dirty pages: do not let the
	// first fsyncs pay for flushing hundreds of fresh megabytes.
	syscall.Sync()
	return j
}

// benchSizes are the journal sizes of BenchmarkScale:
// AIRLOCK_BENCH_SIZES=0,100000,1000000 for the figures.
func benchSizes() []int {
	spec := os.Getenv("AIRLOCK_BENCH_SIZES")
	if spec == "" {
		spec = "0,20000"
	}
	var out []int
	for _, s := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err == nil {
			out = append(out, n)
		}
	}
	return out
}

// BenchmarkScale measures what a user waits for, in process, against
// journals of several sizes:
//
//	AIRLOCK_BENCH_SIZES=0,100000,1000000 go test -run XXX -bench Scale -benchtime 200x ./internal/journal
func BenchmarkScale(b *testing.B) {
	for _, n := range benchSizes() {
		dir := filepath.Join(b.TempDir(), "journal")
		j := synthJournal(b, dir, n)
		b.Run(fmt.Sprintf("events=%d/record-allow", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := j.Record(allowed("ls")); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/record-defer", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := j.Record(held("npm publish", "/p")); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/queue-open", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := j.Open(time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/session-report", n), func(b *testing.B) {
			defer cpuPerOp(b)()
			for i := 0; i < b.N; i++ {
				if _, err := j.MakeReport(Scope{Session: "bench-session"}, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/mcp-recent-1h", n), func(b *testing.B) {
			defer cpuPerOp(b)()
			for i := 0; i < b.N; i++ {
				if _, _, err := j.Recent(time.Now().Add(-time.Hour), time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/stop-hook-awaits", n), func(b *testing.B) {
			defer cpuPerOp(b)()
			for i := 0; i < b.N; i++ {
				if _, err := j.SessionAwaits("bench-session", time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
		// An empty journal has no session to find.
		b.Run(fmt.Sprintf("events=%d/resolve-short-session", n), func(b *testing.B) {
			if n == 0 {
				b.Skip("no session")
			}
			defer cpuPerOp(b)()
			for i := 0; i < b.N; i++ {
				if _, err := j.ResolveSession("bench-se"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/resolve-short-session-by-walk", n), func(b *testing.B) {
			if n == 0 {
				b.Skip("no session")
			}
			defer cpuPerOp(b)()
			for i := 0; i < b.N; i++ {
				if _, err := j.resolveSessionByWalk("bench-se"); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The same report with the postings' facts zeroed: every line of
		// the session is read and decoded, as before the facts.
		forgetFacts(b, j)
		b.Run(fmt.Sprintf("events=%d/session-report-reading-every-line", n), func(b *testing.B) {
			defer cpuPerOp(b)()
			for i := 0; i < b.N; i++ {
				if _, err := j.MakeReport(Scope{Session: "bench-session"}, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
		os.RemoveAll(filepath.Dir(dir))
	}
}

// cpuPerOp reports the process's CPU time (user + system) per iteration
// from the call to the deferred function's: on a machine shared with busy
// neighbours the wall time per op counts the wait for a core too.
func cpuPerOp(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.ResetTimer()
	start := cpu()
	return func() {
		b.ReportMetric(float64(cpu()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}
