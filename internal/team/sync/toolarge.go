package sync

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// EventNotShipped is the journal line team sync writes for a held item
// it gave up shipping: the server refused the item on its own as too
// large (413: over its limit per held item, 1 MiB by default, or over
// its limit per push). Ref names the item, Note says why in the server's
// words. The item stays held on this machine; only the team does not see
// it. The line settles nothing (the queue ignores it).
const EventNotShipped = "TeamItemNotShipped"

// NotShipped is a held item given up, and why.
type NotShipped struct {
	Item   string `json:"item"`
	Reason string `json:"reason"`
}

// tooLarge reports whether the server refused a push as too large.
func tooLarge(err error) bool {
	var se *ServerError
	return errors.As(err, &se) && se.Status == http.StatusRequestEntityTooLarge
}

// pushApart pushes p again a part at a time, after the server refused it
// whole as too large: its settlements together, then each held item on
// its own. An item the server refuses on its own as too large is given
// up (journaled, reported, counted in res.NotShipped) and dropped from
// p, so that the cursor moves past it; any other error ends the round
// as before (what was pushed is pushed again next round, harmlessly).
// It returns the sum of the server's answers.
func (s *Syncer) pushApart(ctx context.Context, p *wire.Push, res *Result) (*wire.PushResult, error) {
	sum := &wire.PushResult{}
	if len(p.Settlements) > 0 {
		r, err := s.client.push(ctx, &wire.Push{Settlements: p.Settlements})
		if err != nil {
			return nil, err
		}
		sum.NewSettlements += r.NewSettlements
	}
	kept := p.Items[:0]
	for _, it := range p.Items {
		r, err := s.client.push(ctx, &wire.Push{Items: []wire.HeldItem{it}})
		switch {
		case tooLarge(err):
			if err := s.giveUp(it.ID, err); err != nil {
				return nil, err
			}
			res.NotShipped = append(res.NotShipped, NotShipped{Item: it.ID, Reason: err.Error()})
			continue
		case err != nil:
			return nil, err
		}
		sum.NewItems += r.NewItems
		kept = append(kept, it)
	}
	p.Items = kept
	return sum, nil
}

// giveUp journals and reports a held item the server will not take.
func (s *Syncer) giveUp(item string, why error) error {
	reason := "not shipped to the team server: " + why.Error() + "; it stays held on this machine (airlock queue shows it)"
	if err := s.o.Journal.Append(&journal.Entry{Event: EventNotShipped, Ref: item, Note: reason}); err != nil {
		return fmt.Errorf("team sync: journaling that %s was not shipped: %w", item, err)
	}
	s.report(Event{Kind: "not-shipped", Item: item, Message: reason})
	return nil
}
