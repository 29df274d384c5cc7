package vocab

import (
	"encoding/json"
	"time"
)

// Event is one thing an agent told airlock about: a tool call about to
// happen (with the decision airlock made), or a lifecycle event such as a
// session starting, a user's prompt, a tool's outcome or a stop. Entry
// points hand it to a Recorder (the journal), which keeps it and decides
// nothing.
type Event struct {
	// Time is when airlock received the event.
	Time time.Time
	// Agent names the adapter, e.g. "claude-code".
	Agent string
	// Name is the agent's name for the event, e.g. "PreToolUse".
	Name string
	// Session is the agent's session id.
	Session string
	// Cwd is the agent's working directory.
	Cwd string
	// Tool and ToolUseID identify a tool call, when the event is about one.
	Tool      string
	ToolUseID string
	// Action and Verdict are set for a decided tool call. Verdict is the
	// record of the decision, without the policy's working (see
	// VerdictRecord).
	Action  *Action
	Verdict *VerdictRecord
	// Prompt is the user's own words (UserPromptSubmit): the channel the
	// agent does not write, used later for approvals.
	Prompt string
	// Raw is the event exactly as the agent sent it.
	Raw json.RawMessage

	// Story is the loop runner's story id, when the event happened inside
	// one (AIRLOCK_STORY in the hook's environment).
	Story string
	// Ref is the queue id another event refers to: the held action an
	// approval, rejection or run is about, or the approval a retried
	// action consumed.
	Ref string
	// Note is free text from a human or a tool (a rejection's reason, a
	// failing story's error).
	Note string
	// Finding is set for a post-execution scanner finding.
	Finding *Finding
	// Detail carries an entry point's own structured facts (the MCP
	// proxy's server, tool class, recipient and argument digest); the
	// journal keeps it as is.
	Detail json.RawMessage
	// Claim, when set, asks the recorder to look for a human's approval
	// of this action under its lock before it keeps the event (see
	// Claim). Recorders that keep no approvals ignore it.
	Claim *Claim
}

// VerdictRecord is what the journal keeps of a verdict: the decision and
// the words that explain it, without the classification behind it (the
// journal stores decisions; it does not make them).
type VerdictRecord struct {
	Decision Decision
	// Rule names what set the decision ("table.external",
	// "builtin.secrets.ssh", RuleApproved...).
	Rule string
	// Message is the message of the rule that set the decision, if any.
	Message string
	// Mode is the mode the decision was made in.
	Mode Mode
	// Effect labels what the action does ("local", "external+destructive").
	Effect string
	// Reasons are the findings and the rules that led to the decision.
	Reasons []Reason
}

// Reason is one finding or rule behind a decision.
type Reason struct {
	Rule    string
	Message string
}

// The rules of an approval's lifecycle. Whoever holds a human's approval
// writes them; the journal's queue reads them (an entry with RuleApproved
// and a Ref spends that approval).
const (
	// RuleApproved is the rule of a decision lifted to allow because a
	// human approved exactly that action.
	RuleApproved = "queue.approved"
	// RuleSpent is the rule of a call that claimed an approval that was
	// no longer there to use: it is held again.
	RuleSpent = "queue.spent"
)

// Claim asks a Recorder to find, under the same lock as the append, the
// unused, unexpired human approval of the event's action (or the one Ref
// names), and to let Settle say what that means before the event is
// kept. So one approval is spent by exactly one event, whatever the kind
// of action, while what an approval means (allow once, held again as
// spent, the words for the agent and the human) is the decision
// pipeline's, not the recorder's.
type Claim struct {
	// Ref names the approval claimed (its queue id); "" asks for any
	// approval of the same action.
	Ref string
	// Settle is called under the recorder's lock with the approval found
	// ("" when none is there to use). It updates the event's Verdict and
	// reports whether the event spends the approval; an event that
	// spends one must carry RuleApproved. A non-nil error keeps nothing
	// and is what Record returns.
	Settle func(approval string) (spend bool, err error)
	// Changed is set by the recorder before Settle when it found no
	// approval to use but one of the same text whose files read
	// differently now (a script rewritten after the approval): a phrase
	// naming the file, for the reason of the hold that follows.
	Changed string
}

// Finding is what the post-execution scanner saw in agent output: an
// outward action that the hooks did not hold.
type Finding struct {
	// Source names where it was seen: a file name, "-" for standard input,
	// or a story's output.
	Source string `json:"source"`
	// Line is the 1-based line of Source it was seen on.
	Line int `json:"line"`
	// Status is "executed" (a tool call that ran), "denied" (a tool call
	// that was refused), "no-result" (a tool call whose result the input
	// does not hold: it may have run), or "mentioned" (text that names
	// the action without showing that it ran). Denied findings are kept
	// in the journal but are not queued for review.
	Status string `json:"status"`
	// Pattern names the scanner rule that matched, for plain text.
	Pattern string `json:"pattern,omitempty"`
}

// Receipt is what recording gave back.
type Receipt struct {
	// QueueID names a held action in the review queue, when the recorder
	// keeps one; "" until the journal exists.
	QueueID string
	// Approval is the queue id of the human approval this event spent,
	// when its Claim's Settle spent one.
	Approval string
}

// Recorder keeps events. The journal implements it; entry points call
// Record before they answer the agent, so that nothing airlock decided is
// lost (DESIGN.md invariant 4). An error means the event may not have
// been kept, and the entry point then refuses anything it would have
// allowed.
type Recorder interface {
	Record(ev *Event) (Receipt, error)
}

// Discard is the Recorder used until the journal exists, and by the
// doctor's self-test: it keeps nothing.
type Discard struct{}

// Record does nothing.
func (Discard) Record(*Event) (Receipt, error) { return Receipt{}, nil }
