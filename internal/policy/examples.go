package policy

import "github.com/airlock-dev/airlock/internal/classify"

// ExampleResult is the outcome of one rule example.
type ExampleResult struct {
	Rule    *Rule
	Example Example
	// Matched reports whether the rule matched the example's action.
	Matched bool
}

// OK reports whether the rule did what the example says.
func (e ExampleResult) OK() bool { return e.Matched == e.Example.Match }

// RunExamples checks every example of every rule: a match example must be
// matched by its rule, a no_match example must not.
func (p *Policy) RunExamples() []ExampleResult {
	var out []ExampleResult
	for _, r := range p.Rules {
		for _, ex := range r.Examples {
			out = append(out, ExampleResult{Rule: r, Example: ex, Matched: p.ruleMatches(r, ex.Action)})
		}
	}
	return out
}

// ruleMatches reports whether r matches any part of the action.
func (p *Policy) ruleMatches(r *Rule, a Action) bool {
	var res *classify.Result
	if a.Kind == Shell {
		c := classify.Command(a.Command)
		res = &c
	}
	for _, s := range subjects(&a, res, p.home) {
		if r.m.matches(&s, a.Cwd, p.home) {
			return true
		}
	}
	return false
}
