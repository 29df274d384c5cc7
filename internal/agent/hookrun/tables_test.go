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
		// Codex's shell tools run in their workdir: the command is judged
		// there (and an approval, which compares Cwd, binds to it).
		{agent: "codex", event: "PreToolUse", in: `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"exec_command","tool_input":{"cmd":"printf x > policy.yaml","workdir":"/h/.config/airlock"}}`,
			kind: policy.Shell, command: "printf x > policy.yaml", cwd: "/h/.config/airlock"},
		{agent: "codex", event: "PreToolUse", in: `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc","echo {} > hooks.json"],"workdir":"/h/.codex","timeout_ms":1000}}`,
			kind: policy.Shell, command: "bash -lc 'echo {} > hooks.json'", cwd: "/h/.codex"},
		{agent: "codex", event: "PreToolUse", in: `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf src","workdir":"sub"}}`,
			kind: policy.Shell, command: "rm -rf src", cwd: "/w/sub"},
		// A field the table does not read makes the call unknown.
		{agent: "codex", event: "PreToolUse", in: `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"local_shell","tool_input":{"command":["ls"],"env":{"LD_PRELOAD":"/tmp/x.so"}}}`,
			kind: policy.UnknownTool, cwd: "/w"},
		{agent: "gemini", event: "BeforeTool", in: `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","cwd":"/h"}}`,
			kind: policy.UnknownTool, cwd: "/w"},
		// An indented header is a header, as Codex's parser trims it.
		{agent: "codex", event: "PreToolUse", in: `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: notes.txt\n+hi\n  *** Add File: /h/.config/airlock/policy.yaml\n+version: 1\n*** End Patch\n"}}`,
			kind: policy.Write, paths: []string{"notes.txt", "/h/.config/airlock/policy.yaml"}, cwd: "/w"},
		// Two fields naming files: the union is judged.
		{agent: "gemini", event: "BeforeTool", in: `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"paths":["a.txt"],"include":["/s/secrets/serve.token"]}}`,
			kind: policy.Read, paths: []string{"a.txt", "/s/secrets/serve.token"}, cwd: "/w"},
		{agent: "kiro", event: "preToolUse", in: `{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"fs_read","tool_input":{"path":"a.txt","operations":[{"mode":"Line","path":"/s/secrets/serve.token"}]}}`,
			kind: policy.Read, paths: []string{"a.txt", "/s/secrets/serve.token"}, cwd: "/w"},
		// An empty dir_path is the project root to Gemini, not "absent".
		{agent: "gemini", event: "BeforeTool", in: `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"","directory":""}}`,
			kind: policy.Shell, command: "ls", cwd: "/w"},
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

// Fields that disagree about where or what a tool acts on, or a patch
// line airlock does not read, refuse the call: it is never decided on
// one reading of it.
func TestAgentFieldsRefused(t *testing.T) {
	byName := map[string]hookrun.Adapter{}
	for _, mk := range all {
		a := mk()
		byName[a.Name()] = a
	}
	tests := []struct{ agent, event, in string }{
		{"gemini", "BeforeTool", `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"printf x > ../h/policy.yaml","dir_path":"","directory":"/o/deep"}}`},
		{"gemini", "BeforeTool", `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"list_directory","tool_input":{"dir_path":"a","path":"/s/secrets"}}`},
		{"codex", "PreToolUse", `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"exec_command","tool_input":{"cmd":"ls","command":"rm -rf /"}}`},
		{"codex", "PreToolUse", `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** Copy File: /h/.codex/hooks.json\n*** End Patch\n"}}`},
		{"codex", "PreToolUse", `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a\n+x\n ***Add File: /h/.codex/hooks.json\n*** End Patch\n"}}`},
	}
	for _, tt := range tests {
		decided := false
		r := &hookrun.Runner{Adapter: byName[tt.agent], Decide: func(req *hookrun.Request) hookrun.Result {
			decided = true
			return hookrun.Result{}
		}}
		code, out, errs := run(t, r, tt.event, strings.NewReader(tt.in))
		if decided {
			t.Errorf("%s %s: decided, want refused (exit %d %s %s)", tt.agent, tt.in, code, out, errs)
		}
	}
}
