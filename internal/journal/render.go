package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/render"
)

// Formats a report can be written in.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Write renders the report in a format. Every text the agent controls
// (commands, paths, URLs, MCP arguments, reasons that quote them) goes
// through internal/render, in every format: a reviewer never reads a
// raw control, bidi or zero-width character, and the end of a command is
// always on screen.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case FormatJSON:
		return render.JSON(w, r)
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
		it.WriteText(&b)
	}
	r.refusedText(&b)
	r.snapshotsText(&b)
	r.runReviewsText(&b)
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

// WriteText writes one item in full, as the report and "airlock queue
// show" print it: its status and origin, what it would do (the command,
// or the MCP call with its arguments, or the file and an excerpt of what
// would be written), where, its effect and the rule that held it, and
// the reasons.
func (it *Item) WriteText(b *strings.Builder) {
	// The journal's own fields are rendered too: a line that did not come
	// from airlock must not reach the screen raw either.
	fmt.Fprintf(b, "[%s] %s, %s, %s\n", line(it.ID), line(string(it.Status)), origin(it), stamp(it.Time))
	if where := placeOf(it); where != "" {
		fmt.Fprintf(b, "  %s\n", where)
	}
	v := viewOf(it)
	for _, l := range v.body {
		b.WriteString("  " + l + "\n")
	}
	if it.Cwd != "" {
		fmt.Fprintf(b, "  in %s\n", render.Line(it.Cwd, 0))
	}
	fmt.Fprintf(b, "  effect %s; %s by %s\n", v.effect, line(orDash(it.Decision)), line(orDash(it.Rule)))
	for _, rs := range it.Reasons {
		fmt.Fprintf(b, "  - %s: %s\n", line(rs.Rule), render.Line(rs.Message, 1000))
	}
	if v.reason != "" {
		fmt.Fprintf(b, "  - %s\n", v.reason)
	}
	if files := ShownFiles(it.Entry); len(files) > 0 {
		b.WriteString("  an approval binds the files it runs, as read when held (a retry after any changes is held again):\n")
		for _, f := range files {
			b.WriteString("    " + f + "\n")
		}
	}
	if s := settled(it); s != "" {
		fmt.Fprintf(b, "  %s\n", s)
	}
}

func (r *Report) markdown() string {
	var b strings.Builder
	b.WriteString("# airlock session report\n\n")
	r.header(&b, "**", "- ")
	for _, it := range r.Items {
		v := viewOf(it)
		fmt.Fprintf(&b, "\n## %s %s\n\n", render.MarkdownCode(it.ID, 100), mdEscape(line(string(it.Status))))
		fmt.Fprintf(&b, "- %s, %s\n", origin(it), stamp(it.Time))
		if where := placeOf(it); where != "" {
			fmt.Fprintf(&b, "- %s\n", mdEscape(where))
		}
		if it.Cwd != "" {
			fmt.Fprintf(&b, "- directory: %s\n", render.MarkdownCode(it.Cwd, 0))
		}
		fmt.Fprintf(&b, "- effect %s; %s by %s\n", render.CodeSpan(v.effect), mdEscape(line(orDash(it.Decision))), render.MarkdownCode(orDash(it.Rule), 0))
		for _, rs := range it.Reasons {
			fmt.Fprintf(&b, "- %s: %s\n", render.MarkdownCode(rs.Rule, 0), render.MarkdownText(rs.Message, 1000))
		}
		if v.reason != "" {
			fmt.Fprintf(&b, "- %s\n", mdEscape(v.reason))
		}
		if files := ShownFiles(it.Entry); len(files) > 0 {
			b.WriteString("- an approval binds the files it runs, as read when held:\n")
			for _, f := range files {
				b.WriteString("  - " + render.CodeSpan(f) + "\n")
			}
		}
		if s := settled(it); s != "" {
			fmt.Fprintf(&b, "- %s\n", mdEscape(s))
		}
		if v.title != "" {
			fmt.Fprintf(&b, "\n%s\n", mdEscape(v.title))
		}
		b.WriteString("\n" + render.MarkdownBlock(v.block, v.info))
	}
	r.refusedMarkdown(&b)
	r.snapshotsMarkdown(&b)
	r.runReviewsMarkdown(&b)
	b.WriteString("\n## Counts\n\n")
	b.WriteString(r.countsLine() + "\n")
	if len(r.TopRules) > 0 {
		b.WriteString("\nRules that fired most: " + mdEscape(r.rulesLine()) + "\n")
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
		fmt.Fprintf(b, "%s held for review.\n", countOf(ext, "external action", "external actions"))
	}
	if other := len(r.Review) - ext; other > 0 {
		fmt.Fprintf(b, "%s held for review.\n", countOf(other, "other action", "other actions"))
	}
	if strong != "" {
		b.WriteString("\n")
	}
	for _, it := range r.Review {
		// "Story #ID [TIME, EFFECT, QUEUE ID]: WHAT" (docs/LOOP.md).
		s := fmt.Sprintf("%s [%s, %s, %s]: ", label(it), stamp(it.Time), Effect(it), line(it.ID))
		if strong != "" {
			s = mdEscape(s) + render.CodeSpan(What(it, 100))
		} else {
			s += What(it, 100)
		}
		b.WriteString(bullet + s + "\n")
	}
}

// refusedText lists the calls refused or asked about and not queued.
// snapshotsText lists the snapshots taken in scope, each with the
// command that ran after it and the undo that restores it.
func (r *Report) snapshotsText(b *strings.Builder) {
	if len(r.Snapshots) == 0 {
		return
	}
	b.WriteString("\nSnapshots taken before destruction (restore with the command shown):\n")
	for _, s := range r.Snapshots {
		b.WriteString("  [" + stamp(s.Time) + "] " + line(s.ID) + " before " + render.Line(s.Command, 100) + ": " + line(s.Undo) + "\n")
	}
}

func (r *Report) snapshotsMarkdown(b *strings.Builder) {
	if len(r.Snapshots) == 0 {
		return
	}
	b.WriteString("\n## Snapshots taken before destruction\n\n")
	for _, s := range r.Snapshots {
		b.WriteString("- " + mdEscape("["+stamp(s.Time)+"] "+s.ID+" before ") + render.CodeSpan(render.Line(s.Command, 100)) + ": " + render.CodeSpan(s.Undo) + "\n")
	}
}

// runReviewsText lists what the reviews after contained runs set aside
// or named: each line as the runner wrote it (its paths clipped there).
func (r *Report) runReviewsText(b *strings.Builder) {
	if len(r.RunReviews) == 0 {
		return
	}
	b.WriteString("\nFiles contained runs made that run code outside (set aside, or to review):\n")
	for _, v := range r.RunReviews {
		b.WriteString("  [" + stamp(v.Time) + "] " + render.Line(v.Project, 200) + "\n")
		for _, l := range strings.Split(strings.TrimSpace(v.Note), "\n") {
			b.WriteString("    " + render.Line(l, 1000) + "\n")
		}
	}
}

func (r *Report) runReviewsMarkdown(b *strings.Builder) {
	if len(r.RunReviews) == 0 {
		return
	}
	b.WriteString("\n## Files contained runs made that run code outside\n\n")
	for _, v := range r.RunReviews {
		b.WriteString("- " + mdEscape("["+stamp(v.Time)+"] ") + render.CodeSpan(render.Line(v.Project, 200)) + "\n")
		for _, l := range strings.Split(strings.TrimSpace(v.Note), "\n") {
			b.WriteString("  - " + mdEscape(render.Line(l, 1000)) + "\n")
		}
	}
}

func (r *Report) refusedText(b *strings.Builder) {
	if len(r.Refused) == 0 {
		return
	}
	b.WriteString("\nAsked and denied (not queued):\n")
	for _, e := range r.Refused {
		b.WriteString("  " + refusedLine(e) + "\n")
	}
}

func (r *Report) refusedMarkdown(b *strings.Builder) {
	if len(r.Refused) == 0 {
		return
	}
	b.WriteString("\n## Asked and denied (not queued)\n\n")
	for _, e := range r.Refused {
		it := &Item{Entry: e}
		s := mdEscape(fmt.Sprintf("[%s] %s by %s, effect %s: ", stamp(e.Time), line(e.Decision), line(orDash(e.Rule)), Effect(it))) + render.CodeSpan(What(it, 100))
		if why := whyOf(e); why != "" {
			s += " (" + mdEscape(why) + ")"
		}
		b.WriteString("- " + s + "\n")
	}
}

// refusedLine is one refused call: when, the decision and rule, what and
// why.
func refusedLine(e *Entry) string {
	it := &Item{Entry: e}
	s := fmt.Sprintf("[%s] %s by %s, effect %s: %s", stamp(e.Time), line(e.Decision), line(orDash(e.Rule)), Effect(it), What(it, 100))
	if why := whyOf(e); why != "" {
		s += " (" + why + ")"
	}
	return s
}

// whyOf is the first reason of a decision, rendered.
func whyOf(e *Entry) string {
	switch {
	case e.Message != "":
		return render.Line(e.Message, 200)
	case len(e.Reasons) > 0:
		return render.Line(e.Reasons[0].Message, 200)
	}
	return ""
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
		parts[i] = fmt.Sprintf("%s ×%d", line(rc.Rule), rc.Count)
	}
	return strings.Join(parts, ", ")
}

// label names where an item came from: its story when in a loop, else
// its session.
func label(it *Item) string {
	switch {
	case it.Story != "":
		return "Story #" + line(it.Story)
	case it.Session != "":
		return "Session " + line(ShortID(it.Session))
	}
	return "Unknown session"
}

func placeOf(it *Item) string {
	var parts []string
	if it.Story != "" {
		parts = append(parts, "story "+line(it.Story))
	}
	if it.Session != "" {
		parts = append(parts, "session "+line(it.Session))
	}
	if f := it.Finding; f != nil {
		parts = append(parts, fmt.Sprintf("seen at %s:%d (%s)", line(f.Source), f.Line, line(f.Status)))
	}
	return strings.Join(parts, ", ")
}

func origin(it *Item) string {
	if it.Detected {
		return "detected after the fact"
	}
	return "held by " + line(orDash(it.Agent))
}

func settled(it *Item) string {
	s := it.Settled
	if s == nil {
		return ""
	}
	verb := map[string]string{EventApprove: "approved", EventReject: "rejected", EventRun: "run by a human"}[s.Event]
	out := fmt.Sprintf("%s at %s", verb, stamp(s.Time))
	if t := s.Team; t != nil {
		out += fmt.Sprintf(" by %s (team decision %s)", line(t.Reviewer), line(t.DecisionID))
	}
	if s.Expires != nil {
		out += ", retry allowed until " + stamp(*s.Expires)
	}
	if it.UsedBy != nil {
		out += fmt.Sprintf("; retried at %s (event %d)", stamp(it.UsedBy.Time), it.UsedBy.Seq)
	}
	if s.Note != "" {
		out += ": " + render.Line(s.Note, 500)
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

// line renders a short field (an id, a rule, a session) for one line.
func line(s string) string { return render.Line(s, 200) }

// mdEscape escapes what is already rendered for a terminal so that
// Markdown shows it as it is.
func mdEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_[]<>&~|", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// OneLine renders a command on one line for a list, at most max bytes
// (about; render.LineMax when max <= 0), with controls, invisible runes
// and line breaks escaped and long runs counted (internal/render).
func OneLine(s string, max int) string { return render.Line(s, max) }

// What is the item's action on one line, for lists: the command, the MCP
// call with its arguments, the tool with its path or URL; never blank.
func What(it *Item, max int) string { return viewOf(it).one(max) }

// Effect is the item's effect label for a reviewer. An MCP call carries
// its configured tool class beside it, since the policy's effect of an
// MCP tool says nothing about what the tool does.
func Effect(it *Item) string { return viewOf(it).effect }

// view is what a reviewer is shown of one item, rendered. Every line of
// text the agent wrote starts with a gutter: "$ " then "> " (as a shell
// prompts) for a command, "| " for arguments and content. Only airlock's
// own lines start without one, so a line inside a command cannot pass
// for airlock's "effect" or "in" line.
type view struct {
	// kind is "shell", "mcp", "write", "read", "fetch", "unknown" (a tool
	// airlock cannot read, shown by its input) or "empty":
	// nothing reviewable was recorded.
	kind string
	// title names the action for a block (Markdown puts it above the
	// code block).
	title string
	// body are the text lines (each rendered), block the lines for a
	// Markdown code block with info its info string.
	body, block []string
	info        string
	effect      string
	// reason is the MCP firewall's own reason, when it adds one.
	reason string
	// short is the one-line summary before bounding.
	short string
}

// mcpDetail is the part of the MCP firewall's journal record
// (internal/mcp/guard.Detail) a reviewer reads, and of the excerpt the
// Claude Code hook records for a held Write or Edit.
type mcpDetail struct {
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	Class      string          `json:"class"`
	Phase      string          `json:"phase"`
	Reason     string          `json:"reason"`
	Args       json.RawMessage `json:"args"`
	Recipients []string        `json:"recipients"`
	Channel    string          `json:"channel"`
	Answer     string          `json:"answer"`
	// Excerpt and Bytes are a held write's content: its first bytes and
	// its length (internal/agent/claudecode).
	Excerpt string `json:"excerpt"`
	Bytes   int    `json:"bytes"`
}

// Limits of what an item shows.
const (
	showCommand = 4000
	showLines   = 60
	showArgs    = 2000
	showExcerpt = 1500
)

func viewOf(it *Item) view {
	v := view{effect: line(orDash(it.Effect))}
	var d mcpDetail
	if len(it.Detail) > 0 {
		_ = json.Unmarshal(it.Detail, &d)
	}
	switch {
	case d.Server != "" || d.Tool != "":
		v.kind, v.info = "mcp", "text"
		class := d.Class
		if class == "" {
			class = "unknown"
		}
		// The policy's effect of an MCP tool is "local" unless a rule said
		// otherwise; what the tool does is its configured class.
		v.effect = "MCP " + line(class) + " tool"
		if it.Effect != "" && it.Effect != "local" {
			v.effect = line(it.Effect) + " (" + v.effect + ")"
		}
		v.title = fmt.Sprintf("MCP call: server %s, tool %s", line(d.Server), line(d.Tool))
		args := string(d.Args)
		if args == "" {
			args = "(no arguments recorded)"
		}
		v.body = append(v.body, v.title)
		if len(d.Recipients) > 0 {
			v.body = append(v.body, "to: "+line(strings.Join(d.Recipients, ", ")))
		}
		v.block = argLines(d.Args)
		v.body = append(v.body, "arguments (redacted as configured):")
		for _, l := range v.block {
			v.body = append(v.body, "| "+l)
		}
		v.short = "MCP " + d.Server + "/" + d.Tool + " " + args
		if d.Reason != "" && !saysAlready(it, d.Reason) {
			v.reason = "MCP firewall: " + render.Line(d.Reason, 1000)
		}
	case it.Command != "":
		v.kind, v.info = "shell", "sh"
		lines, _ := render.Block(it.Command, render.Limits{Bytes: showCommand, Lines: showLines})
		v.block = lines
		for i, l := range lines {
			if i == 0 {
				v.body = append(v.body, "$ "+l)
			} else {
				v.body = append(v.body, "> "+l)
			}
		}
		v.short = it.Command
	case len(it.Paths) > 0:
		v.kind = "read"
		if it.Kind == "write" {
			v.kind = "write"
		}
		paths := make([]string, len(it.Paths))
		for i, p := range it.Paths {
			paths[i] = render.Line(p, 500)
		}
		v.title = line(orDash(it.Tool)) + " " + strings.Join(paths, " ")
		v.body = append(v.body, v.title)
		v.short = it.Tool + " " + strings.Join(it.Paths, " ")
		if d.Excerpt != "" || d.Bytes > 0 {
			lines, hidden := render.Block(d.Excerpt, render.Limits{Bytes: showExcerpt, Lines: 30})
			more := d.Bytes - len(d.Excerpt) + hidden
			head := "content (" + strconv.Itoa(d.Bytes) + " bytes)"
			if more > 0 {
				head += ", first part:"
			} else {
				head += ":"
			}
			v.body = append(v.body, head)
			for _, l := range lines {
				v.body = append(v.body, "| "+l)
			}
			if more > 0 {
				v.body = append(v.body, "⟨"+strconv.Itoa(more)+" more bytes not shown⟩")
			}
			v.block = lines
		} else {
			v.block = paths
		}
	case it.URL != "":
		v.kind = "fetch"
		v.title = line(orDash(it.Tool)) + " " + render.Line(it.URL, 1000)
		v.body = []string{v.title}
		v.block = []string{render.Line(it.URL, 1000)}
		v.short = it.Tool + " " + it.URL
	case len(it.Input) > 0:
		// A tool airlock cannot read: its effect is unknown, whatever the
		// policy's "local" default for a tool says, and what it was given
		// is all the human can review.
		v.kind, v.info = "unknown", "text"
		v.effect = "unknown (airlock cannot read what " + line(orDash(it.Tool)) + " does)"
		v.title = "tool " + line(orDash(it.Tool)) + " (unknown to airlock), input:"
		v.body = []string{v.title}
		lines := argLines(it.Input)
		for _, l := range lines {
			v.body = append(v.body, "| "+l)
		}
		v.block = lines
		v.short = it.Tool + " " + render.Line(string(it.Input), 200)
	default:
		v.kind = "empty"
		v.title = "⟨NOTHING TO REVIEW: airlock recorded no command, path, URL or MCP call for this " + line(orDash(it.Tool)) + " item; do not approve what you cannot see⟩"
		v.body = []string{v.title}
		v.block = []string{"(nothing recorded)"}
	}
	return v
}

// saysAlready reports whether the item's message or reasons already say
// text.
func saysAlready(it *Item, text string) bool {
	if it.Message == text {
		return true
	}
	for _, r := range it.Reasons {
		if r.Message == text {
			return true
		}
	}
	return false
}

// argLines shows an MCP call's arguments one per line, "name: value",
// names sorted: a string value decoded and rendered (so that an escape
// in it reads as one escape), any other value as compact JSON, rendered.
// Arguments that are not a JSON object are shown rendered as they are.
func argLines(raw json.RawMessage) []string {
	var args map[string]json.RawMessage
	if len(raw) == 0 {
		return []string{"(no arguments recorded)"}
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return []string{render.Line(string(raw), showArgs)}
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, k := range names {
		var s string
		if err := json.Unmarshal(args[k], &s); err != nil {
			s = string(args[k])
		}
		out = append(out, render.Line(k, 100)+": "+render.Line(s, showArgs))
	}
	if len(out) == 0 {
		out = append(out, "(none)")
	}
	return out
}

// one is the view on one line, at most about max bytes.
func (v view) one(max int) string {
	if v.kind == "empty" {
		return v.title
	}
	return render.Line(v.short, max)
}

// ShowLimits bound a command as an item shows it in full; "airlock queue
// run" runs only what fits, since it runs only what the human saw.
var ShowLimits = render.Limits{Bytes: showCommand, Lines: showLines}

// countOf spells a count with its singular or plural noun: "1 story",
// "2 stories".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
