package gate

import (
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Stage plugs the gate into the decision pipeline (pipeline.Gate). It
// reads every agent's events the same way: the pipeline's Request is
// adapter-neutral.
type Stage struct {
	Gate *Gate
}

// ClaudeCode is the name Stage had when only the Claude Code hook used
// the gate.
//
// Deprecated: use Stage; it serves every adapter.
type ClaudeCode = Stage

var _ pipeline.Gate = Stage{}

func event(r *pipeline.Request) *Event {
	return &Event{
		Name: r.Event, Session: r.Session, Transcript: r.Transcript, Agent: r.Subagent,
		Cwd: r.Cwd, Tool: r.Tool, Input: r.Input, Prompt: r.Prompt,
	}
}

// Pre judges a tool call the earlier stages did not hold.
func (s Stage) Pre(p *policy.Policy, r *pipeline.Request, a *policy.Action, v *policy.Verdict) (reason, warning string) {
	out := s.Gate.Pre(p, event(r), a, v)
	return out.Reason, out.Warning
}

// Observe records what a PostToolUse or UserPromptSubmit shows.
func (s Stage) Observe(r *pipeline.Request, load func() (*policy.Policy, error)) string {
	return s.Gate.Observe(event(r), load)
}
