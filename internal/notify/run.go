package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
)

// EventReplyRefused is the journal event of a reply the watcher refused
// (malformed, forged, expired, replayed, or about an item that changed or
// was already settled). Its note says why; its detail names the channel.
const EventReplyRefused = "NotifyReplyRefused"

// Note is what an accepted reply's human act carries in its note, so the
// journal says through which channel the human decided.
const Note = "channel: ntfy (phone button)"

// Options configure a Watcher.
type Options struct {
	// StateDir is airlock's state directory, the journal's parent.
	StateDir string
	// HTTP is the client for every request (nil: one with no overall
	// timeout; each publish has its own).
	HTTP *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Report receives what the watcher does; it is called from one
	// goroutine at a time (nil: nothing is reported).
	Report func(Event)
	// Interval is how often Run looks at the queue (0: 2 s).
	Interval time.Duration
	// Name names the watcher's files: what it sent and used in
	// <StateDir>/<Name>/, its reply key and topics in
	// <StateDir>/secrets/<Name>.json ("" is "notify", the machine's
	// watcher). Two watchers of one state directory (the machine's and
	// the team's) keep apart by it.
	Name string
}

// Event is one thing the watcher did, for the human running it.
type Event struct {
	// Kind is "setup", "warning", "sent", "approved", "rejected",
	// "refused" or "error".
	Kind    string    `json:"event"`
	Channel string    `json:"channel,omitempty"`
	Item    string    `json:"item,omitempty"`
	Message string    `json:"message"`
	Time    time.Time `json:"time"`
}

// Limits of one pass over the queue.
const (
	// maxSendsPerPass keeps a long queue from flooding a phone (and a
	// public server's rate limit) when the watcher starts: the rest go on
	// the next passes.
	maxSendsPerPass = 10
	publishTimeout  = 30 * time.Second
	maxBackoff      = time.Minute
)

// Watcher follows the journal's queue and sends each newly held item
// once to the configured channels; for ntfy it also reads the buttons'
// replies and applies them.
type Watcher struct {
	cfg     *Config
	q       Queue
	o       Options
	store   *store
	sec     *secrets
	ntfy    *ntfyClient
	topic   string
	reply   string
	approve bool
	red     *redactor
	mu      sync.Mutex
}

// Run is New then Watcher.Run: it sends and applies replies until ctx is
// done. It is the entry point for "airlock notify" and "airlock serve".
func Run(ctx context.Context, cfg *Config, j *journal.Journal, o Options) error {
	w, err := New(cfg, j, o)
	if err != nil {
		return err
	}
	return w.Run(ctx)
}

// New prepares a watcher of the machine's journal: it reads (or makes)
// the reply key and the secret topic names, and the ntfy token.
func New(cfg *Config, j *journal.Journal, o Options) (*Watcher, error) {
	return NewQueue(cfg, JournalQueue(j), o)
}

// NewQueue prepares a watcher of any Queue (the team's, say), with the
// same messages, buttons and checks as the machine's.
func NewQueue(cfg *Config, q Queue, o Options) (*Watcher, error) {
	if cfg == nil || (cfg.Ntfy == nil && cfg.Webhook == nil) {
		return nil, errors.New("notify: nothing to send to: the user's policy has no notify.ntfy or notify.webhook")
	}
	if o.StateDir == "" {
		return nil, errors.New("notify: no state directory")
	}
	if o.HTTP == nil {
		o.HTTP = &http.Client{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Report == nil {
		o.Report = func(Event) {}
	}
	if o.Interval <= 0 {
		o.Interval = 2 * time.Second
	}
	if o.Name == "" {
		o.Name = StateDir
	}
	if !validTopic(o.Name) {
		return nil, fmt.Errorf("notify: watcher name %q: letters, digits, - and _ only", o.Name)
	}
	w := &Watcher{cfg: cfg, q: q, o: o, store: newStore(o.StateDir, o.Name)}
	var known []string
	if c := cfg.Ntfy; c != nil {
		sec, err := loadSecrets(o.StateDir, o.Name)
		if err != nil {
			return nil, err
		}
		w.sec = sec
		token := c.Token
		if c.TokenFile != "" {
			b, err := readToken(c.TokenFile)
			if err != nil {
				return nil, err
			}
			token = b
		}
		w.ntfy = &ntfyClient{server: c.Server, token: token, http: o.HTTP}
		w.topic, w.reply = c.Topic, c.ReplyTopic
		if w.topic == "" {
			w.topic = sec.Topic
		}
		if w.reply == "" {
			w.reply = sec.ReplyTopic
		}
		known = append(known, token, w.topic, w.reply)
	}
	if c := cfg.Webhook; c != nil {
		for _, v := range c.Headers {
			known = append(known, v)
		}
	}
	w.red = newRedactor(known...)
	return w, nil
}

// readToken reads a token file: one line, at most 1 KiB.
func readToken(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("notify: token_file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1024))
	if err != nil {
		return "", fmt.Errorf("notify: token_file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" || strings.ContainsAny(t, "\r\n") {
		return "", fmt.Errorf("notify: token_file %s must hold the token alone, on one line", path)
	}
	return t, nil
}

// report reports an event whose message is airlock's own text, or an
// error that may quote a server: it is rendered here. It is not redacted:
// it goes to the human running the watcher, and names the secret topic
// to subscribe to on purpose.
func (w *Watcher) report(kind, channel, item, msg string) {
	w.reportRendered(kind, channel, item, render.Line(msg, 1000))
}

// reportRendered reports an event whose message is rendered already (a
// notification's title, with its redaction markers).
func (w *Watcher) reportRendered(kind, channel, item, msg string) {
	w.o.Report(Event{Kind: kind, Channel: channel, Item: item, Message: msg, Time: w.o.Now().UTC()})
}

// setup decides whether notifications may carry an Approve button: only
// when the agent cannot read them. A button's signed reply is a bearer
// credential for one decision, so whoever reads the notification topic
// can press it, from anywhere (even with a GET: ntfy publishes on
// /<topic>/publish). The agent can read the user's policy file; so the
// topic must be one airlock made up (kept in <state>/secrets/, which the
// agent may not read), or be guarded by a token the agent cannot read
// (token_file under <state>/secrets/) on a server that refuses anonymous
// readers, which setup checks.
func (w *Watcher) setup(ctx context.Context) {
	c := w.cfg.Ntfy
	if c == nil {
		return
	}
	secretsDir := filepath.Join(w.o.StateDir, "secrets")
	switch {
	case c.Topic == "":
		w.approve = true
		w.report("setup", "ntfy", "", "subscribe your phone to "+c.Server+"/"+w.topic+" (a secret topic airlock made; kept in "+secretsPath(w.o.StateDir, w.o.Name)+")")
	case c.TokenFile != "" && within(c.TokenFile, secretsDir):
		readable, err := w.ntfy.anonymousRead(ctx, w.topic)
		switch {
		case err != nil:
			w.report("warning", "ntfy", "", "no Approve button: "+err.Error())
		case readable:
			w.report("warning", "ntfy", "", "no Approve button: the server lets anyone read topic "+w.topic+" without a token, and the agent can read its name in your policy file; deny anonymous access to it (ntfy auth-default-access: deny-all)")
		default:
			w.approve = true
			w.report("setup", "ntfy", "", "sending to "+c.Server+"/"+w.topic+" (token-protected; anonymous readers are refused)")
		}
	default:
		w.report("warning", "ntfy", "", "no Approve button: topic "+w.topic+" is named in your policy file, which the agent can read, so it could read the buttons and press them; remove topic: (airlock then makes a secret one) or guard it with a token_file under "+secretsDir)
	}
}

// within reports whether path is inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..")
}

// Once sends what is new, applies the replies waiting on the reply topic,
// and returns.
func (w *Watcher) Once(ctx context.Context) error {
	w.setup(ctx)
	sendErr := w.send(ctx)
	if w.ntfy == nil {
		return sendErr
	}
	cursor, err := w.cursor()
	if err != nil {
		return errors.Join(sendErr, err)
	}
	err = w.ntfy.subscribe(ctx, w.reply, cursor, true, func(m *ntfyMessage) error {
		w.handle(ctx, m)
		return nil
	}, func(id, sum string, why error) {
		w.handle(ctx, &ntfyMessage{ID: id, sum: sum, skipped: why})
	})
	return errors.Join(sendErr, err)
}

// Run sends and applies replies until ctx is done. The reply stream
// reconnects with a backoff (1 s doubling to a minute) and resumes after
// the last message read.
func (w *Watcher) Run(ctx context.Context) error {
	w.setup(ctx)
	replies := make(chan *ntfyMessage)
	errs := make(chan error, 1)
	if w.ntfy != nil {
		cursor, err := w.cursor()
		if err != nil {
			return err
		}
		go w.follow(ctx, cursor, replies, errs)
	}
	tick := time.NewTicker(w.o.Interval)
	defer tick.Stop()
	// A channel that fails is retried after a backoff (one second
	// doubling to a minute), not at every tick: an unreachable server
	// must not turn into a line of errors every two seconds.
	var next time.Time
	backoff := time.Second
	send := func() {
		if time.Now().Before(next) {
			return
		}
		if err := w.send(ctx); err != nil {
			w.report("error", "", "", fmt.Sprintf("%v (retrying in %s)", err, backoff))
			next = time.Now().Add(backoff)
			backoff = min(backoff*2, maxBackoff)
			return
		}
		backoff = time.Second
	}
	send()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-replies:
			w.handle(ctx, m)
		case err := <-errs:
			w.report("error", "ntfy", "", err.Error())
		case <-tick.C:
			send()
		}
	}
}

// follow keeps a subscription to the reply topic.
func (w *Watcher) follow(ctx context.Context, since string, out chan<- *ntfyMessage, errs chan<- error) {
	backoff := time.Second
	for ctx.Err() == nil {
		got := false
		err := w.ntfy.subscribe(ctx, w.reply, since, false, func(m *ntfyMessage) error {
			select {
			case out <- m:
				since, got = m.ID, true
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}, func(id, sum string, why error) {
			// The skipped line is journaled by the loop that handles
			// replies, like any other; the stream resumes after it.
			select {
			case out <- &ntfyMessage{ID: id, sum: sum, skipped: why}:
				if id != "" {
					since = id
				}
			case <-ctx.Done():
			}
		})
		if ctx.Err() != nil {
			return
		}
		if got {
			backoff = time.Second
		}
		if err != nil {
			select {
			case errs <- fmt.Errorf("%w (reconnecting in %s)", err, backoff):
			default:
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

func (w *Watcher) cursor() (string, error) {
	var c string
	err := w.store.update(func(st *state) error {
		c = st.Cursor
		return nil
	})
	return c, err
}

// send notifies every pending item not yet sent, at most
// maxSendsPerPass, and forgets what is no longer open.
func (w *Watcher) send(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.o.Now()
	items, err := w.q.Open(ctx, now)
	if err != nil {
		return err
	}
	var errs []error
	err = w.store.update(func(st *state) error {
		open := map[string]bool{}
		for _, it := range items {
			open[it.ID] = true
		}
		for id := range st.Sent {
			if !open[id] {
				delete(st.Sent, id)
			}
		}
		for n, exp := range st.Used {
			if now.Unix() > exp {
				delete(st.Used, n)
			}
		}
		sends := 0
		for _, it := range items {
			if it.Status != journal.Pending || sends >= maxSendsPerPass {
				continue
			}
			s := st.Sent[it.ID]
			if s == nil {
				exp := now.Add(DefaultExpireAfter)
				if w.cfg.Ntfy != nil {
					exp = now.Add(w.cfg.Ntfy.ExpireAfter)
				}
				s = &sentItem{Nonce: randomHex(16), Action: actionHash(it), Expires: exp.UTC().Truncate(time.Second)}
				st.Sent[it.ID] = s
			}
			n := noticeOf(it, w.red, w.q.CLI())
			if w.ntfy != nil && !s.Ntfy {
				sends++
				if err := w.publish(ctx, it, n, s); err != nil {
					errs = append(errs, err)
				} else {
					s.Ntfy = true
					w.reportRendered("sent", "ntfy", it.ID, n.Title)
				}
			}
			if w.cfg.Webhook != nil && !s.Webhook {
				sends++
				pctx, cancel := context.WithTimeout(ctx, publishTimeout)
				err := postWebhook(pctx, w.o.HTTP, w.cfg.Webhook, webhookPayload(n))
				cancel()
				if err != nil {
					errs = append(errs, err)
				} else {
					s.Webhook = true
					w.reportRendered("sent", "webhook", it.ID, n.Title)
				}
			}
		}
		return nil
	})
	return errors.Join(append(errs, err)...)
}

// publish sends one item to ntfy, with its buttons.
func (w *Watcher) publish(ctx context.Context, it *journal.Item, n *Notice, s *sentItem) error {
	p := &ntfyPublish{Topic: w.topic, Title: n.Title, Message: n.text(s.Expires, w.approve && !n.Detected), Priority: 4, Tags: []string{"lock"}}
	if !n.Detected {
		headers := map[string]string{"Content-Type": "application/json"}
		// airlock's token rides in a button only when the topic is
		// private to the human (the same test as the Approve button):
		// anyone who can read the notification can read its buttons, and
		// the token would let them read and post wherever airlock may.
		// Without it, Reject on a token-protected reply topic fails and
		// the human rejects with "airlock queue reject ID".
		if w.ntfy.token != "" && w.approve {
			headers["Authorization"] = "Bearer " + w.ntfy.token
		}
		button := func(label, decision string) ntfyAction {
			return ntfyAction{Action: "http", Label: label, URL: w.ntfy.topicURL(w.reply), Method: http.MethodPost,
				Headers: headers, Body: signReply(w.sec.key, it, decision, s.Nonce, s.Expires), Clear: true}
		}
		if w.approve {
			p.Actions = append(p.Actions, button("Approve", DecisionApprove))
		}
		// Reject is offered even when the topic may be read by others:
		// pressing it can only refuse the agent's own action.
		p.Actions = append(p.Actions, button("Reject", DecisionReject))
	}
	pctx, cancel := context.WithTimeout(ctx, publishTimeout)
	defer cancel()
	return w.ntfy.publish(pctx, p)
}

// handle applies one reply message, or refuses and journals it.
func (w *Watcher) handle(ctx context.Context, m *ntfyMessage) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if m.skipped != nil {
		w.skip(m)
		return
	}
	now := w.o.Now()
	r, err := parseReply(m.Message)
	var it *journal.Item
	if err == nil {
		it, err = w.q.Item(ctx, r.ID, now)
		if err == nil && it.ID != r.ID {
			err = fmt.Errorf("%w: %s", journal.ErrNotFound, r.ID)
		}
	}
	serr := w.store.update(func(st *state) error {
		st.Cursor, st.Skipped = m.ID, nil
		if err != nil {
			return nil
		}
		current := actionHash(it)
		shown := current
		if s := st.Sent[r.ID]; s != nil {
			shown = s.Action
		}
		switch {
		case !verifyMAC(w.sec.key, r, shown):
			err = ErrForged
		case now.Unix() > r.Expires:
			err = fmt.Errorf("%w (at %s)", ErrExpired, time.Unix(r.Expires, 0).UTC().Format(time.RFC3339))
		case st.Used[r.Nonce] != 0:
			err = ErrReplayed
		case shown != current:
			err = ErrChanged
		default:
			// The nonce is spent before the decision is written: a crash
			// in between loses the press (the human presses again or uses
			// the CLI) rather than letting it count twice.
			st.Used[r.Nonce] = r.Expires
		}
		return nil
	})
	if err == nil && serr != nil {
		err = serr
	}
	if err == nil {
		kind, ttl := "approved", w.cfg.Ntfy.ApproveFor
		if r.Decision == DecisionReject {
			kind, ttl = "rejected", 0
		}
		var by string
		if by, err = w.q.Settle(ctx, r.ID, r.Decision, Note, ttl); err == nil {
			msg := "a human pressed " + r.Decision + " on the phone"
			if by != "" {
				msg += " (settled as reviewer " + by + ")"
			}
			w.report(kind, "ntfy", r.ID, msg)
			return
		}
	}
	w.refuse(m, r, err)
}

// skip journals a stream line that was dropped, once: a line with an id
// moves the cursor past it; one without is remembered by its digest
// until the cursor moves, since the next read starts before it again.
func (w *Watcher) skip(m *ntfyMessage) {
	seen := false
	err := w.store.update(func(st *state) error {
		if m.ID != "" {
			st.Cursor, st.Skipped = m.ID, nil
			return nil
		}
		if slices.Contains(st.Skipped, m.sum) {
			seen = true
			return nil
		}
		st.Skipped = append(st.Skipped, m.sum)
		if len(st.Skipped) > maxSkipped {
			st.Skipped = st.Skipped[len(st.Skipped)-maxSkipped:]
		}
		return nil
	})
	if seen {
		return
	}
	why := m.skipped
	if err != nil {
		why = fmt.Errorf("%w (and the watcher's state could not be saved: %v)", why, err)
	}
	w.refuse(m, nil, why)
}

// refuse journals a refused reply and reports it.
func (w *Watcher) refuse(m *ntfyMessage, r *Reply, why error) {
	d := map[string]string{"channel": "ntfy", "message_id": clip(m.ID, 64)}
	id := ""
	if r != nil {
		id = r.ID
		d["item"], d["decision"] = r.ID, r.Decision
	}
	msg := "reply refused: " + why.Error()
	if err := w.q.Refused(clip(msg, 500), d); err != nil {
		msg += " (and it could not be journaled: " + err.Error() + ")"
	}
	w.reportRendered("refused", "ntfy", w.red.Line(id, 64), w.red.Line(msg, 600))
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
