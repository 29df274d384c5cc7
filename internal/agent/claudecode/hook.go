package claudecode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
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
	Recorder agent.Recorder
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
	// Snapshot, when set, takes the snapshot a verdict asks for before
	// destruction inside the project is allowed, and returns its id and a
	// line describing it. Without it, such destruction gets the
	// destructive row: nothing destructive runs without a snapshot.
	Snapshot func(a *policy.Action, plan *policy.SnapshotPlan, session string) (id, what string, err error)
	// mcpDetail is the MCP firewall's record of an mcp__ tool call
	// (internal/mcp/guard), for the journal.
	mcpDetail json.RawMessage
}

// Gate is a check after the policy: the fact-forcing gate.
type Gate interface {
	// Pre sees a tool call the policy allowed or warned about, with the
	// policy in effect. When it refuses the call it has set v to a deny
	// with a "gate.<kind>" rule and returns the reason for the agent: the
	// facts to present before a retry, which will pass. warning is for
	// standard error.
	Pre(p *policy.Policy, in *Input, a *policy.Action, v *policy.Verdict) (reason, warning string)
	// Observe sees PostToolUse and UserPromptSubmit events; load returns
	// the policy in effect and is called only when the gate needs it. It
	// returns a warning for standard error.
	Observe(in *Input, load func() (*policy.Policy, error)) (warning string)
}

// Run reads one event from stdin, answers it on stdout and returns the
// exit status. expect is the event the hook was installed for, or "" when
// it was not told: it decides how a malformed input fails, since the
// event name inside it cannot be trusted or even read.
//
// A PreToolUse that cannot be read or decided is blocked (exit 2, the
// reason on stderr): external fails closed. Other events cannot block a
// tool, and blocking some of them would do harm (exit 2 erases a user's
// prompt or keeps a stopping agent going), so their failures exit 0.
func (h *Hook) Run(expect string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	case "PostToolUse", "UserPromptSubmit":
		if h.Gate != nil {
			if w := h.Gate.Observe(in, func() (*policy.Policy, error) { return h.Policy(in.Cwd) }); w != "" {
				fmt.Fprintln(stderr, w)
			}
		}
	}
	if _, err := h.record(in, nil, nil); err != nil {
		fmt.Fprintf(stderr, "airlock: error: recording %s: %v\n", in.HookEventName, err)
	}
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
	a.NoHuman = NoHuman(in, h.Getenv)
	a.Snapshots = h.Snapshot != nil
	var v policy.Verdict
	var gateReason string
	p, err := h.Policy(in.Cwd)
	if err != nil {
		fmt.Fprintf(stderr, "airlock: error: %v\n", err)
		v = policy.Verdict{Decision: policy.Deny, Rule: "policy.error",
			Message: "airlock's policy could not be loaded (" + err.Error() + "), so every tool call is refused until a human fixes it (airlock policy check)"}
	} else {
		v = p.Decide(a)
		h.mcpDetail = guard.ForHook(h.Recorder, h.Now, p, in.ToolName, in.ToolInput, &v)
		// The MCP firewall replaces the verdict; it holds the same way.
		policy.NoHumanToAsk(&a, &v)
		if h.Gate != nil && !v.Decision.Holds() {
			var warning string
			gateReason, warning = h.Gate.Pre(p, in, &a, &v)
			if warning != "" {
				fmt.Fprintln(stderr, warning)
			}
		}
		if v.Snapshot != nil && !v.Decision.Holds() {
			h.takeSnapshot(p, in, &a, &v)
		}
	}
	if v.Decision.Holds() && a.Kind == policy.Write && h.mcpDetail == nil {
		// A held write shows the reviewer what it would have written.
		h.mcpDetail = writeExcerpt(in.ToolInput)
	}
	receipt, err := h.record(in, &a, &v)
	if err != nil {
		fmt.Fprintf(stderr, "airlock: error: recording the decision: %v\n", err)
		// Nothing is lost (invariant 4): what cannot be recorded does not
		// run, and a hold that cannot be recorded is not queued, so the
		// reply must not say it was.
		v.Decision, v.Rule = policy.Deny, "journal.error"
		v.Message = "airlock could not write its journal (" + err.Error() + "), so this action is refused and NOT queued for review; the human must fix the journal (airlock doctor, airlock audit verify)"
	}
	if gateReason != "" && v.Decision == policy.Deny && strings.HasPrefix(v.Rule, "gate.") {
		return write(stdout, stderr, gateReply(&a, &v, gateReason))
	}
	return write(stdout, stderr, Reply(&a, &v, receipt))
}

// takeSnapshot takes the snapshot the verdict asks for, last, once nothing
// else holds the action: the id goes into the verdict's reasons, and so
// into the journal with the action. When it cannot be taken the action is
// decided again without one (fail closed: the destructive row applies).
func (h *Hook) takeSnapshot(p *policy.Policy, in *Input, a *policy.Action, v *policy.Verdict) {
	id, what, err := h.Snapshot(a, v.Snapshot, in.SessionID)
	if err != nil {
		*v = p.WithoutSnapshot(v.Mode, *a, err.Error())
		return
	}
	msg := "airlock took snapshot " + id + " (" + what + ") before this destruction inside the project; a human can restore it with: airlock undo " + id
	v.Message = msg
	v.Reasons = append(v.Reasons, classify.Reason{Rule: "snapshot.taken", Message: msg})
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
	if _, err := h.record(in, nil, nil); err != nil {
		fmt.Fprintf(stderr, "airlock: error: recording %s: %v\n", in.HookEventName, err)
	}
	return write(stdout, stderr, out)
}

// stop records the end of a turn or session and shows the user what awaits
// review. It never blocks: exit 2 on Stop would keep the agent going.
func (h *Hook) stop(in *Input, stdout, stderr io.Writer) int {
	if _, err := h.record(in, nil, nil); err != nil {
		fmt.Fprintf(stderr, "airlock: error: recording %s: %v\n", in.HookEventName, err)
	}
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

// excerptMax is how much of a held write's content the journal keeps for
// a reviewer.
const excerptMax = 2000

// writeExcerpt is the journal detail of a held Write, Edit or MultiEdit:
// the first excerptMax bytes of what it would write and how long that
// is. It is rendered when shown (internal/journal), never here.
func writeExcerpt(input json.RawMessage) json.RawMessage {
	var ti struct {
		Content   *string `json:"content"`
		NewString *string `json:"new_string"`
		NewSource *string `json:"new_source"`
		Edits     []struct {
			NewString string `json:"new_string"`
		} `json:"edits"`
	}
	if json.Unmarshal(input, &ti) != nil {
		return nil
	}
	var text string
	switch {
	case ti.Content != nil:
		text = *ti.Content
	case ti.NewString != nil:
		text = *ti.NewString
	case ti.NewSource != nil:
		text = *ti.NewSource
	case len(ti.Edits) > 0:
		parts := make([]string, len(ti.Edits))
		for i, e := range ti.Edits {
			parts[i] = e.NewString
		}
		text = strings.Join(parts, "\n")
	default:
		return nil
	}
	n := len(text)
	if len(text) > excerptMax {
		cut := excerptMax
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	b, err := json.Marshal(struct {
		Excerpt string `json:"excerpt"`
		Bytes   int    `json:"bytes"`
	}{text, n})
	if err != nil {
		return nil
	}
	return b
}

// record hands the event to the recorder.
func (h *Hook) record(in *Input, a *policy.Action, v *policy.Verdict) (agent.Receipt, error) {
	if h.Recorder == nil {
		return agent.Receipt{}, nil
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	return h.Recorder.Record(&agent.Event{
		Time: now(), Agent: Name, Name: in.HookEventName, Session: in.SessionID, Cwd: in.Cwd,
		Tool: in.ToolName, ToolUseID: in.ToolUseID, Action: a, Verdict: v, Prompt: in.Prompt, Raw: in.Raw,
		Story: h.Story, Detail: h.mcpDetail,
	})
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
