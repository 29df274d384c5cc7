package journal

import (
	"encoding/json"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// Event names the journal writes itself, besides the agents' own hook
// event names (PreToolUse, SessionStart, Stop, ...).
const (
	// EventApprove is a human approving a held action (Ref names it).
	EventApprove = "Approve"
	// EventReject is a human rejecting a held action (Ref names it).
	EventReject = "Reject"
	// EventRun is a human running a held action through "airlock queue
	// run" (Ref names it; Note carries the exit status).
	EventRun = "Run"
	// EventScanFinding is a post-execution scanner finding.
	EventScanFinding = "ScanFinding"
	// EventRunReview is what the review after a contained run (airlock
	// run) set aside or names for the human (Note holds every path).
	EventRunReview = "RunReview"
)

// RuleApproved is the rule of a decision lifted to allow because a human
// approved exactly that action (vocab.RuleApproved): an entry with it and
// a Ref spends the approval Ref names.
const RuleApproved = vocab.RuleApproved

// Entry is one line of the journal.
type Entry struct {
	Seq       int64     `json:"seq"`
	Time      time.Time `json:"time"`
	Event     string    `json:"event"`
	Agent     string    `json:"agent,omitempty"`
	Session   string    `json:"session,omitempty"`
	Story     string    `json:"story,omitempty"`
	Cwd       string    `json:"cwd,omitempty"`
	Tool      string    `json:"tool,omitempty"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	// Kind, Command, Paths and URL are the action, for a tool call.
	Kind    string   `json:"kind,omitempty"`
	Command string   `json:"command,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	URL     string   `json:"url,omitempty"`
	// Contained says the action was decided as running inside a sandbox
	// (vocab.Action.Contained).
	Contained bool `json:"contained,omitempty"`
	// Decision, Rule, Message, Mode, Effect and Reasons are the verdict.
	Decision string   `json:"decision,omitempty"`
	Rule     string   `json:"rule,omitempty"`
	Message  string   `json:"message,omitempty"`
	Mode     string   `json:"mode,omitempty"`
	Effect   string   `json:"effect,omitempty"`
	Reasons  []Reason `json:"reasons,omitempty"`
	// ID is the queue id of a held action or a scanner finding.
	ID string `json:"id,omitempty"`
	// Ref is the queue id this entry is about (approval, rejection, run,
	// or the approval a retried action consumed).
	Ref string `json:"ref,omitempty"`
	// Expires is when an approval stops letting a retry through.
	Expires *time.Time `json:"expires,omitempty"`
	// Prompt is the user's own words, for a UserPromptSubmit.
	Prompt  string          `json:"prompt,omitempty"`
	Note    string          `json:"note,omitempty"`
	Finding *vocab.Finding  `json:"finding,omitempty"`
	Detail  json.RawMessage `json:"detail,omitempty"`
	// MAC authenticates a human's act (approve, reject, run): see
	// HumanKeyFile. A human act without a valid MAC does not count.
	MAC string `json:"mac,omitempty"`
	// HeldHash is, on a human's act, the hash of the held item's line as
	// the human acted on it (covered by MAC): an approval does not carry
	// over to a held line edited afterwards.
	HeldHash string `json:"held_hash,omitempty"`
	// Team is, on a human act a team reviewer made (team.go), who
	// decided and how the machine checked it (covered by MAC).
	Team *TeamAct `json:"team,omitempty"`
	// InputDigest is the SHA-256 of a non-shell tool call's complete
	// input, so that an approval binds the exact content of a write or
	// a tool call, not only its target.
	InputDigest string `json:"input_digest,omitempty"`
	// Files are, for a shell command, the files its decision read and
	// what it found in each (vocab.Action.Reads): an approval binds them
	// as it binds the text (sameAction). Kept on held, asked and
	// approved entries only.
	Files []FileState `json:"files,omitempty"`
	// Input is the tool input of a call airlock cannot read (a tool its
	// tables do not know, such as a PowerShell tool), bounded: what the
	// human reviews instead of a command, path or URL.
	Input json.RawMessage `json:"input,omitempty"`
	// Prev is the hex SHA-256 of the previous line ("" for the first).
	Prev string `json:"prev"`
}

// FileState is one file a decision read and what it found (a content
// digest "sha256:…", "absent", a kind).
type FileState struct {
	Path  string `json:"path"`
	State string `json:"state"`
}

// Reason is one finding or rule behind a decision.
type Reason struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Held reports whether the entry is an item of the review queue.
func (e *Entry) Held() bool { return e.ID != "" }

// entryOf turns an agent event into the journal's record of it.
func entryOf(ev *vocab.Event) *Entry {
	e := &Entry{
		Time: ev.Time.UTC(), Event: ev.Name, Agent: ev.Agent, Session: ev.Session, Story: ev.Story,
		Cwd: ev.Cwd, Tool: ev.Tool, ToolUseID: ev.ToolUseID, Prompt: ev.Prompt,
		Ref: ev.Ref, Note: ev.Note, Finding: ev.Finding, Detail: ev.Detail,
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	if a := ev.Action; a != nil {
		e.Kind, e.Command, e.Paths, e.URL = a.Kind.String(), a.Command, a.Paths, a.URL
		e.Contained = a.Contained
		// The directory the action runs in (a tool's workdir, not the
		// agent's): what an approval binds to, and what the human is
		// shown.
		if a.Cwd != "" {
			e.Cwd = a.Cwd
		}
		if e.Tool == "" {
			e.Tool = a.Tool
		}
		if a.Kind != vocab.Shell {
			e.InputDigest = inputDigest(ev.Raw)
		}
		for _, f := range a.Reads {
			e.Files = append(e.Files, FileState{Path: f.Path, State: f.State})
		}
		if a.Kind == vocab.UnknownTool && len(ev.Detail) == 0 {
			e.Input = unknownInput(ev.Raw)
		}
	}
	if v := ev.Verdict; v != nil {
		e.setVerdict(v)
	}
	return e
}

// setVerdict writes the verdict's record into the entry.
func (e *Entry) setVerdict(v *vocab.VerdictRecord) {
	e.Decision, e.Rule, e.Message, e.Mode = v.Decision.String(), v.Rule, v.Message, v.Mode.String()
	e.Effect = v.Effect
	e.Reasons = nil
	for _, r := range v.Reasons {
		e.Reasons = append(e.Reasons, Reason{Rule: r.Rule, Message: r.Message})
	}
}

// queued reports whether the entry becomes a review queue item: a
// deferred action, or a scanner finding of something that was not
// refused (a refused call needs no review; it is kept for the record).
func (e *Entry) queued() bool {
	if e.Event == EventScanFinding {
		return e.Finding == nil || e.Finding.Status != "denied"
	}
	return e.Decision == "defer"
}

// durable reports whether the entry must reach the disk before the
// writer returns: anything held or refused, and every human act.
func (e *Entry) durable() bool {
	switch e.Decision {
	case "ask", "defer", "deny":
		return true
	}
	switch e.Event {
	case EventApprove, EventReject, EventRun, EventScanFinding:
		return true
	}
	return false
}

// maxInput bounds the tool input an entry keeps for an unknown tool.
const maxInput = 16 << 10

// unknownInput is the tool_input of a raw hook event, kept for the
// human: whole when it is small, else its first bytes as one string.
func unknownInput(raw json.RawMessage) json.RawMessage {
	var ev struct {
		Input json.RawMessage `json:"tool_input"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &ev) != nil || len(ev.Input) == 0 {
		return nil
	}
	if len(ev.Input) <= maxInput {
		return ev.Input
	}
	b, err := json.Marshal(map[string]string{"(first bytes)": string(ev.Input[:maxInput])})
	if err != nil {
		return nil
	}
	return b
}
