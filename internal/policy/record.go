package policy

import "github.com/airlock-dev/airlock/internal/vocab"

// Record is what the journal keeps of the verdict: the decision and its
// words, with the effect as its label and the reasons as rule and
// message.
func (v *Verdict) Record() *vocab.VerdictRecord {
	r := &vocab.VerdictRecord{Decision: v.Decision, Rule: v.Rule, Message: v.Message, Mode: v.Mode, Effect: v.Effect.Label()}
	for _, x := range v.Reasons {
		r.Reasons = append(r.Reasons, vocab.Reason{Rule: x.Rule, Message: x.Message})
	}
	return r
}
