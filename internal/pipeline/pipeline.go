package pipeline

import (
	"encoding/json"
	"time"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// The event names of the vocabulary (internal/vocab): Claude Code's, the
// first adapter's. An adapter for another agent maps its own events onto
// them and keeps the agent's wire bytes in Request.Raw.
const (
	EventPreToolUse       = vocab.EventPreToolUse       // a tool call about to run: Decide
	EventPostToolUse      = vocab.EventPostToolUse      // a tool call that ran: Observe
	EventUserPromptSubmit = vocab.EventUserPromptSubmit // the user's own words: Observe
	EventSessionStart     = vocab.EventSessionStart     // recorded by Observe
	EventStop             = vocab.EventStop             // recorded by Observe
	EventSessionEnd       = vocab.EventSessionEnd       // recorded by Observe
)

// The stages of Decide, as Outcome.Stage names them (see vocab and the
// package comment).
const (
	StageSelf        = vocab.StageSelf
	StageRules       = vocab.StageRules
	StageMCP         = vocab.StageMCP
	StageGate        = vocab.StageGate
	StageApproval    = vocab.StageApproval
	StageJournal     = vocab.StageJournal
	StagePolicyError = vocab.StagePolicyError
)

// Request is one event an entry point received, translated. The adapter
// fills in what its agent said; fields it cannot know stay empty.
type Request struct {
	// Agent names the adapter ("claude-code"); Event is the event's name
	// in the vocabulary (EventPreToolUse...).
	Agent, Event string
	// Session is the agent's session id; Cwd its working directory.
	Session, Cwd string
	// Tool is the agent's name for the tool ("Bash",
	// "mcp__slack__post_message"); ToolUseID the agent's id for the call.
	Tool, ToolUseID string
	// Story is the loop runner's story id (AIRLOCK_STORY), if any.
	Story string
	// Transcript is the session's transcript file, which the gate keys
	// its state by when there is no session id.
	Transcript string
	// Subagent is the id of the sub-agent that made the call, "" for the
	// main agent. Sub-agents share their session's gate state.
	Subagent string
	// Prompt is the user's own words (EventUserPromptSubmit): the channel
	// the agent does not write.
	Prompt string
	// Action is the tool call as the policy reads it, translated by the
	// adapter (shell, write, fetch, read, local, unknown tool...). Decide
	// needs it; Observe ignores it.
	Action policy.Action
	// Input is the tool input as the agent sent it. The MCP firewall reads
	// an mcp__ call's arguments from it, and a held write's excerpt for
	// the reviewer comes from its "content", "new_string", "new_source"
	// or "edits[].new_string" field.
	Input json.RawMessage
	// Raw is the event as the agent sent it, kept by the journal.
	Raw json.RawMessage
	// Detail is an entry point's own facts about the call, kept by the
	// journal with it (the egress proxy's request: method, body size and
	// digest, origin). Its "args_digest" binds an approval.
	Detail json.RawMessage
	// Ref is the queue id of a human's approval the entry point claims
	// for this call (the MCP proxy finds out-of-band approvals itself).
	// The journal finds it under its lock and the approval stage spends
	// it; one already spent makes the call a journal error, refused.
	// Adapters leave it empty: the journal finds the approval of a held
	// action on its own when the approval stage asks.
	Ref string
	// NoHuman says nobody can answer a prompt in this session (print mode,
	// an SDK session, or the adapter cannot tell): an ask becomes a hold,
	// queued for review. Decide sets Action.NoHuman from it.
	NoHuman bool
}

// Outcome is what Decide decided and recorded.
type Outcome struct {
	// Verdict is final: the adapter words it for its agent and does not
	// change it.
	Verdict policy.Verdict
	// Action is the action as decided (Request.Action with NoHuman set):
	// what the adapter describes in its reply.
	Action policy.Action
	// Stage names the stage that set the verdict (StageRules...).
	Stage string
	// Receipt is what the journal gave back: the queue id of a hold, the
	// approval a held action consumed.
	Receipt vocab.Receipt
	// Retry is non-empty when the fact-forcing gate refused the call: the
	// facts to present, after which a retry passes. The adapter should
	// ask for that retry instead of saying "do not retry".
	Retry string
	// Err is the error behind a refusal at StagePolicyError or
	// StageJournal, for an entry point that reports it its own way.
	Err error
	// Warnings are lines for standard error, for the human: a policy or
	// journal error, a gate configuration mistake. The agent does not
	// read them.
	Warnings []string
}

// Gate is the fact-forcing gate as a stage (internal/gate implements it).
// It is adapter-neutral: it reads the tool, its input, the working
// directory, the session and the user's prompt from the Request.
type Gate interface {
	// Pre sees a tool call the earlier stages did not hold, with the
	// policy in effect. When it refuses the call it sets v to a deny with
	// a "gate.<kind>" rule and returns the reason for the agent: the facts
	// to present before a retry, which will pass. warning is for standard
	// error.
	Pre(p *policy.Policy, r *Request, a *policy.Action, v *policy.Verdict) (reason, warning string)
	// Observe sees EventPostToolUse and EventUserPromptSubmit events (and
	// ignores others); load returns the policy in effect and is called
	// only when the gate needs it. It returns a warning for standard
	// error.
	Observe(r *Request, load func() (*policy.Policy, error)) (warning string)
}

// Pipeline decides and records events. Its zero value is not usable:
// Policy is required. It keeps no state between calls, so one Pipeline
// may serve many requests.
type Pipeline struct {
	// Policy loads the policy in effect for a working directory. Decide
	// always calls it; Observe only when the gate needs it.
	Policy func(cwd string) (*policy.Policy, error)
	// Recorder keeps every event (the journal), before the adapter
	// answers. It also finds, under its lock, the human approval a held
	// call claims (vocab.Claim); the approval stage says what it means.
	// Nil keeps nothing.
	Recorder vocab.Recorder
	// Gate, when set, is the fact-forcing gate. It can only refuse.
	Gate Gate
	// MCP, when set, is the MCP firewall stage of an entry point that
	// speaks MCP only (the MCP proxy, which also checks pins and in-band
	// confirmations): it decides every call, whatever its name. When nil,
	// mcp__server__tool calls get the hook's firewall (guard.ForHook,
	// with its state in the journal). See MCPStage.
	MCP MCPStage
	// Snapshot, when set, is the last stage before the journal: it takes
	// the snapshot a verdict asks for (destruction inside the project,
	// policy destructive.inside_project: snapshot) once nothing else holds
	// the call. Without it, such destruction gets the destructive row:
	// nothing destructive runs without a snapshot.
	Snapshot SnapshotStage
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Caller is the hook process the calls come from, whose agent may
	// have started the MCP proxy that decides an mcp__ call (see
	// guard.ForHook): the zero value is this process; the decision
	// service names its client.
	Caller Caller
	// Contained reports whether a call runs inside a sandbox where the
	// kernel fences airlock's files and the network is airlock's egress
	// proxy: the entry point establishes it from facts the agent does not
	// write (the decision service from the kernel's view of the client
	// process, the Claude Code hook from its sandbox settings), never from
	// the request's own words. Decide asks only when a call would be held
	// for an opaque run, so the allowed path pays nothing; nil: never
	// contained. What it answered is Action.Contained, which the journal
	// records.
	Contained func(*Request) bool
}

// Caller is the hook process a call came from (package proxied).
type Caller = guard.Caller

// SnapshotStage takes the snapshot plan asks for before a's destruction
// runs, and returns its id and a line describing it (internal/snapshot).
type SnapshotStage func(a *policy.Action, plan *policy.SnapshotPlan, session string) (id, what string, err error)

// MCPStage decides an mcp__server__tool call: it replaces *v, may set
// a.Kind (the tool's class decides it), and returns the detail the
// journal keeps with the call and the approval it claims (Request.Ref),
// if any.
type MCPStage func(pol *policy.Policy, r *Request, a *policy.Action, v *policy.Verdict) (detail json.RawMessage, ref string)

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// record hands the event to the recorder (see Record).
func (p *Pipeline) record(r *Request, a *policy.Action, v *policy.Verdict, detail json.RawMessage, ref string) (vocab.Receipt, error) {
	if p.Recorder == nil {
		return vocab.Receipt{}, nil
	}
	return Record(p.Recorder, &vocab.Event{
		Time: p.now(), Agent: r.Agent, Name: r.Event, Session: r.Session, Cwd: r.Cwd,
		Tool: r.Tool, ToolUseID: r.ToolUseID, Action: a, Prompt: r.Prompt, Raw: r.Raw,
		Story: r.Story, Ref: ref, Detail: detail,
	}, v)
}

// Record hands an event to rec with its verdict v, as Decide does: a
// decided call that holds or claims an approval carries the approval
// stage's claim, so that a hold a human approved runs once (v is changed
// to what the approval means, before Record returns). ev.Ref is the
// approval the call names, if any. v may be nil (a lifecycle event).
func Record(rec vocab.Recorder, ev *vocab.Event, v *policy.Verdict) (vocab.Receipt, error) {
	if v != nil {
		ev.Verdict = v.Record()
		if ev.Action != nil {
			ev.Claim = claim(ev, ev.Action, v, ev.Ref)
		}
	}
	return rec.Record(ev)
}
