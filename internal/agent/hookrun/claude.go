package hookrun

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Claude is the Decider every adapter uses until the decision pipeline
// replaces it: it runs the Request through the Claude Code hook's own
// decision core (policy, self-protection, the MCP guard, the gate, the
// journal), so every agent gets every rule exactly as Claude Code does.
// newHook builds that hook around a recorder; Claude sets what differs:
//
//   - nobody can answer an ask (Getenv nil: NoHuman), so what would be
//     asked about is held and queued, and the reply is a deny naming the
//     queue item;
//   - the action is the adapter's translation (the agent's tool table),
//     not a re-reading of Claude Code's tool names;
//   - the journal keeps the agent's name. Its raw event is the call as
//     Claude Code would have sent it (the journal binds an approval to
//     that event's tool_input, which every agent's call then has).
func Claude(newHook func(rec agent.Recorder) *claudecode.Hook, rec agent.Recorder) Decider {
	return func(req *Request) Result {
		if req.Event == "" {
			// An event airlock only keeps: no decision core needed.
			if rec != nil {
				if _, err := rec.Record(&agent.Event{Time: time.Now(), Agent: req.Agent, Name: req.Native,
					Session: req.Session, Cwd: req.Cwd, Raw: req.Raw}); err != nil {
					return Result{Human: "airlock: error: recording " + req.Native + ": " + err.Error()}
				}
			}
			return Result{}
		}
		var r agent.Recorder
		if rec != nil {
			r = relabel{rec: rec, req: req}
		}
		h := newHook(r)
		h.Getenv = nil
		h.Report = nil
		call := req.Call
		h.Translate = func(*claudecode.Input) (policy.Action, error) { return call.Action(req.Cwd), nil }
		tool, input := call.Claude(req.Input)
		if len(bytes.TrimSpace(input)) == 0 {
			input = json.RawMessage("{}")
		}
		ev, err := json.Marshal(claudeEvent{SessionID: req.Session, Cwd: req.Cwd, HookEventName: req.Event,
			ToolName: tool, ToolInput: input, ToolUseID: req.ToolUseID, Prompt: req.Prompt})
		if err != nil {
			return failure("airlock could not re-encode it (" + err.Error() + ")")
		}
		var out, errs bytes.Buffer
		code := h.Run(req.Event, bytes.NewReader(ev), &out, &errs)
		if req.Event != PreToolUse {
			return Result{Human: strings.TrimSpace(errs.String())}
		}
		if code != 0 {
			return failure(strings.TrimSpace(strings.TrimPrefix(firstLine(errs.String()), "airlock: error: ")))
		}
		var o claudecode.Output
		if t := bytes.TrimSpace(out.Bytes()); len(t) > 0 {
			if err := json.Unmarshal(t, &o); err != nil {
				return failure("airlock's decision could not be read (" + err.Error() + ")")
			}
		}
		res := Result{Human: o.SystemMessage}
		if s := o.HookSpecificOutput; s != nil {
			switch s.PermissionDecision {
			case "deny", "ask":
				// "ask" cannot come back (NoHuman), and no agent but Claude
				// Code can ask: if it did, it is a hold.
				res.Deny, res.Reason = true, s.PermissionDecisionReason
			default:
				res.Context = s.AdditionalContext
			}
		}
		return res
	}
}

// claudeEvent is the Request spelled as Claude Code's PreToolUse.
type claudeEvent struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name,omitempty"`
	ToolInput     json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID     string          `json:"tool_use_id,omitempty"`
	Prompt        string          `json:"prompt,omitempty"`
}

// relabel keeps the agent's name in the journal.
type relabel struct {
	rec agent.Recorder
	req *Request
}

func (r relabel) Record(ev *agent.Event) (agent.Receipt, error) {
	ev.Agent = r.req.Agent
	return r.rec.Record(ev)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
