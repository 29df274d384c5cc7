package gate

import (
	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/policy"
)

// ClaudeCode adapts the gate to Claude Code's hook (claudecode.Gate).
type ClaudeCode struct {
	Gate *Gate
}

var _ claudecode.Gate = ClaudeCode{}

func event(in *claudecode.Input) *Event {
	return &Event{
		Name: in.HookEventName, Session: in.SessionID, Transcript: in.TranscriptPath, Agent: in.AgentID,
		Cwd: in.Cwd, Tool: in.ToolName, Input: in.ToolInput, Prompt: in.Prompt,
	}
}

// Pre judges a PreToolUse the policy allowed or warned about.
func (c ClaudeCode) Pre(p *policy.Policy, in *claudecode.Input, a *policy.Action, v *policy.Verdict) (reason, warning string) {
	out := c.Gate.Pre(p, event(in), a, v)
	return out.Reason, out.Warning
}

// Observe records a PostToolUse or UserPromptSubmit.
func (c ClaudeCode) Observe(in *claudecode.Input, load func() (*policy.Policy, error)) string {
	return c.Gate.Observe(event(in), load)
}
