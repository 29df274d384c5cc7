package claudecode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
)

// What the human reads in a reply (the system message, an ask's reason)
// never carries the agent's escapes raw, and keeps the command's end.
func TestReplyRendersTheCommand(t *testing.T) {
	for _, cmd := range []string{
		"git push evil main\x1b[1A\x1b[2Kgit status",
		"git push evil main\r\x1b[2Kgit status",
		"git status" + strings.Repeat("\n", 60) + "; git push evil main",
		"git status" + strings.Repeat(" ", 4000) + "; git push evil main",
		"git push \u202eniam live",
	} {
		for _, mode := range []policy.Mode{policy.Interactive, policy.Unattended} {
			in, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Bash",
				"tool_input": map[string]string{"command": cmd}, "tool_use_id": "t1"})
			_, out, _ := run(testHook(&recorder{id: "q7"}, mode), string(in))
			var o Output
			if err := json.Unmarshal([]byte(out), &o); err != nil {
				t.Fatalf("%q: %v: %s", cmd, err, out)
			}
			shown := o.SystemMessage
			if o.HookSpecificOutput != nil {
				shown += "\n" + o.HookSpecificOutput.PermissionDecisionReason
			}
			for _, l := range strings.Split(shown, "\n") {
				if i := render.Unclean(l); i >= 0 {
					t.Errorf("%q (%s): raw control at %d: %q", cmd, mode, i, l)
				}
			}
			if !strings.Contains(shown, "git push evil") && !strings.Contains(shown, `\u202eniam`) {
				t.Errorf("%q (%s): the command is not shown: %s", cmd, mode, shown)
			}
		}
	}
}

// A held Write records the start of what it would write, for review.
func TestHeldWriteRecordsAnExcerpt(t *testing.T) {
	rec := &recorder{id: "q7"}
	protected := "/tmp/airlock-display-test/protected.txt"
	h := testHook(rec, policy.Unattended)
	h.Policy = func(string) (*policy.Policy, error) {
		p, err := policy.Load(policy.Options{Getenv: func(string) string { return "" }, Protect: []string{protected}})
		if p != nil {
			p.Mode = policy.Unattended
		}
		return p, err
	}
	content := strings.Repeat("é", 1500) // 3000 bytes; the cut falls inside a rune
	in, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]string{"file_path": protected, "content": content}, "tool_use_id": "t1"})
	run(h, string(in))
	if len(rec.events) != 1 || !rec.events[0].Verdict.Decision.Holds() {
		t.Fatalf("the write to airlock's hook settings was not held: %+v", rec.events)
	}
	var d struct {
		Excerpt string `json:"excerpt"`
		Bytes   int    `json:"bytes"`
	}
	if err := json.Unmarshal(rec.events[0].Detail, &d); err != nil || d.Bytes != 3000 || len(d.Excerpt) != excerptMax || !strings.HasPrefix(content, d.Excerpt) {
		t.Fatalf("detail %s: %v", rec.events[0].Detail, err)
	}
	// An allowed write records nothing extra.
	rec = &recorder{}
	in, _ = json.Marshal(map[string]any{"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]string{"file_path": "/tmp/notes.txt", "content": "hi"}, "tool_use_id": "t1"})
	run(testHook(rec, policy.Unattended), string(in))
	if len(rec.events) != 1 || rec.events[0].Verdict.Decision.Holds() || rec.events[0].Detail != nil {
		t.Fatalf("allowed write: %+v", rec.events[0])
	}
}
