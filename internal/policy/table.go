package policy

import (
	"github.com/airlock-dev/airlock/internal/classify"
)

// Table maps what a command does to a decision, for one mode.
type Table struct {
	Local       Decision
	Shared      Decision
	External    Decision
	Destructive Decision
	Opaque      Decision
}

// DefaultTable returns the seed decisions for a mode: local work flows,
// shared state warns, external writes and opaque commands are asked about
// when a human watches and deferred otherwise, destruction is asked about
// when a human watches and denied otherwise.
func DefaultTable(m Mode) Table {
	t := Table{Local: Allow, Shared: Warn, External: Ask, Destructive: Ask, Opaque: Ask}
	if m != Interactive {
		t.External, t.Opaque, t.Destructive = Defer, Defer, Deny
	}
	return t
}

// Verdict is a decision with the reasons behind it.
type Verdict struct {
	Decision Decision
	// Rule names what set the decision, e.g. "table.external".
	Rule string
	// Reasons are the findings that led to the decision.
	Reasons []classify.Reason
}

// Decide applies the table to an effect: the strictest of the tier's
// decision and those of its flags wins.
func (t Table) Decide(e classify.Effect) Verdict {
	v := Verdict{Decision: t.Local, Rule: "table.local", Reasons: e.Reasons}
	consider := func(d Decision, rule string) {
		if d > v.Decision {
			v.Decision, v.Rule = d, rule
		}
	}
	switch e.Tier {
	case classify.Shared:
		consider(t.Shared, "table.shared")
	case classify.External:
		consider(t.External, "table.external")
	}
	if e.Destructive {
		consider(t.Destructive, "table.destructive")
	}
	if e.Opaque {
		consider(t.Opaque, "table.opaque")
	}
	return v
}
