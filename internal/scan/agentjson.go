package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/airlock-dev/airlock/internal/agent/codex"
	"github.com/airlock-dev/airlock/internal/agent/copilot"
	"github.com/airlock-dev/airlock/internal/agent/gemini"
	"github.com/airlock-dev/airlock/internal/agent/opencode"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// The JSON outputs of the other agent CLIs (airlock loop --agent keeps
// them as STORY.out). Each names its tool calls and their results in its
// own words; the scanner reads a call through the same tool table the
// agent's hook adapter uses, so a finding is the action the hook would
// have judged. What was OBSERVED of each, with the real CLIs against the
// fake model of e2e/fakemodel (internal/scan/testdata/agents):
//
//   - codex exec --json: a command is an item of type command_execution,
//     started then completed with its exit code. A call a PreToolUse hook
//     refused never appears: the output holds only what ran.
//   - gemini -o stream-json: tool_use, then tool_result with status
//     "success" or "error"; a hook's refusal is an error of type
//     "policy_violation" ("Tool execution blocked: REASON").
//   - copilot --output-format json: tool.execution_start, then
//     tool.execution_complete; a hook's refusal is a failure whose error
//     reads "Denied by preToolUse hook: REASON".
//   - opencode run --format json: one tool_use event per call, with its
//     outcome; airlock's plugin refuses by throwing, which shows as an
//     error whose message starts with "airlock".
//
// A tool the agent's table does not list is unknown, as in the hook: its
// effect cannot be read, so it is a finding.

// agentDecoder reads one line of an agent's JSON output into the
// structured scanner's calls, results and refusals.
type agentDecoder func(st *structured, n int, b []byte) error

func decoderFor(f Format) agentDecoder {
	switch f {
	case CodexJSON:
		return codexLine
	case GeminiJSON:
		return geminiLine
	case CopilotJSON:
		return copilotLine
	case OpenCodeJSON:
		return opencodeLine
	}
	return nil
}

// use records a call read through an agent's tool table.
func (st *structured) use(n int, id, tool string, input json.RawMessage, t toolcall.Table, mcp toolcall.MCPNamer) {
	if id == "" || tool == "" {
		st.res.Warnings = append(st.res.Warnings, Warning{Source: st.res.Source, Line: n,
			Message: "a tool call without an id or a name: not decided"})
		return
	}
	if st.byID[id] != nil {
		return
	}
	u := &toolUse{line: n, id: id, name: tool, input: append(json.RawMessage(nil), input...), session: st.res.Session, cwd: st.cwd}
	c, err := t.Translate(tool, input, st.cwd, mcp)
	if err != nil {
		u.actionErr = err
	} else {
		a := c.Action(st.cwd)
		u.action = &a
	}
	if r := st.results[id]; r != nil {
		u.hasResult, u.isError, u.resultLine, u.resultText = true, r.isError, r.resultLine, r.resultText
	}
	st.byID[id] = u
	st.uses = append(st.uses, u)
}

// result records a call's result; output is what it printed, searched for
// publication markers.
func (st *structured) result(n int, id string, isError bool, output string) {
	u := st.byID[id]
	if u == nil {
		u = &toolUse{}
		st.results[id] = u
	}
	if u.hasResult {
		return
	}
	u.hasResult, u.isError, u.resultLine = true, isError, n
	if isError {
		u.resultText = clip(output)
	}
	if output != "" {
		b, _ := json.Marshal(output)
		st.outputMarkers(u, n, b)
	}
}

func (st *structured) session(id string) {
	if id != "" && st.res.Session == "" {
		st.res.Session = id
	}
}

// codexLine reads one event of codex exec --json.
func codexLine(st *structured, n int, b []byte) error {
	var l struct {
		Type     string `json:"type"`
		ThreadID string `json:"thread_id"`
		Item     struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Command  string `json:"command"`
			Output   string `json:"aggregated_output"`
			ExitCode *int   `json:"exit_code"`
			Status   string `json:"status"`
			Changes  []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"changes"`
			Server    string          `json:"server"`
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
			Query     string          `json:"query"`
		} `json:"item"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	st.session(l.ThreadID)
	it := &l.Item
	if it.ID == "" || (l.Type != "item.started" && l.Type != "item.completed" && l.Type != "item.updated") {
		return nil
	}
	done := l.Type == "item.completed"
	switch it.Type {
	case "command_execution":
		in, _ := json.Marshal(map[string]string{"command": it.Command})
		st.use(n, it.ID, "Bash", in, codex.Tools(), nil)
	case "file_change":
		// Shown as the patch Codex applied, which its table reads.
		var patch strings.Builder
		patch.WriteString("*** Begin Patch\n")
		for _, c := range it.Changes {
			op := "Update"
			switch c.Kind {
			case "add":
				op = "Add"
			case "delete":
				op = "Delete"
			}
			fmt.Fprintf(&patch, "*** %s File: %s\n", op, c.Path)
		}
		patch.WriteString("*** End Patch")
		in, _ := json.Marshal(map[string]string{"input": patch.String()})
		st.use(n, it.ID, "apply_patch", in, codex.Tools(), nil)
	case "mcp_tool_call":
		args := it.Arguments
		if len(bytes.TrimSpace(args)) == 0 || args[0] != '{' {
			args = json.RawMessage("{}")
		}
		server, tool := it.Server, it.Tool
		st.use(n, it.ID, "mcp__"+server+"__"+tool, args, codex.Tools(), func(string) (string, string, bool) { return server, tool, true })
	case "web_search":
		in, _ := json.Marshal(map[string]string{"query": it.Query})
		st.use(n, it.ID, "web_search", in, codex.Tools(), nil)
	default:
		return nil
	}
	if !done {
		return nil
	}
	switch it.Status {
	case "declined":
		st.deny(it.ID, n, "codex: status declined")
	case "completed", "failed":
		st.result(n, it.ID, it.Status == "failed" || (it.ExitCode != nil && *it.ExitCode != 0), it.Output)
	}
	return nil
}

// geminiLine reads one event of gemini -o stream-json.
func geminiLine(st *structured, n int, b []byte) error {
	var l struct {
		Type       string          `json:"type"`
		SessionID  string          `json:"session_id"`
		ToolName   string          `json:"tool_name"`
		ToolID     string          `json:"tool_id"`
		Parameters json.RawMessage `json:"parameters"`
		Status     string          `json:"status"`
		Output     string          `json:"output"`
		Error      *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	st.session(l.SessionID)
	switch l.Type {
	case "tool_use":
		st.use(n, l.ToolID, l.ToolName, l.Parameters, gemini.Tools(), gemini.MCPName)
	case "tool_result":
		if l.Error != nil && l.Error.Type == "policy_violation" {
			st.deny(l.ToolID, n, "gemini: "+l.Error.Message)
			return nil
		}
		st.result(n, l.ToolID, l.Status != "success", l.Output)
	}
	return nil
}

// copilotLine reads one event of copilot --output-format json: a call is
// tool.execution_start, its end tool.execution_complete with success
// true or false. Copilot reports a call its preToolUse hook refused as
// started and then failed with "Denied by preToolUse hook: REASON"; a
// refusal by its own permission rules is worded "Denied by …" too.
func copilotLine(st *structured, n int, b []byte) error {
	var l struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionId"`
		Data      struct {
			ToolCallID string          `json:"toolCallId"`
			ToolName   string          `json:"toolName"`
			Arguments  json.RawMessage `json:"arguments"`
			Success    *bool           `json:"success"`
			// Result is an object on tool.execution_complete, and a
			// plain string on other events (model.call_final_result).
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	st.session(l.SessionID)
	d := &l.Data
	switch l.Type {
	case "tool.execution_start":
		args := d.Arguments
		if len(bytes.TrimSpace(args)) == 0 || args[0] != '{' {
			args = json.RawMessage("{}")
		}
		st.use(n, d.ToolCallID, d.ToolName, args, copilot.Tools(), nil)
	case "tool.execution_complete":
		if d.Success != nil && !*d.Success && d.Error != nil && strings.HasPrefix(d.Error.Message, "Denied by ") {
			st.deny(d.ToolCallID, n, "copilot: "+d.Error.Message)
			return nil
		}
		out := ""
		var r struct {
			Content string `json:"content"`
		}
		if len(d.Result) > 0 && d.Result[0] == '{' && json.Unmarshal(d.Result, &r) == nil {
			out = r.Content
		} else if d.Error != nil {
			out = d.Error.Message
		}
		st.result(n, d.ToolCallID, d.Success == nil || !*d.Success, out)
	}
	return nil
}

// opencodeLine reads one event of opencode run --format json: a tool call
// and its outcome are one tool_use event whose part.state.status is
// "completed" (the tool ran; a failing command still completes, with its
// exit code) or "error" (the tool did not complete). airlock's OpenCode
// plugin refuses a call by throwing, which OpenCode shows as an error
// with the plugin's message, and every such message starts with
// "airlock": that is the refusal marker. Another error (a tool that threw
// on its own) stays an error result, as the Claude formats' unmarked
// errors do.
func opencodeLine(st *structured, n int, b []byte) error {
	var l struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionID"`
		Part      struct {
			Type   string `json:"type"`
			Tool   string `json:"tool"`
			CallID string `json:"callID"`
			State  struct {
				Status string          `json:"status"`
				Input  json.RawMessage `json:"input"`
				Output string          `json:"output"`
				Error  string          `json:"error"`
			} `json:"state"`
		} `json:"part"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	st.session(l.SessionID)
	p := &l.Part
	if l.Type != "tool_use" || p.Type != "tool" {
		return nil
	}
	in := p.State.Input
	if len(bytes.TrimSpace(in)) == 0 || in[0] != '{' {
		in = json.RawMessage("{}")
	}
	st.use(n, p.CallID, p.Tool, in, opencode.Tools(), nil)
	switch p.State.Status {
	case "completed":
		st.result(n, p.CallID, false, p.State.Output)
	case "error":
		if strings.HasPrefix(p.State.Error, "airlock") {
			st.deny(p.CallID, n, "opencode: "+p.State.Error)
			return nil
		}
		st.result(n, p.CallID, true, p.State.Error)
	}
	return nil
}
