package notify

import (
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// Limits of what a notification shows, in rendered bytes.
const (
	commandMax = 1000
	titleMax   = 80
	reasonMax  = 300
	reasonsMax = 3
)

// Notice is one held item as the channels show it: every text the agent
// controls rendered (internal/render) and its secrets redacted.
type Notice struct {
	ID string `json:"id"`
	// Title is a short line for a notification's title.
	Title string `json:"title"`
	// Command is the action on one line: a shell command, or the tool
	// call with its target.
	Command string    `json:"command"`
	Kind    string    `json:"kind"`
	Effect  string    `json:"effect"`
	Reasons []string  `json:"reasons"`
	Session string    `json:"session,omitempty"`
	Story   string    `json:"story,omitempty"`
	Cwd     string    `json:"cwd,omitempty"`
	Agent   string    `json:"agent,omitempty"`
	Time    time.Time `json:"time"`
	// Detected is true for a scanner finding: it already happened, so
	// there is nothing to approve.
	Detected bool `json:"detected"`
	// cli is the command that reviews the item by hand (Queue.CLI).
	cli string
}

// noticeOf renders an item for the channels; cli is the command that
// reviews it by hand ("airlock queue").
func noticeOf(it *journal.Item, r *redactor, cli string) *Notice {
	n := &Notice{
		cli: cli, ID: it.ID, Kind: it.Kind, Effect: r.mark(r.hide(journal.Effect(it))), Time: it.Time.UTC(),
		Session: r.Line(it.Session, 100), Story: r.Line(it.Story, 100), Cwd: r.Line(it.Cwd, 300),
		Agent: r.Line(it.Agent, 60), Detected: it.Detected, Reasons: []string{},
	}
	if it.Kind == "shell" && it.Command != "" {
		n.Command = r.Line(it.Command, commandMax)
	} else {
		// What is rendered already; a rendered secret is still the same
		// ASCII, so hiding it there works, and the marker stays
		// unforgeable (only the random placeholder becomes one).
		n.Command = r.mark(r.hide(journal.What(it, commandMax)))
	}
	for i, reason := range it.Reasons {
		if i == reasonsMax {
			n.Reasons = append(n.Reasons, "(more: "+cli+" show "+it.ID+")")
			break
		}
		n.Reasons = append(n.Reasons, r.Line(reason.Message, reasonMax))
	}
	if len(it.Reasons) == 0 && it.Message != "" {
		n.Reasons = append(n.Reasons, r.Line(it.Message, reasonMax))
	}
	short := n.Command
	if len(short) > titleMax {
		short = r.Line(firstLine(it), titleMax)
	}
	what := "held"
	if it.Detected {
		what = "found"
	}
	n.Title = "airlock " + what + " (" + n.Effect + "): " + short
	return n
}

// firstLine is the raw action for a title (cut again by Line).
func firstLine(it *journal.Item) string {
	if it.Kind == "shell" && it.Command != "" {
		return it.Command
	}
	return journal.What(it, titleMax*2)
}

// text is the notification's body: the action behind a "$ " gutter, so
// that no line the agent wrote can pass for one of airlock's, then
// airlock's own lines.
func (n *Notice) text(buttonsUntil time.Time, approveButton bool) string {
	var b strings.Builder
	b.WriteString("$ " + n.Command + "\n")
	b.WriteString("effect: " + n.Effect + "\n")
	for _, r := range n.Reasons {
		b.WriteString("why: " + r + "\n")
	}
	if n.Cwd != "" {
		b.WriteString("in: " + n.Cwd + "\n")
	}
	switch {
	case n.Story != "":
		b.WriteString("story " + n.Story + " · item " + n.ID + "\n")
	case n.Session != "":
		b.WriteString("session " + journal.ShortID(n.Session) + " · item " + n.ID + "\n")
	default:
		b.WriteString("item " + n.ID + "\n")
	}
	switch {
	case n.Detected:
		b.WriteString("This already happened (found after the fact): " + n.cli + " ack " + n.ID)
	case approveButton:
		b.WriteString("Approve lets the agent's exact retry run once. Buttons work until " + buttonsUntil.UTC().Format("2006-01-02 15:04 MST") + ". Or: " + n.cli + " approve " + n.ID)
	default:
		b.WriteString("To approve: " + n.cli + " approve " + n.ID + " (no Approve button: see docs/NOTIFY.md)")
	}
	return b.String()
}
