package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/jackc/pgx/v5"
)

func open(t *testing.T) (*Store, string) {
	t.Helper()
	url := pgtest.DB(t)
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, url
}

func exec(t *testing.T, url, sql string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, sql); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateAndRefuse(t *testing.T) {
	ctx := context.Background()
	s, url := open(t)
	var v int
	if err := s.pool.QueryRow(ctx, "SELECT max(version) FROM schema_version").Scan(&v); err != nil || v != Version() {
		t.Fatalf("schema_version %d, %v; want %d", v, err, Version())
	}
	s.Close()
	// A second start finds its own schema and changes nothing.
	s2, err := Open(ctx, url)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	s2.Close()

	// A database with someone else's tables.
	foreign := pgtest.DB(t)
	exec(t, foreign, "CREATE TABLE customers (id int)")
	if _, err := Open(ctx, foreign); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "customers") {
		t.Fatalf("foreign tables: %v", err)
	}
	// A newer schema.
	exec(t, url, fmt.Sprintf("INSERT INTO schema_version (version, why) VALUES (%d, 'from the future')", Version()+1))
	if _, err := Open(ctx, url); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("newer schema: %v", err)
	}
	exec(t, url, fmt.Sprintf("DELETE FROM schema_version WHERE version = %d", Version()+1))
	// A table beside ours.
	exec(t, url, "CREATE TABLE extra (x int)")
	if _, err := Open(ctx, url); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("an extra table: %v", err)
	}
	exec(t, url, "DROP TABLE extra; DROP TABLE archive")
	if _, err := Open(ctx, url); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("a missing table: %v", err)
	}
}

func TestIdentities(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	mt, err := s.Add(ctx, Machine, "laptop-a")
	if err != nil {
		t.Fatal(err)
	}
	rt, err := s.Add(ctx, Reviewer, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if name, err := s.Authenticate(ctx, Machine, mt); err != nil || name != "laptop-a" {
		t.Fatalf("machine token: %q %v", name, err)
	}
	if name, err := s.Authenticate(ctx, Reviewer, rt); err != nil || name != "alice" {
		t.Fatalf("reviewer token: %q %v", name, err)
	}
	if _, err := s.Authenticate(ctx, Reviewer, mt); !errors.Is(err, ErrWrongTokens) {
		t.Fatalf("a machine token as a reviewer's: %v", err)
	}
	if _, err := s.Authenticate(ctx, Reviewer, reviewerPrefix+"guessed"); !errors.Is(err, ErrBadToken) {
		t.Fatalf("a guessed token: %v", err)
	}
	if _, err := s.Add(ctx, Reviewer, "laptop-a"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a reviewer named like a machine: %v", err)
	}
	if _, err := s.Add(ctx, Machine, "Bad Name"); err == nil {
		t.Fatal("an invalid name was accepted")
	}
	// Only the hash is kept.
	var stored []byte
	if err := s.pool.QueryRow(ctx, "SELECT token_hash FROM machines WHERE name = 'laptop-a'").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stored, HashToken(mt)) || bytes.Contains(stored, []byte(mt)) {
		t.Fatalf("stored %x is not the token's SHA-256", stored)
	}
	if kind, err := s.Revoke(ctx, "alice"); err != nil || kind != Reviewer {
		t.Fatalf("revoke: %q %v", kind, err)
	}
	if _, err := s.Authenticate(ctx, Reviewer, rt); !errors.Is(err, ErrBadToken) {
		t.Fatalf("a revoked token: %v", err)
	}
	if _, err := s.Add(ctx, Reviewer, "alice"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a revoked name re-added: %v", err)
	}
	if _, err := s.Revoke(ctx, "nobody"); !errors.Is(err, ErrNoSuchName) {
		t.Fatalf("revoke nobody: %v", err)
	}
	ids, err := s.Identities(ctx)
	if err != nil || len(ids) != 2 || ids[1].Revoked == nil || ids[0].Revoked != nil {
		t.Fatalf("identities: %+v %v", ids, err)
	}
}

func held(id string, at time.Time) wire.HeldItem {
	return wire.HeldItem{ID: id, HeldHash: "h-" + id, Seq: 1, Time: at, Repo: "acme/web", Kind: "shell", Command: "git push origin main", Effect: "external"}
}

func sign(d *wire.Decision) { d.Sig = "test" }

func TestPushIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	for _, m := range []string{"a", "b"} {
		if _, err := s.Add(ctx, Machine, m); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	p := wire.Push{Items: []wire.HeldItem{held("i1", now), held("i2", now)}}
	for round, want := range []int{2, 0, 0} {
		res, err := s.Push(ctx, "a", p)
		if err != nil || res.NewItems != want {
			t.Fatalf("round %d: %+v %v, want %d new", round, res, err, want)
		}
	}
	// The same id from another machine is another item.
	if res, err := s.Push(ctx, "b", wire.Push{Items: []wire.HeldItem{held("i1", now)}}); err != nil || res.NewItems != 1 {
		t.Fatalf("machine b: %+v %v", res, err)
	}
	// A changed body under a known id changes nothing: the first stays.
	changed := held("i1", now)
	changed.Command = "rm -rf /"
	if res, err := s.Push(ctx, "a", wire.Push{Items: []wire.HeldItem{changed}}); err != nil || res.NewItems != 0 {
		t.Fatalf("changed: %+v %v", res, err)
	}
	it, err := s.Item(ctx, "a", "i1")
	if err != nil || it.Item.Command != "git push origin main" || it.Status != "pending" || it.Machine != "a" {
		t.Fatalf("item: %+v %v", it, err)
	}
	st := wire.Settlement{ID: "i1", Status: "rejected", Time: now, Channel: "cli"}
	for round, want := range []int{1, 0} {
		res, err := s.Push(ctx, "a", wire.Push{Settlements: []wire.Settlement{st}})
		if err != nil || res.NewSettlements != want {
			t.Fatalf("settlement round %d: %+v %v", round, res, err)
		}
	}
	if it, _ := s.Item(ctx, "a", "i1"); it.Status != "rejected" || it.Settlement == nil || it.Settlement.Channel != "cli" {
		t.Fatalf("after a local settlement: %+v", it)
	}
	// Settled on the machine: no reviewer can settle it again.
	if _, err := s.Settle(ctx, "a", "i1", wire.Approve, "alice", wire.Verdict{}, sign); !errors.Is(err, ErrSettled) {
		t.Fatalf("approve a locally settled item: %v", err)
	}
	if err := CheckPush(wire.Push{Items: []wire.HeldItem{{ID: "../x", HeldHash: "h"}}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a bad id: %v", err)
	}
	if err := CheckPush(wire.Push{Settlements: []wire.Settlement{{ID: "x", Status: "pending"}}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a bad status: %v", err)
	}
}

// TestTwoReviewersSettleOnce races an approve and a reject on each of
// many items against a real PostgreSQL: for each item exactly one wins,
// the other finds it settled, and there is one decision.
func TestTwoReviewersSettleOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	if _, err := s.Add(ctx, Machine, "a"); err != nil {
		t.Fatal(err)
	}
	const n = 30
	var p wire.Push
	for i := range n {
		p.Items = append(p.Items, held(fmt.Sprintf("i%d", i), time.Now()))
	}
	if _, err := s.Push(ctx, "a", p); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		id := fmt.Sprintf("i%d", i)
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for k, v := range []string{wire.Approve, wire.Reject} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[k] = s.Settle(ctx, "a", id, v, []string{"alice", "bob"}[k], wire.Verdict{}, sign)
			}()
		}
		close(start)
		wg.Wait()
		wins, lost := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case errors.Is(err, ErrSettled):
				lost++
			default:
				t.Fatalf("%s: %v", id, err)
			}
		}
		if wins != 1 || lost != 1 {
			t.Fatalf("%s: %d won, %d found it settled", id, wins, lost)
		}
	}
	var decisions int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM decisions").Scan(&decisions); err != nil || decisions != n {
		t.Fatalf("%d decisions, %v; want %d", decisions, err, n)
	}
	ds, err := s.Decisions(ctx, "a", 0, 1000)
	if err != nil || len(ds.Decisions) != n {
		t.Fatalf("decisions: %d %v", len(ds.Decisions), err)
	}
	for i := 1; i < len(ds.Decisions); i++ {
		if ds.Decisions[i].Seq <= ds.Decisions[i-1].Seq {
			t.Fatal("decisions are not in seq order")
		}
	}
	if ds.Next != ds.Decisions[n-1].Seq {
		t.Fatalf("next %d", ds.Next)
	}
	if more, _ := s.Decisions(ctx, "a", ds.Next, 10); len(more.Decisions) != 0 || more.Next != ds.Next {
		t.Fatalf("after the last: %+v", more)
	}
	if other, _ := s.Decisions(ctx, "b", 0, 10); len(other.Decisions) != 0 {
		t.Fatalf("machine b sees a's decisions: %+v", other)
	}
}

func TestQueueFilters(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s.SetClock(func() time.Time { return now })
	for _, m := range []string{"a", "b"} {
		s.Add(ctx, Machine, m)
	}
	old := held("old", now.Add(-48*time.Hour))
	other := held("web", now.Add(-time.Hour))
	other.Repo = "acme/api"
	s.Push(ctx, "a", wire.Push{Items: []wire.HeldItem{old, held("new", now)}})
	s.Push(ctx, "b", wire.Push{Items: []wire.HeldItem{other}})
	keys := func(f Filter) string {
		t.Helper()
		f.Limit = 100
		items, total, err := s.Queue(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var k []string
		for _, it := range items {
			k = append(k, it.Key)
		}
		if total != len(items) {
			t.Fatalf("total %d for %d items", total, len(items))
		}
		return strings.Join(k, " ")
	}
	for _, c := range []struct {
		f    Filter
		want string
	}{
		{Filter{}, "a:new b:web a:old"},
		{Filter{Machine: "a"}, "a:new a:old"},
		{Filter{Repo: "acme/api"}, "b:web"},
		{Filter{MinAge: 24 * time.Hour}, "a:old"},
		{Filter{Status: "approved"}, ""},
	} {
		if got := keys(c.f); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
	s.Settle(ctx, "a", "new", wire.Approve, "alice", wire.Verdict{}, sign)
	if got := keys(Filter{}); got != "b:web a:old" {
		t.Errorf("open after an approval: %q", got)
	}
	if got := keys(Filter{Status: "approved"}); got != "a:new" {
		t.Errorf("approved: %q", got)
	}
	if got := keys(Filter{Status: "all"}); got != "a:new b:web a:old" {
		t.Errorf("all: %q", got)
	}
	items, total, _ := s.Queue(ctx, Filter{Status: "all", Limit: 1, Offset: 1})
	if total != 3 || len(items) != 1 || items[0].Key != "b:web" {
		t.Errorf("page 2 of 1: %d %+v", total, items)
	}
}

func TestRetentionArchives(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s.SetClock(func() time.Time { return now })
	s.Add(ctx, Machine, "a")
	s.Push(ctx, "a", wire.Push{Items: []wire.HeldItem{held("settled", now), held("open", now)}})
	if _, err := s.Settle(ctx, "a", "settled", wire.Reject, "alice", wire.Verdict{}, sign); err != nil {
		t.Fatal(err)
	}
	s.Push(ctx, "a", wire.Push{Settlements: []wire.Settlement{{ID: "settled", Status: "rejected", Time: now, Channel: "team"}}})
	// Not old enough yet.
	if n, err := s.Archive(ctx, now.Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("archive too early: %d %v", n, err)
	}
	now = now.Add(31 * 24 * time.Hour)
	if n, err := s.Archive(ctx, now.Add(-30*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("archive: %d %v", n, err)
	}
	if _, err := s.Item(ctx, "a", "settled"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "archived") {
		t.Fatalf("archived item: %v", err)
	}
	if _, err := s.Item(ctx, "a", "open"); err != nil {
		t.Fatalf("the open item was archived: %v", err)
	}
	var settlements int
	var archived string
	s.pool.QueryRow(ctx, "SELECT count(*) FROM settlements").Scan(&settlements)
	s.pool.QueryRow(ctx, "SELECT settlements::text FROM archive WHERE id = 'settled'").Scan(&archived)
	if settlements != 0 || !strings.Contains(archived, `"rejected"`) {
		t.Fatalf("settlements left %d, archived %q", settlements, archived)
	}
	// A repeated push does not bring it back.
	if res, err := s.Push(ctx, "a", wire.Push{Items: []wire.HeldItem{held("settled", now)}}); err != nil || res.NewItems != 0 {
		t.Fatalf("re-push of an archived item: %+v %v", res, err)
	}
	// Its decision stays for a machine that has not pulled it.
	if ds, _ := s.Decisions(ctx, "a", 0, 10); len(ds.Decisions) != 1 {
		t.Fatalf("decisions after archive: %+v", ds)
	}
}

// TestConcurrentStartsMigrateOnce: servers started at once on a fresh
// database migrate it once (the advisory lock), and all of them open.
func TestConcurrentStartsMigrateOnce(t *testing.T) {
	url := pgtest.DB(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(ctx, url)
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
	}
	s, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM schema_version").Scan(&n); err != nil || n != len(migrations) {
		t.Fatalf("%d schema_version rows (%v), want %d", n, err, len(migrations))
	}
}

// TestSettlementsMoveStatus: the machine's latest settlement sets the
// item's status, whatever order a push carries them in; a refusal of a
// team decision is kept and moves nothing.
func TestSettlementsMoveStatus(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	s.Add(ctx, Machine, "a")
	t0 := time.Now().UTC()
	s.Push(ctx, "a", wire.Push{Items: []wire.HeldItem{held("x", t0), held("y", t0)}})
	res, err := s.Push(ctx, "a", wire.Push{Settlements: []wire.Settlement{
		{ID: "x", Status: "used", Time: t0.Add(2 * time.Second)},
		{ID: "x", Status: "approved", Time: t0.Add(time.Second), Channel: "cli"},
		{ID: "y", Status: "refused", Time: t0, Channel: "team", Refused: "signed for another machine"},
	}})
	if err != nil || res.NewSettlements != 3 {
		t.Fatalf("push: %+v %v", res, err)
	}
	if it, _ := s.Item(ctx, "a", "x"); it.Status != "used" {
		t.Fatalf("x: %q, want used (the latest)", it.Status)
	}
	// An older report arriving later does not go back.
	s.Push(ctx, "a", wire.Push{Settlements: []wire.Settlement{{ID: "x", Status: "expired", Time: t0}}})
	if it, _ := s.Item(ctx, "a", "x"); it.Status != "used" {
		t.Fatalf("x after an older report: %q", it.Status)
	}
	it, _ := s.Item(ctx, "a", "y")
	if it.Status != "pending" || it.Settlement == nil || it.Settlement.Refused == "" {
		t.Fatalf("y after a refusal: %+v", it)
	}
	if _, err := s.Settle(ctx, "a", "y", wire.Approve, "alice", wire.Verdict{}, sign); err != nil {
		t.Fatalf("a refused item is still open to review: %v", err)
	}
}
