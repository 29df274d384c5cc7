package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
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
		// Every field below came from the journal, and most from the agent:
		// each goes through internal/render, as in every other display.
		fmt.Fprintf(&b, "\n%s  %s", c.Time.UTC().Format(time.RFC3339), field(c.Decision))
		if c.ID != "" {
			fmt.Fprintf(&b, " [%s]", field(c.ID))
		}
		fmt.Fprintf(&b, "  %s", field(dashIfEmpty(c.Agent)))
		if c.Session != "" {
			fmt.Fprintf(&b, "  session %s", field(journal.ShortID(c.Session)))
		}
		if c.Story != "" {
			fmt.Fprintf(&b, "  story %s", field(c.Story))
		}
		fmt.Fprintf(&b, "\n  %s\n", callText(c))
		fmt.Fprintf(&b, "  effect %s; %s by %s: %s\n", field(dashIfEmpty(c.Effect)), field(c.Decision), field(dashIfEmpty(c.Rule)),
			render.Line(c.Reason, 1000))
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

// callText is the call itself, rendered (internal/render): the command
// line, or the tool and what it touched.
func callText(c blockedCall) string {
	switch {
	case c.Command != "":
		return "$ " + render.Line(c.Command, 1000)
	case len(c.Paths) > 0:
		paths := make([]string, len(c.Paths))
		for i, p := range c.Paths {
			paths[i] = render.Line(p, 500)
		}
		return field(dashIfEmpty(c.Tool)) + " " + strings.Join(paths, " ")
	case c.URL != "":
		return field(dashIfEmpty(c.Tool)) + " " + render.Line(c.URL, 1000)
	}
	return "tool " + field(dashIfEmpty(c.Tool))
}

// field renders a short journal field (a decision, id, agent, session,
// story, effect, rule or tool name) for one line.
func field(s string) string { return render.Line(s, 200) }

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
