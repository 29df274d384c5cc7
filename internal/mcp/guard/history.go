package guard

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// Detail is what the MCP firewall writes into vocab.Event.Detail for every
// call it decides and every source result it reads, and what it reads back
// from the journal to count sends, find duplicates and see quarantines.
type Detail struct {
	// Server and Tool name the MCP tool (the server by the name the
	// configuration gives it).
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Class is the tool's class from configuration.
	Class string `json:"class"`
	// Phase is "call" for a decision about a call, "result" for what a
	// source returned.
	Phase string `json:"phase"`
	// Decision, Rule and Reason repeat the verdict, so that the Detail
	// stands on its own in an export.
	Decision string `json:"decision"`
	Rule     string `json:"rule,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Args is the call's arguments with the configured fields redacted and
	// long values clipped; ArgsDigest is a keyed SHA-256 of the complete
	// arguments, which binds an out-of-band approval to them.
	Args       json.RawMessage `json:"args,omitempty"`
	ArgsDigest string          `json:"args_digest,omitempty"`
	// Recipients are the contact names a sink call was addressed to.
	Recipients []string `json:"recipients,omitempty"`
	// DedupKey is a keyed digest of recipient and text, for dedup.
	DedupKey string `json:"dedup_key,omitempty"`
	// Sent marks a sink call that was let through: it counts against the
	// rate and for dedup.
	Sent bool `json:"sent,omitempty"`
	// Untrusted marks a source result with content from someone not in
	// the contacts (or whose sender is not known): it starts a quarantine.
	Untrusted bool `json:"untrusted,omitempty"`
	// Writers are the contacts who wrote content a source returned.
	Writers []string `json:"writers,omitempty"`
	// Channel and Answer record a confirmation: "elicit" with "accept",
	// "decline" or "cancel"; "out-of-band" with "held" or "approved".
	Channel string `json:"channel,omitempty"`
	Answer  string `json:"answer,omitempty"`
	// Pin is the tool's pin status when it was refused for it.
	Pin string `json:"pin,omitempty"`
}

// Past is one event the firewall reads back.
type Past struct {
	Time time.Time
	// QueueID is the id under which a held call waits for a human.
	QueueID string
	// Ref is the queue id an event refers to: the held call an approval
	// is about, or the approval a retried call consumed.
	Ref string
	// Approved marks a human's out-of-band approval of the held call Ref.
	Approved bool
	// Rejected marks a human's rejection of the held call Ref.
	Rejected bool
	// Expires is when an approval stops counting (nil: it does not).
	Expires *time.Time
	// Used marks an event that consumed the approval of the held call Ref.
	Used bool
	// Detail is the firewall's own record; nil for approvals and other
	// events.
	Detail *Detail
}

// History is the journal as the firewall reads it.
type History interface {
	// Since returns the events recorded at or after t, oldest first: the
	// firewall's own (with a Detail) and the human's approvals and
	// rejections of held calls.
	Since(t time.Time) ([]Past, error)
}

// Memory is a Recorder and History kept in memory: the journal's stand-in
// in tests and while airlock runs without one. It hands out queue ids for
// held calls, so that a held call can be approved with Approve.
type Memory struct {
	mu     sync.Mutex
	events []Past
	nextID int
	// NoQueue makes Record hand out no queue ids, like a recorder that
	// keeps no queue: held calls are then refused.
	NoQueue bool
}

// Record keeps an event; a deferred call gets a queue id.
func (m *Memory) Record(ev *vocab.Event) (vocab.Receipt, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := Past{Time: ev.Time, Ref: ev.Ref, Used: ev.Ref != "" && ev.Verdict != nil && ev.Verdict.Rule == vocab.RuleApproved}
	if len(ev.Detail) > 0 {
		var d Detail
		if err := json.Unmarshal(ev.Detail, &d); err != nil {
			return vocab.Receipt{}, fmt.Errorf("guard: event detail: %w", err)
		}
		p.Detail = &d
	}
	var r vocab.Receipt
	if ev.Verdict != nil && ev.Verdict.Decision == vocab.Defer && !m.NoQueue {
		m.nextID++
		r.QueueID = "m" + strconv.Itoa(m.nextID)
		p.QueueID = r.QueueID
	}
	m.events = append(m.events, p)
	return r, nil
}

// Approve records a human's approval of the held call id, as the queue's
// approve command does in the journal.
func (m *Memory) Approve(id string, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events = append(m.events, Past{Time: at, Ref: id, Approved: true})
}

// Since returns the events at or after t.
func (m *Memory) Since(t time.Time) ([]Past, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Past
	for _, p := range m.events {
		if !p.Time.Before(t) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Details returns every Detail recorded, in order (for tests and reports).
func (m *Memory) Details() []Detail {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Detail
	for _, p := range m.events {
		if p.Detail != nil {
			out = append(out, *p.Detail)
		}
	}
	return out
}
