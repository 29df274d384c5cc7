package journal

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/vocab"
)

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

// SnapshotTaken is the id of the snapshot the pipeline took before the
// entry's action ran (its snapshot.taken reason), "" when none.
func (e *Entry) SnapshotTaken() string {
	for _, r := range e.Reasons {
		if r.Rule != RuleSnapshotTaken {
			continue
		}
		if rest, ok := strings.CutPrefix(r.Message, snapshotTakenPrefix); ok {
			if id, _, ok := strings.Cut(rest, " "); ok {
				return id
			}
		}
	}
	return ""
}

// RuleSnapshotTaken and snapshotTakenPrefix are how the pipeline records
// a snapshot it took (pipeline.takeSnapshot writes the message; a test
// there checks that SnapshotTaken reads it back).
const (
	RuleSnapshotTaken   = "snapshot.taken"
	snapshotTakenPrefix = "airlock took snapshot "
)

// EachToolCallOf calls fn for every decided tool call (PreToolUse) whose
// tool_use id is in ids, in order, decoding only the lines that name one
// of them.
func (j *Journal) EachToolCallOf(ids []string, fn func(e *Entry) error) error {
	if len(ids) == 0 {
		return nil
	}
	want := make(map[string]bool, len(ids))
	needles := make([][]byte, 0, len(ids))
	for _, id := range ids {
		if id != "" && !want[id] {
			want[id] = true
			needles = append(needles, field("tool_use_id", id))
		}
	}
	return j.eachContaining(needles, func(e *Entry) error {
		if !e.ToolCall() || !want[e.ToolUseID] {
			return nil
		}
		return fn(e)
	})
}
