package journal

import (
	"errors"
	"fmt"
	"sync"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// Group commit. In the resident service many hook calls record at once;
// each used to take the journal's lock, read its tail, append one line and
// fsync it on its own, so a burst of held calls queued behind one fsync
// and one tail read each. With group commit on, the calls that arrive
// while a batch is being written wait together; the next batch takes the
// lock once, appends each of them in arrival order (each claim still
// searched under the lock, after the lines before it), and fsyncs once.
// No caller is answered before the fsync that makes its line durable
// returns: a receipt means what it meant before.

var groups struct {
	sync.Mutex
	on  bool
	by  map[string]*committer
	cnt map[string]int // batches written, for tests
}

// GroupCommit turns group commit on or off for every journal this process
// opens. The resident service turns it on; a hook process, which records
// one event, has nothing to group.
func GroupCommit(on bool) {
	groups.Lock()
	groups.on = on
	groups.Unlock()
}

// committer writes one journal directory's batches, one at a time.
type committer struct {
	mu      sync.Mutex
	queue   []*groupReq
	writing bool
}

type groupReq struct {
	j    *Journal
	ev   *vocab.Event
	rec  vocab.Receipt
	err  error
	done chan struct{}
}

// grouped reports whether Record should go through the directory's
// committer, and which.
func (j *Journal) committer() *committer {
	groups.Lock()
	defer groups.Unlock()
	if !groups.on {
		return nil
	}
	if groups.by == nil {
		groups.by = map[string]*committer{}
		groups.cnt = map[string]int{}
	}
	c := groups.by[j.dir]
	if c == nil {
		c = &committer{}
		groups.by[j.dir] = c
	}
	return c
}

// record queues ev and waits until the batch that holds it is durable.
// The caller that finds no batch being written writes the next one, which
// holds its own event; if more arrived meanwhile, a goroutine writes them
// and ends when the queue is empty, so no caller waits behind batches
// that came after its own and nothing is left running.
func (c *committer) record(j *Journal, ev *vocab.Event) (vocab.Receipt, error) {
	r := &groupReq{j: j, ev: ev, done: make(chan struct{})}
	c.mu.Lock()
	c.queue = append(c.queue, r)
	lead := !c.writing
	if lead {
		c.writing = true
	}
	c.mu.Unlock()
	if lead && c.writeNext() {
		go func() {
			for c.writeNext() {
			}
		}()
	}
	<-r.done
	return r.rec, r.err
}

// writeNext writes the queued batch and reports whether more are queued;
// when none are, it marks the committer idle.
func (c *committer) writeNext() (more bool) {
	c.mu.Lock()
	batch := c.queue
	c.queue = nil
	c.mu.Unlock()
	if len(batch) > 0 {
		writeBatch(batch)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		c.writing = false
		return false
	}
	return true
}

// queued is how many events wait for the next batch (for tests).
func (c *committer) queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue)
}

// writeBatch appends a batch under one lock and one fsync, then answers
// every request in it.
func writeBatch(batch []*groupReq) {
	j := batch[0].j
	defer func() {
		groups.Lock()
		groups.cnt[j.dir]++
		groups.Unlock()
		for _, r := range batch {
			close(r.done)
		}
	}()
	next := 0 // requests before next are settled, even if fn runs again
	err := j.locked(func(w *writer) error {
		w.deferSync = true
		for ; next < len(batch); next++ {
			r := batch[next]
			rec, err := w.record(r.ev)
			if errors.Is(err, errIndex) {
				// locked rebuilds the index and calls again, from r.
				return err
			}
			r.rec, r.err = rec, err
		}
		if w.needSync {
			if err := w.f.Sync(); err != nil {
				return fmt.Errorf("journal sync: %w", err)
			}
			w.needSync = false
		}
		return nil
	})
	if err != nil {
		// The lock, the rebuild or the one fsync failed: no request of the
		// batch is durable, so none is answered as recorded.
		for _, r := range batch {
			if r.err == nil {
				r.rec, r.err = vocab.Receipt{}, err
			}
		}
	}
}

// batchesWritten is how many batches the committer of dir wrote.
func batchesWritten(dir string) int {
	groups.Lock()
	defer groups.Unlock()
	return groups.cnt[dir]
}
