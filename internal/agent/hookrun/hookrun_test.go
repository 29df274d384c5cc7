package hookrun_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/codex"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/kiro"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

const push = `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`

func run(t *testing.T, r *hookrun.Runner, event string, stdin io.Reader) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := r.Run(event, stdin, &out, &errs)
	return code, out.String(), errs.String()
}

// A decision core that panics is a deny in the agent's dialect, not a
// crash (Codex runs the command when its hook crashes).
func TestPanicDenies(t *testing.T) {
	r := &hookrun.Runner{Adapter: codex.New(), Decide: func(*hookrun.Request) hookrun.Result { panic("boom") }}
	code, out, errs := run(t, r, "PreToolUse", strings.NewReader(push))
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "internal error: boom") {
		t.Fatalf("exit %d, stdout %s", code, out)
	}
	if !strings.Contains(errs, "boom") {
		t.Errorf("stderr does not say what failed: %s", errs)
	}
}

// blockingReader never returns: an agent that does not close standard
// input.
type blockingReader struct{ stop chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.stop; return 0, io.EOF }

// A decision that does not finish in time is a deny that says which limit
// was hit (Codex, Gemini and Copilot run the command when a hook times
// out); so is a standard input that never ends.
func TestDeadlineDenies(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	slow := func(*hookrun.Request) hookrun.Result { <-stop; return hookrun.Result{} }
	r := &hookrun.Runner{Adapter: kiro.New(), Decide: slow, Deadline: time.Millisecond}
	ev := `{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"execute_bash","tool_input":{"command":"ls"}}`
	code, out, errs := run(t, r, "preToolUse", strings.NewReader(ev))
	if code != 2 || out != "" || !strings.Contains(errs, "within its 1ms limit") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	r = &hookrun.Runner{Adapter: codex.New(), Decide: slow, Deadline: time.Millisecond}
	code, out, _ = run(t, r, "", blockingReader{stop})
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "1ms limit") {
		t.Fatalf("stdin that never ends: exit %d, stdout %s", code, out)
	}
}

// A lifecycle event that times out or is malformed is not refused: it
// blocks no tool, and refusing some of them would stop the user's work.
func TestLifecycleNeverBlocks(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	r := &hookrun.Runner{Adapter: codex.New(), Deadline: time.Millisecond,
		Decide: func(*hookrun.Request) hookrun.Result { <-stop; return hookrun.Result{} }}
	code, out, _ := run(t, r, "Stop", strings.NewReader(`{"session_id":"s","cwd":"/w","hook_event_name":"Stop"}`))
	if code != 0 || out != "" {
		t.Fatalf("timed-out Stop: exit %d, stdout %q", code, out)
	}
	code, out, _ = run(t, r, "Stop", strings.NewReader(`{"session_id":`))
	if code != 0 || out != "" {
		t.Fatalf("malformed Stop: exit %d, stdout %q", code, out)
	}
}

// The Decider sees the agent's tool call translated, with the agent's
// name; the reply says what the Decider said.
func TestDecodeAndEncode(t *testing.T) {
	var got *hookrun.Request
	r := &hookrun.Runner{Adapter: codex.New(), Decide: func(req *hookrun.Request) hookrun.Result {
		got = req
		return hookrun.Result{Deny: true, Reason: "held as Q-1; go on with local work"}
	}}
	code, out, _ := run(t, r, "PreToolUse", strings.NewReader(push))
	if code != 0 || !strings.Contains(out, "held as Q-1") {
		t.Fatalf("exit %d, stdout %s", code, out)
	}
	if got.Agent != "codex" || got.Call.Class != toolcall.Shell || got.Call.Command != "git push" || got.Cwd != "/w" {
		t.Errorf("request %+v", got)
	}
	// A different event than the one installed is malformed: denied.
	code, out, _ = run(t, r, "PostToolUse", strings.NewReader(push))
	if code != 0 || !strings.Contains(out, "could not read it") {
		t.Fatalf("event mismatch: exit %d, stdout %s", code, out)
	}
}
