package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/jackc/pgx/v5"
)

// BenchmarkTeamScale is the team server at scale (docs/BENCHMARKS.md):
// machines (100) each hold items (1,000) and ship them, with a
// settlement for each, in pushes of batch (100) items over HTTP on
// loopback to one server on a real PostgreSQL, all at once; then a
// reviewer approves one item of each machine and every machine pulls its
// decision. It reports the items ingested per second, the time from an
// item's hold to its being in the team queue (its push committed), and
// the approve and pull requests' latencies. Run once:
//
//	AIRLOCK_TEST_PG=postgres://... go test ./internal/team/server/ -run '^$' -bench TeamScale -benchtime 1x
//
// AIRLOCK_TEAM_BENCH_MACHINES, _ITEMS and _BATCH change the shape.
func BenchmarkTeamScale(b *testing.B) {
	machines, items, batch := envInt("AIRLOCK_TEAM_BENCH_MACHINES", 100), envInt("AIRLOCK_TEAM_BENCH_ITEMS", 1000), envInt("AIRLOCK_TEAM_BENCH_BATCH", 100)
	for range b.N {
		b.StopTimer()
		ctx := context.Background()
		db := pgtest.DB(b)
		tokens := make([]string, machines)
		for m := range machines {
			tok, err := AddMachine(ctx, db, fmt.Sprintf("m%03d", m))
			if err != nil {
				b.Fatal(err)
			}
			tokens[m] = tok
		}
		rtok, err := AddReviewer(ctx, db, "alice")
		if err != nil {
			b.Fatal(err)
		}
		srv, err := Open(ctx, db, Options{})
		if err != nil {
			b.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		ts := hs.URL
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: machines}}
		post := func(path, tok string, in any) (time.Duration, error) {
			body, _ := json.Marshal(in)
			req, _ := http.NewRequest("POST", ts+wire.PathPrefix+path, bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+tok)
			start := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				return 0, err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				return 0, fmt.Errorf("%s: %d", path, resp.StatusCode)
			}
			return time.Since(start), nil
		}

		b.StartTimer()
		var mu sync.Mutex
		var visible []time.Duration
		var wg sync.WaitGroup
		errs := make(chan error, machines)
		start := time.Now()
		for m := range machines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var prev []wire.Settlement
				for first := 0; first < items; first += batch {
					var p wire.Push
					held := time.Now()
					for i := first; i < min(first+batch, items); i++ {
						p.Items = append(p.Items, scaleItem(m, i, held))
					}
					// The settlements of the previous batch ride along,
					// as sync ships what became of items after them.
					p.Settlements, prev = prev, nil
					for _, it := range p.Items {
						prev = append(prev, wire.Settlement{ID: it.ID, Status: "rejected", Time: held, Channel: "cli"})
					}
					if _, err := post("/push", tokens[m], p); err != nil {
						errs <- err
						return
					}
					d := time.Since(held)
					mu.Lock()
					for range p.Items {
						visible = append(visible, d)
					}
					mu.Unlock()
				}
				if _, err := post("/push", tokens[m], wire.Push{Settlements: prev}); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		b.StopTimer()

		// Every item and settlement arrived once.
		var n, s int
		conn, err := pgx.Connect(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		err = conn.QueryRow(ctx, "SELECT (SELECT count(*) FROM items), (SELECT count(*) FROM settlements)").Scan(&n, &s)
		conn.Close(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if n != machines*items || s != machines*items {
			b.Fatalf("%d items and %d settlements stored, want %d of each", n, s, machines*items)
		}

		// One more item per machine, approved by a reviewer, then pulled.
		var approve, pull []time.Duration
		for m := range machines {
			if _, err := post("/push", tokens[m], wire.Push{Items: []wire.HeldItem{scaleItem(m, items, time.Now())}}); err != nil {
				b.Fatal(err)
			}
		}
		for m := range machines {
			d, err := post(fmt.Sprintf("/queue/m%03d:i%06d/approve", m, items), rtok, wire.Verdict{TTLSeconds: 600})
			if err != nil {
				b.Fatal(err)
			}
			approve = append(approve, d)
		}
		for m := range machines {
			req, _ := http.NewRequest("GET", ts+wire.PathPrefix+"/decisions?after=0", nil)
			req.Header.Set("Authorization", "Bearer "+tokens[m])
			t0 := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var ds wire.Decisions
			json.NewDecoder(resp.Body).Decode(&ds)
			resp.Body.Close()
			pull = append(pull, time.Since(t0))
			if len(ds.Decisions) != 1 {
				b.Fatalf("machine %d pulled %d decisions", m, len(ds.Decisions))
			}
		}
		hs.Close()
		srv.Close()

		b.ReportMetric(float64(machines*items)/elapsed.Seconds(), "items/s")
		b.ReportMetric(ms(pct(visible, 50)), "hold-visible-p50-ms")
		b.ReportMetric(ms(pct(visible, 99)), "hold-visible-p99-ms")
		b.ReportMetric(ms(pct(approve, 99)), "approve-p99-ms")
		b.ReportMetric(ms(pct(pull, 99)), "pull-p99-ms")
		b.ReportMetric(elapsed.Seconds(), "ingest-s")
	}
}

func scaleItem(m, i int, at time.Time) wire.HeldItem {
	return wire.HeldItem{ID: fmt.Sprintf("i%06d", i), HeldHash: fmt.Sprintf("%064x", m*1_000_000+i), Seq: int64(i + 1), Time: at,
		Agent: "claude-code", Session: fmt.Sprintf("sess-%03d", m), Cwd: fmt.Sprintf("/home/ci/src/repo%d", m%7), Repo: fmt.Sprintf("repo%d", m%7),
		Tool: "Bash", Kind: "shell", Command: fmt.Sprintf("git push origin feature/%d-%d", m, i), Decision: "defer", Rule: "table.external",
		Message: "git push publishes commits", Mode: "unattended", Effect: "external",
		Reasons: []wire.Reason{{Rule: "table.external", Message: "git push sends commits to a remote"}}}
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
