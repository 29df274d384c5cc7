// Package teamview is how a team item is shown to a human, in the
// terminal ("airlock team queue") and on the team dashboard: the held
// call is turned into the journal's own item and rendered by the same
// code as "airlock queue" (journal.Item.WriteText, internal/render), so
// text an agent controls on any machine reaches a reviewer's screen with
// its control, bidi and zero-width characters shown as marks, whatever
// the machine or the server let through.
package teamview

import (
	"fmt"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// Item is the held call as the journal's item, with the team's status.
func Item(ti wire.TeamItem) *journal.Item {
	h := ti.Item
	e := &journal.Entry{Seq: h.Seq, Time: h.Time, Event: "PreToolUse", Agent: h.Agent, Session: h.Session, Story: h.Story, Cwd: h.Cwd,
		Tool: h.Tool, Kind: h.Kind, Command: h.Command, Paths: h.Paths, URL: h.URL, Decision: h.Decision, Rule: h.Rule,
		Message: h.Message, Mode: h.Mode, Effect: h.Effect, ID: h.ID, InputDigest: h.InputDigest, Input: h.Input}
	for _, r := range h.Reasons {
		e.Reasons = append(e.Reasons, journal.Reason{Rule: r.Rule, Message: r.Message})
	}
	return &journal.Item{Entry: e, Status: journal.Status(ti.Status)}
}

// Line renders one short field a machine or a reviewer sent.
func Line(s string, max int) string { return render.Line(s, max) }

// Row is one item as a list shows it, every field rendered.
type Row struct {
	Key, Machine, Status, When, Repo, Effect, What string
}

// RowOf renders an item for a list.
func RowOf(ti wire.TeamItem) Row {
	it := Item(ti)
	return Row{Key: render.Line(ti.Key, 200), Machine: render.Line(ti.Machine, 63), Status: render.Line(ti.Status, 40),
		When: ti.Item.Time.Local().Format("2006-01-02 15:04 MST"), Repo: render.Line(orDash(ti.Item.Repo), 60),
		Effect: journal.Effect(it), What: journal.What(it, 120)}
}

// Text is the whole item as "airlock team queue show" prints it.
func Text(ti wire.TeamItem, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on machine %s, %s, held %s ago, received %s\n", render.Line(ti.Key, 200), render.Line(ti.Machine, 63),
		render.Line(ti.Status, 40), Age(now.Sub(ti.Item.Time)), ti.Received.Local().Format(time.RFC3339))
	if ti.Item.Repo != "" {
		fmt.Fprintf(&b, "  repository %s\n", render.Line(ti.Item.Repo, 200))
	}
	var body strings.Builder
	Item(ti).WriteText(&body)
	// WriteText's first line is the machine's own id and status, which
	// the line above says with the team's key: the rest is the call.
	_, rest, _ := strings.Cut(body.String(), "\n")
	b.WriteString(rest)
	if d := ti.Decision; d != nil {
		fmt.Fprintf(&b, "  team decision: %s by %s at %s", render.Line(d.Verdict, 20), render.Line(d.Reviewer, 63), render.Line(d.Time, 40))
		if d.TTLSeconds > 0 {
			fmt.Fprintf(&b, ", for %s", time.Duration(d.TTLSeconds)*time.Second)
		}
		b.WriteString("\n")
		if d.Note != "" {
			fmt.Fprintf(&b, "    note: %s\n", render.Line(d.Note, 2000))
		}
	}
	if st := ti.Settlement; st != nil {
		fmt.Fprintf(&b, "  on the machine: %s", render.Line(st.Status, 40))
		if st.Channel != "" {
			fmt.Fprintf(&b, " (%s", render.Line(st.Channel, 40))
			if st.Reviewer != "" {
				fmt.Fprintf(&b, ", %s", render.Line(st.Reviewer, 63))
			}
			b.WriteString(")")
		}
		fmt.Fprintf(&b, " at %s\n", st.Time.Local().Format(time.RFC3339))
		if st.Refused != "" {
			fmt.Fprintf(&b, "    refused the team decision: %s\n", render.Line(st.Refused, 1000))
		}
	}
	return b.String()
}

// Age is a duration as a reviewer reads it: 45s, 12m, 3h, 2d.
func Age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
