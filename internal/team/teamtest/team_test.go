package teamtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/airlock-dev/airlock/internal/cli"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/server"
	"github.com/airlock-dev/airlock/internal/team/store"
	teamsync "github.com/airlock-dev/airlock/internal/team/sync"
	"github.com/airlock-dev/airlock/internal/team/sync/synccmd"
	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// teamServer is the real team server on a real PostgreSQL database,
// served on a fixed loopback address so that it can be stopped and
// started again where the machines joined it.
type teamServer struct {
	t    *testing.T
	db   string
	key  ed25519.PrivateKey
	addr string

	mu  gosync.Mutex
	srv *server.Server
	hs  *http.Server
}

func startTeam(t *testing.T) *teamServer {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ts := &teamServer{t: t, db: pgtest.DB(t), key: key}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.addr = ln.Addr().String()
	ts.serve(ln)
	t.Cleanup(ts.stop)
	return ts
}

func (ts *teamServer) serve(ln net.Listener) {
	ts.t.Helper()
	srv, err := server.Open(context.Background(), ts.db, server.Options{Key: ts.key, Addr: ts.addr})
	if err != nil {
		ln.Close()
		ts.t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	ts.mu.Lock()
	ts.srv, ts.hs = srv, hs
	ts.mu.Unlock()
}

// stop kills the server: its listener and open connections at once, and
// its database pool.
func (ts *teamServer) stop() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.hs != nil {
		ts.hs.Close()
		ts.srv.Close()
		ts.hs, ts.srv = nil, nil
	}
}

// restart serves again on the same address, with a new pool on the same
// database.
func (ts *teamServer) restart() {
	ts.t.Helper()
	ts.stop()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", ts.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		ts.t.Fatalf("listen again on %s: %v", ts.addr, err)
	}
	ts.serve(ln)
}

func (ts *teamServer) url() string { return "http://" + ts.addr }

func (ts *teamServer) fingerprint() string {
	return wire.Fingerprint(ts.key.Public().(ed25519.PublicKey))
}

func (ts *teamServer) reviewer(name string) string {
	ts.t.Helper()
	tok, err := server.AddReviewer(context.Background(), ts.db, name)
	if err != nil {
		ts.t.Fatal(err)
	}
	return tok
}

// call is a reviewer's (or a machine's) request to the API.
func (ts *teamServer) call(method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, ts.url()+wire.PathPrefix+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == 200 {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %s: %v", method, path, b, err)
		}
	}
	return resp.StatusCode, nil
}

// decide is a reviewer's verdict on machine's item id.
func (ts *teamServer) decide(t *testing.T, reviewer, verdict, machine, id string) {
	t.Helper()
	var it wire.TeamItem
	code, err := ts.call("POST", "/queue/"+wire.ItemKey(machine, id)+"/"+verdict, reviewer, wire.Verdict{Note: "checked"}, &it)
	if err != nil || code != 200 {
		t.Fatalf("%s %s:%s: %d %v", verdict, machine, id, code, err)
	}
}

// item is the team queue's view of machine's item id.
func (ts *teamServer) item(t *testing.T, reviewer, machine, id string) wire.TeamItem {
	t.Helper()
	var it wire.TeamItem
	code, err := ts.call("GET", "/queue/"+wire.ItemKey(machine, id), reviewer, nil, &it)
	if err != nil || code != 200 {
		t.Fatalf("GET %s:%s: %d %v", machine, id, code, err)
	}
	return it
}

// count is how many items of machine the database holds.
func (ts *teamServer) count(t *testing.T, machine string) int {
	t.Helper()
	ts.mu.Lock()
	srv := ts.srv
	ts.mu.Unlock()
	_, n, err := srv.Store().Queue(context.Background(), store.Filter{Machine: machine, Status: "all", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// home is one machine: an airlock home whose hook decides through the
// real pipeline (cli.Main "hook claude-code", as the agent runs it) and
// which joined the team through "airlock team join"'s command line.
type home struct {
	name  string
	dir   string
	proj  string
	state string
	env   map[string]string
	j     *journal.Journal
	s     *teamsync.Syncer
	evs   []teamsync.Event
}

func newHome(t *testing.T, ts *teamServer, name string) *home {
	t.Helper()
	dir := t.TempDir()
	h := &home{name: name, dir: dir, proj: filepath.Join(dir, "proj"), state: filepath.Join(dir, ".local", "state", "airlock"), env: map[string]string{
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, ".config"), "XDG_STATE_HOME": filepath.Join(dir, ".local", "state"),
		"AIRLOCK_HOME": "", "AIRLOCK_POLICY": "", "AIRLOCK_MODE": "unattended", "CLAUDE_PROJECT_DIR": "",
	}}
	if err := os.MkdirAll(h.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	tok, err := server.AddMachine(context.Background(), ts.db, name)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := synccmd.Main([]string{"join", ts.url(), "--token", tok, "--pin", ts.fingerprint()}, &out, &errb, func(k string) string { return h.env[k] }); code != 0 {
		t.Fatalf("join: %d %s %s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "as machine "+name) || !strings.Contains(out.String(), ts.fingerprint()) {
		t.Fatalf("join said %q", out.String())
	}
	if h.j, err = journal.Open(journal.DirIn(h.state)); err != nil {
		t.Fatal(err)
	}
	h.syncer(t, nil)
	return h
}

func (h *home) syncer(t *testing.T, hc *http.Client) {
	t.Helper()
	s, err := teamsync.New(teamsync.Options{StateDir: h.state, Journal: h.j, HTTP: hc, Report: func(ev teamsync.Event) { h.evs = append(h.evs, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
}

var queuedAs = regexp.MustCompile(`queued for review by a human as ([0-9a-f]{8})`)

// hook runs the agent's PreToolUse hook for a shell command in the
// project, in this home, and says whether it ran on an approval, or the
// queue id it was held as.
func (h *home) hook(t *testing.T, cmd string) (approved string, held string) {
	t.Helper()
	for k, v := range h.env {
		t.Setenv(k, v)
	}
	ev, _ := json.Marshal(map[string]any{"session_id": "s-" + h.name, "cwd": h.proj, "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]string{"command": cmd}, "tool_use_id": "toolu_1"})
	var out, errb bytes.Buffer
	if code := cli.Main([]string{"hook", "claude-code", "--event", "PreToolUse"}, bytes.NewReader(ev), &out, &errb); code != 0 {
		t.Fatalf("hook %q: exit %d: %s %s", cmd, code, out.String(), errb.String())
	}
	s := out.String()
	if m := queuedAs.FindStringSubmatch(s); m != nil && strings.Contains(s, `"permissionDecision":"deny"`) {
		return "", m[1]
	}
	if m := regexp.MustCompile(`allowed on your approval \(queue item ([0-9a-f]{8})\)`).FindStringSubmatch(s); m != nil {
		return m[1], ""
	}
	t.Fatalf("hook %q answered %s", cmd, s)
	return "", ""
}

func (h *home) once(t *testing.T) teamsync.Result {
	t.Helper()
	r, err := h.s.Once(context.Background())
	if err != nil {
		t.Fatalf("%s: sync: %v (%+v)", h.name, err, h.evs)
	}
	return r
}

func (h *home) item(t *testing.T, id string) *journal.Item {
	t.Helper()
	items, err := h.j.Queue(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	it, err := journal.Find(items, id)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// teamActs counts the journal's human acts that came from the team, by
// decision id: each must be 1.
func (h *home) teamActs(t *testing.T) map[string]int {
	t.Helper()
	n := map[string]int{}
	if err := h.j.Each(func(e *journal.Entry) error {
		if (e.Event == journal.EventApprove || e.Event == journal.EventReject) && e.Team != nil {
			n[e.Team.DecisionID]++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id, c := range n {
		if c != 1 {
			t.Errorf("%s: decision %s applied %d times", h.name, id, c)
		}
	}
	return n
}

func (h *home) verify(t *testing.T) {
	t.Helper()
	a, err := h.j.Verify()
	if err != nil || !a.OK() {
		t.Fatalf("%s: audit verify: %+v %v", h.name, a, err)
	}
}

// TestTwoMachinesOneQueue: A's held push appears in the team queue with
// A's name; a reviewer approves it; after one sync A's retry runs once
// and a second retry is held; B's identical command stays held, before
// and after B syncs; ten more syncs apply nothing again; the server hears
// the approval was used.
func TestTwoMachinesOneQueue(t *testing.T) {
	ts := startTeam(t)
	alice := ts.reviewer("alice")
	a, b := newHome(t, ts, "laptop-a"), newHome(t, ts, "ci-runner-b")
	const push = "git push origin main"
	_, idA := a.hook(t, push)
	_, idB := b.hook(t, push)
	if r := a.once(t); r.Items != 1 || r.New != 1 {
		t.Fatalf("A's first sync: %+v", r)
	}
	b.once(t)

	var list wire.QueueList
	if code, err := ts.call("GET", "/queue?machine=laptop-a", alice, nil, &list); code != 200 || err != nil {
		t.Fatalf("queue: %d %v", code, err)
	}
	if len(list.Items) != 1 || list.Items[0].Machine != "laptop-a" || list.Items[0].Item.ID != idA || list.Items[0].Item.Command != push || list.Items[0].Status != "pending" {
		t.Fatalf("A's team queue: %+v", list.Items)
	}
	ts.decide(t, alice, wire.Approve, "laptop-a", idA)

	if r := a.once(t); r.Applied != 1 || r.Refused != 0 {
		t.Fatalf("A's sync after the approval: %+v %+v", r, a.evs)
	}
	if it := a.item(t, idA); it.Status != journal.Approved || it.Settled.Team == nil || it.Settled.Team.Reviewer != "alice" || it.Settled.Team.Channel != "team" {
		t.Fatalf("A's item: %s %+v", it.Status, it.Settled)
	}
	if used, _ := a.hook(t, push); used != idA {
		t.Fatalf("A's retry was not let through on the approval of %s", idA)
	}
	if used, again := a.hook(t, push); used != "" || again == "" {
		t.Fatalf("A's second retry: used %q held %q", used, again)
	}
	if used, held := b.hook(t, push); used != "" || held == "" {
		t.Fatalf("B's identical command: used %q", used)
	}
	if r := b.once(t); r.Applied+r.Refused != 0 {
		t.Fatalf("B pulled A's decision: %+v", r)
	}
	if used, held := b.hook(t, push); used != "" || held == "" {
		t.Fatalf("B's identical command after B's sync: used %q", used)
	}
	if it := b.item(t, idB); it.Status != journal.Pending {
		t.Fatalf("B's item is %s", it.Status)
	}
	for i := 0; i < 10; i++ {
		if r := a.once(t); r.Applied != 0 || r.Refused != 0 || r.Skipped != 0 {
			t.Fatalf("A's sync %d: %+v", i, r)
		}
	}
	if n := a.teamActs(t); len(n) != 1 {
		t.Fatalf("A's team acts: %v", n)
	}
	if it := ts.item(t, alice, "laptop-a", idA); it.Status != "used" || it.Settlement == nil || it.Settlement.Status != "used" {
		t.Fatalf("the team's view of A's item: %s %+v", it.Status, it.Settlement)
	}
	if it := ts.item(t, alice, "ci-runner-b", idB); it.Status != "pending" {
		t.Fatalf("the team's view of B's item: %s", it.Status)
	}
	a.verify(t)
	b.verify(t)
}

// TestReviewersAtTheSameInstant: two reviewers approve and reject one
// item at the same instant; the server takes one, and the machine
// settles the item once, as that one said.
func TestReviewersAtTheSameInstant(t *testing.T) {
	ts := startTeam(t)
	alice, bob := ts.reviewer("alice"), ts.reviewer("bob")
	a := newHome(t, ts, "laptop-a")
	var ids []string
	for i := 0; i < 6; i++ {
		_, id := a.hook(t, fmt.Sprintf("git push origin topic-%d", i))
		ids = append(ids, id)
	}
	a.once(t)
	winner := map[string]string{}
	for _, id := range ids {
		start := make(chan struct{})
		codes := make([]int, 2)
		var wg gosync.WaitGroup
		for k, v := range []string{wire.Approve, wire.Reject} {
			tok := []string{alice, bob}[k]
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				codes[k], _ = ts.call("POST", "/queue/"+wire.ItemKey("laptop-a", id)+"/"+v, tok, nil, nil)
			}()
		}
		close(start)
		wg.Wait()
		switch {
		case codes[0] == 200 && codes[1] == 409:
			winner[id] = "approved"
		case codes[0] == 409 && codes[1] == 200:
			winner[id] = "rejected"
		default:
			t.Fatalf("%s: answers %v, want one 200 and one 409", id, codes)
		}
	}
	if r := a.once(t); r.Applied != len(ids) || r.Refused != 0 {
		t.Fatalf("sync: %+v", r)
	}
	for _, id := range ids {
		if it := a.item(t, id); string(it.Status) != winner[id] {
			t.Errorf("%s: %s on the machine, the server took %s", id, it.Status, winner[id])
		}
	}
	if r := a.once(t); r.Applied != 0 {
		t.Fatalf("again: %+v", r)
	}
	if n := a.teamActs(t); len(n) != len(ids) {
		t.Fatalf("team acts: %v", n)
	}
	a.verify(t)
}

// killOnPull kills the server when a sync, having shipped, asks for the
// decisions: the fault between a ship and a pull.
type killOnPull struct {
	ts     *teamServer
	killed bool
}

func (k *killOnPull) RoundTrip(r *http.Request) (*http.Response, error) {
	if !k.killed && strings.HasSuffix(r.URL.Path, "/decisions") {
		k.killed = true
		k.ts.stop()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestServerKilledBetweenShipAndPull: the round that shipped fails at
// its pull; the machine keeps holding (the hook never waits on the
// server); back up, the next round ships what was held meanwhile and
// applies the decision once.
func TestServerKilledBetweenShipAndPull(t *testing.T) {
	ts := startTeam(t)
	alice := ts.reviewer("alice")
	a := newHome(t, ts, "laptop-a")
	_, id := a.hook(t, "git push origin main")
	a.once(t)
	ts.decide(t, alice, wire.Approve, "laptop-a", id)
	_, id2 := a.hook(t, "git push origin second")

	a.syncer(t, &http.Client{Transport: &killOnPull{ts: ts}, Timeout: 10 * time.Second})
	r, err := a.s.Once(context.Background())
	if err == nil {
		t.Fatalf("the round survived the server's death: %+v", r)
	}
	if r.Items != 1 {
		t.Fatalf("the round before the kill shipped %+v", r)
	}
	// Offline: the hook keeps deciding and holding.
	_, id3 := a.hook(t, "git push origin third")
	if it := a.item(t, id); it.Status != journal.Pending {
		t.Fatalf("the item is %s with the server down", it.Status)
	}
	ts.restart()
	a.syncer(t, nil)
	r = a.once(t)
	if r.Applied != 1 || r.Items != 1 {
		t.Fatalf("after the restart: %+v", r)
	}
	for _, x := range []string{id, id2, id3} {
		ts.item(t, alice, "laptop-a", x)
	}
	if used, _ := a.hook(t, "git push origin main"); used != id {
		t.Fatal("the approved retry did not run")
	}
	if used, _ := a.hook(t, "git push origin main"); used != "" {
		t.Fatal("the approval ran twice")
	}
	if n := a.teamActs(t); len(n) != 1 {
		t.Fatalf("team acts: %v", n)
	}
	a.verify(t)
}

// TestDatabaseRestarted: every connection the server holds to PostgreSQL
// is cut (as a database restart cuts them), and then the server itself is
// closed and opened again on the same database. Syncs go on: a round may
// fail while the pool reconnects, none loses or repeats anything.
func TestDatabaseRestarted(t *testing.T) {
	ts := startTeam(t)
	alice := ts.reviewer("alice")
	a := newHome(t, ts, "laptop-a")
	_, id := a.hook(t, "git push origin main")
	a.once(t)
	cut := func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, os.Getenv(pgtest.Env))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		u, err := url.Parse(ts.db)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(u.Path, "/")
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("no connection of the server's to cut")
		}
	}
	cut()
	// The reviewer's request may meet a dead connection first; a human
	// would try again.
	var code int
	for i := 0; i < 5 && code != 200; i++ {
		code, _ = ts.call("POST", "/queue/"+wire.ItemKey("laptop-a", id)+"/approve", alice, nil, nil)
	}
	if code != 200 {
		t.Fatalf("approve after the cut: %d", code)
	}
	_, id2 := a.hook(t, "git push origin second")
	cut()
	ts.restart()
	var r teamsync.Result
	var err error
	for i := 0; i < 5; i++ {
		if r, err = a.s.Once(context.Background()); err == nil {
			break
		}
	}
	if err != nil || r.Applied != 1 || r.Items != 1 {
		t.Fatalf("sync after the restart: %+v %v", r, err)
	}
	if it := ts.item(t, alice, "laptop-a", id2); it.Status != "pending" {
		t.Fatalf("%s: %s", id2, it.Status)
	}
	for i := 0; i < 10; i++ {
		if r := a.once(t); r.Applied != 0 {
			t.Fatalf("repeat %d applied again: %+v", i, r)
		}
	}
	if used, _ := a.hook(t, "git push origin main"); used != id {
		t.Fatal("the approved retry did not run")
	}
	a.teamActs(t)
	a.verify(t)
}

// TestOfflineForAThousandItems: a machine that cannot reach the server
// keeps holding; 1,000 items later it catches up in one sync, every item
// once, and the decisions on a few of them apply once.
func TestOfflineForAThousandItems(t *testing.T) {
	ts := startTeam(t)
	alice := ts.reviewer("alice")
	a := newHome(t, ts, "laptop-a")
	a.once(t)
	ts.stop()
	var ids []string
	// A few through the hook, the rest recorded as the hook records a
	// held call (1,000 whole hook runs would only make the test slow).
	for i := 0; i < 5; i++ {
		_, id := a.hook(t, fmt.Sprintf("git push origin offline-%d", i))
		ids = append(ids, id)
	}
	for i := 5; i < 1000; i++ {
		cmd := fmt.Sprintf("git push origin offline-%d", i)
		r, err := a.j.Record(&vocab.Event{Time: time.Now().UTC(), Agent: "claude-code", Name: "PreToolUse", Session: "s-laptop-a", Cwd: a.proj, Tool: "Bash",
			Action:  &vocab.Action{Kind: vocab.Shell, Tool: "Bash", Command: cmd, Cwd: a.proj},
			Verdict: &vocab.VerdictRecord{Decision: vocab.Defer, Rule: "table.external", Effect: "external", Mode: vocab.Unattended}})
		if err != nil || r.QueueID == "" {
			t.Fatalf("record %d: %+v %v", i, r, err)
		}
		ids = append(ids, r.QueueID)
	}
	if _, err := a.s.Once(context.Background()); err == nil {
		t.Fatal("a sync with the server down succeeded")
	}
	ts.restart()
	r := a.once(t)
	if r.Items != 1000 || r.New != 1000 {
		t.Fatalf("catching up: %+v", r)
	}
	if n := ts.count(t, "laptop-a"); n != 1000 {
		t.Fatalf("the server holds %d of laptop-a's items", n)
	}
	for _, id := range []string{ids[0], ids[500], ids[999]} {
		ts.decide(t, alice, wire.Approve, "laptop-a", id)
	}
	if r := a.once(t); r.Applied != 3 || r.Items != 0 {
		t.Fatalf("after three approvals: %+v", r)
	}
	for i := 0; i < 10; i++ {
		if r := a.once(t); r.Applied != 0 || r.Items != 0 {
			t.Fatalf("repeat %d: %+v", i, r)
		}
	}
	if used, _ := a.hook(t, "git push origin offline-0"); used != ids[0] {
		t.Fatal("the approved retry of the first offline item did not run")
	}
	if n := a.teamActs(t); len(n) != 3 {
		t.Fatalf("team acts: %v", n)
	}
	a.verify(t)
}

// TestForgedServerIsRefused: a server on loopback with its own key where
// the team server was (the machine's token stolen, say) gets its
// decisions refused and journaled; the item stays held.
func TestForgedServerIsRefused(t *testing.T) {
	ts := startTeam(t)
	a := newHome(t, ts, "laptop-a")
	_, id := a.hook(t, "git push origin main")
	a.once(t)
	// The impostor: the same database (so the same tokens and items),
	// another signing key, on the same address.
	ts.stop()
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	ts.key = other
	ts.restart()
	mallory := ts.reviewer("mallory")
	ts.decide(t, mallory, wire.Approve, "laptop-a", id)
	r := a.once(t)
	if r.Applied != 0 || r.Refused != 1 {
		t.Fatalf("sync against the impostor: %+v", r)
	}
	if it := a.item(t, id); it.Status != journal.Pending {
		t.Fatalf("item: %s", it.Status)
	}
	if _, held := a.hook(t, "git push origin main"); held == "" {
		t.Fatal("the retry ran on a forged approval")
	}
	refused := 0
	a.j.Each(func(e *journal.Entry) error {
		if e.Event == journal.EventTeamRefused && e.Ref == id && strings.Contains(e.Note, "does not verify") {
			refused++
		}
		return nil
	})
	if refused != 1 {
		t.Fatalf("%d refusals journaled", refused)
	}
	// The server hears of the refusal; the item stays as the decision
	// left it there, and no retry ran.
	it := ts.item(t, mallory, "laptop-a", id)
	if it.Settlement == nil || it.Settlement.Status != wire.StatusRefused || !strings.Contains(it.Settlement.Refused, "does not verify") {
		t.Fatalf("the server's view: %s %+v", it.Status, it.Settlement)
	}
}
