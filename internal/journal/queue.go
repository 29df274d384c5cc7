package journal

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Status is where a queue item stands.
type Status string

// The statuses of a queue item.
const (
	// Pending: held or detected, and no human has looked at it yet.
	Pending Status = "pending"
	// Approved: a human approved it; the agent's verbatim retry runs once
	// until the approval expires.
	Approved Status = "approved"
	// Used: an approved action that the agent's retry has run.
	Used Status = "used"
	// Expired: approved, but not retried before the approval expired.
	Expired Status = "expired"
	// Rejected: a human rejected it.
	Rejected Status = "rejected"
	// Ran: a human ran it with "airlock queue run".
	Ran Status = "ran"
)

// Errors of queue operations.
var (
	// ErrNotFound: no queue item has that id.
	ErrNotFound = errors.New("no such queue item")
	// ErrAmbiguous: the id prefix names more than one item.
	ErrAmbiguous = errors.New("ambiguous queue id")
	// ErrSettled: the item was already rejected, run or used.
	ErrSettled = errors.New("queue item already settled")
)

// Item is one held action or scanner finding and what became of it.
type Item struct {
	// Entry is the journal line that held or detected the action.
	*Entry
	Status Status `json:"status"`
	// Detected is true for a scanner finding (seen after the fact), false
	// for an action a hook held.
	Detected bool `json:"detected"`
	// Settled is the human's approval, rejection or run, if any.
	Settled *Entry `json:"settled,omitempty"`
	// UsedBy is the retry that consumed an approval.
	UsedBy *Entry `json:"used_by,omitempty"`
}

// Queue projects the journal into all its queue items, settled ones
// too, oldest first, with their status at now. It reads every item's
// lines; Open and Item read only what they return.
func (j *Journal) Queue(now time.Time) ([]*Item, error) {
	var out []*Item
	err := j.locked(func(w *writer) error {
		var err error
		out, err = w.items(now, nil)
		return err
	})
	return out, err
}

// Find returns the item whose id starts with prefix.
func Find(items []*Item, prefix string) (*Item, error) {
	return matchID(items, func(it *Item) string { return it.ID }, prefix)
}

// matchID returns the one element whose id starts with prefix (ids are
// lower-case hex): none is ErrNotFound, several ErrAmbiguous naming them.
func matchID[T any](list []T, id func(T) string, prefix string) (T, error) {
	var zero T
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if prefix == "" {
		return zero, fmt.Errorf("%w: empty id", ErrNotFound)
	}
	var found []T
	for _, x := range list {
		if strings.HasPrefix(id(x), prefix) {
			found = append(found, x)
		}
	}
	switch len(found) {
	case 0:
		return zero, fmt.Errorf("%w: %q", ErrNotFound, prefix)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, x := range found {
		ids[i] = id(x)
	}
	sort.Strings(ids)
	return zero, fmt.Errorf("%w: %q matches %s", ErrAmbiguous, prefix, strings.Join(ids, ", "))
}

// Settle records a human's approval, rejection or run of the item named by
// id (a unique prefix is enough), checking under the journal's lock that
// it can still be settled that way. For an approval, ttl is how long the
// agent's verbatim retry stays allowed (DefaultApprovalExpiry when 0; at
// most MaxApprovalExpiry). The line carries the human key's MAC, created
// on the first human act: Settle is the human's path, and only what it
// writes counts.
func (j *Journal) Settle(event, id, note string, ttl time.Duration) (*Item, error) {
	if !humanAct(event) {
		return nil, fmt.Errorf("journal: %q is not a human act", event)
	}
	if event == EventApprove {
		if ttl == 0 {
			ttl = DefaultApprovalExpiry
		}
		if err := CheckExpiry(ttl); err != nil {
			return nil, err
		}
	}
	key, err := loadHumanKey(j.dir, true)
	if err != nil {
		return nil, err
	}
	var it *Item
	err = j.locked(func(w *writer) error {
		w.humanKey = key
		now := j.now().UTC()
		var err error
		if it, err = w.find(id, now); err != nil {
			return err
		}
		_, acking := settledBy(event)
		switch {
		case it.Status == Rejected || it.Status == Ran || it.Status == Used || it.Status == Acknowledged || it.Status == Dismissed:
			return fmt.Errorf("%w: %s is %s", ErrSettled, it.ID, it.Status)
		case it.Detected && event == EventApprove:
			return fmt.Errorf("%w: %s already happened (or was only mentioned), so there is no retry to approve", ErrDetected, it.ID)
		case !it.Detected && acking:
			return fmt.Errorf("%w: %s waits for a yes or a no", ErrNotDetected, it.ID)
		case event == EventApprove && it.Status == Approved:
			return fmt.Errorf("%w: %s is already approved", ErrSettled, it.ID)
		}
		hh, err := w.heldHash(it.ID)
		if err != nil {
			return err
		}
		e := &Entry{Time: now, Event: event, Ref: it.ID, Session: it.Session, Story: it.Story, Note: note, HeldHash: hh}
		if event == EventApprove {
			exp := now.Add(ttl)
			e.Expires = &exp
		}
		if err := w.append(e); err != nil {
			return err
		}
		it.Settled = e
		switch event {
		case EventApprove:
			it.Status = Approved
		case EventReject:
			it.Status = Rejected
		case EventRun:
			it.Status = Ran
		default:
			it.Status, _ = settledBy(event)
		}
		return nil
	})
	return it, err
}
