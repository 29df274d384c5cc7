package hookrun_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/antigravity"
	"github.com/airlock-dev/airlock/internal/agent/auggie"
	"github.com/airlock-dev/airlock/internal/agent/cline"
	"github.com/airlock-dev/airlock/internal/agent/codex"
	"github.com/airlock-dev/airlock/internal/agent/copilot"
	"github.com/airlock-dev/airlock/internal/agent/crush"
	"github.com/airlock-dev/airlock/internal/agent/cursor"
	"github.com/airlock-dev/airlock/internal/agent/factory"
	"github.com/airlock-dev/airlock/internal/agent/gemini"
	"github.com/airlock-dev/airlock/internal/agent/goose"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/kiro"
	"github.com/airlock-dev/airlock/internal/agent/opencode"
	"github.com/airlock-dev/airlock/internal/agent/pi"
	"github.com/airlock-dev/airlock/internal/agent/qwen"
)

var all = []func() hookrun.Adapter{codex.New, gemini.New, copilot.New, opencode.New, factory.New,
	qwen.New, cursor.New, kiro.New, goose.New, cline.New, pi.New, auggie.New, antigravity.New, crush.New}

// Whatever an agent sends, no decoder panics (the recover would hide it
// as a deny, so the test looks for its message), every exit status is one
// the agent reads as intended (0, or 2 for Kiro's deny), and an input the
// decision core never saw is refused.
func FuzzAdapters(f *testing.F) {
	for _, s := range []string{push, `{}`, `[]`, `null`, `{"hook_event_name":"PreToolUse"}`,
		`{"hookName":"PreToolUse","workspaceRoots":["/w"],"preToolUse":{"toolName":"use_mcp_tool","parameters":{"server_name":"s","tool_name":"t","arguments":"[1]"}}}`,
		`{"tool":"patch","args":{"patchText":"*** Begin Patch\n*** End Patch"},"directory":"/w"}`,
		`{"sessionId":"s","cwd":"/w","toolName":"bash","toolArgs":"{\"command\":1}"}`,
		`{"event":"PreToolUse","tool_name":"developer__text_editor","tool_input":{"command":"write"},"working_dir":"/w"}`,
		`{"hook_event_name":"beforeMCPExecution","workspace_roots":["/w"],"tool_name":"t","tool_input":"{"}`,
		`{"toolCall":{"name":"run_command","args":{"CommandLine":"ls","Cwd":7}}}`,
		`{"event":"pre_tool_use","cwd":"/w","tool_name":"multiedit","tool_input":{"file_path":"a","edits":[{"old_string":"x"}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, mk := range all {
			decided := false
			r := &hookrun.Runner{Adapter: mk(), Decide: func(*hookrun.Request) hookrun.Result {
				decided = true
				return hookrun.Result{}
			}}
			var out, errs bytes.Buffer
			code := r.Run("", strings.NewReader(in), &out, &errs)
			name := r.Adapter.Name()
			if strings.Contains(errs.String(), "internal error") {
				t.Fatalf("%s: %s", name, errs.String())
			}
			if code != 0 && !((name == "kiro" || name == "crush") && code == 2) {
				t.Fatalf("%s: exit %d", name, code)
			}
			if decided {
				continue
			}
			// Not decided: the input could not be read, and a hook not told
			// its event must refuse it.
			o := out.String()
			refused := strings.Contains(o, `"deny"`) || strings.Contains(o, `"block"`) ||
				strings.Contains(o, `"cancel":true`) || (name == "kiro" && code == 2)
			if name == "crush" {
				// Crush's refusal is both its JSON deny and exit 2.
				refused = code == 2 && strings.Contains(o, `"deny"`)
			}
			if !refused {
				t.Fatalf("%s: neither decided nor refused: %q %q", name, o, errs.String())
			}
		}
	})
}
