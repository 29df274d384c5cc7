package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/statefile"
)

// Held calls that arrive while a batch waits for the lock are written
// together: one lock, one tail read, one fsync, and every caller gets its
// own queue id only after that batch is durable.
func TestGroupCommitWritesWaitingCallsAsOneBatch(t *testing.T) {
	GroupCommit(true)
	defer GroupCommit(false)
	j := open(t)
	// Hold the journal's lock as another process would, so that the first
	// caller's batch waits on it while the others queue behind it.
	lf, err := os.OpenFile(filepath.Join(j.Dir(), "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	unlock, err := statefile.LockWithin(lf, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	c := j.committer()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := j.Record(held(fmt.Sprintf("git push origin b%d", i), "/p"))
			ids[i], errs[i] = r.QueueID, err
		}()
	}
	// Wait (no timing: a condition) until the leader has taken its batch
	// of one and the other n-1 are queued behind the lock.
	for c.queued() != n-1 {
		time.Sleep(time.Millisecond)
	}
	before := batchesWritten(j.Dir())
	unlock()
	wg.Wait()
	if got := batchesWritten(j.Dir()) - before; got != 2 {
		t.Fatalf("%d calls were written in %d batches, want 2 (the leader's, then all the others)", n, got)
	}
	seen := map[string]bool{}
	for i := range n {
		if errs[i] != nil || ids[i] == "" || seen[ids[i]] {
			t.Fatalf("call %d: id %q err %v", i, ids[i], errs[i])
		}
		seen[ids[i]] = true
	}
	items, err := j.Open(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != n {
		t.Fatalf("%d items in the queue, want %d", len(items), n)
	}
	if rep, err := j.Verify(); err != nil || !rep.OK() {
		t.Fatalf("the chain does not verify after a batch: %v %+v", err, rep)
	}
}

// A batch whose lock cannot be had answers every caller with the error,
// none with a queue id: nothing is acknowledged that was not written.
func TestGroupCommitFailsTheWholeBatchClosed(t *testing.T) {
	GroupCommit(true)
	defer GroupCommit(false)
	j := open(t)
	j.LockWait = 50 * time.Millisecond
	lf, err := os.OpenFile(filepath.Join(j.Dir(), "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	unlock, err := statefile.LockWithin(lf, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := j.Record(held(fmt.Sprintf("git push origin c%d", i), "/p"))
			if err == nil || r.QueueID != "" {
				t.Errorf("call %d recorded (%q) while the lock was held elsewhere", i, r.QueueID)
			}
		}()
	}
	wg.Wait()
}
