package crush_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/crush"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

func run(t *testing.T, event, in string, res hookrun.Result) (*hookrun.Request, int, string, string) {
	t.Helper()
	var got *hookrun.Request
	r := &hookrun.Runner{Adapter: crush.New(), Decide: func(req *hookrun.Request) hookrun.Result { got = req; return res }}
	var out, errs bytes.Buffer
	code := r.Run(event, strings.NewReader(in), &out, &errs)
	return got, code, out.String(), errs.String()
}

const push = `{"event":"PreToolUse","session_id":"313909e","cwd":"/w","tool_name":"bash","tool_input":{"command":"git push","description":"Push"}}`

// A call airlock lets through gets no decision: "allow" would skip
// Crush's own permission prompt. A note rides on "context" alone.
func TestAllowSaysNothing(t *testing.T) {
	req, code, out, _ := run(t, crush.Event, push, hookrun.Result{})
	if code != 0 || out != "" {
		t.Fatalf("allow: exit %d, stdout %q", code, out)
	}
	if req.Call.Class != toolcall.Shell || req.Call.Command != "git push" || req.Cwd != "/w" || req.Session != "313909e" {
		t.Errorf("request %+v", req)
	}
	_, code, out, _ = run(t, crush.Event, push, hookrun.Result{Context: "an approval was spent"})
	if code != 0 || out != `{"context":"an approval was spent"}`+"\n" {
		t.Fatalf("note: exit %d, stdout %q", code, out)
	}
}

// A hold is refused both ways: the JSON deny on standard output, the
// reason on standard error, exit 2 (Crush reads standard error on 2).
func TestHeldRefusesTwice(t *testing.T) {
	_, code, out, errs := run(t, crush.Event, push, hookrun.Result{Deny: true, Reason: "held as Q-1; go on with local work"})
	if code != crush.ExitBlock || !strings.Contains(out, `"decision":"deny"`) || !strings.Contains(out, "held as Q-1") || !strings.Contains(errs, "held as Q-1") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if strings.Contains(out, "hookSpecificOutput") {
		t.Errorf("a Claude-shaped reply: %s", out)
	}
}

// Internal errors answer the same refusal: a panic in the decision, an
// unreadable payload, an event that is not Crush's.
func TestInternalErrorRefuses(t *testing.T) {
	r := &hookrun.Runner{Adapter: crush.New(), Decide: func(*hookrun.Request) hookrun.Result { panic("boom") }}
	for _, in := range []string{push, `{"event":`, `{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"}}`,
		`{"event":"PostToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"ls"}}`} {
		var out, errs bytes.Buffer
		code := r.Run(crush.Event, strings.NewReader(in), &out, &errs)
		if code != crush.ExitBlock || !strings.Contains(out.String(), `"decision":"deny"`) || !strings.Contains(errs.String(), "airlock blocked this tool call") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", in, code, out.String(), errs.String())
		}
	}
}

// Crush's tools reach the policy as the actions they are; the sub-agent
// tools, whose own calls are not hooked, and download are unknown; a
// bash field airlock does not read makes the call unknown.
func TestTools(t *testing.T) {
	cases := []struct {
		in    string
		kind  policy.Kind
		paths string
		cwd   string
	}{
		{`{"tool_name":"bash","tool_input":{"command":"rm -rf src","working_dir":"sub"}}`, policy.Shell, "", "/w/sub"},
		{`{"tool_name":"bash","tool_input":{"command":"ls","env":{"LD_PRELOAD":"x"}}}`, policy.UnknownTool, "", "/w"},
		{`{"tool_name":"edit","tool_input":{"file_path":"/h/.bashrc","old_string":"a","new_string":"b"}}`, policy.Write, "/h/.bashrc", "/w"},
		{`{"tool_name":"multiedit","tool_input":{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}}`, policy.Write, "a.go", "/w"},
		{`{"tool_name":"write","tool_input":{"file_path":"x","content":"y"}}`, policy.Write, "x", "/w"},
		{`{"tool_name":"view","tool_input":{"file_path":"/s/.ssh/id_rsa"}}`, policy.Read, "/s/.ssh/id_rsa", "/w"},
		{`{"tool_name":"ls","tool_input":{}}`, policy.Read, "/w", "/w"},
		{`{"tool_name":"fetch","tool_input":{"url":"https://example.com","format":"text"}}`, policy.Fetch, "", "/w"},
		{`{"tool_name":"agent","tool_input":{"prompt":"find the tests"}}`, policy.UnknownTool, "", "/w"},
		{`{"tool_name":"agentic_fetch","tool_input":{"prompt":"x"}}`, policy.UnknownTool, "", "/w"},
		{`{"tool_name":"download","tool_input":{"url":"https://example.com/x","file_path":"x"}}`, policy.UnknownTool, "", "/w"},
		{`{"tool_name":"todos","tool_input":{"todos":[]}}`, policy.LocalTool, "", "/w"},
	}
	for _, c := range cases {
		in := `{"event":"PreToolUse","session_id":"s","cwd":"/w",` + strings.TrimPrefix(c.in, "{")
		req, code, out, errs := run(t, crush.Event, in, hookrun.Result{})
		if req == nil {
			t.Errorf("%s: not decided: exit %d %s %s", c.in, code, out, errs)
			continue
		}
		a := req.Call.Action(req.Cwd)
		if a.Kind != c.kind || strings.Join(a.Paths, " ") != c.paths || a.Cwd != c.cwd {
			t.Errorf("%s: action %+v", c.in, a)
		}
	}
	req, _, _, _ := run(t, crush.Event, `{"event":"PreToolUse","cwd":"/w","tool_name":"mcp_github_create_issue","tool_input":{"title":"t"}}`, hookrun.Result{})
	if req == nil || req.Call.Class != toolcall.MCP || req.Call.Server != "github" || req.Call.Name != "create_issue" {
		t.Errorf("mcp: %+v", req)
	}
	// Crush's event names are case-insensitive and snake_case-able.
	if req, _, _, _ := run(t, "pre_tool_use", `{"event":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"ls"}}`, hookrun.Result{}); req == nil {
		t.Error("--event pre_tool_use did not decide a PreToolUse")
	}
}
