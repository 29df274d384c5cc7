package classify

import (
	"fmt"
	"strings"
)

// Tier is how far an effect reaches.
type Tier int8

// The tiers, in increasing reach.
const (
	// Local is confined to this machine and reversible.
	Local Tier = iota
	// Shared touches state collaborators see or that is not casually undone.
	Shared
	// External writes beyond this machine.
	External
)

var tierNames = [...]string{"local", "shared", "external"}

func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return fmt.Sprintf("tier(%d)", int8(t))
}

// ParseTier reads a tier name.
func ParseTier(s string) (Tier, error) {
	for i, n := range tierNames {
		if n == s {
			return Tier(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tier %q (want local, shared or external)", s)
}

// MarshalText renders the tier name.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a tier name.
func (t *Tier) UnmarshalText(b []byte) error {
	v, err := ParseTier(string(b))
	if err == nil {
		*t = v
	}
	return err
}

// Reason explains one finding: which rule fired and what it saw.
type Reason struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Effect is what an invocation, or a whole command, does.
type Effect struct {
	Tier        Tier
	Destructive bool
	Opaque      bool
	NetworkRead bool
	Reasons     []Reason
}

// Add merges o into e: the higher tier, every flag, every reason.
func (e *Effect) Add(o Effect) {
	if o.Tier > e.Tier {
		e.Tier = o.Tier
	}
	e.Destructive = e.Destructive || o.Destructive
	e.Opaque = e.Opaque || o.Opaque
	e.NetworkRead = e.NetworkRead || o.NetworkRead
	e.Reasons = append(e.Reasons, o.Reasons...)
}

// Label renders the tier and flags as "tier+flag+flag", the form used by
// spec examples and the corpus, e.g. "external+destructive".
func (e Effect) Label() string {
	l := e.Tier.String()
	if e.Destructive {
		l += "+destructive"
	}
	if e.Opaque {
		l += "+opaque"
	}
	if e.NetworkRead {
		l += "+netread"
	}
	return l
}

// ParseLabel reads a label written by Label. Flags may come in any order.
func ParseLabel(s string) (Effect, error) {
	parts := strings.Split(strings.TrimSpace(s), "+")
	t, err := ParseTier(parts[0])
	if err != nil {
		return Effect{}, err
	}
	e := Effect{Tier: t}
	for _, f := range parts[1:] {
		switch f {
		case "destructive":
			e.Destructive = true
		case "opaque":
			e.Opaque = true
		case "netread":
			e.NetworkRead = true
		default:
			return Effect{}, fmt.Errorf("unknown flag %q in label %q (want destructive, opaque or netread)", f, s)
		}
	}
	return e, nil
}

// The constructors below build one-reason effects for specs.

func local(rule, msg string) Effect {
	return Effect{Tier: Local, Reasons: []Reason{{rule, msg}}}
}

func shared(rule, msg string) Effect {
	return Effect{Tier: Shared, Reasons: []Reason{{rule, msg}}}
}

func external(rule, msg string) Effect {
	return Effect{Tier: External, Reasons: []Reason{{rule, msg}}}
}

func netRead(rule, msg string) Effect {
	return Effect{Tier: Local, NetworkRead: true, Reasons: []Reason{{rule, msg}}}
}

func opaque(rule, msg string) Effect {
	return Effect{Tier: Local, Opaque: true, Reasons: []Reason{{rule, msg}}}
}

// destroys marks an effect as destructive.
func (e Effect) destroys() Effect {
	e.Destructive = true
	return e
}

// reads marks an effect as reading from the network.
func (e Effect) reads() Effect {
	e.NetworkRead = true
	return e
}

// nothing is the effect of a program with nothing to report.
var nothing = Effect{}
