package policy

import (
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// Decide answers for one action in the policy's mode.
//
// A shell command is decided program run by program run: for each, the
// table (on what the run does) and every matching rule contribute, and the
// strictest wins; an allow rule with the user's authority that matches the
// run sets aside the built-in contributions (the table and the built-in
// rules) for that run. The command's decision is the strictest of its
// runs. Self-protection is checked first and cannot be relaxed.
func (p *Policy) Decide(a Action) Verdict {
	return p.DecideIn(p.Mode, a)
}

// DecideIn is Decide in a given mode (airlock check --mode).
func (p *Policy) DecideIn(mode Mode, a Action) Verdict {
	var res *classify.Result
	if a.Kind == Shell {
		// With a directory, the scripts the command runs are read and
		// followed (bash deploy.sh, npm run release, make deploy); "~/"
		// names the decision's HOME, not this process's (the resident
		// service decides for hook processes with their own).
		var r classify.Result
		if a.Cwd != "" {
			// The decision's environment is the hook client's.
			r = classify.CommandIn(a.Command, classify.HomeEnvFS(a.Cwd, p.home, p.guard.env))
		} else {
			r = classify.Command(a.Command)
		}
		res = &r
	}
	v := Verdict{Decision: Allow, Rule: "table.local", Mode: mode, Shell: res}
	if res != nil {
		v.Effect = res.Effect
	}
	v.Reasons = append(v.Reasons, v.Effect.Reasons...)
	if rule, msg, ok := netRefused(&a); ok {
		v.Decision, v.Rule, v.Message = Deny, rule, msg
		v.Reasons = append(v.Reasons, classify.Reason{Rule: rule, Message: msg})
		return v
	}
	if rule, msg, ok := p.guard.check(&a, res, mode); ok {
		v.Decision, v.Rule, v.Message = Deny, rule, msg
		v.Reasons = append(v.Reasons, classify.Reason{Rule: rule, Message: msg})
		return v
	}
	if s := p.guard.afterCheck(&a, res); s.fired {
		// Patches and agent configuration (selfpatch.go): a refusal, or
		// an ask (a hold when nobody watches) that the rest of the
		// decision may only make stricter.
		d := Deny
		if !s.hard {
			d = Ask
			if mode != Interactive {
				d = Defer
			}
		}
		v.Decision, v.Rule, v.Message = d, s.rule, s.msg
		v.Reasons = append(v.Reasons, classify.Reason{Rule: s.rule, Message: s.msg})
		if s.hard {
			return v
		}
	}
	var grades []grade
	if res != nil {
		grades = gradeDestruction(res, a.Cwd, p.home, gradeFS)
		// A deletion classify called temporary that grading placed
		// elsewhere has lost that reason (promoteDeletions): so does the
		// verdict.
		v.Reasons = slices.DeleteFunc(v.Reasons, func(x classify.Reason) bool { return isTemp(x) && !slices.Contains(res.Effect.Reasons, x) })
	}
	var plan *SnapshotPlan
	for i, s := range subjects(&a, res, p.home) {
		if a.Kind != Shell {
			v.Effect.Add(s.effect)
			v.Reasons = append(v.Reasons, s.effect.Reasons...)
		}
		if i < len(grades) && s.effect.Destructive {
			s.grade = &grades[i]
		}
		if p.decideSubject(mode, &a, &s, &v) {
			if plan == nil {
				plan = &SnapshotPlan{Root: p.gradedRoot(a.Cwd)}
			}
			plan.add(s.grade)
		}
	}
	if plan != nil && v.Decision <= Warn {
		// Every run is allowed, the destructive ones on condition of the
		// snapshot: the verdict names it, for both readers.
		plan.Git = isGitRoot(plan.Root)
		v.Decision, v.Rule, v.Snapshot = Warn, RuleSnapshot, plan
		v.Message = "destruction inside the project, allowed once airlock has snapshotted " + strings.Join(plan.Paths, ", ") + " (a human can undo it)"
	}
	NoHumanToAsk(&a, &v)
	return v
}

// RuleContainedOpaque names the decision of a local program run airlock
// cannot read (opaque) when the action runs contained (Action.Contained).
const RuleContainedOpaque = "contain.opaque-local"

const containedOpaqueMessage = "airlock cannot read what this runs, but it runs contained: airlock's files are fenced by the kernel and its network goes only through airlock's egress proxy, which holds anything it sends; allowed with this warning"

// containedOpaque reports whether the table's verdict cur on a run with
// effect e is a hold only because the run is opaque, with nothing else
// about it beyond local: no shared or external tier, no destruction. Only
// a hold (ask, defer) becomes a warning; a table that refuses opaque runs
// outright keeps refusing them.
func containedOpaque(e classify.Effect, cur Verdict) bool {
	if !e.Opaque || e.Destructive || e.Tier != classify.Local || cur.Rule != "table.opaque" {
		return false
	}
	return cur.Decision == Ask || cur.Decision == Defer
}

// RuleInteractiveAsk names the reason added when a built-in refusal
// became an ask because a human watches (interactive mode).
const RuleInteractiveAsk = "mode.interactive-ask"

// ruleDecisionIn is what a rule's decision becomes in a mode. In
// interactive mode a human watches every call, so airlock's own
// refusals (the built-in rules: reading a secret file) are asked and the
// human can say yes; when nobody can answer a prompt in the session
// (Action.NoHuman) they stay refusals. Self-protection is decided before any rule and
// stays a refusal, and a deny the user or a project wrote stays what
// they wrote.
func ruleDecisionIn(mode Mode, noHuman bool, origin Origin, d Decision) Decision {
	if mode == Interactive && !noHuman && origin == Builtin && d == Deny {
		return Ask
	}
	return d
}

// WithoutSnapshot decides an action again as if its entry point could not
// take a snapshot: the destructive row applies. why says what failed, for
// both readers.
func (p *Policy) WithoutSnapshot(mode Mode, a Action, why string) Verdict {
	a.Snapshots = false
	v := p.DecideIn(mode, a)
	v.Reasons = append(v.Reasons, classify.Reason{Rule: "snapshot.failed",
		Message: "no snapshot could be taken (" + why + "), so the destruction is decided as if it were outside the project"})
	return v
}

// RuleNoHuman names the reason added when an ask became a defer because
// nobody could answer it.
const RuleNoHuman = "mode.no-human"

// NoHumanToAsk turns an ask into a defer when nobody can answer a prompt
// in the action's session (Action.NoHuman): the action is then queued
// under an id both readers see, instead of being refused by the agent
// with no trace. The rule that asked stays the verdict's rule; a reason
// says why it was held. Callers that change a verdict after Decide (the
// MCP firewall) call it again; it is idempotent.
func NoHumanToAsk(a *Action, v *Verdict) {
	if !a.NoHuman || v.Decision != Ask {
		return
	}
	v.Decision = Defer
	msg := "no human can answer a prompt in this session (print mode or an SDK session), so it is held for review instead of asked about"
	if a.Kind == Net {
		msg = "a request through the egress proxy has nobody to ask, so it is held for review instead of asked about"
	}
	v.Reasons = append(v.Reasons, classify.Reason{Rule: RuleNoHuman, Message: msg})
}

// decideSubject folds one subject's contributions into v. It reports
// whether the subject is allowed only on condition of a snapshot.
func (p *Policy) decideSubject(mode Mode, a *Action, s *subject, v *Verdict) (snapshot bool) {
	var relaxer *Rule
	var fired []*Rule
	for _, r := range p.Rules {
		if !r.m.matches(s, a.Cwd, p.home) {
			continue
		}
		fired = append(fired, r)
		if r.relaxes && relaxer == nil {
			relaxer = r
		}
	}
	cur := Verdict{Decision: Allow, Rule: "table.local"}
	consider := func(d Decision, rule, msg string) {
		if d > cur.Decision {
			cur.Decision, cur.Rule, cur.Message = d, rule, msg
		}
	}
	if relaxer != nil {
		cur.Rule, cur.Message = relaxer.ID, relaxer.Message
	} else {
		t := p.Tables[mode]
		// The table's row is the starting point, label included: a row
		// that allows still names itself (table.shared, not table.local).
		tv, snap := t.decideGraded(s.effect, s.grade, a.Snapshots)
		cur.Decision, cur.Rule = tv.Decision, tv.Rule
		snapshot = snap
		if s.later && cur.Decision == Ask {
			// Adding "git push" to a Makefile publishes nothing yet: the
			// run of that target is read and decided when it happens. A
			// human who watches is warned; with nobody watching the table's
			// hold stands (the run could come while nobody looks).
			cur.Decision, cur.Rule = Warn, "surface.task"
		}
		if s.grade != nil && s.grade.place != placeInside && tv.Rule == "table.destructive" && t.Inside != t.Destructive {
			// Destruction inside the project would have been decided
			// otherwise: say why this one is not.
			v.Reasons = append(v.Reasons, s.grade.reason())
		}
		cur = historyHold(cur, s, v) // history.go
		if a.Contained && a.Kind == Shell && containedOpaque(s.effect, cur) {
			// Inside a sandbox the kernel fences airlock's files and the
			// network is the egress proxy, which holds whatever this sends:
			// a local run airlock cannot read is warned about, not held.
			cur.Decision, cur.Rule, cur.Message = Warn, RuleContainedOpaque, containedOpaqueMessage
			v.Reasons = append(v.Reasons, classify.Reason{Rule: RuleContainedOpaque, Message: containedOpaqueMessage})
		}
		if s.unknown {
			if t.Unknown >= cur.Decision {
				cur.Decision, cur.Rule = t.Unknown, "table.unknown"
			}
		}
	}
	fv, _ := p.floor[mode].decideGraded(s.effect, s.grade, a.Snapshots)
	consider(fv.Decision, fv.Rule, "")
	if s.unknown {
		consider(p.floor[mode].Unknown, "table.unknown", "")
	}
	for _, r := range fired {
		if relaxer != nil && r.Origin == Builtin {
			continue
		}
		d := ruleDecisionIn(mode, a.NoHuman, r.Origin, r.Decision)
		consider(d, r.ID, r.Message)
		if r.Decision > Allow || r == relaxer {
			v.Reasons = append(v.Reasons, classify.Reason{Rule: r.ID, Message: ruleMessage(r)})
		}
		if d != r.Decision {
			v.Reasons = append(v.Reasons, classify.Reason{Rule: RuleInteractiveAsk, Message: "a human watches in interactive mode, so airlock asks instead of refusing"})
		}
	}
	if cur.Decision > v.Decision || v.Rule == "table.local" && cur.Rule != "table.local" && cur.Decision == v.Decision {
		v.Decision, v.Rule, v.Message = cur.Decision, cur.Rule, cur.Message
	}
	return snapshot && cur.Decision <= Warn
}

func ruleMessage(r *Rule) string {
	if r.Message != "" {
		return r.Message
	}
	return "matched " + r.Origin.String() + " rule " + r.ID
}
