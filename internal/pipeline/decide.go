package pipeline

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Decide decides a tool call (EventPreToolUse-like events) through every
// stage, records it, and returns the final verdict. It never fails: what
// cannot be decided or recorded is refused, with the reason in the
// verdict for the agent and in Warnings for the human.
func (p *Pipeline) Decide(r *Request) Outcome {
	o := Outcome{Action: r.Action}
	a := &o.Action
	a.NoHuman = a.NoHuman || r.NoHuman
	a.Snapshots = p.Snapshot != nil
	v := &o.Verdict
	detail := []byte(r.Detail)
	ref := r.Ref
	pol, err := p.Policy(r.Cwd)
	if err != nil {
		o.Warnings, o.Err = append(o.Warnings, "airlock: error: "+err.Error()), err
		*v = policy.Verdict{Decision: policy.Deny, Rule: "policy.error",
			Message: "airlock's policy could not be loaded (" + err.Error() + "), so every tool call is refused until a human fixes it (airlock policy check)"}
		o.Stage = StagePolicyError
	} else {
		a.Contained = false // only the entry point's own fact counts
		*v = pol.Decide(*a)
		if p.Contained != nil && a.Kind == policy.Shell && v.Decision.Holds() && v.Effect.Opaque && p.Contained(r) {
			// A run airlock cannot read, held: inside a sandbox whose
			// network is the proxy, a local one is warned about instead.
			a.Contained = true
			*v = pol.Decide(*a)
		}
		// What the decision read is what an approval of it binds; only
		// the classification says it.
		a.Reads = nil
		if v.Shell != nil {
			for _, f := range v.Shell.Read {
				a.Reads = append(a.Reads, policy.FileState{Path: f.Path, State: f.State})
			}
		}
		o.Stage = StageRules
		if strings.HasPrefix(v.Rule, "self.") {
			o.Stage = StageSelf
		}
		if p.MCP != nil {
			// The entry point speaks MCP only: its firewall decides.
			detail, ref = p.MCP(pol, r, a, v)
			o.Stage = StageMCP
		} else if _, _, ok := policy.SplitToolName(r.Tool); ok {
			// The MCP firewall replaces the verdict of an mcp__ call (or
			// leaves it to the proxy this agent started for the server).
			detail = guard.ForHook(p.Recorder, p.Now, pol, p.Caller, r.Tool, r.Input, v)
			o.Stage = StageMCP
		}
		// The MCP firewall's verdict holds the same way the policy's does.
		policy.NoHumanToAsk(a, v)
		if p.Gate != nil && !v.Decision.Holds() {
			reason, warning := p.Gate.Pre(pol, r, a, v)
			if warning != "" {
				o.Warnings = append(o.Warnings, warning)
			}
			if reason != "" && v.Decision == policy.Deny && strings.HasPrefix(v.Rule, "gate.") {
				o.Stage, o.Retry = StageGate, reason
			}
		}
		if v.Snapshot != nil && !v.Decision.Holds() {
			p.takeSnapshot(pol, r, a, v)
		}
	}
	if v.Decision.Holds() && a.Kind == policy.Write && detail == nil {
		// A held write shows the reviewer what it would have written.
		detail = writeExcerpt(r.Input)
	}
	rule := v.Rule
	o.Receipt, err = p.record(r, a, v, detail, ref)
	switch {
	case err != nil:
		o.Warnings = append(o.Warnings, "airlock: error: recording the decision: "+err.Error())
		// Nothing is lost (invariant 4): what cannot be recorded does not
		// run, and a hold that cannot be recorded is not queued, so the
		// reply must not say it was.
		v.Decision, v.Rule = policy.Deny, "journal.error"
		v.Message = "airlock could not write its journal (" + err.Error() + "), so this action is refused and NOT queued for review; the human must fix the journal (airlock doctor, airlock audit verify)"
		o.Stage, o.Retry, o.Err = StageJournal, "", err
	case o.Receipt.Approval != "" || v.Rule != rule:
		// The approval stage let through a hold a human approved, or held
		// again a call whose approval was spent (approval.go).
		o.Stage, o.Retry = StageApproval, ""
	}
	return o
}

// Observe records a lifecycle event (EventPostToolUse,
// EventUserPromptSubmit, EventSessionStart, EventStop, EventSessionEnd...)
// after the gate has seen it, and returns lines for standard error. It
// decides nothing and cannot block.
func (p *Pipeline) Observe(r *Request) []string {
	var warnings []string
	if p.Gate != nil && (r.Event == EventPostToolUse || r.Event == EventUserPromptSubmit) {
		if w := p.Gate.Observe(r, func() (*policy.Policy, error) { return p.Policy(r.Cwd) }); w != "" {
			warnings = append(warnings, w)
		}
	}
	if _, err := p.record(r, nil, nil, nil, r.Ref); err != nil {
		warnings = append(warnings, "airlock: error: recording "+r.Event+": "+err.Error())
	}
	return warnings
}

// takeSnapshot takes the snapshot the verdict asks for, last, once nothing
// else holds the action: the id goes into the verdict's reasons, and so
// into the journal with the action. When it cannot be taken the action is
// decided again without one (fail closed: the destructive row applies).
func (p *Pipeline) takeSnapshot(pol *policy.Policy, r *Request, a *policy.Action, v *policy.Verdict) {
	id, what, err := p.Snapshot(a, v.Snapshot, r.Session)
	if err != nil {
		*v = pol.WithoutSnapshot(v.Mode, *a, err.Error())
		return
	}
	// journal.Entry.SnapshotTaken reads the id back from this reason.
	msg := "airlock took snapshot " + id + " (" + what + ") before this destruction inside the project; a human can restore it with: airlock undo " + id
	v.Message = msg
	v.Reasons = append(v.Reasons, classify.Reason{Rule: "snapshot.taken", Message: msg})
}
