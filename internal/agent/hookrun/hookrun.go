// Package hookrun runs one hook event of any agent other than Claude Code
// through an Adapter: the adapter decodes the agent's wire JSON into a
// Request, a Decider decides it, and the adapter encodes the Result in the
// agent's reply dialect. What every agent needs and none may forget lives
// here, once:
//
//   - never crash: a panic anywhere is answered with a deny in the agent's
//     dialect (Codex and Gemini run the command when a hook crashes);
//   - never time out: the whole event (reading standard input included)
//     runs under a Deadline well under every agent's hook timeout, and
//     when it passes the call is denied, saying which limit was hit
//     (Codex, Gemini and Copilot run the command when a hook times out);
//   - malformed input is denied, for a tool event;
//   - never ask: every Request decides with NoHuman set, so a hold is a
//     deny with a reason that names the queue item (Codex runs an "ask",
//     Gemini hangs on one headless).
package hookrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/stackstart"
)

// Deadline is how long one event may take before airlock denies it. It
// sits well under the shortest hook timeout an installer writes (Copilot
// and Kiro default to 30 s; airlock's installers write their own, never
// under 20 s), and far over the hook's usual few milliseconds: only a
// stuck journal lock or a hung standard input reaches it.
const Deadline = 8 * time.Second

// MaxInput is the largest event read: a file write carries the file.
const MaxInput = 32 << 20

// The events a Request can carry, named as Claude Code names them: the
// decision core speaks that vocabulary.
const (
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	SessionStart     = "SessionStart"
	UserPromptSubmit = "UserPromptSubmit"
	Stop             = "Stop"
	SessionEnd       = "SessionEnd"
)

// Request is one decoded hook event.
type Request struct {
	// Agent is the adapter's name, e.g. "codex".
	Agent string
	// Event is the Claude Code name of the event (PreToolUse, ...), or ""
	// for an event airlock only records.
	Event string
	// Native is the agent's own name for the event.
	Native string
	// Session, Cwd and ToolUseID are what the agent said.
	Session, Cwd, ToolUseID string
	// Call is the tool call, for PreToolUse and PostToolUse.
	Call toolcall.Call
	// Input is the tool's input as the agent sent it.
	Input json.RawMessage
	// Prompt is the user's words, for UserPromptSubmit.
	Prompt string
	// Raw is the whole event as received, for the journal.
	Raw json.RawMessage
}

// Result is a decision, in words for both readers.
type Result struct {
	// Deny refuses the tool call. A held call is denied too: the reason
	// names its queue item.
	Deny bool
	// Reason is for the agent: what was refused, why, and what to do
	// instead. Set when Deny is.
	Reason string
	// Human is for the human's screen, when the agent shows one.
	Human string
	// Context is said to the agent about a call that runs (a warning, an
	// approval being spent).
	Context string
	// Log are lines for standard error, for the human (a policy or
	// journal error). The agent does not read them, except Kiro's, which
	// shows standard error of a refusal to the model.
	Log []string
}

// Decider decides one Request. It is the one seam between the adapters
// and the decision core: the decision pipeline, through Pipeline
// (claude.go).
type Decider func(*Request) Result

// Adapter is one agent's wire format.
type Adapter interface {
	// Name is the agent's name on the command line.
	Name() string
	// Decode reads one event. event is the --event the hook was installed
	// with, or "". An error is a malformed input.
	Decode(event string, data []byte) (*Request, error)
	// Encode writes the reply to a tool event's Result, or to a recorded
	// event when req.Event is not PreToolUse, and returns the exit status.
	// req is nil when the input could not be decoded.
	// Decode may return a Request holding only Native with an error, when
	// the event is not the one the hook was installed for.
	Encode(req *Request, res *Result, stdout, stderr io.Writer) int
	// Blocks reports whether a malformed event installed as event must be
	// denied: a tool event, or an unknown one (""). Other events cannot
	// block a tool and are answered as recorded.
	Blocks(event string) bool
}

// ErrMalformed is wrapped by every decoding error.
var ErrMalformed = errors.New("malformed hook input")

// InputError says what is wrong with an event.
type InputError struct {
	// Agent is the adapter's name (the hook's messages say it already).
	Agent string
	// Detail says what was seen.
	Detail string
	// Err is ErrMalformed or a toolcall.FieldError.
	Err error
}

func (e *InputError) Error() string {
	msg := e.Err.Error()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *InputError) Unwrap() error { return e.Err }

// Malformed is an InputError wrapping ErrMalformed.
func Malformed(agent, format string, args ...any) error {
	return &InputError{Agent: agent, Err: ErrMalformed, Detail: fmt.Sprintf(format, args...)}
}

// CheckEvent checks the event name an input carries (field names the
// wire field, for the message) against the event the hook was installed
// for ("" when it was not told). A missing name, or another event than
// the installed one, is malformed; the second returns a Request naming
// the event it carried, so the reply can still be worded for it.
func CheckEvent(agent, field, got, installed string) (*Request, error) {
	if got == "" {
		return nil, Malformed(agent, "missing %s", field)
	}
	if installed != "" && got != installed {
		return &Request{Native: got}, Malformed(agent, "a %s event to a hook installed for %s", got, installed)
	}
	return nil, nil
}

// Runner runs events of one adapter.
type Runner struct {
	Adapter Adapter
	Decide  Decider
	// Deadline bounds the event; 0 means the package's Deadline.
	Deadline time.Duration
}

type outcome struct {
	req *Request
	res Result
	err error
}

// Run answers one event and returns the exit status. event is the
// --event flag.
func (r *Runner) Run(event string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	name := r.Adapter.Name()
	defer func() {
		// The encoder itself failed: exit 2 blocks in every agent that has
		// exit codes, and the reason goes where Kiro and Gemini read it.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "airlock: error: %s hook: internal error: %v\nairlock: this tool call is blocked because airlock failed (it fails closed); tell the human.\n", name, p)
			code = 2
		}
	}()
	deadline := r.Deadline
	if deadline <= 0 {
		deadline = Deadline
	}
	done := make(chan outcome, 1)
	go func() {
		// The decision goes as deep as the main goroutine's would: its
		// stack is grown once, here, rather than copied at every doubling.
		stackstart.Grow()
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o.err = fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
				o.res = failure(fmt.Sprintf("airlock failed while deciding it (internal error: %v)", p))
				if !r.Adapter.Blocks(event) {
					// A lifecycle event blocks no tool; refusing it could
					// stop the user's task.
					o.res = Result{}
				}
			}
			done <- o
		}()
		o = r.decide(event, stdin)
	}()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	var o outcome
	select {
	case o = <-done:
	case <-timer.C:
		o.err = fmt.Errorf("the decision took longer than airlock's %s limit for one hook event", deadline)
		o.res = failure(fmt.Sprintf("airlock could not decide it within its %s limit (a stuck journal lock or standard input)", deadline))
		if !r.Adapter.Blocks(event) {
			o.res = Result{}
		}
	}
	if o.err != nil {
		fmt.Fprintf(stderr, "airlock: error: %s hook: %v\n", name, o.err)
	}
	for _, l := range o.res.Log {
		fmt.Fprintln(stderr, l)
	}
	return r.Adapter.Encode(o.req, &o.res, stdout, stderr)
}

func (r *Runner) decide(event string, stdin io.Reader) outcome {
	data, err := io.ReadAll(io.LimitReader(stdin, MaxInput+1))
	if err == nil && len(data) > MaxInput {
		err = Malformed(r.Adapter.Name(), "larger than %d bytes", MaxInput)
	}
	var req *Request
	if err == nil {
		req, err = r.Adapter.Decode(event, data)
	}
	if err != nil {
		o := outcome{err: err}
		// A pre-tool event sent to a hook installed for another event is
		// still a tool call: refused.
		if r.Adapter.Blocks(event) || (req != nil && r.Adapter.Blocks(req.Native)) {
			o.res = failure("airlock could not read it (" + err.Error() + ")")
		}
		return o
	}
	req.Agent = r.Adapter.Name()
	return outcome{req: req, res: r.Decide(req)}
}

// failure is the deny of a call airlock could not decide.
func failure(why string) Result {
	return Result{Deny: true,
		Reason: "airlock blocked this tool call because " + why + "; it fails closed. Do not retry it; continue with work that does not need it, and tell the human that the airlock hook reported an error.",
		Human:  "airlock blocked a tool call: " + why}
}

// Encode helpers shared by the dialects.

// WriteJSON writes v as one JSON line, unescaped (commands are full of &&
// and >). A reply that cannot be written blocks with exit 2.
func WriteJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "airlock: error: writing the hook reply: %v\n", err)
		return 2
	}
	return 0
}
