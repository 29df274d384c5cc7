package pipeline

import (
	"errors"
	"fmt"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// ErrApprovalSpent is the error of a call that names an approval
// (Request.Ref, rule vocab.RuleApproved) that is not there to use:
// already used, expired, rejected, or not a human's. The call is refused
// at StageJournal.
var ErrApprovalSpent = errors.New("the approval is already used, expired or not a human's")

// claim is what the approval stage asks the recorder for a call, or nil
// when the call neither holds nor claims an approval. The recorder finds
// the approval under its lock; settle, run under that lock, decides what
// it means, so that finding and spending it are one step.
func claim(ev *vocab.Event, a *policy.Action, v *policy.Verdict, ref string) *vocab.Claim {
	claimed := v.Rule == vocab.RuleApproved
	if !claimed && v.Decision != vocab.Defer && v.Decision != vocab.Ask {
		return nil
	}
	return &vocab.Claim{Ref: ref, Settle: func(id string) (bool, error) {
		spend, err := settle(a, v, claimed, ref, id)
		ev.Verdict = v.Record()
		return spend, err
	}}
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
		v.Decision, v.Rule = vocab.Defer, vocab.RuleSpent
		v.Message = "the human's approval of this action was already used, expired or withdrawn; it is held again"
	}
	return false, nil
}
