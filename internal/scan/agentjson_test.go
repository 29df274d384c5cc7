package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The outputs in testdata/agents are the real CLIs' standard output,
// captured by the e2e/agents tier (AIRLOCK_E2E_CAPTURE) with the scenario
// every agent runs there: a local write, git push origin main, a push in
// bash -c, and a curl POST. "guarded" ran with airlock's hook installed,
// which held the three outward calls; "control" ran without it, and all
// three ran. Paths of the test's temporary directory were replaced by
// /home/dev/.
func TestAgentOutputs(t *testing.T) {
	outward := []string{"git push origin main", "refs/heads/disguised", "/collect -d notes=secret"}
	all := func(s Status) map[string]Status {
		m := map[string]Status{}
		for _, c := range outward {
			m[c] = s
		}
		return m
	}
	for _, tc := range []struct {
		file   string
		format Format
		want   map[string]Status
	}{
		{"codex-control.jsonl", CodexJSON, all(Executed)},
		// Codex leaves a call its hook refused out of its output: what is
		// there ran, and nothing held shows up as executed.
		{"codex-guarded.jsonl", CodexJSON, map[string]Status{}},
		{"gemini-control.jsonl", GeminiJSON, all(Executed)},
		{"gemini-guarded.jsonl", GeminiJSON, all(Denied)},
		{"copilot-control.jsonl", CopilotJSON, all(Executed)},
		{"copilot-guarded.jsonl", CopilotJSON, all(Denied)},
		{"opencode-control.jsonl", OpenCodeJSON, all(Executed)},
		{"opencode-guarded.jsonl", OpenCodeJSON, all(Denied)},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "agents", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := (&Scanner{}).Scan(f, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != tc.format {
				t.Errorf("format %s, want %s", res.Format, tc.format)
			}
			for _, w := range res.Warnings {
				t.Errorf("warning: line %d: %s", w.Line, w.Message)
			}
			got := map[string]Status{}
			for _, fd := range res.Findings {
				key := ""
				for _, c := range outward {
					if strings.Contains(fd.Command(), c) {
						key = c
					}
				}
				if key == "" {
					t.Errorf("unexpected finding: line %d %s %q", fd.Line, fd.Status, fd.Command())
					continue
				}
				if fd.Tool == "" || fd.ToolUseID == "" {
					t.Errorf("%q: a tool call finding without its tool (%q) or id (%q)", key, fd.Tool, fd.ToolUseID)
				}
				got[key] = fd.Status
			}
			for c, s := range tc.want {
				if got[c] != s {
					t.Errorf("%q: status %q, want %q", c, got[c], s)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
			if res.Session == "" {
				t.Errorf("the session id the output names was not read")
			}
		})
	}
}

// A held call must never read as executed because an agent words its
// refusal differently in another event: each decoder's refusal marker,
// and what the same event means without it.
func TestAgentRefusalMarkers(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		want        Status
	}{
		{"gemini policy violation",
			`{"type":"init","session_id":"s","model":"m"}` + "\n" +
				`{"type":"tool_use","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"git push"}}` + "\n" +
				`{"type":"tool_result","tool_id":"t1","status":"error","output":"x","error":{"type":"policy_violation","message":"Tool execution blocked: held"}}`,
			Denied},
		{"gemini failure is not a refusal",
			`{"type":"init","session_id":"s","model":"m"}` + "\n" +
				`{"type":"tool_use","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"git push"}}` + "\n" +
				`{"type":"tool_result","tool_id":"t1","status":"error","output":"fatal: no remote","error":{"type":"execution_failed","message":"exit 128"}}`,
			Executed},
		{"copilot hook denial",
			`{"type":"session.start","data":{}}` + "\n" +
				`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"git push"}}}` + "\n" +
				`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false,"error":{"message":"Denied by preToolUse hook: held"}}}`,
			Denied},
		{"copilot call without its end",
			`{"type":"session.start","data":{}}` + "\n" +
				`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"git push"}}}`,
			NoResult},
		{"opencode plugin refusal",
			`{"type":"step_start","sessionID":"s","part":{"type":"step-start"}}` + "\n" +
				`{"type":"tool_use","sessionID":"s","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"git push"},"error":"airlock: refused: the hook could not run"}}}`,
			Denied},
		{"opencode tool error is not a refusal",
			`{"type":"step_start","sessionID":"s","part":{"type":"step-start"}}` + "\n" +
				`{"type":"tool_use","sessionID":"s","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"git push"},"error":"Error: spawn failed"}}}`,
			Executed},
		{"codex declined",
			`{"type":"thread.started","thread_id":"th"}` + "\n" +
				`{"type":"item.completed","item":{"id":"i1","type":"command_execution","command":"git push","aggregated_output":"","exit_code":null,"status":"declined"}}`,
			Denied},
		{"codex started, never completed",
			`{"type":"thread.started","thread_id":"th"}` + "\n" +
				`{"type":"item.started","item":{"id":"i1","type":"command_execution","command":"git push","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
			NoResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := (&Scanner{}).Scan(strings.NewReader(tc.input+"\n"), "-")
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) != 1 || res.Findings[0].Status != tc.want {
				t.Fatalf("findings %+v, want one %s", res.Findings, tc.want)
			}
		})
	}
}
