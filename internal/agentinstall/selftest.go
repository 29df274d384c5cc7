package agentinstall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/hookline"
)

// This file is the doctor's self-test of an installed hook: it runs the
// hook command line exactly as the agent would, with a recorded event in
// the agent's own wire format, and reads the answer the way the agent
// would.

// selfTestEvent is a pre-tool event for a shell command, as each agent
// sends it (docs in /shared/agents: OBSERVED for codex, gemini, copilot
// and opencode; from the vendors' documentation for the others).
func selfTestEvent(agent, cwd, command string) []byte {
	var v any
	switch agent {
	case "codex", "factory", "qwen":
		tool := map[string]string{"codex": "Bash", "factory": "Execute", "qwen": "run_shell_command"}[agent]
		v = map[string]any{"session_id": "airlock-doctor", "turn_id": "doctor", "cwd": cwd, "hook_event_name": "PreToolUse",
			"permission_mode": "default", "tool_name": tool, "tool_input": map[string]any{"command": command}, "tool_use_id": "doctor"}
	case "gemini":
		v = map[string]any{"session_id": "airlock-doctor", "cwd": cwd, "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command, "description": "airlock doctor"}}
	case "copilot":
		v = map[string]any{"sessionId": "airlock-doctor", "timestamp": 1767225600000, "cwd": cwd, "toolName": "bash",
			"toolArgs": map[string]any{"command": command, "description": "airlock doctor"}}
	case "opencode":
		v = map[string]any{"tool": "bash", "sessionID": "airlock-doctor", "callID": "doctor", "args": map[string]any{"command": command, "description": "airlock doctor"}, "directory": cwd}
	case "cursor":
		v = map[string]any{"conversation_id": "airlock-doctor", "generation_id": "doctor", "hook_event_name": "beforeShellExecution",
			"command": command, "cwd": cwd, "workspace_roots": []string{cwd}}
	case "kiro":
		v = map[string]any{"hook_event_name": "preToolUse", "cwd": cwd, "tool_name": "execute_bash", "tool_input": map[string]any{"command": command}}
	case "goose":
		v = map[string]any{"event": "PreToolUse", "session_id": "airlock-doctor", "tool_name": "developer__shell", "tool_input": map[string]any{"command": command}, "working_dir": cwd}
	case "antigravity":
		v = map[string]any{"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": command, "Cwd": cwd}}}
	case "crush":
		v = map[string]any{"event": "PreToolUse", "session_id": "airlock-doctor", "cwd": cwd, "tool_name": "bash",
			"tool_input": map[string]any{"command": command, "description": "airlock doctor"}}
	case "cline":
		v = map[string]any{"clineVersion": "3.0.65", "hookName": "PreToolUse", "timestamp": "1767225600000", "taskId": "airlock-doctor",
			"workspaceRoots": []string{cwd}, "userId": "doctor", "preToolUse": map[string]any{"toolName": "execute_command", "parameters": map[string]any{"command": command}}}
	case "pi":
		v = map[string]any{"event": "tool_call", "toolName": "bash", "toolCallId": "doctor", "input": map[string]any{"command": command},
			"cwd": cwd, "sessionId": "airlock-doctor"}
	case "auggie":
		v = map[string]any{"hook_event_name": "PreToolUse", "conversation_id": "airlock-doctor", "workspace_roots": []string{cwd},
			"tool_name": "launch-process", "tool_input": map[string]any{"command": command, "wait": true, "max_wait_seconds": 60, "cwd": cwd},
			"tool_output": "[undefined]", "tool_error": nil, "is_mcp_tool": false}
	default:
		return nil
	}
	data, _ := json.Marshal(v)
	return data
}

// Verdict names what a hook's answer amounts to, for the agent that reads
// it: "allow", "deny", "ask", or "error: …" for an answer the agent would
// not read as either (a crash, a timeout, text it cannot parse).
func Verdict(status int, stdout []byte) string {
	if status == 2 {
		return "deny"
	}
	if status != 0 {
		return fmt.Sprintf("error: exit status %d", status)
	}
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 {
		return "allow"
	}
	var a struct {
		PermissionDecision string `json:"permissionDecision"`
		Decision           string `json:"decision"`
		Permission         string `json:"permission"`
		Cancel             bool   `json:"cancel"`
		Specific           struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &a); err != nil {
		return "error: the answer is not JSON"
	}
	for _, d := range []string{a.Specific.PermissionDecision, a.PermissionDecision, a.Decision, a.Permission} {
		switch d {
		case "deny", "block":
			return "deny"
		case "ask":
			return "ask"
		}
	}
	if a.Cancel {
		return "deny"
	}
	return "allow"
}

// SelfTest is one recorded event fed to an installed hook.
type SelfTest struct {
	Name   string `json:"name"`
	Want   string `json:"want"`
	Got    string `json:"got"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// SelfTestCommand returns the hook command line the doctor may self-test
// for a line found in an agent's configuration: the line this installer
// builds for exe (HookCommand) for one of the agent's events, and only
// when the found line is that line byte for byte. Anything else (a line
// with a second command after it, another binary, another quoting) is a
// configuration file's text, which anyone who can write the file wrote:
// the doctor reports it and never runs it.
//
// Both forms are this installer's: the in-process line for exe, and the
// line for the hook client beside exe, when that client is one the
// installer would write (hookline.Client).
func (a *Agent) SelfTestCommand(exe, found string) (string, bool) {
	if exe == "" {
		return "", false
	}
	bins := []string{exe}
	if c, err := hookline.Client(exe); err == nil {
		bins = append(bins, c)
	}
	var own []string
	for _, bin := range bins {
		// OpenCode's plugin runs the hook without --event (pluginBinary).
		own = append(own, hookline.Prefix(bin, a.Name))
		for _, ev := range a.Events {
			own = append(own, HookCommand(bin, a.Name, ev))
		}
	}
	for _, c := range own {
		if c == found {
			return c, true
		}
	}
	return "", false
}

// RunSelfTest runs an agent's installed hook command line, as the agent
// runs it (sh -c, event on standard input), on a harmless local command
// and on a push, and checks that the first is allowed and the second
// refused. env is the hook's environment: the doctor gives it a scratch
// state directory, so nothing lands in the user's journal.
func RunSelfTest(agent, command, cwd string, env []string, timeout time.Duration) []SelfTest {
	cases := []struct{ name, cmd, want string }{
		{"local command is allowed", "ls", "allow"},
		{"git push is refused", "git push origin main", "deny"},
	}
	var out []SelfTest
	for _, c := range cases {
		ev := selfTestEvent(agent, cwd, c.cmd)
		got, detail := runHook(command, cwd, env, ev, timeout)
		if agent == "antigravity" && got == "ask" {
			// agy's "ask" hands the call to its own permission rules, as
			// if no hook had spoken: airlock's answer for a call it lets
			// through there.
			got = "allow"
		}
		out = append(out, SelfTest{Name: c.name, Want: c.want, Got: got, OK: got == c.want, Detail: detail})
	}
	return out
}

func runHook(command, cwd string, env []string, event []byte, timeout time.Duration) (verdict, detail string) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir, cmd.Env = cwd, env
	ownGroup(cmd)
	// A child that outlives the kill still holds the output pipes; do not
	// wait for it.
	cmd.WaitDelay = time.Second
	cmd.Stdin = bytes.NewReader(event)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	if ctx.Err() != nil {
		return "error: no answer within " + timeout.String(), first
	}
	status := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		return "error: " + err.Error(), first
	}
	return Verdict(status, stdout.Bytes()), first
}
