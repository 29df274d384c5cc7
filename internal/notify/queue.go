package notify

import (
	"context"
	"encoding/json"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// Queue is what a watcher sends and settles: one machine's journal
// (JournalQueue), or the team's queue on a team server
// (internal/team/teamnotify). The watcher owns the message format, the
// buttons' signed replies and their checks; a Queue only lists, finds and
// settles items, and keeps the record of a refused reply.
type Queue interface {
	// Open returns the items that may wait for a human; the watcher
	// sends those whose Status is journal.Pending.
	Open(ctx context.Context, now time.Time) ([]*journal.Item, error)
	// Item returns the item id names; an unknown one is an error
	// wrapping journal.ErrNotFound.
	Item(ctx context.Context, id string, now time.Time) (*journal.Item, error)
	// Settle applies a human's decision (DecisionApprove, for ttl, or
	// DecisionReject) with note, once: an item already settled is an
	// error. It returns who the decision names ("" for the machine's own
	// human).
	Settle(ctx context.Context, id, decision, note string, ttl time.Duration) (by string, err error)
	// Refused keeps the record of a reply the watcher refused (note says
	// why, detail names the channel, the message and the item).
	Refused(note string, detail map[string]string) error
	// CLI is the command a human reviews an item with by hand, which
	// notifications name: "airlock queue" or "airlock team queue".
	CLI() string
}

// JournalQueue is the machine's own queue: its journal, settled by
// journal.Settle as "airlock queue approve" settles, with refusals
// journaled as EventReplyRefused.
func JournalQueue(j *journal.Journal) Queue { return journalQueue{j} }

type journalQueue struct{ j *journal.Journal }

func (q journalQueue) Open(_ context.Context, now time.Time) ([]*journal.Item, error) {
	return q.j.Open(now)
}

func (q journalQueue) Item(_ context.Context, id string, now time.Time) (*journal.Item, error) {
	return q.j.Item(id, now)
}

func (q journalQueue) Settle(_ context.Context, id, decision, note string, ttl time.Duration) (string, error) {
	event := journal.EventApprove
	if decision == DecisionReject {
		event, ttl = journal.EventReject, 0
	}
	_, err := q.j.Settle(event, id, note, ttl)
	return "", err
}

func (q journalQueue) Refused(note string, detail map[string]string) error {
	b, _ := json.Marshal(detail)
	return q.j.Append(&journal.Entry{Event: EventReplyRefused, Note: note, Detail: b})
}

func (journalQueue) CLI() string { return "airlock queue" }
