// Package guard decides MCP tool calls by the "mcp:" section of the
// policy: tool classes from configuration (never from the tools' own
// descriptions), recipients of sinks by contact name only, rate limits,
// duplicate suppression and the quarantine after untrusted content.
//
// It serves both entry points: the MCP proxy (internal/mcp/proxy), which
// asks the human through MCP elicitation or holds calls out of band, and
// the Claude Code hook's mcp__server__tool calls (Hook), which turn a
// needed confirmation into the agent's own permission prompt. Its state is
// the journal: what it decided is written to vocab.Event.Detail and read
// back through History, so the limits hold across processes and restarts.
package guard

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/mcp/sanitize"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Rules name what set a verdict, as policy rules do.
const (
	RuleArgs       = "mcp.args"
	RuleRecipient  = "mcp.recipient"
	RuleRate       = "mcp.rate"
	RuleDedup      = "mcp.dedup"
	RuleQuarantine = "mcp.quarantine"
	RuleHistory    = "mcp.history"
	// RuleApproved is the journal's rule for an action a human approved
	// out of band (vocab.RuleApproved): the queue shows the approval as
	// used by the entry that carries it.
	RuleApproved = vocab.RuleApproved
	RuleClass    = "mcp.class"
	// RuleConfig refuses every call when the "mcp:" section of the
	// policy has a mistake: the firewall does not guess what it meant.
	RuleConfig = "mcp.config"
)

// ListContactsUpTo is the most contact names a refusal lists: a short
// book helps the agent pick the right name; a long one would hand the
// model everyone it could write to.
const ListContactsUpTo = 8

// ApprovalValidity is how long a human's out-of-band approval of a held
// call stays usable for the retried call.
const ApprovalValidity = 24 * time.Hour

// Call is one MCP tool call about to be made.
type Call struct {
	Server, Tool string
	// Args is the call's arguments as the agent sent them (a JSON object,
	// or empty).
	Args json.RawMessage
}

// Guard decides MCP tool calls.
type Guard struct {
	// Policy is the policy in effect; its "mcp:" section, compiled by
	// mcpconfig.Of, configures tools.
	Policy *policy.Policy
	// History reads back what was decided before (the journal).
	History History
	// Key keys the argument and dedup digests so that the journal does not
	// reveal short redacted texts; nil uses plain SHA-256 (LoadKey).
	Key []byte
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Outcome is the guard's answer for one call.
type Outcome struct {
	// Verdict is the decision with its rule and a message for the agent
	// and the human. Ask means a human must confirm (see Channel).
	Verdict policy.Verdict
	// Config is the compiled "mcp:" section the call was decided by, for
	// what the entry point does with the result (nil when the section
	// has a mistake, and the call is refused).
	Config *mcpconfig.Config
	// Class and Tool are the tool's configuration (Tool nil when the tool
	// is not listed).
	Class mcpconfig.ToolClass
	Tool  *mcpconfig.Tool
	// Channel is how a confirmation is to be asked for, when Verdict is
	// Ask.
	Channel mcpconfig.Confirm
	// Forward is the arguments to send upstream: recipient names replaced
	// by the contacts' addresses unless the sink keeps names.
	Forward json.RawMessage
	// Recipients are the resolved contacts of a sink call.
	Recipients []mcpconfig.Contact
	// Text is the sink's text argument, for the confirmation prompt.
	Text string
	// Approval is the queue id of a human's out-of-band approval this
	// call uses.
	Approval string
	// Detail is what goes to the journal.
	Detail Detail
}

// Check decides one call in mode. It never returns Allow for a sink whose
// state cannot be read: an error reading History denies the call.
func (g *Guard) Check(mode policy.Mode, c Call) Outcome {
	now := g.now()
	m, err := mcpconfig.Of(g.Policy)
	if err != nil {
		o := Outcome{Forward: c.Args, Channel: mcpconfig.ConfirmNone}
		o.Detail = Detail{Server: c.Server, Tool: c.Tool, Class: mcpconfig.ClassUnknown.String(), Phase: "call", ArgsDigest: g.digest(c.Args)}
		o.Verdict.Mode = mode
		o.deny(RuleConfig, "the mcp: section of airlock's policy has a mistake ("+err.Error()+"), so airlock refuses MCP tool calls until a human fixes it (airlock policy check)")
		o.finish(g)
		return o
	}
	cfg, class := m.Tool(c.Server, c.Tool)
	o := Outcome{Config: m, Class: class, Tool: cfg, Forward: c.Args}
	o.Detail = Detail{Server: c.Server, Tool: c.Tool, Class: class.String(), Phase: "call"}
	kind := policy.LocalTool
	if class == mcpconfig.ClassUnknown {
		kind = policy.UnknownTool
	}
	o.Verdict = g.Policy.DecideIn(mode, policy.Action{Kind: kind, Tool: policy.ToolName(c.Server, c.Tool)})
	if class == mcpconfig.ClassUnknown && o.Verdict.Decision > policy.Allow && o.Verdict.Rule == "table.unknown" {
		o.Verdict.Message = fmt.Sprintf("%s/%s is not classed in the mcp: section of airlock's policy, so a human decides each call (a human can class it as source, sink, private or neutral)", c.Server, c.Tool)
	}
	args, err := decodeArgs(c.Args)
	if err != nil {
		o.Detail.ArgsDigest = g.digest(c.Args)
		o.deny(RuleArgs, fmt.Sprintf("the arguments of %s/%s are not a JSON object (%v); airlock does not forward what it cannot read", c.Server, c.Tool, err))
		o.finish(g)
		return o
	}
	o.Detail.Args = redact(args, m.Redact)
	o.Detail.ArgsDigest = g.digest(canonical(args))
	o.Channel = mcpconfig.ConfirmElicit
	if class == mcpconfig.ClassSink {
		o.Channel = cfg.Confirm
		if o.Verdict.Decision < policy.Defer {
			g.sink(m, c, cfg, args, now, &o)
		}
	}
	// A held call a human approved out of band goes through once.
	if d := o.Verdict.Decision; d == policy.Ask || d == policy.Defer {
		past, err := g.history().Since(now.Add(-ApprovalValidity))
		if err == nil {
			if id := approval(past, c, o.Detail.ArgsDigest, now); id != "" {
				o.Approval = id
				o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message = policy.Allow, RuleApproved, "a human approved this held call ("+id+") out of band"
				o.Detail.Channel, o.Detail.Answer = "out-of-band", "approved"
			}
		}
	}
	o.finish(g)
	return o
}

// finish copies the verdict into the detail and names the guard's own
// rule among the reasons.
func (o *Outcome) finish(g *Guard) {
	if strings.HasPrefix(o.Verdict.Rule, "mcp.") {
		o.Verdict.Reasons = append(o.Verdict.Reasons, classify.Reason{Rule: o.Verdict.Rule, Message: o.Verdict.Message})
	}
	o.Detail.Decision = o.Verdict.Decision.String()
	o.Detail.Rule = o.Verdict.Rule
	o.Detail.Reason = o.Verdict.Message
	if o.Verdict.Message == "" && len(o.Verdict.Reasons) > 0 {
		o.Detail.Reason = o.Verdict.Reasons[len(o.Verdict.Reasons)-1].Message
	}
}

func (o *Outcome) deny(rule, msg string) {
	o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message = policy.Deny, rule, msg
}

func (o *Outcome) ask(rule, msg string) {
	if o.Verdict.Decision < policy.Ask {
		o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message = policy.Ask, rule, msg
	}
}

// sink applies the recipient allowlist, dedup, rate and quarantine.
func (g *Guard) sink(m *mcpconfig.Config, c Call, cfg *mcpconfig.Tool, args map[string]any, now time.Time, o *Outcome) {
	name := c.Server + "/" + c.Tool

	// Recipients by contact name only.
	raw, ok := args[cfg.RecipientArg]
	var names []string
	switch v := raw.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, e := range v {
			s, isStr := e.(string)
			if !isStr {
				ok = false
				break
			}
			names = append(names, s)
		}
	default:
		ok = false
	}
	if !ok || len(names) == 0 {
		o.deny(RuleRecipient, fmt.Sprintf("%s needs %q: the recipient's contact name. %s", name, cfg.RecipientArg, permitted(m)))
		return
	}
	var addrs []any
	for _, n := range names {
		ct, found := m.Contact(n)
		switch {
		case found:
			o.Recipients = append(o.Recipients, ct)
			o.Detail.Recipients = append(o.Detail.Recipients, ct.Name)
			if cfg.SendName {
				addrs = append(addrs, ct.Name)
			} else {
				addrs = append(addrs, ct.Address)
			}
			continue
		case looksLikeAddress(n):
			o.deny(RuleRecipient, fmt.Sprintf("%s refuses a raw address as %q: name the recipient by contact name instead. %s", name, cfg.RecipientArg, permitted(m)))
		default:
			o.deny(RuleRecipient, fmt.Sprintf("%q is not in airlock's contact book, so %s will not send to it. %s", sanitize.Clip(sanitize.Text(n), 60), name, permitted(m)))
		}
		return
	}
	fwd := make(map[string]any, len(args))
	for k, v := range args {
		fwd[k] = v
	}
	if _, isList := raw.([]any); isList {
		fwd[cfg.RecipientArg] = addrs
	} else {
		fwd[cfg.RecipientArg] = addrs[0]
	}
	o.Forward = canonical(fwd)

	// The text, for dedup and the confirmation prompt.
	text := ""
	if cfg.TextArg != "" {
		switch v := args[cfg.TextArg].(type) {
		case string:
			text = v
		case nil:
		default:
			text = string(canonical(v))
		}
	} else {
		rest := make(map[string]any, len(args))
		for k, v := range args {
			if k != cfg.RecipientArg {
				rest[k] = v
			}
		}
		text = string(canonical(rest))
	}
	o.Text = text
	recipientKey := make([]string, len(o.Recipients))
	for i, r := range o.Recipients {
		recipientKey[i] = mcpconfig.NormalizeAddress(r.Address)
	}
	sort.Strings(recipientKey)
	o.Detail.DedupKey = g.digest([]byte(c.Server + "\x00" + c.Tool + "\x00" + strings.Join(recipientKey, ",") + "\x00" + text))

	window := cfg.Dedup
	if cfg.Rate.Per > window {
		window = cfg.Rate.Per
	}
	if cfg.Quarantine > window {
		window = cfg.Quarantine
	}
	past, err := g.history().Since(now.Add(-window))
	if err != nil {
		o.deny(RuleHistory, fmt.Sprintf("airlock could not read its journal to check the limits of %s (%v), so it does not send", name, err))
		return
	}

	// Dedup and rate count the sends that went through.
	var sent []time.Time
	for _, p := range past {
		d := p.Detail
		if d == nil || !d.Sent || d.Server != c.Server || d.Tool != c.Tool {
			continue
		}
		if cfg.Dedup > 0 && d.DedupKey == o.Detail.DedupKey && now.Sub(p.Time) < cfg.Dedup {
			o.deny(RuleDedup, fmt.Sprintf("the same text went to %s through %s %s ago; airlock refuses repeats within %s (send something different, or wait until %s)",
				contactNames(o.Recipients), name, now.Sub(p.Time).Round(time.Second), cfg.Dedup, p.Time.Add(cfg.Dedup).Format("15:04:05")))
			return
		}
		if !cfg.Rate.IsZero() && now.Sub(p.Time) < cfg.Rate.Per {
			sent = append(sent, p.Time)
		}
	}
	if !cfg.Rate.IsZero() && len(sent) >= cfg.Rate.N {
		oldest := sent[len(sent)-cfg.Rate.N]
		o.deny(RuleRate, fmt.Sprintf("%s has sent %d times in the last %s, its limit (%s); the next send is possible at %s. Tell the human rather than retrying",
			name, len(sent), cfg.Rate.Per, cfg.Rate, oldest.Add(cfg.Rate.Per).Format("15:04:05")))
		return
	}

	// Quarantine after content from someone not in the contacts.
	if cfg.Quarantine > 0 {
		var since time.Time
		writers := map[string]bool{}
		for _, p := range past {
			d := p.Detail
			if d == nil || !d.Untrusted || now.Sub(p.Time) >= cfg.Quarantine {
				continue
			}
			since = p.Time
			for _, w := range d.Writers {
				writers[strings.ToLower(w)] = true
			}
		}
		if !since.IsZero() {
			exempt := cfg.ReplyToWriter
			for _, r := range o.Recipients {
				exempt = exempt && writers[strings.ToLower(r.Name)]
			}
			if !exempt {
				o.ask(RuleQuarantine, fmt.Sprintf("a source returned content from someone not in the contacts %s ago; for %s after that, %s to %s needs a human's yes",
					now.Sub(since).Round(time.Second), cfg.Quarantine, name, contactNames(o.Recipients)))
			}
		}
	}
}

// approval finds an unused human approval of a held call with the same
// tool and arguments.
func approval(past []Past, c Call, digest string, now time.Time) string {
	held := map[string]bool{}
	approved := map[string]bool{}
	used := map[string]bool{}
	var order []string
	for _, p := range past {
		switch {
		case p.Detail != nil && p.QueueID != "" && p.Detail.Server == c.Server && p.Detail.Tool == c.Tool && p.Detail.ArgsDigest == digest:
			held[p.QueueID] = true
			order = append(order, p.QueueID)
		case p.Approved && p.Ref != "":
			approved[p.Ref] = p.Expires == nil || now.Before(*p.Expires)
		case p.Rejected && p.Ref != "":
			delete(approved, p.Ref)
		case p.Used && p.Ref != "":
			used[p.Ref] = true
		}
	}
	for _, id := range order {
		if held[id] && approved[id] && !used[id] {
			return id
		}
	}
	return ""
}

// permitted lists the contact names when the book is short.
func permitted(m *mcpconfig.Config) string {
	switch n := len(m.Contacts); {
	case n == 0:
		return "The contact book is empty: a human adds contacts under mcp: contacts: in airlock's policy."
	case n > ListContactsUpTo:
		return fmt.Sprintf("Use a name from the human's contact book (%d names); ask the human if unsure.", n)
	}
	names := make([]string, len(m.Contacts))
	for i, c := range m.Contacts {
		names[i] = c.Name
	}
	return "Permitted: " + strings.Join(names, ", ") + "."
}

func contactNames(cs []mcpconfig.Contact) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// looksLikeAddress reports text written like a phone number, an email
// address or a handle rather than a name.
func looksLikeAddress(s string) bool {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "@:/") {
		return true
	}
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits >= 3
}

// history is the History, or an empty one.
func (g *Guard) history() History {
	if g.History == nil {
		return &Memory{}
	}
	return g.History
}

func (g *Guard) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// digest is the keyed SHA-256 of b.
func (g *Guard) digest(b []byte) string {
	if len(g.Key) == 0 {
		sum := sha256.Sum256(b)
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	mac := hmac.New(sha256.New, g.Key)
	mac.Write(b)
	return "hmac-sha256:" + hex.EncodeToString(mac.Sum(nil))
}

// ErrNotObject is wrapped when a call's arguments are not a JSON object.
var ErrNotObject = errors.New("arguments must be a JSON object")

// decodeArgs reads arguments as a JSON object; empty means none.
func decodeArgs(raw json.RawMessage) (map[string]any, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data", ErrNotObject)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, ErrNotObject
	}
	return m, nil
}

// canonical is v as JSON with object keys sorted (encoding/json sorts map
// keys) and numbers as written.
func canonical(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		// Decoded JSON always re-encodes.
		return json.RawMessage(`null`)
	}
	return b
}

// MaxArgString is how much of one argument string the journal keeps.
const MaxArgString = 200

// MaxArgs is how large the journal's copy of the arguments may be.
const MaxArgs = 4096

// redact copies args with the named fields (at any depth) replaced and
// long strings clipped.
func redact(args map[string]any, fields []string) json.RawMessage {
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return sanitize.Clip(x, MaxArgString)
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e)
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if containsFold(fields, k) {
					out[k] = "[redacted]"
				} else {
					out[k] = walk(e)
				}
			}
			return out
		}
		return v
	}
	b := canonical(walk(args))
	if len(b) > MaxArgs {
		return json.RawMessage(fmt.Sprintf(`{"_clipped":%d}`, len(b)))
	}
	return b
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
