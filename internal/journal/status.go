package journal

import (
	"github.com/airlock-dev/airlock/internal/statusline"
)

// changesQueue reports whether appending e changes what the status line
// counts as held: a held action, or a human's act on a queue item.
func changesQueue(e *Entry) bool {
	return (e.queued() && e.Event != EventScanFinding) || (humanAct(e.Event) && e.Ref != "")
}

// syncStatus rewrites the held counts of the status line's state file
// (internal/statusline) from the queue, under the journal's lock, when
// they changed. It costs the queue's postings and the lines of the
// pending held actions (O(pending)), and runs only after an append that
// changes the queue and when the open items are listed, never on an
// allowed call. The status line is advisory: an error here is not the
// append's, and the next change or listing writes the file again.
func (w *writer) syncStatus() {
	now := w.j.now()
	items, err := w.items(now, func(q *qstate) bool { return q.status == Pending && q.held.Kind == kindHeld })
	if err != nil {
		return
	}
	bySession := map[string]int{}
	for _, it := range items {
		bySession[it.Session]++
	}
	statusline.Update(w.j.dir, func(st *statusline.State) bool { return st.SetHeld(len(items), bySession) })
}

// SyncStatus rewrites the status line's held counts from the queue when
// they changed: "airlock queue" calls it, so that a state file left
// stale (a crash between an append and its rewrite, a file removed) is
// put right by looking at the queue.
func (j *Journal) SyncStatus() error {
	return j.locked(func(w *writer) error {
		w.syncStatus()
		return nil
	})
}
