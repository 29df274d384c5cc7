package hookrun

import (
	"encoding/json"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/pipeline"
)

// Pipeline is the Decider every adapter uses: it hands the Request to the
// decision pipeline (policy, self-protection, the MCP firewall, the gate,
// approvals, the journal), so every agent gets every rule exactly as
// Claude Code does, and words the outcome the way the Claude Code adapter
// does. What differs from Claude Code:
//
//   - nobody can answer an ask (NoHuman), so what would be asked about is
//     held and queued, and the reply is a deny naming the queue item;
//   - the call is spelled as Claude Code would spell it (toolcall.Call's
//     Claude): the MCP firewall finds mcp__server__tool there, the gate
//     reads Bash, Read and Write, a held write's excerpt its content, and
//     the journal binds an approval to its tool_input. The journal keeps
//     that spelling as the raw event, with the agent's name.
//
// story is the loop runner's story id (AIRLOCK_STORY), if any.
func Pipeline(p *pipeline.Pipeline, story string) Decider {
	return func(req *Request) Result {
		r := &pipeline.Request{Agent: req.Agent, Event: req.Event, Session: req.Session, Cwd: req.Cwd,
			ToolUseID: req.ToolUseID, Story: story, Prompt: req.Prompt, NoHuman: true}
		if r.Event == "" {
			// An event the decision core has no name for is kept under the
			// agent's own.
			r.Event = req.Native
		}
		if req.Event == PreToolUse || req.Event == PostToolUse {
			r.Tool, r.Input = req.Call.Claude(req.Input)
			r.Action = req.Call.Action(req.Cwd)
			if raw, err := json.Marshal(claudeEvent{SessionID: req.Session, Cwd: req.Cwd, HookEventName: req.Event,
				ToolName: r.Tool, ToolInput: r.Input, ToolUseID: req.ToolUseID}); err == nil {
				r.Raw = raw
			}
		}
		if req.Event != PreToolUse {
			return Result{Log: p.Observe(r)}
		}
		o := p.Decide(r)
		res := Result{Log: o.Warnings}
		if o.Retry != "" {
			// The fact-forcing gate: present the facts, then retry.
			res.Deny, res.Reason = true, o.Retry
			return res
		}
		out := claudecode.Reply(&o.Action, &o.Verdict, o.Receipt)
		if out == nil {
			return res
		}
		res.Human = out.SystemMessage
		if s := out.HookSpecificOutput; s != nil {
			switch s.PermissionDecision {
			case "deny", "ask":
				// "ask" cannot come back (NoHuman), and no agent but Claude
				// Code can ask: if it did, it is a hold.
				res.Deny, res.Reason = true, s.PermissionDecisionReason
				if res.Human == "" {
					res.Human = s.PermissionDecisionReason
				}
			default:
				res.Context = s.AdditionalContext
			}
		}
		return res
	}
}

// claudeEvent is the call spelled as Claude Code's PreToolUse, for the
// journal.
type claudeEvent struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name,omitempty"`
	ToolInput     json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID     string          `json:"tool_use_id,omitempty"`
}
