package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrUnsafeAllowed is returned when a hook allowed a call the script
// marks unsafe: airlock failed to hold it (the call was not run).
var ErrUnsafeAllowed = errors.New("a call the demo never runs was allowed")

// Agent is the scripted fake agent. It speaks to hooks exactly as Claude
// Code does (an event on standard input, a JSON answer or exit status 2)
// and writes Claude Code's stream-json.
type Agent struct {
	// Settings is the Claude Code settings file whose hooks it calls.
	Settings string
	// Dir is the project directory the tools work in.
	Dir string
	// Session is the session id in every event.
	Session string
	// Env is the environment hooks and commands run with.
	Env []string
	// Out receives stream-json; Log receives what hooks tell the user.
	Out, Log io.Writer

	hooks     map[string][]handler
	denials   []map[string]any
	unsafeRun []string
}

type handler struct {
	command string
	block   bool
}

// Run plays one story's script.
func (a *Agent) Run(storyID, prompt string) error {
	calls := Calls(storyID)
	if calls == nil {
		return fmt.Errorf("the demo has no story %q", storyID)
	}
	if err := a.loadHooks(); err != nil {
		return err
	}
	a.emit(map[string]any{"type": "system", "subtype": "init", "session_id": a.Session, "cwd": a.Dir, "tools": []string{"Bash", "Write", "Edit"}, "permissionMode": "default"})
	a.fire("SessionStart", map[string]any{"source": "startup"})
	a.fire("UserPromptSubmit", map[string]any{"prompt": prompt})
	for i, c := range calls {
		a.call(fmt.Sprintf("toolu_demo_%s_%02d", storyID, i+1), c)
	}
	a.fire("Stop", map[string]any{"stop_hook_active": false})
	a.fire("SessionEnd", map[string]any{"reason": "other"})
	result := fmt.Sprintf("Finished the local work of story %s. %d action(s) were refused by hooks; they are listed in airlock's report.", storyID, len(a.denials))
	a.emit(map[string]any{"type": "result", "subtype": "success", "is_error": false, "session_id": a.Session,
		"result": result, "num_turns": len(calls) + 1, "permission_denials": a.denials})
	if len(a.unsafeRun) > 0 {
		return fmt.Errorf("%w: %s", ErrUnsafeAllowed, strings.Join(a.unsafeRun, "; "))
	}
	return nil
}

// call makes one tool call: PreToolUse, then the tool if allowed, then
// PostToolUse.
func (a *Agent) call(id string, c Call) {
	input := a.input(c)
	a.emit(map[string]any{"type": "assistant", "session_id": a.Session, "message": map[string]any{
		"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": c.Tool, "input": input}}}})
	allowed, reason := a.preToolUse(id, c.Tool, input)
	if !allowed {
		a.denials = append(a.denials, map[string]any{"tool_name": c.Tool, "tool_use_id": id, "tool_input": input})
		a.emit(map[string]any{"type": "system", "subtype": "permission_denied", "tool_name": c.Tool, "tool_use_id": id,
			"decision_reason_type": "hook", "decision_reason": reason})
		a.result(id, "PreToolUse:"+c.Tool+" hook error: "+reason, true)
		return
	}
	if !c.Safe {
		a.unsafeRun = append(a.unsafeRun, c.describe())
		a.result(id, "the demo agent does not run this call, although no hook refused it", true)
		return
	}
	out, failed := a.run(c)
	a.result(id, out, failed)
	a.fire("PostToolUse", map[string]any{"tool_name": c.Tool, "tool_input": input, "tool_use_id": id,
		"tool_response": map[string]any{"output": out, "is_error": failed}})
}

func (a *Agent) result(id, content string, isError bool) {
	a.emit(map[string]any{"type": "user", "session_id": a.Session, "message": map[string]any{
		"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isError}}}})
}

// preToolUse runs every PreToolUse handler; any refusal refuses. In
// print mode Claude Code treats "ask" as a refusal, and so does this.
func (a *Agent) preToolUse(id, tool string, input map[string]any) (bool, string) {
	ev := a.event("PreToolUse", map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": id})
	for _, h := range a.hooks["PreToolUse"] {
		stdout, stderr, code := a.exec(h.command, ev)
		switch {
		case code == 2:
			return false, strings.TrimSpace(stderr)
		case code != 0 && h.block:
			return false, fmt.Sprintf("[%s]: failed; blocking because onFailure is \"block\"", h.command)
		case code != 0:
			continue
		}
		var reply struct {
			SystemMessage string `json:"systemMessage"`
			Specific      struct {
				Decision string `json:"permissionDecision"`
				Reason   string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		if len(bytes.TrimSpace(stdout)) > 0 && json.Unmarshal(stdout, &reply) == nil {
			if reply.SystemMessage != "" && a.Log != nil {
				fmt.Fprintln(a.Log, reply.SystemMessage)
			}
			switch reply.Specific.Decision {
			case "deny", "ask", "defer":
				return false, reply.Specific.Reason
			}
		}
	}
	return true, ""
}

// fire runs the handlers of an event that cannot refuse anything.
func (a *Agent) fire(name string, fields map[string]any) {
	ev := a.event(name, fields)
	for _, h := range a.hooks[name] {
		stdout, _, _ := a.exec(h.command, ev)
		var reply struct {
			SystemMessage string `json:"systemMessage"`
		}
		if json.Unmarshal(stdout, &reply) == nil && reply.SystemMessage != "" && a.Log != nil {
			fmt.Fprintln(a.Log, reply.SystemMessage)
		}
	}
}

func (a *Agent) event(name string, fields map[string]any) []byte {
	ev := map[string]any{"session_id": a.Session, "cwd": a.Dir, "hook_event_name": name, "permission_mode": "default"}
	for k, v := range fields {
		ev[k] = v
	}
	data, _ := json.Marshal(ev)
	return data
}

// exec runs a hook command with the shell, as Claude Code does.
func (a *Agent) exec(command string, stdin []byte) ([]byte, string, int) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.Stdin = a.Dir, a.Env, bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), errb.String(), 0
	case errors.As(err, &ee):
		return out.Bytes(), errb.String(), ee.ExitCode()
	}
	return nil, err.Error(), -1
}

// run performs an allowed, safe call in the project.
func (a *Agent) run(c Call) (string, bool) {
	switch c.Tool {
	case "Bash":
		cmd := exec.Command("bash", "-c", c.Command)
		cmd.Dir, cmd.Env = a.Dir, a.Env
		out, err := cmd.CombinedOutput()
		return string(out), err != nil
	case "Write":
		p := filepath.Join(a.Dir, c.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err.Error(), true
		}
		if err := os.WriteFile(p, []byte(c.Content), 0o644); err != nil {
			return err.Error(), true
		}
		return "File created successfully at: " + p, false
	case "Edit":
		p := filepath.Join(a.Dir, c.Path)
		data, err := os.ReadFile(p)
		if err != nil {
			return err.Error(), true
		}
		if !bytes.Contains(data, []byte(c.Old)) {
			return "String to replace not found in file.", true
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(c.Old), []byte(c.New), 1), 0o644); err != nil {
			return err.Error(), true
		}
		return "The file " + p + " has been updated.", false
	}
	return "unknown tool " + c.Tool, true
}

func (a *Agent) emit(v any) {
	enc := json.NewEncoder(a.Out)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// loadHooks reads the settings file's command hooks, per event.
func (a *Agent) loadHooks() error {
	data, err := os.ReadFile(a.Settings)
	if err != nil {
		return fmt.Errorf("reading the hook settings: %w", err)
	}
	var s struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type      string `json:"type"`
				Command   string `json:"command"`
				OnFailure string `json:"onFailure"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("reading the hook settings %s: %w", a.Settings, err)
	}
	a.hooks = map[string][]handler{}
	for event, groups := range s.Hooks {
		for _, g := range groups {
			if g.Matcher != "" && g.Matcher != "*" {
				continue // the demo's settings match every tool
			}
			for _, h := range g.Hooks {
				if h.Type == "command" {
					a.hooks[event] = append(a.hooks[event], handler{command: h.Command, block: h.OnFailure == "block"})
				}
			}
		}
	}
	if len(a.hooks["PreToolUse"]) == 0 {
		return errors.New("the hook settings have no PreToolUse hook: nothing would guard the calls")
	}
	return nil
}

// input is the call's tool_input as Claude Code sends it (file paths
// absolute).
func (a *Agent) input(c Call) map[string]any {
	switch c.Tool {
	case "Write":
		return map[string]any{"file_path": filepath.Join(a.Dir, c.Path), "content": c.Content}
	case "Edit":
		return map[string]any{"file_path": filepath.Join(a.Dir, c.Path), "old_string": c.Old, "new_string": c.New}
	}
	return map[string]any{"command": c.Command}
}

// describe is the call in a few words.
func (c Call) describe() string {
	if c.Tool == "Bash" {
		return c.Command
	}
	return c.Tool + " " + c.Path
}
