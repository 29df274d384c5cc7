package pipeline

import (
	"errors"
	"fmt"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// ErrApprovalSpent is the error of a call that names an approval
// (Request.Ref, rule vocab.RuleApproved) that is not there to use:
// spent by another call, expired, rejected, or not a human's. The call is
// refused at StageJournal.
var ErrApprovalSpent = errors.New("the approval it names is not there to use (spent by another call, withdrawn or expired, or not a human's)")

// claim is what the approval stage asks the recorder for a call, or nil
// when the call neither holds nor claims an approval. The recorder finds
// the approval under its lock; settle, run under that lock, decides what
// it means, so that finding and spending it are one step.
func claim(ev *vocab.Event, a *policy.Action, v *policy.Verdict, ref string) *vocab.Claim {
	claimed := v.Rule == vocab.RuleApproved
	if !claimed && v.Decision != vocab.Defer && v.Decision != vocab.Ask {
		return nil
	}
	c := &vocab.Claim{Ref: ref}
	c.Settle = func(id string) (bool, error) {
		spend, err := settle(a, v, claimed, ref, id)
		if id == "" && c.Changed != "" && v.Decision.Holds() {
			stale(v, c.Changed)
		}
		ev.Verdict = v.Record()
		return spend, err
	}
	return c
}

// RuleChanged names the reason of a retry held again because a file the
// command runs changed after its approval.
const RuleChanged = "queue.changed"

// stale says, in a hold's verdict, why an approval of the same command
// did not let it through: changed (the recorder's phrase) names the file
// that reads differently now. The hold itself stands: the human reviews
// the new content as a new item.
func stale(v *policy.Verdict, changed string) {
	msg := changed + "; held again for a human to review what it runs now"
	v.Reasons = append([]classify.Reason{{Rule: RuleChanged, Message: msg}}, v.Reasons...)
	if v.Message != "" {
		v.Message = msg + "; " + v.Message
	}
}

// settle is the approval stage: a held action a human approved (approval
// id, not expired and not yet used) runs once; a call that claimed an
// approval no longer there to use is held again, or refused when it named
// the approval (ref). It changes v and reports whether the call spends
// the approval.
func settle(a *policy.Action, v *policy.Verdict, claimed bool, ref, id string) (bool, error) {
	switch {
	case id != "":
		v.Decision, v.Rule = vocab.Allow, vocab.RuleApproved
		if !claimed || v.Message == "" {
			v.Message = "a human approved this exact action (queue item " + id + "); it runs once"
			if a.Kind == vocab.Shell {
				v.Message = "a human approved this exact command in this directory (queue item " + id + "); it runs once"
			}
		}
		return true, nil
	case claimed && ref != "":
		return false, fmt.Errorf("%w: %s", ErrApprovalSpent, ref)
	case claimed:
		// An earlier stage found an approval that matches the call (the
		// MCP firewall matches server, tool and arguments), but the
		// recorder, under its lock, has none of this exact action there
		// to use. Which of the reasons it is cannot be told from here:
		// the words must not claim one.
		found := "a human's approval matched this call"
		if v.Message != "" {
			found = v.Message
		}
		v.Decision, v.Rule = vocab.Defer, vocab.RuleSpent
		v.Message = found + ", but this call cannot use it: the journal holds no unused approval of this exact action " +
			"(the approval may be of the call as another airlock entry point held it, such as the MCP proxy, which uses it there; " +
			"or it was spent by another call, withdrawn or expired meanwhile); this call is held again for a human's review"
	}
	return false, nil
}
