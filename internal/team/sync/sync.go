package sync

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/safefile"
	"github.com/airlock-dev/airlock/internal/statefile"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// StateDir is sync's own directory under the state directory: its
// cursors and its lock. Nothing in it authorises anything: a cursor moved
// back ships again (the server ignores what it has) or pulls again (the
// journal applies a decision once); moved forward, it only delays review.
const StateDir = "team"

// Limits of one round.
const (
	// DefaultBatch is how many journal lines one push covers at most.
	DefaultBatch = 500
	// maxPushBytes bounds one push's body: a batch of huge held
	// commands is cut into several pushes.
	maxPushBytes = 4 << 20
	// decisionPage is how many decisions one pull asks for.
	decisionPage = 200
	// maxTTL is the longest approval a decision's ttl_seconds can ask
	// for before it is refused (journal.MaxApprovalExpiry).
	maxTTL = int64(journal.MaxApprovalExpiry / time.Second)
	// lockWait bounds the wait for another sync's round.
	lockWait = 2 * time.Minute
)

// Options configure a Syncer.
type Options struct {
	// StateDir is airlock's state directory (the journal's parent).
	StateDir string
	// Journal is the machine's journal.
	Journal *journal.Journal
	// HTTP is the client (nil: one with a per-request timeout).
	HTTP *http.Client
	// Report receives what sync does (nil: nothing is reported).
	Report func(Event)
	// Batch is how many journal lines one push covers (DefaultBatch).
	Batch int
	// Now is the clock (time.Now).
	Now func() time.Time
}

// Event is one thing sync did, for the human running it.
type Event struct {
	// Kind is "shipped", "applied", "refused", "skipped",
	// "not-shipped", "warning" or "error".
	Kind     string    `json:"event"`
	Item     string    `json:"item,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Reviewer string    `json:"reviewer,omitempty"`
	Message  string    `json:"message"`
	Time     time.Time `json:"time"`
}

// Result counts one round.
type Result struct {
	Items       int `json:"items"`       // held items shipped
	Settlements int `json:"settlements"` // settlements shipped
	New         int `json:"new"`         // rows the server did not have
	Applied     int `json:"applied"`     // team decisions applied
	Refused     int `json:"refused"`     // team decisions refused
	Skipped     int `json:"skipped"`     // team decisions applied before
	// NotShipped are the held items given up this round: the server
	// refused each on its own as too large (413). They stay held on this
	// machine, where "airlock queue" shows them.
	NotShipped []NotShipped `json:"not_shipped,omitempty"`
}

// Syncer runs sync rounds for one machine.
type Syncer struct {
	o      Options
	cfg    *Config
	key    ed25519.PublicKey
	client *client
	dir    string
}

// New reads the membership join wrote and prepares rounds.
func New(o Options) (*Syncer, error) {
	if o.StateDir == "" || o.Journal == nil {
		return nil, errors.New("team sync: no state directory or journal")
	}
	cfg, err := LoadConfig(o.StateDir)
	if err != nil {
		return nil, err
	}
	key, err := cfg.key()
	if err != nil {
		return nil, err
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Report == nil {
		o.Report = func(Event) {}
	}
	return &Syncer{o: o, cfg: cfg, key: key, client: newClient(cfg.Server, cfg.Token, o.HTTP), dir: filepath.Join(o.StateDir, StateDir)}, nil
}

// Config is the membership the syncer runs with.
func (s *Syncer) Config() *Config { return s.cfg }

func (s *Syncer) report(ev Event) {
	ev.Time = s.o.Now().UTC()
	s.o.Report(ev)
}

// cursors is sync's state: how far the journal was shipped and the
// team's decisions pulled, for one server and machine.
type cursors struct {
	Server  string `json:"server"`
	Machine string `json:"machine"`
	// Shipped is the last journal event looked at for shipping.
	Shipped int64 `json:"shipped"`
	// Pulled is the last decision seq (the server's) handled.
	Pulled int64 `json:"pulled"`
	// Expired is up to when approvals that ran out unused were reported.
	Expired time.Time `json:"expired"`
}

func (s *Syncer) loadCursors() (*cursors, error) {
	data, err := safefile.ReadRegular(filepath.Join(s.dir, "cursors.json"), safefile.ReadOptions{Limit: 4096})
	c := &cursors{}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("team sync: %w", err)
	default:
		if err := json.Unmarshal(data, c); err != nil {
			// Unreadable cursors cost a full re-ship and re-pull, both
			// harmless: start over rather than stop.
			s.report(Event{Kind: "warning", Message: "the sync cursors were unreadable; shipping and pulling again from the start"})
			c = &cursors{}
		}
	}
	if c.Server != s.cfg.Server || c.Machine != s.cfg.Machine || c.Shipped < 0 || c.Pulled < 0 {
		// Another server or name: everything is news to it.
		c = &cursors{Server: s.cfg.Server, Machine: s.cfg.Machine}
	}
	return c, nil
}

func (s *Syncer) saveCursors(c *cursors) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := safefile.Replace(filepath.Join(s.dir, "cursors.json"), data, safefile.Options{Perm: 0o600}); err != nil {
		return fmt.Errorf("team sync: saving the cursors: %w", err)
	}
	return nil
}

// lock keeps two syncs of one machine from running a round at once.
func (s *Syncer) lock() (func(), error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("team sync: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(s.dir, "lock"), os.O_RDWR|os.O_CREATE|statefile.OpenFlags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("team sync: %w", err)
	}
	unlock, err := statefile.LockWithin(f, lockWait)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("team sync: another sync holds %s: %w", f.Name(), err)
	}
	return func() { unlock(); f.Close() }, nil
}

// Once runs one round: it ships what the journal holds after the ship
// cursor, pulls the decisions after the pull cursor and applies them,
// then ships again (the decisions applied or refused, so the server hears
// at once). An error ends the round with the cursors where the last
// step that succeeded left them: the next round picks up there.
func (s *Syncer) Once(ctx context.Context) (Result, error) {
	var res Result
	unlock, err := s.lock()
	if err != nil {
		return res, err
	}
	defer unlock()
	c, err := s.loadCursors()
	if err != nil {
		return res, err
	}
	h, err := s.client.hello(ctx)
	if err != nil {
		return res, err
	}
	if h.Version != wire.Version {
		return res, fmt.Errorf("team sync: the server speaks protocol version %d, this airlock %d", h.Version, wire.Version)
	}
	if h.Machine != s.cfg.Machine {
		return res, fmt.Errorf("team sync: the server says this token is machine %q, but this machine joined as %q; join again", h.Machine, s.cfg.Machine)
	}
	if h.ServerKey != s.cfg.ServerKey {
		// Its decisions will not verify; they are refused one by one.
		s.report(Event{Kind: "warning", Message: "the server presents a key other than the one pinned at join (" + s.cfg.Fingerprint + "): its decisions will be refused"})
	}
	if err := s.ship(ctx, c, &res); err != nil {
		return res, err
	}
	if err := s.shipExpired(ctx, c, &res); err != nil {
		return res, err
	}
	if err := s.pull(ctx, c, &res); err != nil {
		return res, err
	}
	if res.Applied+res.Refused > 0 {
		if err := s.ship(ctx, c, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ship pushes the journal's lines after the ship cursor, a batch at a
// time, moving the cursor after each push the server took.
func (s *Syncer) ship(ctx context.Context, c *cursors, res *Result) error {
	for {
		out, next, err := s.o.Journal.TeamOutbox(c.Shipped, s.o.Batch)
		if err != nil {
			return err
		}
		if next <= c.Shipped && len(out) == 0 {
			return nil
		}
		p, refusals, cut := batch(out)
		if cut >= 0 {
			next = out[cut].Entry.Seq
		}
		if len(p.Items)+len(p.Settlements) > 0 {
			r, err := s.client.push(ctx, p)
			if tooLarge(err) && len(p.Items) > 0 {
				// One item the server will never take (over its limit
				// per held item) must not hold up the rest for ever:
				// each goes on its own, and the one refused is given up.
				r, err = s.pushApart(ctx, p, res)
			}
			if err != nil {
				return err
			}
			res.Items += len(p.Items)
			res.Settlements += len(p.Settlements)
			res.New += r.NewItems + r.NewSettlements
			if r.NewItems+r.NewSettlements > 0 {
				s.report(Event{Kind: "shipped", Message: fmt.Sprintf("%d held items and %d settlements (%d new to the server)", len(p.Items), len(p.Settlements), r.NewItems+r.NewSettlements)})
			}
		}
		if len(refusals) > 0 {
			// Refusals go on their own: a server that will not take them
			// (an item it never had, a status it does not know) answers
			// 4xx, which is reported and not retried; the refusal stays
			// in the journal. Anything else is retried next round.
			r, err := s.client.push(ctx, &wire.Push{Settlements: refusals})
			var se *ServerError
			switch {
			case errors.As(err, &se) && se.Status/100 == 4:
				s.report(Event{Kind: "warning", Message: fmt.Sprintf("the server did not take %d refused decisions (they stay in this machine's journal): %v", len(refusals), err)})
			case err != nil:
				return err
			default:
				res.Settlements += len(refusals)
				res.New += r.NewSettlements
			}
		}
		c.Shipped = next
		if err := s.saveCursors(c); err != nil {
			return err
		}
	}
}

// shipExpired reports the approvals that ran out unused since the last
// round: no journal line says so, the queue's clock does.
func (s *Syncer) shipExpired(ctx context.Context, c *cursors, res *Result) error {
	now := s.o.Now().UTC()
	out, err := s.o.Journal.TeamExpired(c.Expired, now)
	if err != nil {
		return err
	}
	for len(out) > 0 {
		n := min(len(out), s.o.Batch)
		p := &wire.Push{}
		for _, o := range out[:n] {
			p.Settlements = append(p.Settlements, settlement(o))
		}
		out = out[n:]
		r, err := s.client.push(ctx, p)
		if err != nil {
			return err
		}
		res.Settlements += len(p.Settlements)
		res.New += r.NewSettlements
	}
	c.Expired = now
	return s.saveCursors(c)
}

// batch turns outgoing lines into a push, cut where it would pass
// maxPushBytes: cut is the index of the last line taken when the batch
// was cut, -1 when it was not.
func batch(out []journal.Outgoing) (p *wire.Push, refusals []wire.Settlement, cut int) {
	p = &wire.Push{}
	size := 0
	for i, o := range out {
		var row any
		switch o.Kind {
		case "held":
			it := heldItem(o)
			p.Items = append(p.Items, it)
			row = it
		case "refused":
			st := settlement(o)
			refusals = append(refusals, st)
			row = st
		default:
			st := settlement(o)
			p.Settlements = append(p.Settlements, st)
			row = st
		}
		b, _ := json.Marshal(row)
		size += len(b)
		if size >= maxPushBytes && i < len(out)-1 {
			return p, refusals, i
		}
	}
	return p, refusals, -1
}

func heldItem(o journal.Outgoing) wire.HeldItem {
	e := o.Entry
	it := wire.HeldItem{ID: o.Item, HeldHash: o.HeldHash, Seq: e.Seq, Time: e.Time, Agent: e.Agent, Session: e.Session,
		Story: e.Story, Cwd: e.Cwd, Tool: e.Tool, Kind: e.Kind, Command: e.Command, Paths: e.Paths, URL: e.URL,
		Decision: e.Decision, Rule: e.Rule, Message: e.Message, Mode: e.Mode, Effect: e.Effect,
		InputDigest: e.InputDigest, Input: e.Input}
	if e.Cwd != "" {
		it.Repo = filepath.Base(e.Cwd)
	}
	for _, r := range e.Reasons {
		it.Reasons = append(it.Reasons, wire.Reason{Rule: r.Rule, Message: r.Message})
	}
	return it
}

// channel names where a local human act came from, as the journal's
// writers word their notes (the CLI leaves the note to the human).
func channel(e *journal.Entry) string {
	switch {
	case e.Team != nil:
		return journal.ChannelTeam
	case e.Note == "channel: ntfy (phone button)":
		return "phone"
	case len(e.Note) >= len("from the dashboard") && e.Note[len(e.Note)-len("from the dashboard"):] == "from the dashboard":
		return "dashboard"
	}
	return "cli"
}

func settlement(o journal.Outgoing) wire.Settlement {
	e := o.Entry
	st := wire.Settlement{ID: o.Item, Status: o.Kind, Time: e.Time}
	if o.Kind == "refused" {
		st.Status = wire.StatusRefused
	}
	switch o.Kind {
	case "used":
		// The agent's retry, not a human: no channel.
	case "expired":
		// The queue's clock, not a human: when the approval ran out.
		if e.Expires != nil {
			st.Time = *e.Expires
		}
	case "refused":
		r := o.Refusal
		st.Channel, st.Reviewer, st.DecisionID, st.Refused = journal.ChannelTeam, r.Reviewer, r.DecisionID, r.Refused
	default:
		st.Channel = channel(e)
		if e.Team != nil {
			st.Reviewer, st.DecisionID = e.Team.Reviewer, e.Team.DecisionID
		}
	}
	return st
}

// pull asks for the decisions after the pull cursor and applies them in
// order, moving the cursor after each one handled (applied, refused or
// found applied before). A journal that cannot be written stops the round
// before the cursor moves: that decision is asked for again.
func (s *Syncer) pull(ctx context.Context, c *cursors, res *Result) error {
	for {
		page, err := s.client.decisions(ctx, c.Pulled, decisionPage)
		if err != nil {
			return err
		}
		moved := false
		for _, d := range page.Decisions {
			if d.Seq <= c.Pulled {
				continue // the server repeated itself; the cursor is ours
			}
			if err := s.apply(d, res); err != nil {
				return err
			}
			c.Pulled = d.Seq
			moved = true
			if err := s.saveCursors(c); err != nil {
				return err
			}
		}
		if !moved {
			return nil
		}
	}
}

// apply checks one decision and hands it to the journal.
func (s *Syncer) apply(d wire.Decision, res *Result) error {
	td := journal.TeamDecision{ItemID: d.ItemID, HeldHash: d.HeldHash, Note: d.Note,
		Act: journal.TeamAct{Reviewer: d.Reviewer, DecisionID: d.DecisionID, Decided: d.Time, ServerSig: d.Sig, ServerKey: s.cfg.Fingerprint}}
	switch d.Verdict {
	case wire.Approve:
		td.Verdict = journal.EventApprove
	case wire.Reject:
		td.Verdict = journal.EventReject
	default:
		td.Verdict = d.Verdict
	}
	ev := Event{Item: d.ItemID, Decision: d.DecisionID, Reviewer: d.Reviewer}
	if err := wire.Verify(s.key, d, s.cfg.Machine); err != nil {
		switch jerr := s.o.Journal.RefuseTeam(td, d.Machine, err.Error()); {
		case errors.Is(jerr, journal.ErrTeamSeen):
			res.Skipped++
			ev.Kind, ev.Message = "skipped", jerr.Error()
		case jerr != nil:
			return jerr
		default:
			res.Refused++
			ev.Kind, ev.Message = "refused", err.Error()
		}
		s.report(ev)
		return nil
	}
	switch {
	case d.TTLSeconds > maxTTL:
		td.TTL = journal.MaxApprovalExpiry + time.Second // refused by the journal, which names the limit
	default:
		td.TTL = time.Duration(d.TTLSeconds) * time.Second
	}
	_, err := s.o.Journal.SettleTeam(td)
	switch {
	case err == nil:
		res.Applied++
		ev.Kind, ev.Message = "applied", d.Verdict+" by "+d.Reviewer
	case errors.Is(err, journal.ErrTeamApplied), errors.Is(err, journal.ErrTeamSeen):
		res.Skipped++
		ev.Kind, ev.Message = "skipped", err.Error()
	case errors.Is(err, journal.ErrTeamRefused):
		res.Refused++
		ev.Kind, ev.Message = "refused", err.Error()
	default:
		return err
	}
	s.report(ev)
	return nil
}

// Run runs rounds every interval until ctx is done. A round that fails
// (the server unreachable, a push refused) is reported, and the next is
// tried after a backoff that doubles up to maxBackoff; the cursors keep
// what was done, so nothing is lost or done twice.
func (s *Syncer) Run(ctx context.Context, interval time.Duration) error {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	backoff := interval
	for {
		wait := interval
		if _, err := s.Once(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			wait = backoff
			backoff = min(backoff*2, max(maxBackoff, interval))
			s.report(Event{Kind: "error", Message: err.Error() + fmt.Sprintf(" (next try in %s)", wait)})
			if unauthorized(err) {
				s.report(Event{Kind: "warning", Message: "the server refused this machine's token: revoked? join again with a new one"})
			}
		} else {
			backoff = interval
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// maxBackoff is the longest wait between failed rounds.
const maxBackoff = 5 * time.Minute
