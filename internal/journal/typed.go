package journal

import "github.com/airlock-dev/airlock/internal/vocab"

// The journal writes a verdict's decision and an event's name as words
// (its format on disk); these methods read them back as the vocabulary,
// so that no reader outside the journal matches the words itself.

// ToolCall reports whether the entry is a decided tool call (a
// PreToolUse event, whatever the agent).
func (e *Entry) ToolCall() bool { return e.Event == vocab.EventPreToolUse }

// Verdict is the entry's decision, and false when it records none (a
// lifecycle event, a human's act) or one the journal cannot read.
func (e *Entry) Verdict() (vocab.Decision, bool) {
	if e.Decision == "" {
		return 0, false
	}
	d, err := vocab.ParseDecision(e.Decision)
	return d, err == nil
}

// Holds reports whether the entry's decision stopped the action from
// running then (ask, defer or deny). An unreadable decision holds:
// unknown is never "it ran".
func (e *Entry) Holds() bool {
	d, ok := e.Verdict()
	return e.Decision != "" && (!ok || d.Holds())
}

// SpentApproval is the queue id of the human approval the entry spent:
// a retry the approval let through (or the MCP proxy's call that named
// it), "" for any other entry.
func (e *Entry) SpentApproval() string {
	if e.Rule != RuleApproved {
		return ""
	}
	return e.Ref
}

// EachInStory calls fn for every entry of the loop runner's story, in
// order. It decodes only the lines that name the story (a prefilter on
// the line's bytes, then the decoded field is checked), so the caller
// knows nothing of how the journal writes a line.
func (j *Journal) EachInStory(story string, fn func(e *Entry) error) error {
	return j.eachContaining([][]byte{field("story", story)}, func(e *Entry) error {
		if e.Story != story {
			return nil
		}
		return fn(e)
	})
}
