package journal

import (
	"math"
	"time"
)

// clockSkew is how far out of order two writers' event times can be in
// the chain (each stamps its event before it takes the lock).
const clockSkew = time.Minute

// Standing is where a held item stands, for a caller that matches held
// calls to approvals itself (the MCP firewall).
type Standing struct {
	ID     string
	Status Status
	// Expires is when an approval stops counting (Approved only).
	Expires *time.Time
}

// Recent returns the entries with an entry point's detail (the MCP
// firewall's calls and results) recorded at or after since, oldest first,
// and the standing of every item a human approved (approved, used or
// expired) at now. It reads the detail postings back from the end only
// as far as since, and the queue's postings: not the journal.
func (j *Journal) Recent(since, now time.Time) ([]*Entry, []Standing, error) {
	var entries []*Entry
	var standings []Standing
	err := j.locked(func(w *writer) error {
		entries, standings = nil, nil
		floor := int64(math.MinInt64) // UnixNano is undefined far from now
		if since.After(time.Unix(0, 0)) {
			floor = since.Add(-clockSkew).UnixNano()
		}
		ps, err := w.j.postingsSince(keyDetail, w.head.Seq, floor)
		if err != nil {
			return err
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		for _, p := range ps {
			e, _, err := r.entry(p)
			if err != nil {
				return err
			}
			if !e.Time.Before(since) {
				entries = append(entries, e)
			}
		}
		states, err := w.queueStates(now)
		if err != nil {
			return err
		}
		for _, q := range states {
			switch q.status {
			case Approved, Used, Expired:
				if q.settled == nil {
					continue
				}
				s := Standing{ID: q.id, Status: q.status}
				if q.settled.Exp != 0 {
					exp := time.Unix(0, q.settled.Exp).UTC()
					s.Expires = &exp
				}
				standings = append(standings, s)
			}
		}
		return nil
	})
	return entries, standings, err
}
