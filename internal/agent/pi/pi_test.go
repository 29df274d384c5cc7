package pi_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/pi"
	"github.com/airlock-dev/airlock/internal/policy"
)

const push = `{"event":"tool_call","toolName":"bash","toolCallId":"call_1","input":{"command":"git push origin main"},"cwd":"/w","sessionId":"s-1"}`

func run(t *testing.T, decide hookrun.Decider, deadline time.Duration, in string) (int, pi.Reply) {
	t.Helper()
	r := &hookrun.Runner{Adapter: pi.New(), Decide: decide, Deadline: deadline}
	var out, errs bytes.Buffer
	code := r.Run("", strings.NewReader(in), &out, &errs)
	var reply pi.Reply
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&reply); err != nil {
		t.Fatalf("reply %q is not the shim's JSON: %v (stderr %s)", out.String(), err, errs.String())
	}
	return code, reply
}

// The three answers the shim reads: an allow lets the call run, a held
// call is a deny whose reason the model reads, and an internal error (a
// panic in the decision, a decision past the deadline) is a deny too,
// never an allow: the shim blocks on it rather than throwing.
func TestReplies(t *testing.T) {
	var got *hookrun.Request
	code, r := run(t, func(req *hookrun.Request) hookrun.Result { got = req; return hookrun.Result{} }, 0, push)
	if code != 0 || r.Decision != "allow" || r.Reason != "" {
		t.Errorf("allow: exit %d, reply %+v", code, r)
	}
	a := got.Call.Action(got.Cwd)
	if a.Kind != policy.Shell || a.Command != "git push origin main" || a.Cwd != "/w" || got.Session != "s-1" || got.ToolUseID != "call_1" {
		t.Errorf("decoded %+v, action %+v", got, a)
	}

	code, r = run(t, func(*hookrun.Request) hookrun.Result {
		return hookrun.Result{Deny: true, Reason: "airlock held this action for human review as 3f2a9c1e; continue with local work"}
	}, 0, push)
	if code != 0 || r.Decision != "deny" || !strings.Contains(r.Reason, "3f2a9c1e") {
		t.Errorf("held: exit %d, reply %+v", code, r)
	}

	code, r = run(t, func(*hookrun.Request) hookrun.Result { panic("boom") }, 0, push)
	if code != 0 || r.Decision != "deny" || !strings.Contains(r.Reason, "internal error: boom") {
		t.Errorf("internal error: exit %d, reply %+v", code, r)
	}

	stop := make(chan struct{})
	defer close(stop)
	code, r = run(t, func(*hookrun.Request) hookrun.Result { <-stop; return hookrun.Result{} }, time.Millisecond, push)
	if code != 0 || r.Decision != "deny" || !strings.Contains(r.Reason, "1ms limit") {
		t.Errorf("deadline: exit %d, reply %+v", code, r)
	}

	for _, bad := range []string{`{"event":"tool_result","toolName":"bash","input":{},"cwd":"/w"}`, `{"toolName":"bash","input":{"command":"ls"}}`, `[]`} {
		decided := false
		code, r = run(t, func(*hookrun.Request) hookrun.Result { decided = true; return hookrun.Result{} }, 0, bad)
		if decided || code != 0 || r.Decision != "deny" {
			t.Errorf("%s: decided %v, exit %d, reply %+v", bad, decided, code, r)
		}
	}
}

// Each of Pi's tools reaches the policy as the action Pi performs, with
// paths read the way Pi resolves them.
func TestTools(t *testing.T) {
	tests := []struct {
		in    string
		kind  policy.Kind
		paths []string
		edits int
	}{
		{`{"toolName":"read","input":{"path":"@/h/.config/airlock/secrets/serve.token"},"cwd":"/w"}`, policy.Read, []string{"/h/.config/airlock/secrets/serve.token"}, 0},
		{"{\"toolName\":\"write\",\"input\":{\"path\":\"a\u00a0b.txt\",\"content\":\"x\"},\"cwd\":\"/w\"}", policy.Write, []string{"a b.txt"}, 1},
		{`{"toolName":"edit","input":{"path":"~/.bashrc","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]},"cwd":"/w"}`, policy.Write, []string{"~/.bashrc"}, 2},
		// The older form, which Pi still accepts.
		{`{"toolName":"edit","input":{"path":"x.go","oldText":"a","newText":"b"},"cwd":"/w"}`, policy.Write, []string{"x.go"}, 1},
		// Edits as a JSON string, which Pi parses.
		{`{"toolName":"edit","input":{"path":"x.go","edits":"[{\"oldText\":\"a\",\"newText\":\"b\"}]"},"cwd":"/w"}`, policy.Write, []string{"x.go"}, 1},
		// Replacements airlock cannot read: the file is judged by its path.
		{`{"toolName":"edit","input":{"path":"x.go","edits":[{"newText":"b"}]},"cwd":"/w"}`, policy.Write, []string{"x.go"}, 0},
		// "@" then "~": Pi drops the one and expands the other.
		{`{"toolName":"write","input":{"path":"@~/.config/airlock/policy.yaml","content":"mode: off"},"cwd":"/w"}`, policy.Write, []string{"~/.config/airlock/policy.yaml"}, 1},
		{`{"toolName":"grep","input":{"pattern":"TODO"},"cwd":"/w"}`, policy.Read, []string{"."}, 0},
		{`{"toolName":"ls","input":{"path":"/etc"},"cwd":"/w"}`, policy.Read, []string{"/etc"}, 0},
		{`{"toolName":"find","input":{"pattern":"*.go","path":"src"},"cwd":"/w"}`, policy.Read, []string{"src"}, 0},
		{`{"toolName":"subagent","input":{"task":"push it"},"cwd":"/w"}`, policy.UnknownTool, nil, 0},
	}
	for _, tt := range tests {
		var got *hookrun.Request
		code, r := run(t, func(req *hookrun.Request) hookrun.Result { got = req; return hookrun.Result{} }, 0, tt.in)
		if got == nil {
			t.Errorf("%s: not decided: exit %d %+v", tt.in, code, r)
			continue
		}
		a := got.Call.Action(got.Cwd)
		if a.Kind != tt.kind || strings.Join(a.Paths, "|") != strings.Join(tt.paths, "|") || len(a.Edits) != tt.edits {
			t.Errorf("%s: action %+v", tt.in, a)
		}
	}
	// A listed tool without its field is refused, not guessed at.
	for _, in := range []string{`{"toolName":"bash","input":{},"cwd":"/w"}`, `{"toolName":"write","input":{"path":"a"},"cwd":"/w"}`,
		`{"toolName":"edit","input":{"path":"a"},"cwd":"/w"}`, `{"toolName":"read","input":{"path":1},"cwd":"/w"}`} {
		decided := false
		_, r := run(t, func(*hookrun.Request) hookrun.Result { decided = true; return hookrun.Result{} }, 0, in)
		if decided || r.Decision != "deny" {
			t.Errorf("%s: decided %v, reply %+v", in, decided, r)
		}
	}
}
