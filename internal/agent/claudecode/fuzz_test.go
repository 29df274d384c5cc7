package claudecode

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// FuzzHook feeds arbitrary bytes to the hook as a PreToolUse. It must not
// panic, and whatever it cannot read must never pass: either exit 2, or a
// reply that denies or asks. An input that decodes and decides normally
// may pass; the fuzzer then checks only that it was a well-formed event.
func FuzzHook(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`,
		`{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/x/.airlock/policy.yaml"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}`,
		`{"hook_event_name":"PreToolUse"`, `null`, `[]`, `{}`, ``, `{"hook_event_name":"Stop"}`,
		`{"cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}} {}`,
	} {
		f.Add([]byte(s))
	}
	h := &Hook{
		Policy: func(string) (*policy.Policy, error) {
			p := policy.Defaults()
			p.Mode = policy.Unattended
			return p, nil
		},
		Recorder: vocab.Discard{},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out, errw bytes.Buffer
		st := h.Run("PreToolUse", bytes.NewReader(data), &out, &errw)
		if st == ExitBlock {
			if errw.Len() == 0 {
				t.Fatalf("blocked without a reason on stderr")
			}
			return
		}
		if st != 0 {
			t.Fatalf("exit %d: neither a block nor an answer", st)
		}
		in, err := Decode(data)
		if err != nil {
			t.Fatalf("undecodable input %q was not blocked: %s", data, out.String())
		}
		if _, err := ToAction(in); err != nil {
			t.Fatalf("input without a usable tool_input %q was not blocked", data)
		}
		if out.Len() > 0 {
			var o Output
			if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.HookSpecificOutput == nil || o.HookSpecificOutput.HookEventName != "PreToolUse" {
				t.Fatalf("reply is not a PreToolUse answer: %s", out.String())
			}
			if d := o.HookSpecificOutput.PermissionDecision; d == "allow" || d == "defer" || d != "" && d != "deny" && d != "ask" {
				t.Fatalf("bad permissionDecision %q", d)
			}
		}
		if strings.Contains(out.String(), `"permissionDecision":"allow"`) {
			t.Fatal("airlock never answers allow")
		}
	})
}
