package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// recorder remembers events, and can fail, to test the seam.
type recorder struct {
	events []*vocab.Event
	err    error
	id     string
}

func (r *recorder) Record(ev *vocab.Event) (vocab.Receipt, error) {
	r.events = append(r.events, ev)
	return vocab.Receipt{QueueID: r.id}, r.err
}

func testHook(rec vocab.Recorder, mode policy.Mode) *Hook {
	return &Hook{
		Policy: func(string) (*policy.Policy, error) {
			p := policy.Defaults()
			p.Mode = mode
			return p, nil
		},
		Recorder: rec,
	}
}

const bashEvent = `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"t1"}`

func run(h *Hook, input string) (int, string, string) {
	var out, errw bytes.Buffer
	st := h.Run("", strings.NewReader(input), &out, &errw)
	return st, out.String(), errw.String()
}

func TestRecordBeforeReply(t *testing.T) {
	rec := &recorder{id: "q7"}
	st, out, _ := run(testHook(rec, policy.Unattended), strings.Replace(bashEvent, "%q", `"git push origin main"`, 1))
	if st != 0 || len(rec.events) != 1 {
		t.Fatalf("status %d, %d events", st, len(rec.events))
	}
	ev := rec.events[0]
	if ev.Verdict == nil || ev.Verdict.Decision != policy.Defer || ev.Action.Command != "git push origin main" || ev.Session != "s1" || ev.Agent != Name || !json.Valid(ev.Raw) {
		t.Errorf("recorded event: %+v", ev)
	}
	// A queue id from the journal is named to the agent and the human.
	if !strings.Contains(out, "queued for review by a human as q7") || !strings.Contains(out, "(queued as q7)") {
		t.Errorf("queue id not in reply: %s", out)
	}
}

func TestRecordFailureFailsClosed(t *testing.T) {
	rec := &recorder{err: errors.New("disk full")}
	st, out, errw := run(testHook(rec, policy.Interactive), strings.Replace(bashEvent, "%q", `"ls"`, 1))
	if st != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "journal.error") || !strings.Contains(errw, "disk full") {
		t.Errorf("an allow that cannot be recorded must be denied: %d %s %s", st, out, errw)
	}
	// Lifecycle events still exit 0.
	st, _, _ = run(testHook(rec, policy.Interactive), `{"session_id":"s","cwd":"/","hook_event_name":"Stop"}`)
	if st != 0 {
		t.Errorf("Stop with a failing recorder: status %d", st)
	}
}

func TestUserPromptRecorded(t *testing.T) {
	rec := &recorder{}
	run(testHook(rec, policy.Interactive), `{"session_id":"s","cwd":"/","hook_event_name":"UserPromptSubmit","prompt":"approve q1"}`)
	if len(rec.events) != 1 || rec.events[0].Prompt != "approve q1" || rec.events[0].Verdict != nil {
		t.Errorf("prompt not recorded: %+v", rec.events)
	}
}

func TestToAction(t *testing.T) {
	tests := []struct {
		tool, input string
		kind        policy.Kind
		detail      string
		err         bool
	}{
		{"Bash", `{"command":"ls"}`, policy.Shell, "ls", false},
		{"Bash", `{"command":""}`, policy.Shell, "", true},
		{"Bash", `{"command":5}`, policy.Shell, "", true},
		{"Edit", `{"file_path":"/a","old_string":"x","new_string":"y"}`, policy.Write, "/a", false},
		{"Write", `{"file_path":"/a","content":"x"}`, policy.Write, "/a", false},
		{"MultiEdit", `{"file_path":"/a","edits":[]}`, policy.Write, "/a", false},
		{"NotebookEdit", `{"notebook_path":"/n.ipynb","new_source":"x"}`, policy.Write, "/n.ipynb", false},
		{"Write", `{"content":"x"}`, policy.Write, "", true},
		{"Read", `{"file_path":"/a","offset":3}`, policy.Read, "/a", false},
		{"Grep", `{"pattern":"x"}`, policy.Read, "/cwd", false},
		{"Grep", `{"pattern":"x","path":"/p"}`, policy.Read, "/p", false},
		{"WebFetch", `{"url":"https://x","prompt":"p"}`, policy.Fetch, "https://x", false},
		{"WebFetch", `{"prompt":"p"}`, policy.Fetch, "", true},
		{"WebSearch", `{"query":"q"}`, policy.Fetch, "", false},
		{"mcp__slack__post", `{"text":"x"}`, policy.UnknownTool, "", false},
		{"Glob", `{"pattern":"*"}`, policy.LocalTool, "", false},
		{"TodoWrite", `{"todos":[]}`, policy.LocalTool, "", false},
		{"PowerShell", `{"command":"Remove-Item -Recurse x"}`, policy.UnknownTool, "", false},
		{"Brand", `{}`, policy.UnknownTool, "", false},
	}
	for _, tt := range tests {
		in := &Input{HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input), Cwd: "/cwd"}
		a, err := ToAction(in)
		if (err != nil) != tt.err {
			t.Errorf("%s %s: err %v", tt.tool, tt.input, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrMissingField) {
				t.Errorf("%s: error %v is not ErrMissingField", tt.tool, err)
			}
			continue
		}
		got := a.Command + a.URL + strings.Join(a.Paths, ",")
		if a.Kind != tt.kind || got != tt.detail {
			t.Errorf("%s %s: got %s %q, want %s %q", tt.tool, tt.input, a.Kind, got, tt.kind, tt.detail)
		}
	}
}
