package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Formats a report can be written in.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Write renders the report in a format.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case FormatMarkdown:
		_, err := io.WriteString(w, r.markdown())
		return err
	case FormatText, "":
		_, err := io.WriteString(w, r.Text())
		return err
	}
	return fmt.Errorf("unknown report format %q (want text, markdown or json)", format)
}

// Text is the plain-text report, as printed at the end of a session.
func (r *Report) Text() string {
	var b strings.Builder
	r.header(&b, "", "  ")
	for _, it := range r.Items {
		b.WriteString("\n")
		fmt.Fprintf(&b, "[%s] %s, %s, %s\n", it.ID, it.Status, origin(it), stamp(it.Time))
		if where := placeOf(it); where != "" {
			fmt.Fprintf(&b, "  %s\n", where)
		}
		for i, l := range strings.Split(strings.TrimRight(it.Command, "\n"), "\n") {
			if i == 0 {
				fmt.Fprintf(&b, "  $ %s\n", l)
			} else {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
		if it.Cwd != "" {
			fmt.Fprintf(&b, "  in %s\n", it.Cwd)
		}
		fmt.Fprintf(&b, "  effect %s; %s by %s\n", orDash(it.Effect), orDash(it.Decision), orDash(it.Rule))
		for _, rs := range it.Reasons {
			fmt.Fprintf(&b, "  - %s: %s\n", rs.Rule, rs.Message)
		}
		if s := settled(it); s != "" {
			fmt.Fprintf(&b, "  %s\n", s)
		}
	}
	b.WriteString("\n")
	b.WriteString(r.countsLine())
	b.WriteString("\n")
	if len(r.TopRules) > 0 {
		b.WriteString("Rules that fired most: " + r.rulesLine() + "\n")
	}
	if len(r.Review) > 0 {
		b.WriteString("Review with: airlock queue list; airlock queue show ID; airlock queue approve|reject|run ID\n")
	}
	return b.String()
}

func (r *Report) markdown() string {
	var b strings.Builder
	b.WriteString("# airlock session report\n\n")
	r.header(&b, "**", "- ")
	for _, it := range r.Items {
		fmt.Fprintf(&b, "\n## `%s` %s\n\n", it.ID, it.Status)
		fmt.Fprintf(&b, "- %s, %s\n", origin(it), stamp(it.Time))
		if where := placeOf(it); where != "" {
			fmt.Fprintf(&b, "- %s\n", where)
		}
		if it.Cwd != "" {
			fmt.Fprintf(&b, "- directory: `%s`\n", it.Cwd)
		}
		fmt.Fprintf(&b, "- effect `%s`; %s by `%s`\n", orDash(it.Effect), orDash(it.Decision), orDash(it.Rule))
		for _, rs := range it.Reasons {
			fmt.Fprintf(&b, "- `%s`: %s\n", rs.Rule, rs.Message)
		}
		if s := settled(it); s != "" {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		fence := "```"
		for strings.Contains(it.Command, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n%ssh\n%s\n%s\n", fence, it.Command, fence)
	}
	b.WriteString("\n## Counts\n\n")
	b.WriteString(r.countsLine() + "\n")
	if len(r.TopRules) > 0 {
		b.WriteString("\nRules that fired most: " + r.rulesLine() + "\n")
	}
	return b.String()
}

// header writes the opening lines: what awaits review, one line each.
func (r *Report) header(b *strings.Builder, strong, bullet string) {
	if len(r.Review) == 0 {
		b.WriteString(strong + "No actions await review." + strong + "\n")
		return
	}
	b.WriteString(strong + "DEFERRED ACTIONS REQUIRE REVIEW" + strong + "\n")
	if strong != "" {
		b.WriteString("\n")
	}
	ext := r.ExternalPending()
	if ext > 0 {
		fmt.Fprintf(b, "%d external command(s) detected.\n", ext)
	}
	if other := len(r.Review) - ext; other > 0 {
		fmt.Fprintf(b, "%d other held action(s).\n", other)
	}
	if strong != "" {
		b.WriteString("\n")
	}
	for _, it := range r.Review {
		fmt.Fprintf(b, "%s%s [%s]: %s\n", bullet, label(it), stamp(it.Time), OneLine(it.Command, 100))
	}
}

func (r *Report) countsLine() string {
	c := r.Counts
	s := fmt.Sprintf("Calls: %d allowed, %d warned, %d held, %d denied", c.Allowed, c.Warned, c.Held, c.Denied)
	if c.Approved > 0 {
		s += fmt.Sprintf(" (%d allowed on a human's approval)", c.Approved)
	}
	return s + fmt.Sprintf("; %d found after the fact.", c.Detected)
}

func (r *Report) rulesLine() string {
	parts := make([]string, len(r.TopRules))
	for i, rc := range r.TopRules {
		parts[i] = fmt.Sprintf("%s ×%d", rc.Rule, rc.Count)
	}
	return strings.Join(parts, ", ")
}

// label names where an item came from: its story when in a loop, else
// its session.
func label(it *Item) string {
	switch {
	case it.Story != "":
		return "Story #" + it.Story
	case it.Session != "":
		return "Session " + ShortID(it.Session)
	}
	return "Unknown session"
}

func placeOf(it *Item) string {
	var parts []string
	if it.Story != "" {
		parts = append(parts, "story "+it.Story)
	}
	if it.Session != "" {
		parts = append(parts, "session "+it.Session)
	}
	if f := it.Finding; f != nil {
		parts = append(parts, fmt.Sprintf("seen at %s:%d (%s)", f.Source, f.Line, f.Status))
	}
	return strings.Join(parts, ", ")
}

func origin(it *Item) string {
	if it.Detected {
		return "detected after the fact"
	}
	return "held by " + orDash(it.Agent)
}

func settled(it *Item) string {
	s := it.Settled
	if s == nil {
		return ""
	}
	verb := map[string]string{EventApprove: "approved", EventReject: "rejected", EventRun: "run by a human"}[s.Event]
	out := fmt.Sprintf("%s at %s", verb, stamp(s.Time))
	if s.Expires != nil {
		out += ", retry allowed until " + stamp(*s.Expires)
	}
	if it.UsedBy != nil {
		out += fmt.Sprintf("; retried at %s (event %d)", stamp(it.UsedBy.Time), it.UsedBy.Seq)
	}
	if s.Note != "" {
		out += ": " + s.Note
	}
	return out
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// ShortID is the first 8 characters of a session id, enough to tell
// sessions apart in a list.
func ShortID(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// OneLine folds a command onto one line and, when max > 0, cuts it to
// max runes with an ellipsis.
func OneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if max > 0 {
		if rs := []rune(s); len(rs) > max {
			return string(rs[:max-1]) + "…"
		}
	}
	return s
}
