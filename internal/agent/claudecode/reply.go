package claudecode

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Output is the JSON a hook writes on standard output (agent-hooks.md
// §1.8). Empty fields are left out.
type Output struct {
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *SpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// SpecificOutput is the event-specific part of Output.
type SpecificOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// maxText keeps every string under Claude Code's 10,000-character cap.
const maxText = 9000

// Reply is the answer to a decided PreToolUse event, or nil when airlock
// has nothing to say.
//
//   - allow: no output. airlock never answers "allow": that would skip
//     Claude Code's own permission prompts and modes, and airlock only
//     ever withholds permission, it does not grant it.
//   - warn: no decision either, the message as additional context for the
//     agent and as a system message for the human.
//   - ask: "ask", with the reason for the human (Claude Code shows an ask
//     reason to the user only; in -p mode it turns ask into a denial).
//   - defer and deny: "deny", the reason written for the agent (Claude Code
//     shows a deny reason to the model) and a system message for the
//     human. Claude Code's own "defer" is not used: see docs/HOOKS.md.
//
// What the agent wrote (a command, a path, a URL) is shown through
// internal/render in every message, so that a reply cannot carry a
// terminal escape, a bidi control or a screenful of blank lines to the
// human's screen.
func Reply(a *policy.Action, v *policy.Verdict, r vocab.Receipt) *Output {
	if v.Decision == policy.Allow && r.Approval == "" {
		// The allowed path: nothing to say, nothing to render.
		return nil
	}
	what, why := describe(a), reason(v)
	human := clip(fmt.Sprintf("airlock %s (%s mode, %s): %s: %s", v.Decision, v.Mode, render.Line(v.Rule, 200), what, why))
	out := &SpecificOutput{HookEventName: "PreToolUse"}
	switch v.Decision {
	case policy.Allow:
		// A held action the human approved: say so, so that the run is
		// not a surprise to either reader.
		out.AdditionalContext = clip(fmt.Sprintf("A human approved this exact action (queue item %s); airlock lets it run this once.", r.Approval))
		return &Output{SystemMessage: clip(fmt.Sprintf("airlock: allowed on your approval (queue item %s): %s", r.Approval, what)), HookSpecificOutput: out}
	case policy.Warn:
		out.AdditionalContext = clip(fmt.Sprintf("airlock allowed this action with a warning: %s: %s. Make sure the task needs it.", what, why))
		return &Output{SystemMessage: human, HookSpecificOutput: out}
	case policy.Ask:
		out.PermissionDecision = "ask"
		out.PermissionDecisionReason = human
		return &Output{HookSpecificOutput: out}
	case policy.Defer:
		queued := "It was recorded for review by a human."
		if r.QueueID != "" {
			queued = "It is queued for review by a human as " + r.QueueID + "."
			human += " (queued as " + r.QueueID + ")"
		} else {
			human += " (recorded for review)"
		}
		if noHumanHeld(v) {
			queued = "Nobody can answer a prompt in this session, so airlock did not ask. " + queued
		}
		out.PermissionDecision = "deny"
		out.PermissionDecisionReason = clip(fmt.Sprintf("airlock held this action for human review: %s. Why: %s. %s %s", what, why, queued, dontRetry))
		return &Output{SystemMessage: clip(human), HookSpecificOutput: out}
	default:
		out.PermissionDecision = "deny"
		out.PermissionDecisionReason = clip(fmt.Sprintf("airlock denied this action: %s. Why: %s. It is not queued. %s", what, why, dontRetry))
		return &Output{SystemMessage: human, HookSpecificOutput: out}
	}
}

// noHumanHeld reports whether the action was held because nobody could
// be asked about it (policy.NoHumanToAsk).
func noHumanHeld(v *policy.Verdict) bool {
	for _, r := range v.Reasons {
		if r.Rule == policy.RuleNoHuman {
			return true
		}
	}
	return false
}

// dontRetry is what the agent must do next, said the same way every time.
const dontRetry = "Do not retry it, and do not rephrase it as another command or tool that does the same thing: airlock judges what an action does, not how it is written, so every form of it is held the same way. Continue with the work that does not depend on it, and list it in your final summary as not done."

// describe names an action in a few words, rendered (internal/render):
// the end of a long command stays in view, cut in the middle.
func describe(a *policy.Action) string {
	switch a.Kind {
	case policy.Shell:
		return "the command `" + render.Line(a.Command, 300) + "`"
	case policy.Read, policy.Write:
		return render.Line(a.Tool, 100) + " " + render.Line(strings.Join(a.Paths, " "), 300)
	case policy.Fetch:
		if a.URL != "" {
			return render.Line(a.Tool, 100) + " " + render.Line(a.URL, 300)
		}
	}
	return "the tool " + render.Line(a.Tool, 200)
}

// reason says why, from the rule's message or the classifier's findings,
// rendered: a message may quote what the agent wrote.
func reason(v *policy.Verdict) string { return render.Line(reasonText(v), 2000) }

func reasonText(v *policy.Verdict) string {
	if v.Message != "" {
		return v.Message
	}
	if v.Rule == "table.unknown" {
		return "airlock does not know what this tool does, so it is treated like an external action"
	}
	var parts []string
	seen := map[string]bool{}
	for _, r := range v.Reasons {
		if r.Rule == policy.RuleNoHuman {
			continue // said where the reply says what happened next
		}
		if !seen[r.Message] && len(parts) < 3 {
			seen[r.Message] = true
			parts = append(parts, r.Message)
		}
	}
	if len(parts) == 0 {
		return effectWords(v)
	}
	return strings.Join(parts, "; ")
}

func effectWords(v *policy.Verdict) string {
	e := v.Effect
	w := e.Tier.String()
	if e.Destructive {
		w += ", destructive"
	}
	if e.Opaque {
		w += ", cannot be known statically"
	}
	return w
}

func clip(s string) string { return clipTo(s, maxText) }

func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
