package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// pendingIDs is the ids Open returns.
func pendingIDs(t *testing.T, j *Journal) []string {
	t.Helper()
	items, err := j.Open(t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.ID+":"+string(it.Status))
	}
	return ids
}

// appendRaw writes a line that continues the chain, as a process other
// than airlock could: correct seq and prev, no index, no MAC.
func appendRaw(t *testing.T, j *Journal, e *Entry) {
	t.Helper()
	segs, _ := segments(j.Dir())
	path := segs[len(segs)-1].path
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ls := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	last := ls[len(ls)-1]
	var prev Entry
	if err := json.Unmarshal(last, &prev); err != nil {
		t.Fatal(err)
	}
	e.Seq, e.Prev = prev.Seq+1, lineHash(last)
	line, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()
}

// The index is derived: whatever happens to it, the queue read through
// it is the queue the journal holds, and verify says what it found.
func TestIndexDamageIsDetectedAndRepaired(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, j *Journal)
		// index is what verify says about the index after the damage
		// ("ok" when the locked open repaired it first).
		problem ProblemKind
	}{
		{"index deleted", func(t *testing.T, j *Journal) {
			os.RemoveAll(filepath.Join(j.Dir(), indexDir))
		}, ""},
		{"HEAD deleted", func(t *testing.T, j *Journal) {
			os.Remove(filepath.Join(j.Dir(), headFile))
		}, ""},
		{"HEAD garbage", func(t *testing.T, j *Journal) {
			os.WriteFile(filepath.Join(j.Dir(), headFile), []byte("{garbage"), 0o600)
		}, ""},
		{"index stale: a line appended without it", func(t *testing.T, j *Journal) {
			e := entryOf(held("git push --tags", "/p"))
			e.ID = "0badf00d"
			appendRaw(t, j, e)
		}, ""},
		{"index corrupted: garbage records", func(t *testing.T, j *Journal) {
			os.WriteFile(filepath.Join(j.Dir(), indexDir, keyQueue), bytes.Repeat([]byte{0xff}, recordSize*3), 0o600)
		}, ""},
		{"index corrupted: a record points elsewhere", func(t *testing.T, j *Journal) {
			path := filepath.Join(j.Dir(), indexDir, keyQueue)
			b, _ := os.ReadFile(path)
			b[16]++ // the first record's offset
			os.WriteFile(path, b, 0o600)
		}, ""},
		{"head truncated: the last lines cut off", func(t *testing.T, j *Journal) {
			path, ls := lines(t, j)
			os.WriteFile(path, bytes.Join(ls[:len(ls)-3], nil), 0o600)
		}, Truncated},
		{"segment deleted", func(t *testing.T, j *Journal) {
			os.Remove(filepath.Join(j.Dir(), segmentName(1)))
		}, Truncated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := open(t)
			fill(t, j, 3)
			a := record(t, j, held("git push", "/p")).QueueID
			b := record(t, j, held("npm publish", "/p")).QueueID
			fill(t, j, 3)
			before := pendingIDs(t, j)
			c.damage(t, j)
			au, err := j.Verify()
			if err != nil {
				t.Fatal(err)
			}
			if c.problem == "" {
				if !au.OK() {
					t.Fatalf("verify: %+v", au.Problem)
				}
				got := pendingIDs(t, j)
				want := append([]string{}, before...)
				if strings.HasPrefix(c.name, "index stale") {
					want = append(want, "0badf00d:pending")
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("queue after damage %v, want %v", got, want)
				}
				if au2 := mustVerify(t, j); au2.Index != "ok" {
					t.Fatalf("index after verify: %s", au2.Index)
				}
				return
			}
			if au.OK() || au.Problem.Kind != c.problem {
				t.Fatalf("verify: %+v, want %s", au.Problem, c.problem)
			}
			// The hook keeps working, and the chain continues from the
			// anchored head: the loss stays visible, it is never a new
			// install.
			r := record(t, j, held("git push --force", "/p"))
			if r.QueueID == "" {
				t.Fatal("no queue id after the damage")
			}
			au, err = j.Verify()
			if err != nil {
				t.Fatal(err)
			}
			if au.OK() || au.Problem.Kind != Removed {
				t.Fatalf("verify after the next append: %+v, want removed", au.Problem)
			}
			es, err := j.Entries()
			if err != nil || len(es) == 0 || es[len(es)-1].Seq != 9 {
				t.Fatalf("the next append is not event 9 (the chain restarted): %v", err)
			}
			_, _ = a, b
		})
	}
}

// A journal written by the release before the index (testdata/v0, made by
// main's code) is read and indexed on first use. Its human acts carry no
// MAC: they no longer count, and verify names them.
func TestJournalOfThePreviousReleaseIsIndexedOnFirstUse(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "journal")
	os.Mkdir(dir, 0o700)
	data, err := os.ReadFile("testdata/v0/journal-000001.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, segmentName(1)), data, 0o600)
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := j.MakeReport(Scope{Session: "s1"}, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 3 || r.Counts.Allowed != 2 || r.Counts.Approved != 1 {
		t.Fatalf("report: %d items, %+v", len(r.Items), r.Counts)
	}
	if _, err := os.Stat(filepath.Join(dir, headFile)); err != nil {
		t.Fatalf("no anchored head after first use: %v", err)
	}
	a, err := j.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if a.Problem != nil || a.Entries != 11 || len(a.Unauthenticated) != 3 || a.Index != "ok" {
		t.Fatalf("verify: problem %+v entries %d unauthenticated %d index %s", a.Problem, a.Entries, len(a.Unauthenticated), a.Index)
	}
	s, err := j.LastSession()
	if err != nil || s != "s1" {
		t.Fatalf("last session %q %v", s, err)
	}
	fw, _, err := j.Recent(time.Time{}, t0)
	if err != nil || len(fw) != 1 {
		t.Fatalf("firewall entries %d %v", len(fw), err)
	}
}

// An approval appended by anything but the human's path, with a correct
// seq and prev, does not count, and verify names its line; an approval
// through Settle does.
func TestForgedApprovalIsIgnoredAndReported(t *testing.T) {
	j := open(t)
	id := record(t, j, held("git push", "/p")).QueueID
	exp := t0.Add(time.Hour)
	appendRaw(t, j, &Entry{Time: t0, Event: EventApprove, Ref: id, Expires: &exp, MAC: macPrefix + strings.Repeat("0", 64)})
	j.Now = func() time.Time { return t0 }
	if r := record(t, j, held("git push", "/p")); r.Approval != "" {
		t.Fatalf("a forged approval let the retry through (%s)", r.Approval)
	}
	a, err := j.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if a.OK() || len(a.Unauthenticated) != 1 || a.Unauthenticated[0].Line != 2 {
		t.Fatalf("verify: ok %v unauthenticated %+v", a.OK(), a.Unauthenticated)
	}
	if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	if r := record(t, j, held("git push", "/p")); r.Approval != id {
		t.Fatalf("a real approval did not let the retry through: %+v", r)
	}
	if r := record(t, j, held("git push", "/p")); r.Approval != "" {
		t.Fatal("one approval let two retries through")
	}
}

// N parallel retries of one approved action, each through its own
// Journal (its own lock file description, as separate hooks have): exactly
// one runs, for a shell command, a file write and an MCP call.
func TestParallelRetriesUseAnApprovalOnce(t *testing.T) { parallelRetriesOnce(t) }

// The same with group commit on, as in the resident service: retries in
// one batch still find each other's spending.
func TestParallelRetriesUseAnApprovalOnceGrouped(t *testing.T) {
	GroupCommit(true)
	defer GroupCommit(false)
	parallelRetriesOnce(t)
}

func parallelRetriesOnce(t *testing.T) {
	write := func() *vocab.Event {
		ev := held("", "/p")
		ev.Tool = "Write"
		ev.Action = &policy.Action{Kind: policy.Write, Tool: "Write", Paths: []string{"/p/.github/workflows/x.yml"}, Cwd: "/p"}
		ev.Raw = json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"/p/.github/workflows/x.yml","content":"on: push"}}`)
		return ev
	}
	mcp := func() *vocab.Event {
		ev := held("", "/p")
		ev.Tool, ev.Agent = "mcp__mail__send", "mcp-proxy"
		ev.Action = &policy.Action{Kind: policy.LocalTool, Tool: "mcp__mail__send", Cwd: "/p"}
		ev.Detail = json.RawMessage(`{"server":"mail","tool":"send","phase":"call","args_digest":"hmac-sha256:aa"}`)
		return ev
	}
	cases := []struct {
		name  string
		event func() *vocab.Event
		// retry turns the held event into its retry.
		retry func(ev *vocab.Event, id string)
	}{
		{"shell", func() *vocab.Event { return held("git push", "/p") }, func(*vocab.Event, string) {}},
		{"write", write, func(*vocab.Event, string) {}},
		{"mcp through the hook", mcp, func(ev *vocab.Event, _ string) {
			ev.Verdict = (&policy.Verdict{Decision: policy.Allow, Rule: RuleApproved, Message: "approved out of band"}).Record()
		}},
		{"mcp through the proxy", mcp, func(ev *vocab.Event, id string) {
			ev.Verdict = (&policy.Verdict{Decision: policy.Allow, Rule: RuleApproved, Message: "approved out of band"}).Record()
			ev.Ref = id
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := open(t)
			id := record(t, j, c.event()).QueueID
			if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
				t.Fatal(err)
			}
			const n = 16
			var wg sync.WaitGroup
			var mu sync.Mutex
			ran := 0
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					jj, err := Open(j.Dir())
					if err != nil {
						t.Error(err)
						return
					}
					ev := c.event()
					ev.Time = time.Now()
					c.retry(ev, id)
					r, err := jj.Record(claimed(ev))
					if err != nil && !errors.Is(err, errSpent) {
						t.Error(err)
						return
					}
					if err == nil && ev.Verdict.Decision == policy.Allow {
						if r.Approval != id {
							t.Errorf("allowed with approval %q, want %q", r.Approval, id)
						}
						mu.Lock()
						ran++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if ran != 1 {
				t.Fatalf("%d of %d parallel retries ran on one approval, want 1", ran, n)
			}
			// Another input is another action.
			if c.name == "write" {
				ev := write()
				ev.Raw = json.RawMessage(`{"tool_input":{"file_path":"/p/.github/workflows/x.yml","content":"on: [push, pull_request]"}}`)
				if r := record(t, j, ev); r.Approval != "" {
					t.Fatal("an approval of one content let another through")
				}
			}
		})
	}
}

func TestSymlinksInTheStateDirectoryAreRefused(t *testing.T) {
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(target, []byte("precious\n"), 0o600)
	for _, name := range []string{segmentName(1), "lock", headFile} {
		t.Run(name, func(t *testing.T) {
			j := open(t)
			if err := os.Symlink(target, filepath.Join(j.Dir(), name)); err != nil {
				t.Fatal(err)
			}
			_, err := j.Record(allowed("ls"))
			if !errors.Is(err, ErrUnsafe) {
				t.Fatalf("a symlinked %s: %v", name, err)
			}
			if b, _ := os.ReadFile(target); string(b) != "precious\n" {
				t.Fatalf("the symlink's target changed: %q", b)
			}
		})
	}
	t.Run("the journal directory", func(t *testing.T) {
		state := t.TempDir()
		os.Symlink(t.TempDir(), filepath.Join(state, "journal"))
		if _, err := Open(filepath.Join(state, "journal")); !errors.Is(err, ErrUnsafe) {
			t.Fatalf("a symlinked journal directory: %v", err)
		}
	})
	t.Run("a torn file", func(t *testing.T) {
		j := open(t)
		fill(t, j, 2)
		os.Symlink(target, filepath.Join(j.Dir(), segmentName(1)+".torn"))
		path, _ := lines(t, j)
		f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString(`{"seq":3,`)
		f.Close()
		if _, err := j.Record(allowed("ls")); !errors.Is(err, ErrUnsafe) {
			t.Fatalf("a symlinked .torn: %v", err)
		}
	})
	t.Run("modes are narrowed", func(t *testing.T) {
		j := open(t)
		fill(t, j, 1)
		os.Chmod(j.Dir(), 0o755)
		os.Chmod(filepath.Join(j.Dir(), segmentName(1)), 0o644)
		j2, err := Open(j.Dir())
		if err != nil {
			t.Fatal(err)
		}
		fill(t, j2, 1)
		for _, p := range []string{j.Dir(), filepath.Join(j.Dir(), segmentName(1))} {
			st, _ := os.Stat(p)
			if st.Mode().Perm()&0o077 != 0 {
				t.Fatalf("%s is still %v", p, st.Mode().Perm())
			}
		}
	})
}

// A last line that is not an event, or a 3 MiB line without a newline,
// never stops the hook: the next append sets it aside like a torn line.
func TestGarbageAndOversizedTailsAreSetAside(t *testing.T) {
	for _, c := range []struct {
		name string
		tail []byte
	}{
		{"garbage with a newline", []byte("this is not json\n")},
		{"json that is no event", []byte(`{"hello":"world"}` + "\n")},
		{"3 MiB without a newline", bytes.Repeat([]byte("x"), 3<<20)},
		{"3 MiB with a newline", append(bytes.Repeat([]byte("y"), 3<<20), '\n')},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := open(t)
			fill(t, j, 3)
			path, _ := lines(t, j)
			f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			f.Write(c.tail)
			f.Close()
			record(t, j, held("git push", "/p"))
			a := mustVerify(t, j)
			if a.Entries != 4 || a.SetAside < 1 {
				t.Fatalf("entries %d set aside %d", a.Entries, a.SetAside)
			}
			side, err := os.Open(path + ".torn")
			if err != nil {
				t.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, side)
			side.Close()
			if n < int64(len(bytes.TrimSuffix(c.tail, []byte("\n")))) {
				t.Fatalf(".torn holds %d bytes, want the %d set aside", n, len(c.tail))
			}
		})
	}
}

func TestApprovalDurationsAreBounded(t *testing.T) {
	j := open(t)
	id := record(t, j, held("git push", "/p")).QueueID
	for _, d := range []time.Duration{-time.Hour, -1, MaxApprovalExpiry + time.Second} {
		if _, err := j.Settle(EventApprove, id, "", d); !errors.Is(err, ErrBadExpiry) {
			t.Fatalf("--for %s: %v", d, err)
		}
	}
	if _, err := j.Settle(EventApprove, id, "", MaxApprovalExpiry); err != nil {
		t.Fatal(err)
	}
}

func TestAThousandParallelWriterProcessesLoseNothing(t *testing.T) {
	if os.Getenv("AIRLOCK_LOAD_TEST") == "" {
		t.Skip("starts 1,000 processes (about 100 s on 2 busy cores): set AIRLOCK_LOAD_TEST=1")
	}
	j := open(t)
	const n = 1000
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 250) // the machine's process limit, not the lock, bounds this
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if out, err := child(t, "defer-once", j.Dir()).CombinedOutput(); err != nil {
				errs <- fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	items, err := j.Open(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range items {
		seen[it.Command] = true
	}
	if len(items) != n || len(seen) != n {
		t.Fatalf("%d queue items, %d commands; want %d", len(items), len(seen), n)
	}
	if a := mustVerify(t, j); a.Entries != n || a.Index != "ok" {
		t.Fatalf("%d entries, index %s", a.Entries, a.Index)
	}
}

func TestSessionAwaitsMatchesTheReport(t *testing.T) {
	j := open(t)
	fill(t, j, 3)
	now := t0.Add(time.Minute)
	if ok, err := j.SessionAwaits("s1", now); err != nil || ok {
		t.Fatalf("nothing held: %v %v", ok, err)
	}
	id := record(t, j, held("git push", "/p")).QueueID
	if ok, _ := j.SessionAwaits("s1", now); !ok {
		t.Fatal("a pending item in s1 not seen")
	}
	if ok, _ := j.SessionAwaits("s2", now); ok {
		t.Fatal("s1's item seen in s2")
	}
	if _, err := j.Settle(EventReject, id, "", 0); err != nil {
		t.Fatal(err)
	}
	if ok, _ := j.SessionAwaits("s1", now); ok {
		t.Fatal("a rejected item still awaits")
	}
}

// An approval binds the held line the human saw: rewriting that line
// afterwards (to another command) does not carry the approval over.
func TestApprovalDoesNotFollowAnEditedHeldLine(t *testing.T) {
	j := open(t)
	id := record(t, j, held("git push origin main", "/p")).QueueID
	j.Now = func() time.Time { return t0 }
	if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	path, ls := lines(t, j)
	ls[0] = bytes.Replace(ls[0], []byte("git push origin main"), []byte("git push evil main"), 1)
	if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(j.Dir(), indexDir)) // and the index rebuilt from the edited line
	if r := record(t, j, held("git push evil main", "/p")); r.Approval != "" {
		t.Fatal("the approval followed an edited held line")
	}
	if a, err := j.Verify(); err != nil || a.OK() {
		t.Fatalf("verify passed an edited held line: %v", err)
	}
}
