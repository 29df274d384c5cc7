package policy

import (
	"github.com/airlock-dev/airlock/internal/classify"
)

// Table maps what an action does to a decision, for one mode.
type Table struct {
	Local       Decision
	Shared      Decision
	External    Decision
	Destructive Decision
	// Inside is for destruction whose every target airlock resolved to
	// inside the current project's worktree (destroy.go). Warn there
	// means "snapshot": the action is allowed with a warning once the
	// entry point has taken a snapshot that airlock undo restores; when
	// no snapshot can be taken the Destructive row applies. Destruction
	// outside the project, of its history, or of what airlock cannot
	// resolve always takes the Destructive row.
	Inside Decision
	Opaque Decision
	// Unknown is for a tool airlock knows nothing about (an MCP tool or a
	// tool newer than airlock) when no rule names it.
	Unknown Decision
}

// DefaultTable returns the seed decisions for a mode: local work flows,
// shared state warns, external writes, opaque commands and unknown tools
// are asked about when a human watches and deferred otherwise, destruction
// is asked about when a human watches and denied otherwise, except inside
// the project, where it is allowed after a snapshot in every mode.
//
// This is the one place the seed table lives; policy files override it.
func DefaultTable(m Mode) Table {
	// Destruction inside the project is snapshotted and goes on in every
	// mode (DESIGN.md invariants 10 and 11): a human who watches can
	// still undo it, and asking before every rm -rf build teaches them to
	// say yes without reading.
	t := Table{Local: Allow, Shared: Warn, External: Ask, Destructive: Ask, Inside: Warn, Opaque: Ask, Unknown: Ask}
	if m != Interactive {
		// Nobody watches: local destruction is made reversible instead of
		// stopping the loop (DESIGN.md invariant 10), the rest is refused.
		t.External, t.Opaque, t.Unknown, t.Destructive = Defer, Defer, Defer, Deny
	}
	return t
}

// row names one entry of a Table, as written in policy files.
type row int8

const (
	rowLocal row = iota
	rowShared
	rowExternal
	rowDestructive
	rowOpaque
	rowUnknown
	// rowInside is written inside the destructive entry of a policy file
	// (destructive: {inside_project: …, outside: …}), never as a key of
	// its own.
	rowInside
	numRows
)

var rowNames = [numRows]string{"local", "shared", "external", "destructive", "opaque", "unknown", "inside_project"}

func (r row) String() string { return rowNames[r] }

func (t *Table) at(r row) *Decision {
	return [numRows]*Decision{&t.Local, &t.Shared, &t.External, &t.Destructive, &t.Opaque, &t.Unknown, &t.Inside}[r]
}

// Verdict is a decision with the reasons behind it.
type Verdict struct {
	Decision Decision
	// Rule names what set the decision: "table.external", a rule id such
	// as "builtin.secrets.ssh", or "self.protected-path".
	Rule string
	// Message is the message of the rule that set the decision, if any.
	Message string
	// Reasons are the findings and the rules that led to the decision.
	Reasons []classify.Reason
	// Mode is the mode the decision was made in.
	Mode Mode
	// Effect is what the action does, combined over its program runs.
	Effect classify.Effect
	// Shell is the classification of a shell command (nil otherwise).
	Shell *classify.Result
	// Snapshot is set when the decision allows destruction inside the
	// project on condition of a snapshot (Action.Snapshots): the entry
	// point takes it before the action runs, or decides again without
	// it (Policy.WithoutSnapshot) when it cannot.
	Snapshot *SnapshotPlan
}

// Decide applies the table to an effect: the strictest of the tier's
// decision and those of its flags wins. The rule names the row that
// decided: the tier's own row whenever it is at least as strict as the
// local row, so that a shared call the table allows is labelled
// "table.shared", not "table.local".
func (t Table) Decide(e classify.Effect) Verdict {
	v := Verdict{Decision: t.Local, Rule: "table.local", Reasons: e.Reasons, Effect: e}
	tier := func(d Decision, rule string) {
		if d >= v.Decision {
			v.Decision, v.Rule = d, rule
		}
	}
	consider := func(d Decision, rule string) {
		if d > v.Decision {
			v.Decision, v.Rule = d, rule
		}
	}
	switch e.Tier {
	case classify.Shared:
		tier(t.Shared, "table.shared")
	case classify.External:
		tier(t.External, "table.external")
	}
	if e.Destructive {
		consider(t.Destructive, "table.destructive")
	}
	if e.Opaque {
		consider(t.Opaque, "table.opaque")
	}
	return v
}
