package scan

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Report is the outcome of scanning several inputs, as printed by
// "airlock scan".
type Report struct {
	Results []*Result
	// Errors are inputs that could not be opened or read.
	Errors []InputError
	// QueueIDs holds the queue id the journal gave each recorded finding,
	// by result index and finding index.
	QueueIDs map[[2]int]string
	// Recorded reports whether the findings were handed to a recorder.
	Recorded bool
}

// InputError is an input that could not be read.
type InputError struct {
	Source string `json:"source"`
	Error  string `json:"error"`
}

// Findings counts the findings of every result.
func (r *Report) Findings() int {
	n := 0
	for _, res := range r.Results {
		n += len(res.Findings)
	}
	return n
}

// Record hands every finding to rec as a "ScanFinding" event, in order,
// and keeps the queue ids it gives back. session and story, when set,
// override what the inputs said. It stops at the first error: an event
// that may not have been kept.
func (r *Report) Record(rec vocab.Recorder, session, story string, now time.Time) error {
	r.Recorded = true
	for i, res := range r.Results {
		for j := range res.Findings {
			receipt, err := rec.Record(res.Findings[j].Event(session, story, now))
			if err != nil {
				return fmt.Errorf("recording the finding at %s:%d: %w", res.Source, res.Findings[j].Line, err)
			}
			if receipt.QueueID != "" {
				if r.QueueIDs == nil {
					r.QueueIDs = map[[2]int]string{}
				}
				r.QueueIDs[[2]int{i, j}] = receipt.QueueID
			}
		}
	}
	return nil
}

// statusOrder is the order findings are listed in: what ran first.
var statusOrder = []Status{Executed, NoResult, Denied, Mentioned}

// label renders what a finding does: the tier and flags of a shell
// command ("external+destructive"), the kind of any other action
// ("unknown-tool", "read", "fetch+netread").
func label(f *Finding) string {
	e := f.Verdict.Effect
	if f.Action.Kind == policy.Shell {
		return e.Label()
	}
	l := f.Action.Kind.String()
	if e.Destructive {
		l += "+destructive"
	}
	if e.NetworkRead {
		l += "+netread"
	}
	return l
}

// WriteText prints the report for a person: per input, its findings
// grouped by status, one line each with file:line, status, command, what
// it does and the rules behind it; then warnings and a total.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	counts := map[Status]int{}
	for i, res := range r.Results {
		fmt.Fprintf(&b, "%s (%s, %d lines): %s\n", res.Source, res.Format, res.Lines, plural(len(res.Findings), "finding"))
		for _, st := range statusOrder {
			for j := range res.Findings {
				f := &res.Findings[j]
				if f.Status != st {
					continue
				}
				counts[st]++
				fmt.Fprintf(&b, "  %s:%d: %s: %s", res.Source, f.Line, f.Status, oneLine(f.Command()))
				if strings.HasPrefix(f.Pattern, "output.") && f.Format == Text {
					b.WriteString(" (implied by its output)")
				}
				fmt.Fprintf(&b, " [%s", label(f))
				if rules := ruleList(f.Verdict.Reasons); rules != "" {
					b.WriteString("; " + rules)
				}
				b.WriteString("]")
				if id := r.QueueIDs[[2]int{i, j}]; id != "" {
					b.WriteString(" queue " + id)
				}
				b.WriteByte('\n')
				if ev := f.Evidence; ev != nil && ev.Text != "" && ev.Kind != "prompt" {
					fmt.Fprintf(&b, "      %s, line %d: %s\n", ev.Kind, ev.Line, oneLine(ev.Text))
				}
			}
		}
		for _, wn := range res.Warnings {
			fmt.Fprintf(&b, "  warning: %s:%d: %s\n", wn.Source, wn.Line, wn.Message)
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "error: %s: %s\n", e.Source, e.Error)
	}
	fmt.Fprintf(&b, "%d executed, %d without a result, %d denied, %d mentioned in %s",
		counts[Executed], counts[NoResult], counts[Denied], counts[Mentioned], plural(len(r.Results), "input"))
	if r.Recorded {
		b.WriteString("; recorded in the journal")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// ruleList names the distinct rules of the reasons.
func ruleList(rs []classify.Reason) string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r.Rule) {
			out = append(out, r.Rule)
		}
	}
	return strings.Join(out, ", ")
}

// oneLine keeps a command on one line of output, rendered
// (internal/render): escapes visible, long runs counted, the end kept.
func oneLine(s string) string { return render.Line(s, 200) }

// JSONVersion is the version of the JSON schema WriteJSON writes; it
// changes only when a field changes meaning or goes away.
const JSONVersion = 1

// jsonReport is the JSON form (docs/SCAN.md documents it).
type jsonReport struct {
	Version  int            `json:"version"`
	Inputs   []jsonInput    `json:"inputs"`
	Findings []jsonFinding  `json:"findings"`
	Warnings []Warning      `json:"warnings"`
	Errors   []InputError   `json:"errors"`
	Counts   map[Status]int `json:"counts"`
	Recorded bool           `json:"recorded"`
}

type jsonInput struct {
	Source   string `json:"source"`
	Format   Format `json:"format"`
	Bytes    int64  `json:"bytes"`
	Lines    int    `json:"lines"`
	Session  string `json:"session,omitempty"`
	Findings int    `json:"findings"`
}

type jsonFinding struct {
	Source      string            `json:"source"`
	Line        int               `json:"line"`
	Format      Format            `json:"format"`
	Status      Status            `json:"status"`
	Pattern     string            `json:"pattern"`
	Command     string            `json:"command"`
	Kind        string            `json:"kind"`
	Tool        string            `json:"tool,omitempty"`
	ToolUseID   string            `json:"tool_use_id,omitempty"`
	Session     string            `json:"session,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	Tier        classify.Tier     `json:"tier"`
	Destructive bool              `json:"destructive"`
	Opaque      bool              `json:"opaque"`
	NetworkRead bool              `json:"network_read"`
	Decision    policy.Decision   `json:"decision"`
	Rule        string            `json:"rule"`
	Reasons     []classify.Reason `json:"reasons"`
	Evidence    *Evidence         `json:"evidence,omitempty"`
	QueueID     string            `json:"queue_id,omitempty"`
}

// WriteJSON prints the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Version: JSONVersion, Inputs: []jsonInput{}, Findings: []jsonFinding{}, Warnings: []Warning{},
		Errors: r.Errors, Counts: map[Status]int{}, Recorded: r.Recorded}
	if out.Errors == nil {
		out.Errors = []InputError{}
	}
	for _, st := range statusOrder {
		out.Counts[st] = 0
	}
	for i, res := range r.Results {
		out.Inputs = append(out.Inputs, jsonInput{Source: res.Source, Format: res.Format, Bytes: res.Bytes, Lines: res.Lines, Session: res.Session, Findings: len(res.Findings)})
		out.Warnings = append(out.Warnings, res.Warnings...)
		for j := range res.Findings {
			f := &res.Findings[j]
			out.Counts[f.Status]++
			jf := jsonFinding{
				Source: f.Source, Line: f.Line, Format: f.Format, Status: f.Status, Pattern: f.Pattern,
				Command: f.Command(), Kind: f.Action.Kind.String(), Tool: f.Tool, ToolUseID: f.ToolUseID,
				Session: f.Session, Cwd: f.Cwd,
				Tier: f.Verdict.Effect.Tier, Destructive: f.Verdict.Effect.Destructive, Opaque: f.Verdict.Effect.Opaque,
				NetworkRead: f.Verdict.Effect.NetworkRead,
				Decision:    f.Verdict.Decision, Rule: f.Verdict.Rule, Reasons: f.Verdict.Reasons,
				Evidence: f.Evidence, QueueID: r.QueueIDs[[2]int{i, j}],
			}
			if jf.Reasons == nil {
				jf.Reasons = []classify.Reason{}
			}
			out.Findings = append(out.Findings, jf)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
