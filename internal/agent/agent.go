// Package agent holds what every agent adapter shares: the Event an
// adapter hands to the journal, and the Recorder seam the journal
// implements. One sub-package per agent wire format (claudecode, and
// later codex, gemini, cursor, copilot) translates that agent's hook
// protocol into policy actions and back; none of them decides anything
// itself.
package agent

import (
	"encoding/json"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// Event is one thing an agent told airlock about: a tool call about to
// happen (with the decision airlock made), or a lifecycle event such as a
// session starting, a user's prompt, a tool's outcome or a stop.
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
	// Action and Verdict are set for a decided tool call.
	Action  *policy.Action
	Verdict *policy.Verdict
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
	// Approval is the queue id of the human approval that let this
	// action through, when the recorder lifted a hold because of one.
	Approval string
}

// Recorder keeps events. The journal implements it; adapters call Record
// before they answer the agent, so that nothing airlock decided is lost
// (DESIGN.md invariant 4). An error means the event may not have been
// kept, and the adapter then refuses anything it would have allowed.
type Recorder interface {
	Record(ev *Event) (Receipt, error)
}

// Discard is the Recorder used until the journal exists, and by the
// doctor's self-test: it keeps nothing.
type Discard struct{}

// Record does nothing.
func (Discard) Record(*Event) (Receipt, error) { return Receipt{}, nil }
