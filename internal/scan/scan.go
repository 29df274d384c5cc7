package scan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Format is the shape of an input.
type Format int8

// The formats the scanner reads.
const (
	// Text is anything that is not one of the JSON formats.
	Text Format = iota
	// StreamJSON is "claude -p --output-format stream-json --verbose".
	StreamJSON
	// Transcript is a Claude Code session transcript (JSON lines).
	Transcript
	// CodexJSON is "codex exec --json".
	CodexJSON
	// GeminiJSON is "gemini -o stream-json".
	GeminiJSON
	// CopilotJSON is "copilot --output-format json".
	CopilotJSON
	// OpenCodeJSON is "opencode run --format json".
	OpenCodeJSON
)

var formatNames = [...]string{"text", "stream-json", "transcript", "codex-json", "gemini-stream-json", "copilot-json", "opencode-json"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("format(%d)", int8(f))
}

// MarshalText renders the format name.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Status says whether a finding ran.
type Status string

// The statuses of a finding.
const (
	// Executed: a tool call that ran (its result is not a refusal), or
	// text that shows the command ran (a prompt, a trace, its output).
	Executed Status = "executed"
	// Denied: a tool call that a hook or a permission rule refused.
	Denied Status = "denied"
	// NoResult: a tool call whose result is not in the input (the session
	// was cut short, or the input is partial); it may have run.
	NoResult Status = "no-result"
	// Mentioned: text that names the action without showing it ran.
	Mentioned Status = "mentioned"
)

// Evidence is what decided a finding's status.
type Evidence struct {
	// Line is the input line it was seen on.
	Line int `json:"line"`
	// Kind is "prompt", "trace", "output" (plain text), "result",
	// "denial" (structured input).
	Kind string `json:"kind"`
	// Text is the line or message, clipped.
	Text string `json:"text,omitempty"`
}

// Finding is one outward or destructive action found in an input.
type Finding struct {
	Source string
	// Line is the 1-based input line of the command (of the tool_use, for
	// structured input).
	Line   int
	Format Format
	Status Status
	// Pattern names the scanner rule: "text.<family>" for a command in
	// plain text, "output.<command>" for a program's output seen without
	// its command, "tool.<tool>" for a tool call.
	Pattern string
	// Tool and ToolUseID identify the tool call (structured input).
	Tool, ToolUseID string
	// Session and Cwd come from the input, when it says.
	Session, Cwd string
	// Action is what was done, as the hooks would have seen it; Verdict is
	// what the policy decides for it, with tier, flags and reasons.
	Action  policy.Action
	Verdict policy.Verdict
	// Evidence is what decided Status, when something did.
	Evidence *Evidence
}

// Command is the finding's command for display: the shell text, or the
// tool and its target for other tools.
func (f *Finding) Command() string {
	a := &f.Action
	switch {
	case a.Command != "":
		return a.Command
	case a.URL != "":
		return a.Tool + " " + a.URL
	case len(a.Paths) > 0:
		return a.Tool + " " + strings.Join(a.Paths, " ")
	}
	return a.Tool
}

// Event is the journal's record of the finding: a "ScanFinding" event
// from the "scan" agent that carries the action, the built-in verdict
// (tier, flags, reasons) and where the finding was seen. session and
// story, when not empty, override what the input said.
func (f *Finding) Event(session, story string, now time.Time) *vocab.Event {
	if session == "" {
		session = f.Session
	}
	a, v := f.Action, f.Verdict
	return &vocab.Event{
		Time: now, Agent: "scan", Name: "ScanFinding",
		Session: session, Story: story, Cwd: f.Cwd,
		Tool: f.Tool, ToolUseID: f.ToolUseID,
		Action: &a, Verdict: v.Record(),
		Finding: &vocab.Finding{Source: f.Source, Line: f.Line, Status: string(f.Status), Pattern: f.Pattern},
	}
}

// Warning is something the scanner could not read as it wanted, and what
// it did instead. Nothing is skipped silently.
type Warning struct {
	Source  string `json:"source"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Result is what scanning one input found.
type Result struct {
	Source   string
	Format   Format
	Bytes    int64
	Lines    int
	Session  string
	Findings []Finding
	Warnings []Warning
}

// DefaultMaxLine is the longest line read whole. A transcript line holds a
// whole tool result (a file read, an image), so it is generous.
const DefaultMaxLine = 64 << 20

// Scanner scans inputs. The zero value is ready to use. A Scanner keeps a
// cache of verdicts across inputs and is not safe for concurrent use.
type Scanner struct {
	// Policy decides the actions found, in its own mode; nil means the
	// built-in policy (policy.Defaults, interactive).
	Policy *policy.Policy
	// MaxLine bounds the bytes of one line read whole; 0 means
	// DefaultMaxLine. A longer line is scanned as plain text in pieces of
	// MaxLine bytes, and a warning says so.
	MaxLine int

	verdicts map[string]*policy.Verdict
}

// ErrRead wraps a failure to read an input.
var ErrRead = errors.New("reading input")

// Scan reads one input to its end. source names it in findings ("-" for
// standard input). The error is set only when the input could not be
// read; what was found up to then is returned with it.
func (s *Scanner) Scan(r io.Reader, source string) (*Result, error) {
	if s.Policy == nil {
		s.Policy = policy.Defaults()
	}
	if s.MaxLine <= 0 {
		s.MaxLine = DefaultMaxLine
	}
	br := bufio.NewReaderSize(r, readBuffer)
	format, err := detect(br)
	res := &Result{Source: source, Format: format}
	if err != nil {
		return res, fmt.Errorf("%w %s: %w", ErrRead, source, err)
	}
	if res.Format == Text {
		blocks := &blockReader{r: br, max: s.MaxLine}
		err = s.scanText(blocks, res)
		res.Bytes = blocks.bytes
	} else {
		lr := &lineReader{r: br, max: s.MaxLine}
		err = s.scanJSON(lr, res)
		res.Bytes, res.Lines = lr.bytes, lr.n
	}
	// Structured findings are made at the end, text ones on the way.
	slices.SortStableFunc(res.Findings, func(a, b Finding) int { return a.Line - b.Line })
	if err != nil {
		return res, fmt.Errorf("%w %s: %w", ErrRead, source, err)
	}
	return res, nil
}

// decide returns the policy's verdict on shell text, from a cache: logs
// repeat the same commands.
func (s *Scanner) decide(text string) *policy.Verdict {
	if v, ok := s.verdicts[text]; ok {
		return v
	}
	if s.verdicts == nil || len(s.verdicts) >= 1<<14 {
		s.verdicts = make(map[string]*policy.Verdict, 256)
	}
	v := s.Policy.Decide(policy.Action{Kind: policy.Shell, Command: text})
	s.verdicts[text] = &v
	return &v
}

// heldText reports whether plain text's effect is worth a finding: it
// reaches outside or destroys data. Opaque text alone is not, in prose:
// "git is great" is an unknown git subcommand.
func heldText(e *classify.Effect) bool {
	return e.Tier == classify.External || e.Destructive
}

// clip shortens a line for evidence and messages.
func clip(s string) string {
	const max = 160
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
