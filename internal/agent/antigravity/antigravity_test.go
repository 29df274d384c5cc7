package antigravity_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/antigravity"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

func run(t *testing.T, event, in string, decide hookrun.Decider) (*hookrun.Request, int, string, string) {
	t.Helper()
	var got *hookrun.Request
	r := &hookrun.Runner{Adapter: antigravity.New(), Decide: func(req *hookrun.Request) hookrun.Result { got = req; return decide(req) }}
	var out, errs bytes.Buffer
	code := r.Run(event, strings.NewReader(in), &out, &errs)
	return got, code, out.String(), errs.String()
}

func answer(res hookrun.Result) hookrun.Decider {
	return func(*hookrun.Request) hookrun.Result { return res }
}

const push = `{"toolCall":{"name":"run_command","args":{"CommandLine":"git push origin main","Cwd":"/w"}}}`

// A call airlock lets through is handed to agy's own permission rules
// ("ask"), never approved ("allow"), never left without an answer.
func TestAllowIsAsk(t *testing.T) {
	for _, event := range []string{"", antigravity.Event} {
		req, code, out, _ := run(t, event, push, answer(hookrun.Result{Context: "a note"}))
		if code != 0 || out != `{"decision":"ask"}`+"\n" {
			t.Fatalf("--event %q: exit %d, stdout %q", event, code, out)
		}
		if req.Call.Class != toolcall.Shell || req.Call.Command != "git push origin main" || req.Cwd != "/w" || req.Event != hookrun.PreToolUse {
			t.Errorf("request %+v", req)
		}
	}
}

// A hold is agy's own deny, with the reason: never the Claude-shaped one,
// with which agy runs the command.
func TestHeldIsAgyDeny(t *testing.T) {
	_, code, out, _ := run(t, antigravity.Event, push, answer(hookrun.Result{Deny: true, Reason: "held as Q-1; go on with local work"}))
	if code != 0 || out != `{"decision":"deny","reason":"held as Q-1; go on with local work"}`+"\n" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
}

// Every internal error answers the same deny: a panic in the decision,
// a payload that cannot be read, a shell call without its directory (agy
// runs hooks in ~/.gemini/config, so the process's own says nothing).
func TestInternalErrorRefuses(t *testing.T) {
	boom := func(*hookrun.Request) hookrun.Result { panic("boom") }
	for _, in := range []string{push, ``, `{}`, `{"toolCall":null}`, `{"toolCall":{"name":"run_command","args":{"CommandLine":"ls"}}}`,
		`{"toolCall":{"name":"run_command","args":{"CommandLine":"ls","Cwd":["/w"]}}}`,
		`{"toolCall":{"name":"run_command","args":{"Cwd":"/w"}}}`,
		`{"toolCall":{"name":"write_to_file","args":{"CodeContent":"x","Cwd":"/w"}}}`} {
		_, code, out, errs := run(t, antigravity.Event, in, boom)
		if code != 0 || !strings.HasPrefix(out, `{"decision":"deny","reason":"airlock blocked this tool call`) || strings.Contains(out, "hookSpecificOutput") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", in, code, out, errs)
		}
	}
}

// An event airlock does not install gets no output: silence is what agy
// reads as no opinion on its lifecycle events.
func TestOtherEventSilent(t *testing.T) {
	req, code, out, _ := run(t, "PostToolUse", push, answer(hookrun.Result{Deny: true}))
	if req != nil || code != 0 || out != "" {
		t.Fatalf("decided %v, exit %d, stdout %q", req != nil, code, out)
	}
}

// agy's file tools, when a widened matcher sends them, are judged by the
// file they name; every other tool is unknown.
func TestTools(t *testing.T) {
	cases := []struct {
		in    string
		kind  policy.Kind
		paths string
	}{
		{`{"name":"write_to_file","args":{"TargetFile":"/h/.bashrc","CodeContent":"x","Cwd":"/w"}}`, policy.Write, "/h/.bashrc"},
		{`{"name":"replace_file_content","args":{"TargetFile":"/w/a.go","Cwd":"/w"}}`, policy.Write, "/w/a.go"},
		{`{"name":"view_file","args":{"AbsolutePath":"/s/.ssh/id_rsa","Cwd":"/w"}}`, policy.Read, "/s/.ssh/id_rsa"},
		{`{"name":"browser_subagent","args":{"Task":"publish","Cwd":"/w"}}`, policy.UnknownTool, ""},
		{`{"name":"run_command","args":{"CommandLine":"ls","Cwd":"/w","SafeToAutoRun":true}}`, policy.Shell, ""},
	}
	for _, c := range cases {
		req, code, out, _ := run(t, antigravity.Event, `{"toolCall":`+c.in+`}`, answer(hookrun.Result{}))
		if req == nil {
			t.Errorf("%s: not decided: exit %d %s", c.in, code, out)
			continue
		}
		a := req.Call.Action(req.Cwd)
		if a.Kind != c.kind || strings.Join(a.Paths, " ") != c.paths || a.Cwd != "/w" {
			t.Errorf("%s: action %+v", c.in, a)
		}
	}
}
