package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// indexSnapshot is the index directory's files and HEAD at one moment,
// to put back later: what a crash between a line and its index leaves.
type indexSnapshot map[string][]byte

func snapshotIndex(t *testing.T, j *Journal) indexSnapshot {
	t.Helper()
	s := indexSnapshot{}
	des, err := os.ReadDir(filepath.Join(j.Dir(), indexDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(j.Dir(), indexDir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s[filepath.Join(indexDir, de.Name())] = b
	}
	b, err := os.ReadFile(filepath.Join(j.Dir(), headFile))
	if err != nil {
		t.Fatal(err)
	}
	s[headFile] = b
	return s
}

// restore puts the snapshot's files back and removes the index files
// created since.
func (s indexSnapshot) restore(t *testing.T, j *Journal) {
	t.Helper()
	des, _ := os.ReadDir(filepath.Join(j.Dir(), indexDir))
	for _, de := range des {
		if _, ok := s[filepath.Join(indexDir, de.Name())]; !ok {
			os.Remove(filepath.Join(j.Dir(), indexDir, de.Name()))
		}
	}
	for name, b := range s {
		if err := os.WriteFile(filepath.Join(j.Dir(), name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// The hook's path (a deferred call looking for a human's approval of it)
// answers from the journal whatever happened to the index, without an
// audit verify first: the approval is honoured exactly once, and the
// index is whole again afterwards. Each damage hides or moves the
// approval's posting, so a hook that trusted the index as it is would
// hold the approved retry (or worse, let it through twice).
func TestTheHookPathSurvivesIndexDamage(t *testing.T) {
	cases := []struct {
		name string
		// damage runs after the approval; before is the index as it was
		// before the approval was written.
		damage func(t *testing.T, j *Journal, before indexSnapshot)
	}{
		{"index deleted", func(t *testing.T, j *Journal, _ indexSnapshot) {
			os.RemoveAll(filepath.Join(j.Dir(), indexDir))
		}},
		{"HEAD deleted", func(t *testing.T, j *Journal, _ indexSnapshot) {
			os.Remove(filepath.Join(j.Dir(), headFile))
		}},
		{"index stale: a crash between the approval's line and its index", func(t *testing.T, j *Journal, before indexSnapshot) {
			before.restore(t, j)
		}},
		{"index stale: HEAD current, the approval's posting lost", func(t *testing.T, j *Journal, before indexSnapshot) {
			// HEAD says the index is up to date, but the queue's
			// postings end before the approval: only a reader that
			// checks what it is told notices.
			q := filepath.Join(indexDir, keyQueue)
			os.WriteFile(filepath.Join(j.Dir(), q), before[q], 0o600)
		}},
		{"index corrupted: the queue's postings are garbage", func(t *testing.T, j *Journal, _ indexSnapshot) {
			os.WriteFile(filepath.Join(j.Dir(), indexDir, keyQueue), bytes.Repeat([]byte{0xa5}, recordSize*4), 0o600)
		}},
		{"index corrupted: the approval's posting points at another line", func(t *testing.T, j *Journal, _ indexSnapshot) {
			path := filepath.Join(j.Dir(), indexDir, keyQueue)
			b, _ := os.ReadFile(path)
			last := b[len(b)-recordSize:]
			p := decodePosting(last)
			p.Off -= 2 * int64(p.Len) // an earlier line of about its size
			p.encode(last)
			os.WriteFile(path, b, 0o600)
		}},
		{"index corrupted: a file cut mid-record", func(t *testing.T, j *Journal, _ indexSnapshot) {
			path := filepath.Join(j.Dir(), indexDir, keyQueue)
			b, _ := os.ReadFile(path)
			os.WriteFile(path, b[:len(b)-7], 0o600)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := open(t)
			now := t0
			j.Now = func() time.Time { return now }
			fill(t, j, 3)
			id := record(t, j, held("git push origin main", "/p")).QueueID
			fill(t, j, 2)
			before := snapshotIndex(t, j)
			if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
				t.Fatal(err)
			}
			c.damage(t, j, before)

			ev := held("git push origin main", "/p")
			r := record(t, j, ev)
			if r.Approval != id || ev.Verdict.Decision != policy.Allow || ev.Verdict.Rule != RuleApproved {
				t.Fatalf("approved retry after the damage: receipt %+v, %s by %s", r, ev.Verdict.Decision, ev.Verdict.Rule)
			}
			again := held("git push origin main", "/p")
			if r := record(t, j, again); r.Approval != "" || again.Verdict.Decision != policy.Defer {
				t.Fatalf("the approval was used twice: %+v", r)
			}
			a := mustVerify(t, j)
			if a.Index != "ok" {
				t.Fatalf("index after the hook path repaired it: %s", a.Index)
			}
		})
	}
}

// A thousand recorders at once, each with its own journal handle (so its
// own open of the lock file, as separate hook processes have), lose
// nothing: every event is in the chain once, the chain verifies, and the
// index matches it. Goroutines through the real Record path rather than
// processes: 1,000 processes take about 100 s on two busy cores (see
// TestAThousandParallelWriterProcessesLoseNothing, run with
// AIRLOCK_LOAD_TEST=1); this runs in every test run. One call in four is
// held, so 250 of them fsync and get a queue id.
func TestAThousandConcurrentRecordersLoseNothing(t *testing.T) {
	const n = 1000
	state := open(t).Dir()
	var wg sync.WaitGroup
	ids := make([]string, n)
	errs := make([]error, n)
	gate := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j, err := Open(state)
			if err != nil {
				errs[i] = err
				return
			}
			// What is tested is that nothing is lost; the deadline has
			// tests of its own, and a thousand fsyncs on a loaded disk
			// can outlast the default.
			j.LockWait = 2 * time.Minute
			<-gate
			ev := allowed(fmt.Sprintf("echo %d", i))
			if i%4 == 0 {
				ev = held(fmt.Sprintf("git push origin b%d", i), "/p")
			}
			r, err := j.Record(ev)
			ids[i], errs[i] = r.QueueID, err
		}()
	}
	close(gate)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("recorder %d: %v", i, err)
		}
		if (i%4 == 0) != (ids[i] != "") {
			t.Fatalf("recorder %d: queue id %q", i, ids[i])
		}
	}
	j, err := Open(state)
	if err != nil {
		t.Fatal(err)
	}
	es, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for k, e := range es {
		if e.Seq != int64(k+1) {
			t.Fatalf("entry %d has seq %d", k, e.Seq)
		}
		seen[e.Command]++
	}
	for i := 0; i < n; i++ {
		cmd := fmt.Sprintf("echo %d", i)
		if i%4 == 0 {
			cmd = fmt.Sprintf("git push origin b%d", i)
		}
		if seen[cmd] != 1 {
			t.Fatalf("%q recorded %d times", cmd, seen[cmd])
		}
	}
	items, err := j.Open(t0)
	if err != nil || len(items) != n/4 {
		t.Fatalf("%d open items, want %d (%v)", len(items), n/4, err)
	}
	if a := mustVerify(t, j); a.Entries != n || a.Index != "ok" {
		t.Fatalf("verify: %d entries, index %s", a.Entries, a.Index)
	}
	// The session's postings list every line once.
	var count int
	if err := j.locked(func(w *writer) error {
		ps, err := w.j.postings(sessionKey("s1"), w.head.Seq)
		count = len(ps)
		return err
	}); err != nil || count != n {
		t.Fatalf("session postings %d, want %d (%v)", count, n, err)
	}
}

// A head written before it recorded the queue postings' size still reads,
// and the next append records it.
func TestAHeadWithoutTheQueueSizeStillReads(t *testing.T) {
	j := open(t)
	record(t, j, held("git push", "/p"))
	h, err := readHead(j.Dir())
	if err != nil || h == nil || h.Queue != recordSize {
		t.Fatalf("head %+v %v: want the queue's size %d", h, err, recordSize)
	}
	// The release before the field checks Sum alone, by this formula: a
	// head written now must pass it, or that release would rebuild the
	// index on every call after this one wrote HEAD.
	before := sha256.Sum256([]byte(fmt.Sprintf("%d/%s/%d/%d/%d", h.Seq, h.Hash, h.Count, h.Segment, h.End)))
	raw, _ := os.ReadFile(filepath.Join(j.Dir(), headFile))
	if !bytes.Contains(raw, []byte(`"sum":"`+hex.EncodeToString(before[:8])+`"`)) {
		t.Fatalf("HEAD's sum is not the one the release before reads: %s", raw)
	}
	// A queue size whose own sum does not match is not trusted; the
	// rest of the head is.
	bad := bytes.Replace(raw, []byte(`"queue":48`), []byte(`"queue":96`), 1)
	os.WriteFile(filepath.Join(j.Dir(), headFile), bad, 0o600)
	if got, err := readHead(j.Dir()); err != nil || got == nil || got.Queue != 0 || got.Seq != 1 {
		t.Fatalf("head with a bad queue size: %+v %v", got, err)
	}
	old := *h
	old.Queue = 0
	b, _ := json.Marshal(struct {
		Seq     int64  `json:"seq"`
		Hash    string `json:"hash"`
		Count   int64  `json:"count"`
		Segment int    `json:"segment"`
		End     int64  `json:"end"`
		Sum     string `json:"sum"`
	}{old.Seq, old.Hash, old.Count, old.Segment, old.End, old.sum()})
	os.WriteFile(filepath.Join(j.Dir(), headFile), append(b, '\n'), 0o600)
	if got, err := readHead(j.Dir()); err != nil || got == nil || got.Queue != 0 || got.Seq != 1 {
		t.Fatalf("old head: %+v %v", got, err)
	}
	if items, err := j.Open(t0); err != nil || len(items) != 1 {
		t.Fatalf("queue under an old head: %d items, %v", len(items), err)
	}
	record(t, j, held("npm publish", "/p"))
	if h, err := readHead(j.Dir()); err != nil || h.Queue != 2*recordSize {
		t.Fatalf("head after the next append %+v %v", h, err)
	}
	if a := mustVerify(t, j); a.Index != "ok" || a.Entries != 2 {
		t.Fatalf("verify: %d entries, index %s", a.Entries, a.Index)
	}
}

// The record of an approval's use lost from the index while HEAD kept its
// place (a power loss: neither is fsynced, and they are different files)
// does not let the approved action through a second time.
func TestALostUseOfAnApprovalIsNotAFreshApproval(t *testing.T) {
	j := open(t)
	now := t0
	j.Now = func() time.Time { return now }
	id := record(t, j, held("git push origin main", "/p")).QueueID
	if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	if r := record(t, j, held("git push origin main", "/p")); r.Approval != id {
		t.Fatalf("approved retry: %+v", r)
	}
	path := filepath.Join(j.Dir(), indexDir, keyQueue)
	b, _ := os.ReadFile(path)
	if p := decodePosting(b[len(b)-recordSize:]); p.Kind != kindUsed {
		t.Fatalf("the last queue posting is kind %d, not the use", p.Kind)
	}
	os.WriteFile(path, b[:len(b)-recordSize], 0o600)
	again := held("git push origin main", "/p")
	if r := record(t, j, again); r.Approval != "" || again.Verdict.Decision != policy.Defer {
		t.Fatalf("the approval was used a second time after its use was lost from the index: %+v", r)
	}
	if a := mustVerify(t, j); a.Index != "ok" {
		t.Fatalf("index: %s", a.Index)
	}
}
