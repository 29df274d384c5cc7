//go:build linux

package cli

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/journal"
)

// BenchmarkHookdConcurrentDefer: 200 deferred calls handed to the
// service at once (each a connection of its own, as 200 airlock-hook
// processes would make), measuring the service's side alone: no process
// starts. Each call is queued, journaled and fsynced. Reports the p50 and
// p99 of the 200 calls' latencies of the last burst.
//
//	go test -run '^$' -bench HookdConcurrentDefer -benchtime 3x ./internal/cli/
func BenchmarkHookdConcurrentDefer(b *testing.B) {
	home, _ := hookdEnvB(b)
	sock := home + "/.local/state/airlock/" + hookd.SocketName
	call := func(i int) time.Duration {
		ev := fmt.Sprintf(`{"session_id":"s-burst","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin b-%d"},"tool_use_id":"t%d"}`, i, i)
		start := time.Now()
		c, err := hookd.Dial(sock, "/proc/self/exe")
		if err != nil {
			b.Error(err)
			return 0
		}
		defer c.Close()
		r, err := c.Ask(&hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
			Env: []string{"HOME=" + home, "AIRLOCK_MODE=unattended"}, Cwd: "/tmp", Stdin: []byte(ev)})
		if err != nil || r.Status != 0 {
			b.Errorf("call %d: %v %+v", i, err, r)
		}
		return time.Since(start)
	}
	// burst: 200 calls at once; its p50 and p99.
	burst := func(base int) (p50, p99 time.Duration) {
		lat := make([]time.Duration, 200)
		var wg sync.WaitGroup
		for i := range lat {
			wg.Add(1)
			go func() { defer wg.Done(); lat[i] = call(base + i) }()
		}
		wg.Wait()
		slices.Sort(lat)
		return lat[99], lat[197]
	}
	var p50, p99, p99Single, seq time.Duration
	n := 0
	for range b.N {
		// Side by side in one run: the burst with group commit (as the
		// service runs), the burst with one fsync per call, and the same
		// 200 calls one after another.
		journal.GroupCommit(true)
		p50, p99 = burst(n)
		journal.GroupCommit(false)
		_, p99Single = burst(n + 200)
		journal.GroupCommit(true)
		start := time.Now()
		for i := range 200 {
			call(n + 400 + i)
		}
		seq = time.Since(start)
		n += 600
	}
	b.ReportMetric(float64(p50)/1e6, "p50-ms")
	b.ReportMetric(float64(p99)/1e6, "p99-ms")
	b.ReportMetric(float64(p99Single)/1e6, "p99-ungrouped-ms")
	b.ReportMetric(float64(seq)/1e6, "sequential-ms")
	b.ReportMetric(float64(p99)/float64(seq), "p99/sequential")
}
