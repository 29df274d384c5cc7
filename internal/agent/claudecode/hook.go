package claudecode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Name is the adapter's name in events and on the command line.
const Name = "claude-code"

// ExitBlock is the exit status with which Claude Code blocks a tool call
// and shows standard error to the model (agent-hooks.md §1.7).
const ExitBlock = 2

// Hook answers Claude Code hook events.
type Hook struct {
	// Policy loads the policy in effect for a working directory. It is
	// called only for the events that need it, so a Stop or PostToolUse
	// never reads a policy file (except that Gate may ask for it on the
	// PostToolUse and UserPromptSubmit events it keeps evidence from).
	Policy func(cwd string) (*policy.Policy, error)
	// Gate, when set, judges the tool calls the policy allowed and
	// observes what the agent reads, searches and is told (the
	// fact-forcing gate, internal/gate). It can only refuse.
	Gate Gate
	// Recorder keeps every event; it is called before the answer is
	// written.
	Recorder vocab.Recorder
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Story is the loop runner's story id for this agent process
	// (AIRLOCK_STORY), recorded with every event.
	Story string
	// Getenv reads the hook's environment, where Claude Code says whether
	// a human attends the session (see NoHuman). Nil means nobody does.
	Getenv func(string) string
	// Report returns the end-of-session report of a session when
	// anything in it awaits review, and "" otherwise. Stop and SessionEnd
	// show it to the user.
	Report func(session string) (string, error)
	// Snapshot, when set, is the pipeline's snapshot stage (see
	// pipeline.Pipeline.Snapshot).
	Snapshot pipeline.SnapshotStage
	// Caller is the hook process the event came from (see
	// pipeline.Pipeline.Caller); the zero value is this process.
	Caller pipeline.Caller
	// Contained is the entry point's fact that a call runs in a sandbox
	// (see pipeline.Pipeline.Contained); nil: never.
	Contained func(*pipeline.Request) bool
}

// Gate is the fact-forcing gate, a stage of the decision pipeline.
type Gate = pipeline.Gate

// Run reads one event from stdin, answers it on stdout and returns the
// exit status. expect is the event the hook was installed for, or "" when
// it was not told: it decides how a malformed input fails, since the
// event name inside it cannot be trusted or even read.
//
// A PreToolUse that cannot be read or decided is blocked (exit 2, the
// reason on stderr): external fails closed. Other events cannot block a
// tool, and blocking some of them would do harm (exit 2 erases a user's
// prompt or keeps a stopping agent going), so their failures exit 0.
//
// A panic while deciding is answered like an input that cannot be read:
// a PreToolUse (or an event not named) is blocked with exit 2, never left
// to the runtime's own crash, whose status an agent may read as a pass.
func (h *Hook) Run(expect string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			code = h.failed(expect, fmt.Errorf("internal error: %v", p), stderr)
		}
	}()
	data, err := io.ReadAll(io.LimitReader(stdin, MaxInput+1))
	if err != nil {
		return h.failed(expect, fmt.Errorf("reading standard input: %w", err), stderr)
	}
	in, err := Decode(data)
	if err != nil {
		event := expect
		var ie *InputError
		if event == "" && errors.As(err, &ie) {
			event = ie.Event
		}
		return h.failed(event, err, stderr)
	}
	if expect != "" && in.HookEventName != expect {
		return h.failed(expect, &InputError{Event: in.HookEventName, Err: ErrMalformed, Detail: "installed for " + expect}, stderr)
	}
	switch in.HookEventName {
	case "PreToolUse":
		return h.preToolUse(in, stdout, stderr)
	case "SessionStart":
		return h.sessionStart(in, stdout, stderr)
	case "Stop", "SessionEnd":
		return h.stop(in, stdout, stderr)
	}
	// PostToolUse and UserPromptSubmit feed the gate; the rest are kept.
	h.observe(in, stderr)
	return 0
}

// failed reports an input that cannot be answered normally.
func (h *Hook) failed(event string, err error, stderr io.Writer) int {
	fmt.Fprintf(stderr, "airlock: error: claude-code hook: %v\n", err)
	if event == "PreToolUse" || event == "" {
		fmt.Fprintln(stderr, "airlock: this tool call is blocked because airlock could not read it (it fails closed). Do not retry it; tell the human that the airlock hook reported an error.")
		return ExitBlock
	}
	return 0
}

func (h *Hook) preToolUse(in *Input, stdout, stderr io.Writer) int {
	a, err := ToAction(in)
	if err != nil {
		return h.failed(in.HookEventName, err, stderr)
	}
	r := h.request(in)
	r.Action, r.NoHuman = a, NoHuman(in, h.Getenv)
	o := h.pipeline().Decide(r)
	for _, w := range o.Warnings {
		fmt.Fprintln(stderr, w)
	}
	if o.Retry != "" {
		return write(stdout, stderr, gateReply(&o.Action, &o.Verdict, o.Retry))
	}
	return write(stdout, stderr, Reply(&o.Action, &o.Verdict, o.Receipt))
}

// gateReply answers a call the fact-forcing gate refused. Unlike other
// denials it asks the agent to retry, after presenting the facts the
// reason lists: the retry passes.
func gateReply(a *policy.Action, v *policy.Verdict, reason string) *Output {
	return &Output{
		SystemMessage: clip(fmt.Sprintf("airlock %s (%s mode, %s): %s: %s", v.Decision, v.Mode, render.Line(v.Rule, 200), describe(a), render.Line(v.Message, 2000))),
		HookSpecificOutput: &SpecificOutput{HookEventName: "PreToolUse", PermissionDecision: "deny",
			PermissionDecisionReason: clip(reason)},
	}
}

func (h *Hook) sessionStart(in *Input, stdout, stderr io.Writer) int {
	out := &Output{HookSpecificOutput: &SpecificOutput{HookEventName: "SessionStart"}}
	if p, err := h.Policy(in.Cwd); err != nil {
		fmt.Fprintf(stderr, "airlock: error: %v\n", err)
		out.SystemMessage = clip("airlock: the policy could not be loaded, so every tool call will be refused: " + render.Line(err.Error(), 2000))
		out.HookSpecificOutput.AdditionalContext = "airlock guards this session, but its policy has an error, so it refuses every tool call until the human fixes it. Tell the human."
	} else {
		out.HookSpecificOutput.AdditionalContext = SessionContext(p)
		if t := p.Table(p.Mode); NoHuman(in, h.Getenv) && (t.Shared == policy.Ask || t.External == policy.Ask ||
			t.Destructive == policy.Ask || t.Opaque == policy.Ask || t.Unknown == policy.Ask) {
			// The same reading as each PreToolUse's, said up front so the
			// agent is not told "a human confirms" when none can.
			out.HookSpecificOutput.AdditionalContext += " Nobody can answer a prompt in this session, so whatever would be asked about is held for human review instead, with a queue id."
		}
	}
	h.observe(in, stderr)
	return write(stdout, stderr, out)
}

// stop records the end of a turn or session and shows the user what awaits
// review. It never blocks: exit 2 on Stop would keep the agent going.
func (h *Hook) stop(in *Input, stdout, stderr io.Writer) int {
	h.observe(in, stderr)
	if h.Report == nil || in.SessionID == "" {
		return 0
	}
	text, err := h.Report(in.SessionID)
	if err != nil {
		fmt.Fprintf(stderr, "airlock: error: the session report: %v\n", err)
		return 0
	}
	if text == "" {
		return 0
	}
	// The report renders what the agent wrote already; escaping what is
	// left on each line keeps a Report that did not from reaching the
	// screen raw.
	write(stdout, stderr, &Output{SystemMessage: clip(renderLines(text))})
	return 0
}

// renderLines renders each line of a multi-line text on its own.
func renderLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if render.Unclean(l) >= 0 {
			lines[i] = render.Line(l, maxText)
		}
	}
	return strings.Join(lines, "\n")
}

// excerptMax is how much of a held write's content the journal keeps
// for a reviewer (the pipeline makes the excerpt).
const excerptMax = pipeline.ExcerptMax

// request translates a decoded event into the pipeline's vocabulary.
func (h *Hook) request(in *Input) *pipeline.Request {
	return &pipeline.Request{
		Agent: Name, Event: in.HookEventName, Session: in.SessionID, Cwd: in.Cwd,
		Tool: in.ToolName, ToolUseID: in.ToolUseID, Story: h.Story,
		Transcript: in.TranscriptPath, Subagent: in.AgentID, Prompt: in.Prompt,
		Input: in.ToolInput, Raw: in.Raw,
	}
}

// pipeline is the decision pipeline the hook's fields make up.
func (h *Hook) pipeline() *pipeline.Pipeline {
	return &pipeline.Pipeline{Policy: h.Policy, Recorder: h.Recorder, Gate: h.Gate, Snapshot: h.Snapshot, Now: h.Now, Caller: h.Caller, Contained: h.Contained}
}

// observe records a lifecycle event, printing the pipeline's warnings.
func (h *Hook) observe(in *Input, stderr io.Writer) {
	for _, w := range h.pipeline().Observe(h.request(in)) {
		fmt.Fprintln(stderr, w)
	}
}

// write prints the reply; a reply that cannot be written blocks.
func write(stdout, stderr io.Writer, out *Output) int {
	if out == nil {
		return 0
	}
	// Commands are full of && and >, which are clearer unescaped.
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "airlock: error: writing the hook reply: %v\n", err)
		return ExitBlock
	}
	return 0
}
