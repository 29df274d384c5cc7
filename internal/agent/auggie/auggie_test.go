package auggie_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/auggie"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/policy"
)

// push is the payload Auggie 0.36.0 sent for a shell call (recorded).
const push = `{"hook_event_name":"PreToolUse","conversation_id":"74734473-266e-418e-8e15-d573a5759c28","workspace_roots":["/w"],` +
	`"tool_name":"launch-process","tool_input":{"command":"git push origin main","wait":true,"max_wait_seconds":10,"cwd":"sub"},` +
	`"tool_output":"[undefined]","tool_error":null,"is_mcp_tool":false}`

// reply is Claude Code's reply, the one Auggie obeys.
type reply struct {
	Specific struct {
		Event    string `json:"hookEventName"`
		Decision string `json:"permissionDecision"`
		Reason   string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func run(t *testing.T, decide hookrun.Decider, deadline time.Duration, event, in string) (int, string, *reply) {
	t.Helper()
	r := &hookrun.Runner{Adapter: auggie.New(), Decide: decide, Deadline: deadline}
	var out, errs bytes.Buffer
	code := r.Run(event, strings.NewReader(in), &out, &errs)
	if strings.TrimSpace(out.String()) == "" {
		return code, "", nil
	}
	var rep reply
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("reply %q is not Claude Code's: %v", out.String(), err)
	}
	return code, out.String(), &rep
}

// An allow is no output at all (Auggie runs the call); a held call is
// Claude Code's deny with the reason the model reads; an internal error
// (a panic in the decision, a decision past the deadline, input that
// cannot be read) is that deny too, never an allow: Auggie runs the call
// when a hook crashes or times out, so airlock must answer.
func TestReplies(t *testing.T) {
	var got *hookrun.Request
	code, out, _ := run(t, func(req *hookrun.Request) hookrun.Result { got = req; return hookrun.Result{} }, 0, "PreToolUse", push)
	if code != 0 || out != "" {
		t.Errorf("allow: exit %d, stdout %q", code, out)
	}
	a := got.Call.Action(got.Cwd)
	if a.Kind != policy.Shell || a.Command != "git push origin main" || a.Cwd != "/w/sub" || got.Session != "74734473-266e-418e-8e15-d573a5759c28" {
		t.Errorf("decoded %+v, action %+v", got, a)
	}

	deny := func(what string, code int, rep *reply, want string) {
		t.Helper()
		if code != 0 || rep == nil || rep.Specific.Event != "PreToolUse" || rep.Specific.Decision != "deny" || !strings.Contains(rep.Specific.Reason, want) {
			t.Errorf("%s: exit %d, reply %+v, want a deny saying %q", what, code, rep, want)
		}
	}
	code, _, rep := run(t, func(*hookrun.Request) hookrun.Result {
		return hookrun.Result{Deny: true, Reason: "airlock held this action for human review as 3f2a9c1e"}
	}, 0, "PreToolUse", push)
	deny("held", code, rep, "3f2a9c1e")

	code, _, rep = run(t, func(*hookrun.Request) hookrun.Result { panic("boom") }, 0, "PreToolUse", push)
	deny("internal error", code, rep, "internal error: boom")

	stop := make(chan struct{})
	defer close(stop)
	code, _, rep = run(t, func(*hookrun.Request) hookrun.Result { <-stop; return hookrun.Result{} }, time.Millisecond, "PreToolUse", push)
	deny("deadline", code, rep, "1ms limit")

	for _, bad := range []string{`{"hook_event_name":"PreToolUse","tool_name":"launch-process","tool_input":{"command":"ls"}}`,
		`{"workspace_roots":["/w"]}`, `not json`} {
		decided := false
		code, _, rep = run(t, func(*hookrun.Request) hookrun.Result { decided = true; return hookrun.Result{} }, 0, "PreToolUse", bad)
		if decided {
			t.Errorf("%s: decided", bad)
		}
		deny("malformed "+bad, code, rep, "could not read it")
	}
}

// Auggie's tools reach the policy as the actions they perform; paths are
// relative to the first workspace root.
func TestTools(t *testing.T) {
	base := `{"hook_event_name":"PreToolUse","conversation_id":"c","workspace_roots":["/w","/other"],"is_mcp_tool":%s,"tool_name":%q,"tool_input":%s}`
	tests := []struct {
		mcp, tool, input string
		kind             policy.Kind
		command, cwd     string
		paths            []string
		edits            int
	}{
		{"false", "launch-process", `{"command":"ls","wait":true,"max_wait_seconds":5,"cwd":"/w"}`, policy.Shell, "ls", "/w", nil, 0},
		{"false", "launch-process", `{"command":"ls","wait":true,"max_wait_seconds":5,"cwd":"/w","env":{"LD_PRELOAD":"x"}}`, policy.UnknownTool, "", "/w", nil, 0},
		{"false", "save-file", `{"path":"notes.md","file_content":"hi"}`, policy.Write, "", "/w", []string{"notes.md"}, 1},
		// A deletion is rm of the files, graded where they are
		// (FINDINGS-10 X2).
		{"false", "remove-files", `{"file_paths":["a","b"]}`, policy.Shell, "rm -f -- a b", "/w", nil, 0},
		{"false", "str-replace-editor", `{"command":"str_replace","path":"x.go","str_replace_entries":[{"old_str":"a","new_str":"b","old_str_start_line_number":1,"old_str_end_line_number":1}]}`, policy.Write, "", "/w", []string{"x.go"}, 1},
		{"false", "str-replace-editor", `{"command":"insert","path":"x.go","insert_line_entries":[{"insert_line":3,"new_str":"b"}]}`, policy.Write, "", "/w", []string{"x.go"}, 0},
		{"false", "view", `{"path":"src","type":"directory"}`, policy.Read, "", "/w", []string{"src"}, 0},
		{"false", "web-fetch", `{"url":"https://example.com"}`, policy.Fetch, "", "/w", nil, 0},
		{"false", "apply_patch", `{"input":"*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch\n"}`, policy.Write, "", "/w", []string{"n.txt"}, 0},
		{"false", "view_tasklist", `{}`, policy.LocalTool, "", "/w", nil, 0},
		// Typing into a running process may be typing into a shell.
		{"false", "write-process", `{"terminal_id":1,"input_text":"git push\n"}`, policy.UnknownTool, "", "/w", nil, 0},
		// An MCP tool named like a built-in one is still an MCP tool.
		{"true", "view", `{"path":"x"}`, policy.UnknownTool, "", "/w", nil, 0},
	}
	for _, tt := range tests {
		in := strings.Replace(strings.Replace(strings.Replace(base, "%s", tt.mcp, 1), "%q", `"`+tt.tool+`"`, 1), "%s", tt.input, 1)
		var got *hookrun.Request
		code, out, _ := run(t, func(req *hookrun.Request) hookrun.Result { got = req; return hookrun.Result{} }, 0, "PreToolUse", in)
		if got == nil {
			t.Errorf("%s: not decided: exit %d %s", in, code, out)
			continue
		}
		a := got.Call.Action(got.Cwd)
		if a.Kind != tt.kind || a.Command != tt.command || a.Cwd != tt.cwd || strings.Join(a.Paths, "|") != strings.Join(tt.paths, "|") || len(a.Edits) != tt.edits {
			t.Errorf("%s %s: action %+v", tt.tool, tt.input, a)
		}
	}
}

// Events other than the pre-tool one are recorded, never refused.
func TestLifecycle(t *testing.T) {
	code, out, _ := run(t, func(*hookrun.Request) hookrun.Result { return hookrun.Result{} }, 0, "Stop", `{"hook_event_name":"Stop","conversation_id":"c","workspace_roots":["/w"]}`)
	if code != 0 || out != "" {
		t.Errorf("Stop: exit %d, stdout %q", code, out)
	}
}
