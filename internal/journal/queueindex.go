package journal

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// qstate is one queue item as the queue's postings tell it, before any
// of its lines is read.
type qstate struct {
	id      string
	held    posting
	status  Status
	settled *posting // the human's approval, rejection or run
	used    *posting // the retry that used the approval
}

// queueItem is the item whose id is exactly id, with its status at now,
// or nil. It scans the projection (items are unique by id there) rather
// than building a map by id for one lookup: it runs under the lock when
// a claim names its approval (an MCP retry) and for a human's act.
func (w *writer) queueItem(id string, now time.Time) (*qstate, error) {
	items, err := w.queueStates(now)
	if err != nil {
		return nil, err
	}
	for _, q := range items {
		if q.id == id {
			return q, nil
		}
	}
	return nil, nil
}

// queueStates projects the queue's postings into items, oldest first,
// with their status at now. A human act counts only when its MAC
// verified; anything else that claims to be one is ignored here and
// reported by audit verify. Items are keyed by their 4-byte id while
// projecting and allocated in one block: it runs on every deferred call
// and Stop hook, in a fresh process where each allocation costs.
func (w *writer) queueStates(now time.Time) ([]*qstate, error) {
	if err := w.queueWhole(); err != nil {
		return nil, err
	}
	ps, err := w.j.postings(keyQueue, w.head.Seq)
	if err != nil {
		return nil, err
	}
	return projectQueue(ps, now), nil
}

// projectQueue projects queue postings (the whole queue's, or one
// action's) into items, oldest first, with their status at now.
func projectQueue(ps []posting, now time.Time) []*qstate {
	n := 0
	for i := range ps {
		if ps[i].Kind == kindHeld || ps[i].Kind == kindDetected {
			n++
		}
	}
	block := make([]qstate, 0, n)
	items := make([]*qstate, 0, n)
	byID := make(map[[4]byte]*qstate, n)
	for i := range ps {
		p := &ps[i]
		if p.Kind == kindHeld || p.Kind == kindDetected {
			if byID[p.ID] == nil {
				block = append(block, qstate{id: p.idString(), held: *p, status: Pending})
				q := &block[len(block)-1]
				items = append(items, q)
				byID[p.ID] = q
			}
			continue
		}
		q := byID[p.ID]
		if q == nil || (humanAct(kindEvent(p.Kind)) && !p.Auth) {
			continue
		}
		switch {
		case p.Kind == kindApprove && q.status == Pending:
			q.status, q.settled = Approved, p
		case p.Kind == kindReject && (q.status == Pending || q.status == Approved):
			q.status, q.settled = Rejected, p
		case p.Kind == kindRun:
			q.status, q.settled = Ran, p
		case p.Kind == kindUsed && q.status == Approved:
			q.status, q.used = Used, p
		case (p.Kind == kindAck || p.Kind == kindDismiss) && q.status == Pending && q.held.Kind == kindDetected:
			q.status, q.settled = Acknowledged, p
			if p.Kind == kindDismiss {
				q.status = Dismissed
			}
		}
	}
	for _, q := range items {
		if q.status == Approved && q.settled.Exp != 0 && !now.Before(time.Unix(0, q.settled.Exp)) {
			q.status = Expired
		}
	}
	return items
}

// heldActionKey is the action file (actionKey) of held item id, read from
// its held line: "" when the queue has no such item or it cannot be read
// (the act is then missing from the action's file, and its approval is
// not found: held again, never let through twice). The queue is read
// backwards from its end, where the items humans act on usually are; it
// runs once per human act, not per tool call.
func (j *Journal) heldActionKey(id string) string {
	raw, err := hex.DecodeString(id)
	if err != nil || len(raw) != 4 {
		return ""
	}
	var want [4]byte
	copy(want[:], raw)
	var found *posting
	if _, err := j.postingsBack(keyQueue, 1<<62, func(p posting) bool {
		if p.Kind == kindHeld && p.ID == want {
			found = &p
			return false
		}
		return true
	}); err != nil || found == nil {
		return ""
	}
	r := &lineReader{dir: j.dir}
	defer r.close()
	e, _, err := r.entry(*found)
	if err != nil {
		return ""
	}
	return actionKey(e)
}

// actionStates are the items of e's action (its action file), with their
// status at now. An index built before action files is errIndex: rebuilt,
// then read.
func (w *writer) actionStates(e *Entry, now time.Time) ([]*qstate, error) {
	// The queue's postings are checked against HEAD as queueStates checks
	// them (one stat): a lost tail is rebuilt on the hook's path.
	if err := w.queueWhole(); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(filepath.Join(w.j.dir, indexDir, keyActions)); err != nil {
		return nil, fmt.Errorf("%w: %s is missing (an index built before action files)", errIndex, keyActions)
	}
	ps, err := w.j.postings(actionKey(e), w.head.Seq)
	if err != nil {
		return nil, err
	}
	return projectQueue(ps, now), nil
}

// stillApproved checks an approval found in an action's file against the
// queue's own postings after it: the action file is a cache, and one that
// lost its last records (a used retry) must not let the approval through
// again. It reads the queue backwards to the approval, so it costs the
// postings since the approval (at most MaxApprovalExpiry of them), not the
// queue.
func (w *writer) stillApproved(q *qstate) (bool, error) {
	if err := w.queueWhole(); err != nil {
		return false, err
	}
	at := q.settled.Seq
	seen := false
	ps, err := w.j.postingsBack(keyQueue, w.head.Seq, func(p posting) bool { return p.Seq >= at })
	if err != nil {
		return false, err
	}
	for _, p := range ps {
		if p.ID != q.held.ID {
			continue
		}
		switch {
		case p.Seq == at && p != *q.settled:
			// The two files disagree about the approval's line.
			return false, fmt.Errorf("%w: event %d is indexed twice, differently", errIndex, at)
		case p.Seq == at:
			seen = true
		case p.Kind == kindUsed, p.Kind == kindReject && p.Auth, p.Kind == kindRun && p.Auth:
			// The action file missed what the queue has: it lost its
			// last records. Rebuilt, then read again.
			return false, fmt.Errorf("%w: the action file of item %s misses event %d", errIndex, q.id, p.Seq)
		}
	}
	if !seen {
		// The action file names an approval the queue does not have.
		return false, fmt.Errorf("%w: the approval at event %d is not in the queue", errIndex, at)
	}
	return true, nil
}

// queueWhole checks the queue's postings against the size the anchored
// head recorded for them (errIndex when they differ, so that the index is
// rebuilt from the journal): records lost at the end of the file point at
// nothing wrong, so no check of the records read would notice them. It
// trusts nothing after a loss of journal lines (the index was rebuilt
// from what is left, and HEAD keeps the lost head until the next append),
// nor a head that did not record the size.
func (w *writer) queueWhole() error {
	if w.head.Queue == 0 || w.lost != "" {
		return nil
	}
	var size int64
	if st, err := os.Lstat(filepath.Join(w.j.dir, indexDir, keyQueue)); err == nil {
		size = st.Size()
	}
	if size != w.head.Queue {
		return fmt.Errorf("%w: %s is %d bytes, its head says %d", errIndex, keyQueue, size, w.head.Queue)
	}
	return nil
}

func kindEvent(k uint8) string {
	switch k {
	case kindApprove:
		return EventApprove
	case kindReject:
		return EventReject
	case kindRun:
		return EventRun
	case kindAck:
		return EventAck
	case kindDismiss:
		return EventDismiss
	}
	return ""
}

// item reads an item's lines.
func (w *writer) item(r *lineReader, q *qstate) (*Item, error) {
	e, _, err := r.entry(q.held)
	if err != nil {
		return nil, err
	}
	it := &Item{Entry: e, Status: q.status, Detected: q.held.Kind == kindDetected}
	if q.settled != nil {
		if it.Settled, _, err = r.entry(*q.settled); err != nil {
			return nil, err
		}
	}
	if q.used != nil {
		if it.UsedBy, _, err = r.entry(*q.used); err != nil {
			return nil, err
		}
	}
	return it, nil
}

// items reads the items keep accepts.
func (w *writer) items(now time.Time, keep func(q *qstate) bool) ([]*Item, error) {
	states, err := w.queueStates(now)
	if err != nil {
		return nil, err
	}
	r := &lineReader{dir: w.j.dir}
	defer r.close()
	var kept []*qstate
	var held []posting
	for _, q := range states {
		if keep == nil || keep(q) {
			kept = append(kept, q)
			held = append(held, q.held)
		}
	}
	// The held lines in one pass (runs of nearby lines in one read), then
	// the few lines that settled them.
	entries, err := r.entries(held)
	if err != nil {
		return nil, err
	}
	out := make([]*Item, 0, len(kept))
	for i, q := range kept {
		it := &Item{Entry: entries[i], Status: q.status, Detected: q.held.Kind == kindDetected}
		if q.settled != nil {
			if it.Settled, _, err = r.entry(*q.settled); err != nil {
				return nil, err
			}
		}
		if q.used != nil {
			if it.UsedBy, _, err = r.entry(*q.used); err != nil {
				return nil, err
			}
		}
		out = append(out, it)
	}
	return out, nil
}

// awaits reports whether an item is still open: pending, approved and
// not yet used, or expired unused.
func (q *qstate) awaits() bool {
	return q.status == Pending || q.status == Approved || q.status == Expired
}

// Open returns the items a human still has to act on or that wait for
// the agent's retry (pending, approved, expired), oldest first. It costs
// the queue's postings and the lines of these items, not the journal.
func (j *Journal) Open(now time.Time) ([]*Item, error) {
	var out []*Item
	err := j.locked(func(w *writer) error {
		var err error
		out, err = w.items(now, (*qstate).awaits)
		return err
	})
	return out, err
}

// Item returns the item whose id starts with prefix, with its status at
// now.
func (j *Journal) Item(prefix string, now time.Time) (*Item, error) {
	var it *Item
	err := j.locked(func(w *writer) error {
		var err error
		it, err = w.find(prefix, now)
		return err
	})
	return it, err
}

// find is Item under the lock.
func (w *writer) find(prefix string, now time.Time) (*Item, error) {
	states, err := w.queueStates(now)
	if err != nil {
		return nil, err
	}
	q, err := matchID(states, func(q *qstate) string { return q.id }, prefix)
	if err != nil {
		return nil, err
	}
	r := &lineReader{dir: w.j.dir}
	defer r.close()
	return w.item(r, q)
}

// ErrBadExpiry is returned for an approval's duration that is not
// positive or longer than MaxApprovalExpiry.
var ErrBadExpiry = errors.New("approval duration out of range")

// CheckExpiry checks an approval's duration: positive and at most
// MaxApprovalExpiry.
func CheckExpiry(ttl time.Duration) error {
	if ttl <= 0 || ttl > MaxApprovalExpiry {
		return fmt.Errorf("%w: %s (it must be more than 0 and at most %s)", ErrBadExpiry, ttl, MaxApprovalExpiry)
	}
	return nil
}
