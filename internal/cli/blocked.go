package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

const blockedHelp = `
List every tool call airlock did not let run, across all sessions and
agents: asked about, held for review (defer) and denied, oldest first,
each with its time, agent, session, story, effect and reason. The review
queue shows only what still awaits a human; this shows everything that
was stopped, settled or not.

--since takes "today" (from local midnight, the default), an RFC 3339 time
(2026-02-23T08:00:00Z) or a duration back from now (24h, 90m).

Exit status: 0 listed (even when nothing was blocked), 2 usage error.`

// blockedCall is one stopped call as --json prints it.
type blockedCall struct {
	Time     time.Time `json:"time"`
	Decision string    `json:"decision"`
	// ID is the queue id when the call was held for review.
	ID      string   `json:"id,omitempty"`
	Agent   string   `json:"agent,omitempty"`
	Session string   `json:"session,omitempty"`
	Story   string   `json:"story,omitempty"`
	Mode    string   `json:"mode,omitempty"`
	Effect  string   `json:"effect,omitempty"`
	Rule    string   `json:"rule,omitempty"`
	Reason  string   `json:"reason"`
	Tool    string   `json:"tool,omitempty"`
	Command string   `json:"command,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	URL     string   `json:"url,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
}

func runBlocked(e *env) int {
	fs := e.flags
	since := fs.String("since")
	asJSON := fs.Bool("json")
	if fs.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "blocked takes no operands", Hints: []string{"airlock blocked --since 24h"}})
	}
	now := time.Now()
	var from time.Time
	if *since == "today" {
		y, m, d := now.Date()
		from = time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	} else {
		t, err := parseSince(*since, now)
		if err != nil {
			return fail(e.stderr, err)
		}
		from = t
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	entries, err := j.Blocked(from)
	if err != nil {
		return fail(e.stderr, err)
	}
	calls := make([]blockedCall, len(entries))
	for i, en := range entries {
		calls[i] = blockedCall{Time: en.Time, Decision: en.Decision, ID: en.ID, Agent: en.Agent, Session: en.Session,
			Story: en.Story, Mode: en.Mode, Effect: en.Effect, Rule: en.Rule, Reason: entryReason(en),
			Tool: en.Tool, Command: en.Command, Paths: en.Paths, URL: en.URL, Cwd: en.Cwd}
	}
	if *asJSON {
		return writeJSON(e, calls)
	}
	var b strings.Builder
	if len(calls) == 0 {
		fmt.Fprintf(&b, "Nothing was blocked since %s.\n", from.Format(time.RFC3339))
	} else {
		word := "calls"
		if len(calls) == 1 {
			word = "call"
		}
		fmt.Fprintf(&b, "%d %s blocked since %s:\n", len(calls), word, from.Format(time.RFC3339))
	}
	for _, c := range calls {
		fmt.Fprintf(&b, "\n%s  %s", c.Time.UTC().Format(time.RFC3339), c.Decision)
		if c.ID != "" {
			fmt.Fprintf(&b, " [%s]", c.ID)
		}
		fmt.Fprintf(&b, "  %s", dashIfEmpty(c.Agent))
		if c.Session != "" {
			fmt.Fprintf(&b, "  session %s", journal.ShortID(c.Session))
		}
		if c.Story != "" {
			fmt.Fprintf(&b, "  story %s", c.Story)
		}
		fmt.Fprintf(&b, "\n  %s\n  effect %s; %s by %s: %s\n", callText(c), dashIfEmpty(c.Effect), c.Decision, dashIfEmpty(c.Rule), c.Reason)
	}
	if _, err := fmt.Fprint(e.stdout, b.String()); err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}

// entryReason is why a call was stopped, in words: the rule's message, or
// the findings behind the decision.
func entryReason(en *journal.Entry) string {
	if en.Message != "" {
		return en.Message
	}
	var parts []string
	for _, r := range en.Reasons {
		if len(parts) == 3 {
			break
		}
		parts = append(parts, r.Message)
	}
	if len(parts) == 0 {
		return "no reason recorded"
	}
	return strings.Join(parts, "; ")
}

// callText is the call itself: the command line, or the tool and what it
// touched.
func callText(c blockedCall) string {
	switch {
	case c.Command != "":
		return "$ " + c.Command
	case len(c.Paths) > 0:
		return c.Tool + " " + strings.Join(c.Paths, " ")
	case c.URL != "":
		return c.Tool + " " + c.URL
	}
	return "tool " + dashIfEmpty(c.Tool)
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
