package journal

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/airlock-dev/airlock/internal/render"
)

// Team mode: a machine ships its held items and what became of them to
// the team server, and applies the decisions the team's reviewers made
// there (internal/team/sync). The journal stays the one source of truth
// on the machine: a team decision counts only once it is written here as
// a human act (SettleTeam), with the human key's MAC like every other,
// and its record (TeamAct) under that MAC. The journal checks nothing of
// the server's signature (it links no team code): the caller hands it a
// decision it has verified with the key pinned at join, and the journal
// checks, under its lock, what only it can: that the item is this
// machine's, still pending, its held line unchanged, and that the
// decision was not applied before.

// ChannelTeam is the channel of a human act a team reviewer made.
const ChannelTeam = "team"

// EventTeamRefused is a team decision the machine refused: a signature
// that does not verify with the pinned key, a decision for another
// machine, an unknown item, a held line that changed, or an item already
// settled here. Ref names the item when it is one of this machine's; Note
// says why; Detail is the decision as it came (TeamRefusal).
const EventTeamRefused = "TeamDecisionRefused"

// TeamAct is the record of a team decision on the human act that applied
// it: who decided, which decision, and the server's signature the
// machine checked, with the fingerprint of the key it checked it with.
type TeamAct struct {
	Channel    string `json:"channel"`
	Reviewer   string `json:"reviewer"`
	DecisionID string `json:"decision_id"`
	// Decided is when the reviewer decided, as the server signed it.
	Decided   string `json:"decided,omitempty"`
	ServerSig string `json:"server_sig"`
	ServerKey string `json:"server_key"`
}

func (t *TeamAct) macFields() []string {
	return []string{"team", t.Channel, t.Reviewer, t.DecisionID, t.Decided, t.ServerSig, t.ServerKey}
}

// TeamDecision is a decision SettleTeam applies. Its caller verified the
// server's signature over it with the pinned key, and that it names this
// machine.
type TeamDecision struct {
	// Verdict is EventApprove or EventReject.
	Verdict string
	// ItemID is the queue id of this machine's item; HeldHash, the hash
	// of its held line the reviewer saw.
	ItemID   string
	HeldHash string
	Note     string
	// TTL is how long an approval lets the retry through
	// (DefaultApprovalExpiry when 0, at most MaxApprovalExpiry).
	TTL time.Duration
	Act TeamAct
}

// TeamRefusal is the Detail of an EventTeamRefused line: the decision as
// it came, and why it was refused.
type TeamRefusal struct {
	Channel    string `json:"channel"`
	DecisionID string `json:"decision_id,omitempty"`
	Machine    string `json:"machine,omitempty"`
	Item       string `json:"item,omitempty"`
	Verdict    string `json:"verdict,omitempty"`
	Reviewer   string `json:"reviewer,omitempty"`
	Refused    string `json:"refused"`
}

// Errors of SettleTeam.
var (
	// ErrTeamApplied: this decision was applied before (a repeated
	// sync); nothing is written.
	ErrTeamApplied = errors.New("team decision already applied")
	// ErrTeamRefused: the decision was refused and the refusal journaled.
	ErrTeamRefused = errors.New("team decision refused")
	// ErrTeamSeen: the decision was refused before (a repeated sync);
	// nothing is written.
	ErrTeamSeen = errors.New("team decision already refused")
)

// SettleTeam applies a verified team decision to item d.ItemID as a human
// act with the channel "team", exactly once: a decision already applied
// is ErrTeamApplied and writes nothing; an item that is not this
// machine's pending held item, or whose held line no longer hashes to
// d.HeldHash, makes the decision a refused one, journaled as
// EventTeamRefused and returned as ErrTeamRefused with the reason.
func (j *Journal) SettleTeam(d TeamDecision) (*Item, error) {
	if d.Verdict != EventApprove && d.Verdict != EventReject {
		return nil, fmt.Errorf("journal: team verdict %q is neither %s nor %s", d.Verdict, EventApprove, EventReject)
	}
	if d.Act.DecisionID == "" || d.Act.Reviewer == "" || d.Act.ServerSig == "" || d.Act.ServerKey == "" {
		return nil, errors.New("journal: a team decision needs its id, reviewer, signature and key")
	}
	d.Act.Channel = ChannelTeam
	ttl := d.TTL
	if d.Verdict == EventApprove {
		if ttl == 0 {
			ttl = DefaultApprovalExpiry
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
		refuse := func(reason string) error {
			if err := w.refuseTeam(d, reason, now); err != nil {
				return err // ErrTeamSeen among them
			}
			return fmt.Errorf("%w: %s", ErrTeamRefused, reason)
		}
		q, err := w.queueItem(d.ItemID, now)
		if err != nil {
			return err
		}
		if q == nil || q.held.Kind != kindHeld {
			return refuse(fmt.Sprintf("no held item %q on this machine", d.ItemID))
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		if q.settled != nil {
			s, _, err := r.entry(*q.settled)
			if err != nil {
				return err
			}
			if s.Team != nil && s.Team.DecisionID == d.Act.DecisionID && validMAC(key, s) {
				return fmt.Errorf("%w: %s settled %s at event %d", ErrTeamApplied, d.Act.DecisionID, d.ItemID, s.Seq)
			}
			by := "here"
			if s.Team != nil {
				by = "by team decision " + s.Team.DecisionID
			}
			return refuse(fmt.Sprintf("item %s was already settled %s (%s)", d.ItemID, by, q.status))
		}
		if q.status != Pending {
			return refuse(fmt.Sprintf("item %s is %s", d.ItemID, q.status))
		}
		if d.Verdict == EventApprove {
			if err := CheckExpiry(ttl); err != nil {
				return refuse(err.Error())
			}
		}
		held, line, err := r.entry(q.held)
		if err != nil {
			return err
		}
		hh := lineHash(line)
		if hh != d.HeldHash {
			return refuse(fmt.Sprintf("item %s's held line no longer hashes to what the reviewer saw", d.ItemID))
		}
		act := d.Act
		e := &Entry{Time: now, Event: d.Verdict, Ref: d.ItemID, Session: held.Session, Story: held.Story,
			Note: d.Note, HeldHash: hh, Team: &act}
		if d.Verdict == EventApprove {
			exp := now.Add(ttl)
			e.Expires = &exp
		}
		if err := w.append(e); err != nil {
			return err
		}
		it = &Item{Entry: held, Settled: e, Status: Approved}
		if d.Verdict == EventReject {
			it.Status = Rejected
		}
		return nil
	})
	return it, err
}

// RefuseTeam journals a team decision the caller refused before it could
// reach SettleTeam (a signature that does not verify, another machine's
// decision, a malformed one): an event the audit and the team server are
// shown, which settles nothing.
func (j *Journal) RefuseTeam(d TeamDecision, machine, reason string) error {
	return j.locked(func(w *writer) error {
		return w.refuseTeamFor(d, machine, reason, j.now().UTC())
	})
}

func (w *writer) refuseTeam(d TeamDecision, reason string, now time.Time) error {
	return w.refuseTeamFor(d, "", reason, now)
}

func (w *writer) refuseTeamFor(d TeamDecision, machine, reason string, now time.Time) error {
	if at, err := w.refusedBefore(d, now); err != nil {
		return err
	} else if at != 0 {
		return fmt.Errorf("%w: %s was refused at event %d", ErrTeamSeen, d.Act.DecisionID, at)
	}
	detail, err := json.Marshal(TeamRefusal{Channel: ChannelTeam, DecisionID: clipTeam(d.Act.DecisionID), Machine: clipTeam(machine),
		Item: clipTeam(d.ItemID), Verdict: clipTeam(d.Verdict), Reviewer: clipTeam(d.Act.Reviewer), Refused: reason})
	if err != nil {
		return err
	}
	e := &Entry{Time: now, Event: EventTeamRefused, Note: reason, Detail: detail}
	if isQueueID(d.ItemID) {
		e.Ref = d.ItemID
	}
	if err := w.append(e); err != nil {
		return err
	}
	// A refusal is a record a human will look for: on disk before the
	// caller reports it.
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal sync: %w", err)
	}
	return nil
}

// refusalWindow bounds how far back a refusal is looked for: a decision
// pulled again (its sync's cursors lost) finds its refusal there and is
// not journaled twice.
const refusalWindow = 30 * 24 * time.Hour

// refusedBefore returns the event that refused decision d before, or 0.
// It reads the details' postings back to the decision's time (less a
// margin for the server's clock), at most refusalWindow.
func (w *writer) refusedBefore(d TeamDecision, now time.Time) (int64, error) {
	if d.Act.DecisionID == "" {
		return 0, nil
	}
	floor := now.Add(-refusalWindow)
	if t, err := time.Parse(time.RFC3339Nano, d.Act.Decided); err == nil && t.Add(-time.Hour).After(floor) {
		floor = t.Add(-time.Hour)
	}
	ps, err := w.j.postingsSince(keyDetail, w.head.Seq, floor.UnixNano())
	if err != nil {
		return 0, err
	}
	r := &lineReader{dir: w.j.dir}
	defer r.close()
	for _, p := range ps {
		e, _, err := r.entry(p)
		if err != nil {
			return 0, err
		}
		if e.Event != EventTeamRefused {
			continue
		}
		var ref TeamRefusal
		if json.Unmarshal(e.Detail, &ref) == nil && ref.DecisionID == clipTeam(d.Act.DecisionID) && ref.Item == clipTeam(d.ItemID) {
			return e.Seq, nil
		}
	}
	return 0, nil
}

// clipTeam bounds a field of a refused decision (it came from the
// network; it is rendered where a human reads it).
func clipTeam(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}

// isQueueID reports whether s has the shape of a queue id (8 hex digits).
func isQueueID(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 4
}

// Outgoing is one line a machine ships to the team server: a held item,
// or what became of one.
type Outgoing struct {
	// Kind is "held", or the settlement: "approved", "rejected", "ran",
	// "used", or "refused" (a team decision refused here).
	Kind string
	// Item is the queue id the line is about.
	Item  string
	Entry *Entry
	// HeldHash is the hash of a held item's line (Kind "held").
	HeldHash string
	// Refusal is a refused decision's record (Kind "refused").
	Refusal *TeamRefusal
}

// TeamOutbox returns, oldest first, at most limit lines after event
// after that team sync ships: held items (not scanner findings, which a
// reviewer cannot approve), the human acts on them that verify, the
// retries that used an approval, and refused team decisions. next is the
// cursor to ask from next time: the last event looked at, or the head
// when everything after after was looked at. It reads the queue's and
// the details' postings after the cursor, not the journal.
func (j *Journal) TeamOutbox(after int64, limit int) (out []Outgoing, next int64, err error) {
	if limit <= 0 {
		limit = 500
	}
	err = j.locked(func(w *writer) error {
		out, next = nil, after
		qs, err := w.j.postingsAfter(keyQueue, w.head.Seq, after)
		if err != nil {
			return err
		}
		ds, err := w.j.postingsAfter(keyDetail, w.head.Seq, after)
		if err != nil {
			return err
		}
		key, err := loadHumanKey(w.j.dir, false)
		if err != nil {
			return err
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		seen := 0
		for len(qs) > 0 || len(ds) > 0 {
			if seen == limit {
				return nil
			}
			var p posting
			detail := len(qs) == 0 || len(ds) > 0 && ds[0].Seq < qs[0].Seq
			if detail {
				p, ds = ds[0], ds[1:]
			} else {
				p, qs = qs[0], qs[1:]
				if len(ds) > 0 && ds[0].Seq == p.Seq {
					ds = ds[1:] // one line in both lists
				}
			}
			seen++
			next = p.Seq
			o, err := outgoing(r, p, detail, key)
			if err != nil {
				return err
			}
			if o != nil {
				out = append(out, *o)
			}
		}
		next = w.head.Seq
		if next < after {
			next = after
		}
		return nil
	})
	return out, next, err
}

// outgoing is what posting p ships, or nil.
func outgoing(r *lineReader, p posting, detail bool, key []byte) (*Outgoing, error) {
	kinds := map[uint8]string{kindHeld: "held", kindApprove: "approved", kindReject: "rejected", kindRun: "ran", kindUsed: "used"}
	kind, ok := kinds[p.Kind]
	if !detail && !ok {
		return nil, nil // a scanner finding, or its acknowledgement
	}
	e, line, err := r.entry(p)
	if err != nil {
		return nil, err
	}
	if detail {
		if e.Event != EventTeamRefused {
			return nil, nil
		}
		var ref TeamRefusal
		if json.Unmarshal(e.Detail, &ref) != nil || ref.Item == "" {
			return nil, nil
		}
		return &Outgoing{Kind: "refused", Item: ref.Item, Entry: e, Refusal: &ref}, nil
	}
	if humanAct(e.Event) && !validMAC(key, e) {
		return nil, nil // not a human's: the queue ignores it, and so does the team
	}
	o := &Outgoing{Kind: kind, Item: p.idString(), Entry: e}
	if p.Kind == kindHeld {
		o.HeldHash = lineHash(line)
	}
	return o, nil
}

// postingsAfter returns the records of events after seq after, oldest
// first, reading backwards from the end: it costs the records after the
// cursor, not the file.
func (j *Journal) postingsAfter(key string, headSeq, after int64) ([]posting, error) {
	return j.postingsBack(key, headSeq, func(p posting) bool { return p.Seq > after })
}

// TeamExpired returns the approvals that expired unused after since and
// at or before now, as outgoing lines of Kind "expired" (Entry is the
// approval, whose Expires is when it ran out): no line records an
// expiry, so sync asks for the window since its last round.
func (j *Journal) TeamExpired(since, now time.Time) ([]Outgoing, error) {
	var out []Outgoing
	err := j.locked(func(w *writer) error {
		out = nil
		states, err := w.queueStates(now)
		if err != nil {
			return err
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		for _, q := range states {
			if q.status != Expired || q.settled == nil || q.held.Kind != kindHeld {
				continue
			}
			exp := time.Unix(0, q.settled.Exp)
			if !exp.After(since) || exp.After(now) {
				continue
			}
			e, _, err := r.entry(*q.settled)
			if err != nil {
				return err
			}
			out = append(out, Outgoing{Kind: "expired", Item: q.id, Entry: e})
		}
		return nil
	})
	return out, err
}

// teamRefusedNeedle finds refusal lines without decoding the others.
var teamRefusedNeedle = field("event", EventTeamRefused)

// refusalDetail is a refused decision as the audit lists it, rendered
// (every field but the reason came over the network).
func refusalDetail(e *Entry) string {
	var r TeamRefusal
	_ = json.Unmarshal(e.Detail, &r)
	return fmt.Sprintf("team decision %s (%s of %s by %s) refused: %s", line(orDash(r.DecisionID)), line(orDash(r.Verdict)),
		line(orDash(r.Item)), line(orDash(r.Reviewer)), render.Line(e.Note, 500))
}
