package hookrun_test

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Each agent's own spelling of a tool call reaches the policy as the same
// action: the table entries that read more than one field.
func TestAgentTables(t *testing.T) {
	byName := map[string]hookrun.Adapter{}
	for _, mk := range all {
		a := mk()
		byName[a.Name()] = a
	}
	tests := []struct {
		agent, event, in string
		kind             policy.Kind
		command, cwd     string
		paths            []string
		url, tool        string
	}{
		{agent: "codex", event: "PreToolUse", in: `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"exec_command","tool_input":{"cmd":["git","push","origin","main"]}}`,
			kind: policy.Shell, command: "git push origin main", cwd: "/w"},
		{agent: "gemini", event: "BeforeTool", in: `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push","dir_path":"repo"}}`,
			kind: policy.Shell, command: "git push", cwd: "/w/repo"},
		{agent: "gemini", event: "BeforeTool", in: `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"summarise https://example.com/a please"}}`,
			kind: policy.Fetch, url: "https://example.com/a", cwd: "/w"},
		// Two URLs cannot be judged as one request.
		{agent: "gemini", event: "BeforeTool", in: `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"compare https://a.example and https://b.example"}}`,
			kind: policy.UnknownTool, cwd: "/w"},
		{agent: "copilot", event: "preToolUse", in: `{"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"git push\"}"}`,
			kind: policy.Shell, command: "git push", cwd: "/w"},
		{agent: "copilot", event: "preToolUse", in: `{"cwd":"/w","toolName":"write_bash","toolArgs":{"input":"git push\n"}}`,
			kind: policy.UnknownTool, cwd: "/w"},
		{agent: "kiro", event: "preToolUse", in: `{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":"a"},{"mode":"Line","path":"b"}]}}`,
			kind: policy.Read, paths: []string{"a", "b"}, cwd: "/w"},
		{agent: "kiro", event: "preToolUse", in: `{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"@git/git_push","tool_input":{}}`,
			kind: policy.UnknownTool, tool: "mcp__git__git_push", cwd: "/w"},
		{agent: "goose", event: "PreToolUse", in: `{"event":"PreToolUse","working_dir":"/w","tool_name":"developer__text_editor","tool_input":{"command":"view","path":"x"}}`,
			kind: policy.Read, paths: []string{"x"}, cwd: "/w"},
		{agent: "goose", event: "PreToolUse", in: `{"event":"PreToolUse","working_dir":"/w","tool_name":"github__create_issue","tool_input":{"title":"t"}}`,
			kind: policy.UnknownTool, tool: "mcp__github__create_issue", cwd: "/w"},
		{agent: "cline", event: "PreToolUse", in: `{"hookName":"PreToolUse","workspaceRoots":["/w"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done","command":"git push"}}}`,
			kind: policy.Shell, command: "git push", cwd: "/w"},
		{agent: "cline", event: "PreToolUse", in: `{"hookName":"PreToolUse","workspaceRoots":["/w"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done"}}}`,
			kind: policy.LocalTool, cwd: "/w"},
		{agent: "opencode", in: `{"tool":"multiedit","args":{"filePath":"/home/u/.bashrc","edits":[{"oldString":"a","newString":"export PATH=/tmp:$PATH"}]},"directory":"/w"}`,
			kind: policy.Write, paths: []string{"/home/u/.bashrc"}, cwd: "/w"},
		{agent: "cursor", in: `{"hook_event_name":"beforeReadFile","workspace_roots":["/w"],"file_path":"/w/.env","content":"K=V"}`,
			kind: policy.Read, paths: []string{"/w/.env"}, cwd: "/w"},
	}
	for _, tt := range tests {
		var got *hookrun.Request
		r := &hookrun.Runner{Adapter: byName[tt.agent], Decide: func(req *hookrun.Request) hookrun.Result {
			got = req
			return hookrun.Result{}
		}}
		code, out, errs := run(t, r, tt.event, strings.NewReader(tt.in))
		if got == nil {
			t.Errorf("%s %s: not decided: exit %d %s %s", tt.agent, tt.in, code, out, errs)
			continue
		}
		a := got.Call.Action(got.Cwd)
		if a.Kind != tt.kind || a.Command != tt.command || a.Cwd != tt.cwd || a.URL != tt.url || strings.Join(a.Paths, " ") != strings.Join(tt.paths, " ") {
			t.Errorf("%s %s:\naction %+v", tt.agent, tt.in, a)
		}
		if tt.tool != "" && a.Tool != tt.tool {
			t.Errorf("%s: tool %q, want %q", tt.agent, a.Tool, tt.tool)
		}
		if got.Call.Class == toolcall.Write && tt.agent == "opencode" && (len(a.Edits) != 1 || !strings.Contains(a.Content, "PATH")) {
			t.Errorf("opencode multiedit: edits %+v content %q", a.Edits, a.Content)
		}
	}
}
