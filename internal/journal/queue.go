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

// Queue projects the journal into its queue items, oldest first, with
// their status at now.
func (j *Journal) Queue(now time.Time) ([]*Item, error) {
	return j.queue(now, nil)
}

// queue is Queue over the lines keep accepts (see eachWhere).
func (j *Journal) queue(now time.Time, keep func([]byte) bool) ([]*Item, error) {
	var items []*Item
	byID := map[string]*Item{}
	err := j.eachWhere(keep, func(e *Entry) error {
		if e.ID != "" {
			it := &Item{Entry: e, Status: Pending, Detected: e.Event == EventScanFinding}
			items = append(items, it)
			byID[e.ID] = it
			return nil
		}
		it := byID[e.Ref]
		if it == nil {
			return nil
		}
		switch {
		case e.Event == EventApprove && it.Status == Pending:
			it.Status, it.Settled = Approved, e
		case e.Event == EventReject && (it.Status == Pending || it.Status == Approved):
			it.Status, it.Settled = Rejected, e
		case e.Event == EventRun:
			it.Status, it.Settled = Ran, e
		case e.Rule == RuleApproved && it.Status == Approved:
			it.Status, it.UsedBy = Used, e
		case it.Status == Pending && it.Detected:
			if st, ok := settledBy(e.Event); ok {
				it.Status, it.Settled = st, e
			}
		}
		return nil
	})
	for _, it := range items {
		if it.Status == Approved && it.Settled.Expires != nil && !now.Before(*it.Settled.Expires) {
			it.Status = Expired
		}
	}
	return items, err
}

// Find returns the item whose id starts with prefix.
func Find(items []*Item, prefix string) (*Item, error) {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if prefix == "" {
		return nil, fmt.Errorf("%w: empty id", ErrNotFound)
	}
	var found []*Item
	for _, it := range items {
		if strings.HasPrefix(it.ID, prefix) {
			found = append(found, it)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w: %q", ErrNotFound, prefix)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, it := range found {
		ids[i] = it.ID
	}
	sort.Strings(ids)
	return nil, fmt.Errorf("%w: %q matches %s", ErrAmbiguous, prefix, strings.Join(ids, ", "))
}

// Settle records a human's approval, rejection or run of the item named by
// id (a unique prefix is enough), checking under the journal's lock that
// it can still be settled that way. For an approval, ttl is how long the
// agent's verbatim retry stays allowed (DefaultApprovalExpiry when 0).
func (j *Journal) Settle(event, id, note string, ttl time.Duration) (*Item, error) {
	var it *Item
	err := j.locked(func(w *writer) error {
		now := j.now().UTC()
		items, err := j.Queue(now)
		if err != nil {
			return err
		}
		if it, err = Find(items, id); err != nil {
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
		e := &Entry{Time: now, Event: event, Ref: it.ID, Session: it.Session, Story: it.Story, Note: note}
		if event == EventApprove {
			if ttl <= 0 {
				ttl = DefaultApprovalExpiry
			}
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
