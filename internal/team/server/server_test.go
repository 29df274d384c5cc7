package server

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

type team struct {
	srv      *Server
	ts       *httptest.Server
	db       string
	machines map[string]string
	review   map[string]string
}

func newTeam(t *testing.T, o Options) *team {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	tm := &team{db: db, machines: map[string]string{}, review: map[string]string{}}
	for _, m := range []string{"laptop-a", "laptop-b"} {
		tok, err := AddMachine(ctx, db, m)
		if err != nil {
			t.Fatal(err)
		}
		tm.machines[m] = tok
	}
	for _, r := range []string{"alice", "bob"} {
		tok, err := AddReviewer(ctx, db, r)
		if err != nil {
			t.Fatal(err)
		}
		tm.review[r] = tok
	}
	ts := httptest.NewUnstartedServer(nil)
	o.Addr = ts.Listener.Addr().String()
	srv, err := Open(ctx, db, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ts.Config.Handler = srv.Handler()
	ts.Start()
	t.Cleanup(ts.Close)
	tm.srv, tm.ts = srv, ts
	return tm
}

// call sends body (JSON) with token and decodes the answer into out.
func (tm *team) call(t *testing.T, method, path, token string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, tm.ts.URL+wire.PathPrefix+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

func heldItem(id string) wire.HeldItem {
	return wire.HeldItem{ID: id, HeldHash: "hash-" + id, Seq: 3, Time: time.Now().UTC(), Repo: "acme/web", Kind: "shell",
		Command: "git push origin main", Effect: "external", Reasons: []wire.Reason{{Rule: "external", Message: "publishes"}}}
}

func TestMachineFlow(t *testing.T) {
	tm := newTeam(t, Options{})
	a := tm.machines["laptop-a"]
	var hello wire.Hello
	if code := tm.call(t, "GET", "/hello", a, nil, &hello); code != 200 || hello.Machine != "laptop-a" || hello.Version != wire.Version {
		t.Fatalf("hello: %d %+v", code, hello)
	}
	if k, err := wire.DecodeKey(hello.ServerKey); err != nil || !k.Equal(tm.srv.PublicKey()) {
		t.Fatalf("hello's key: %v", err)
	}
	// The body cannot name another machine: the token says who pushes.
	raw := map[string]any{"machine": "laptop-b", "items": []wire.HeldItem{heldItem("q1")}}
	var res wire.PushResult
	if code := tm.call(t, "POST", "/push", a, raw, &res); code != 200 || res.NewItems != 1 {
		t.Fatalf("push: %d %+v", code, res)
	}
	if code := tm.call(t, "POST", "/push", a, raw, &res); code != 200 || res.NewItems != 0 {
		t.Fatalf("push again: %d %+v", code, res)
	}
	var it wire.TeamItem
	alice := tm.review["alice"]
	if code := tm.call(t, "GET", "/queue/laptop-b:q1", alice, nil, &wire.Error{}); code != 404 {
		t.Fatalf("the item landed on laptop-b: %d", code)
	}
	if code := tm.call(t, "GET", "/queue/laptop-a:q1", alice, nil, &it); code != 200 || it.Machine != "laptop-a" || it.Status != "pending" {
		t.Fatalf("item: %d %+v", code, it)
	}
	// Tokens are checked by kind.
	var e wire.Error
	if code := tm.call(t, "GET", "/queue", a, nil, &e); code != 401 || !strings.Contains(e.Error, "reviewer token") {
		t.Fatalf("a machine token on the queue: %d %+v", code, e)
	}
	if code := tm.call(t, "POST", "/push", alice, wire.Push{}, &e); code != 401 {
		t.Fatalf("a reviewer token pushing: %d", code)
	}
	if code := tm.call(t, "GET", "/hello", "", nil, &e); code != 401 || e.Hint == "" {
		t.Fatalf("no token: %d %+v", code, e)
	}
	// Approve: a decision signed by the server, naming the reviewer.
	if code := tm.call(t, "POST", "/queue/laptop-a:q1/approve", alice, wire.Verdict{Note: "ok", TTLSeconds: 600}, &it); code != 200 || it.Status != "approved" || it.Decision == nil {
		t.Fatalf("approve: %d %+v", code, it)
	}
	var ds wire.Decisions
	if code := tm.call(t, "GET", "/decisions?after=0", a, nil, &ds); code != 200 || len(ds.Decisions) != 1 {
		t.Fatalf("decisions: %d %+v", code, ds)
	}
	d := ds.Decisions[0]
	if err := wire.Verify(tm.srv.PublicKey(), d, "laptop-a"); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if d.Reviewer != "alice" || d.HeldHash != "hash-q1" || d.ItemID != "q1" || d.TTLSeconds != 600 || d.Note != "ok" {
		t.Fatalf("decision: %+v", d)
	}
	if err := wire.Verify(tm.srv.PublicKey(), d, "laptop-b"); !errors.Is(err, wire.ErrWrongMachine) {
		t.Fatalf("for b: %v", err)
	}
	// Another machine pulls nothing of a's.
	if code := tm.call(t, "GET", "/decisions", tm.machines["laptop-b"], nil, &ds); code != 200 || len(ds.Decisions) != 0 {
		t.Fatalf("b's decisions: %+v", ds)
	}
	// A second verdict is a conflict.
	if code := tm.call(t, "POST", "/queue/laptop-a:q1/reject", tm.review["bob"], nil, &e); code != 409 {
		t.Fatalf("reject after approve: %d %+v", code, e)
	}
	// A revoked reviewer can do nothing more.
	if _, err := Revoke(context.Background(), tm.db, "bob"); err != nil {
		t.Fatal(err)
	}
	if code := tm.call(t, "GET", "/queue", tm.review["bob"], nil, &e); code != 401 || !strings.Contains(e.Error, "revoked") {
		t.Fatalf("revoked: %d %+v", code, e)
	}
}

func TestLimitsAreNamed(t *testing.T) {
	tm := newTeam(t, Options{Limits: Limits{PushRows: 2, PushBytes: 4096, ItemBytes: 1024, QueuePage: 10}})
	a, alice := tm.machines["laptop-a"], tm.review["alice"]
	var e wire.Error
	p := wire.Push{Items: []wire.HeldItem{heldItem("1"), heldItem("2"), heldItem("3")}}
	if code := tm.call(t, "POST", "/push", a, p, &e); code != 413 || !strings.Contains(e.Error, "limit of 2") {
		t.Fatalf("rows: %d %+v", code, e)
	}
	big := heldItem("big")
	big.Command = strings.Repeat("x", 2000)
	if code := tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{big}}, &e); code != 413 || !strings.Contains(e.Error, "limit of 1024 per held item") {
		t.Fatalf("item: %d %+v", code, e)
	}
	big.Command = strings.Repeat("x", 5000)
	if code := tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{big}}, &e); code != 413 || !strings.Contains(e.Error, "limit of 4096 bytes") {
		t.Fatalf("body: %d %+v", code, e)
	}
	if code := tm.call(t, "GET", "/queue?limit=11", alice, nil, &e); code != 400 || !strings.Contains(e.Error, "page limit of 10") {
		t.Fatalf("queue page: %d %+v", code, e)
	}
	if code := tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{{ID: "a/b", HeldHash: "h"}}}, &e); code != 400 {
		t.Fatalf("bad id: %d %+v", code, e)
	}
	tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{heldItem("ok")}}, nil)
	if code := tm.call(t, "POST", "/queue/laptop-a:ok/approve", alice, wire.Verdict{TTLSeconds: 8 * 86400}, &e); code != 400 || !strings.Contains(e.Error, "at most") {
		t.Fatalf("ttl: %d %+v", code, e)
	}
	if code := tm.call(t, "POST", "/queue/laptop-a:ok/approve", alice, wire.Verdict{Note: strings.Repeat("n", 3000)}, &e); code != 400 || !strings.Contains(e.Error, "note") {
		t.Fatalf("note: %d %+v", code, e)
	}
	if code := tm.call(t, "GET", "/queue?min_age=soon", alice, nil, &e); code != 400 {
		t.Fatalf("min_age: %d %+v", code, e)
	}
}

// TestConcurrentApproveReject is the race over HTTP: two reviewers, one
// approving and one rejecting each item at the same instant; exactly one
// answer is 200 and the other 409, and the machine pulls one decision.
func TestConcurrentApproveReject(t *testing.T) {
	tm := newTeam(t, Options{})
	a := tm.machines["laptop-a"]
	const n = 20
	var p wire.Push
	for i := range n {
		p.Items = append(p.Items, heldItem(fmt.Sprintf("r%d", i)))
	}
	tm.call(t, "POST", "/push", a, p, nil)
	for i := range n {
		key := fmt.Sprintf("laptop-a:r%d", i)
		start := make(chan struct{})
		codes := make([]int, 2)
		var wg sync.WaitGroup
		for k, how := range []string{"approve", "reject"} {
			tok := tm.review[[]string{"alice", "bob"}[k]]
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				codes[k] = tm.call(t, "POST", "/queue/"+key+"/"+how, tok, nil, nil)
			}()
		}
		close(start)
		wg.Wait()
		if !(codes[0] == 200 && codes[1] == 409) && !(codes[0] == 409 && codes[1] == 200) {
			t.Fatalf("%s: answers %v, want one 200 and one 409", key, codes)
		}
	}
	var ds wire.Decisions
	tm.call(t, "GET", "/decisions?limit=1000", a, nil, &ds)
	if len(ds.Decisions) != n {
		t.Fatalf("%d decisions, want %d", len(ds.Decisions), n)
	}
	for _, d := range ds.Decisions {
		if err := wire.Verify(tm.srv.PublicKey(), d, "laptop-a"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secrets", "team-server.key")
	k1, created, err := LoadKey(path)
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key mode %04o", st.Mode().Perm())
	}
	k2, created, err := LoadKey(path)
	if err != nil || created || !k1.Equal(k2) {
		t.Fatalf("reload: %v %v", created, err)
	}
	os.Chmod(path, 0o644)
	if _, _, err := LoadKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a readable key: %v", err)
	}
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte("not a key"), 0o600)
	if _, _, err := LoadKey(path); err == nil {
		t.Fatal("garbage was read as a key")
	}
	_ = ed25519.PublicKeySize
}

func TestReservedAndForeign(t *testing.T) {
	ctx := context.Background()
	db := pgtest.DB(t)
	if _, err := AddReviewer(ctx, db, "admin"); !errors.Is(err, ErrReserved) {
		t.Fatalf("admin: %v", err)
	}
	if _, err := Revoke(ctx, db, "nobody"); err == nil {
		t.Fatal("revoked nobody")
	}
}

// TestRetentionThroughTheServer: with a retention, an item settled longer
// ago is archived by ArchiveNow, an open one stays, and a revoked machine
// can push no more.
func TestRetentionThroughTheServer(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tm := newTeam(t, Options{Retention: 30 * 24 * time.Hour, Now: clock})
	a := tm.machines["laptop-a"]
	tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{heldItem("done"), heldItem("open")}}, nil)
	if code := tm.call(t, "POST", "/queue/laptop-a:done/reject", tm.review["alice"], nil, nil); code != 200 {
		t.Fatalf("reject: %d", code)
	}
	ctx := context.Background()
	if n, err := tm.srv.ArchiveNow(ctx); err != nil || n != 0 {
		t.Fatalf("archive at once: %d %v", n, err)
	}
	mu.Lock()
	now = now.Add(31 * 24 * time.Hour)
	mu.Unlock()
	if n, err := tm.srv.ArchiveNow(ctx); err != nil || n != 1 {
		t.Fatalf("archive after 31 days: %d %v", n, err)
	}
	var e wire.Error
	if code := tm.call(t, "GET", "/queue/laptop-a:done", tm.review["alice"], nil, &e); code != 404 || !strings.Contains(e.Error, "archived") {
		t.Fatalf("archived item: %d %+v", code, e)
	}
	if code := tm.call(t, "GET", "/queue/laptop-a:open", tm.review["alice"], nil, nil); code != 200 {
		t.Fatalf("open item: %d", code)
	}
	if _, err := Revoke(ctx, tm.db, "laptop-a"); err != nil {
		t.Fatal(err)
	}
	if code := tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{heldItem("late")}}, &e); code != 401 {
		t.Fatalf("push after revoke: %d", code)
	}
}
