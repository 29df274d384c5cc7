package gate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// recorder keeps the events the hook records.
type recorder struct{ events []vocab.Event }

func (r *recorder) Record(ev *vocab.Event) (vocab.Receipt, error) {
	r.events = append(r.events, *ev)
	return vocab.Receipt{}, nil
}

// TestClaudeCodeHook runs the gate inside the Claude Code hook: the prompt
// and the evidence come through Run, a gate denial reaches the agent as a
// deny asking for facts, and the recorder gets the deny with its
// gate.<kind> rule before the answer.
func TestClaudeCodeHook(t *testing.T) {
	h := newHarness(t, enabled)
	rec := &recorder{}
	hook := &claudecode.Hook{
		Policy:   func(string) (*policy.Policy, error) { return h.load(), nil },
		Recorder: rec,
		Gate:     ClaudeCode{Gate: h.gate()},
		// An interactive session: an ask stays an ask.
		Getenv: func(k string) string {
			if k == "CLAUDE_CODE_SESSION_ATTENDED" {
				return "1"
			}
			return ""
		},
	}
	run := func(event string, fields map[string]any) (int, string, string) {
		t.Helper()
		fields["session_id"], fields["cwd"], fields["hook_event_name"] = "s1", h.proj, event
		data, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		st := hook.Run(event, bytes.NewReader(data), &stdout, &stderr)
		return st, stdout.String(), stderr.String()
	}
	if st, out, errs := run("UserPromptSubmit", map[string]any{"prompt": "fix the flaky test"}); st != 0 || out != "" || errs != "" {
		t.Fatalf("prompt: %d %q %q", st, out, errs)
	}
	st, out, _ := run("PreToolUse", map[string]any{"tool_name": "Edit", "tool_input": edit(h.abs("internal/x.go"))})
	if st != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, `airlock saw it as: \"fix the flaky test\"`) {
		t.Fatalf("edit: %d %s", st, out)
	}
	if strings.Contains(out, "Do not retry") {
		t.Errorf("a gate denial told the agent not to retry: %s", out)
	}
	last := rec.events[len(rec.events)-1]
	if last.Verdict == nil || last.Verdict.Decision != policy.Deny || last.Verdict.Rule != "gate.edit" {
		t.Fatalf("recorded verdict %+v, want a deny by gate.edit", last.Verdict)
	}
	if st, out, _ = run("PreToolUse", map[string]any{"tool_name": "Edit", "tool_input": edit(h.abs("internal/x.go"))}); st != 0 || out != "" {
		t.Errorf("retry: %d %s", st, out)
	}
	if v := rec.events[len(rec.events)-1].Verdict; v.Decision != policy.Allow {
		t.Errorf("retry recorded %s by %s", v.Decision, v.Rule)
	}

	// Evidence through PostToolUse opens the next file.
	run("PostToolUse", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": h.abs("internal/gate/gate.go")}, "tool_response": map[string]any{}})
	run("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": bash(`grep -rn '"example.com/m/internal/gate"' .`), "tool_response": map[string]any{"stdout": ""}})
	if st, out, _ = run("PreToolUse", map[string]any{"tool_name": "Edit", "tool_input": edit(h.abs("internal/gate/gate.go"))}); st != 0 || out != "" {
		t.Errorf("edit with evidence: %d %s", st, out)
	}
	v := rec.events[len(rec.events)-1].Verdict
	if v.Decision != policy.Allow || v.Reasons[len(v.Reasons)-1].Rule != "gate.evidence" {
		t.Errorf("recorded %s by %s, reasons %v", v.Decision, v.Rule, v.Reasons)
	}

	// A call the policy holds is answered by the policy alone.
	st, out, _ = run("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": bash("git push origin main")})
	if st != 0 || !strings.Contains(out, `"permissionDecision":"ask"`) || strings.Contains(out, "fact-forcing") {
		t.Errorf("push: %d %s", st, out)
	}
}
