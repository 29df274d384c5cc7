// Package cursor is the adapter for Cursor's agent hooks (documented:
// cursor.com/docs/agent/hooks; ../shared/agents/README.md §1.2; the CLI
// cannot be installed here, so the tests use the documented payloads).
// Every event carries hook_event_name, conversation_id and
// workspace_roots; the ones airlock decides:
//
//   - beforeShellExecution {command, cwd}: a shell command;
//   - beforeMCPExecution {tool_name, tool_input, url | command}: an MCP
//     call. The event names the server by its URL or command only, not by
//     the name the policy knows it by, so the call is unknown and the
//     policy's "unknown" decision holds it;
//   - beforeReadFile {file_path, content}: a file about to be sent to the
//     model (self-protection refuses airlock's secrets);
//   - preToolUse {tool_name, tool_input}: any tool, by Cursor's names.
//
// The reply is {"permission":"deny","user_message":…,"agent_message":…};
// a call airlock lets through gets {} (no "allow": airlock only withholds
// permission, Cursor's own approval still applies). Cursor ignores "ask"
// in some modes and fails open by default: airlock never asks, and the
// installer sets failClosed.
package cursor

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "cursor"

// Tools is Cursor's preToolUse tool table.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"Shell":      {Class: toolcall.Shell, Command: []string{"command"}, Dir: []string{"cwd", "working_directory"}},
		"Read":       {Class: toolcall.Read, Path: []string{"file_path", "path", "target_file"}},
		"Write":      {Class: toolcall.Write, Path: []string{"file_path", "path", "target_file"}, Content: []string{"contents", "content"}},
		"Edit":       {Class: toolcall.Write, Path: []string{"file_path", "path", "target_file"}, Old: []string{"old_string"}, New: []string{"new_string"}},
		"StrReplace": {Class: toolcall.Write, Path: []string{"file_path", "path", "target_file"}, Old: []string{"old_string"}, New: []string{"new_string"}},
		"Delete":     toolcall.DeleteSpec("file_path", "path", "target_file"),
		"Grep":       {Class: toolcall.Read, Path: []string{"path"}, OptionalPath: true},
		"LS":         {Class: toolcall.Read, Path: []string{"path", "target_directory"}, OptionalPath: true},
		"Glob":       {Class: toolcall.Local},
		"WebFetch":   {Class: toolcall.Fetch, URL: []string{"url"}},
		"WebSearch":  {Class: toolcall.Fetch},
		"Task":       {Class: toolcall.Local},
		"TodoWrite":  {Class: toolcall.Local},
	}
})

// Events maps Cursor's events onto the decision core's.
func Events(name string) string {
	switch name {
	case "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "preToolUse":
		return hookrun.PreToolUse
	case "postToolUse":
		return hookrun.PostToolUse
	case "beforeSubmitPrompt":
		return hookrun.UserPromptSubmit
	case "sessionStart":
		return hookrun.SessionStart
	case "stop":
		return hookrun.Stop
	case "sessionEnd":
		return hookrun.SessionEnd
	}
	return ""
}

// Input is the part of Cursor's events airlock reads.
type Input struct {
	HookEventName  string          `json:"hook_event_name"`
	ConversationID string          `json:"conversation_id"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	Cwd            string          `json:"cwd"`
	Command        string          `json:"command"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	FilePath       string          `json:"file_path"`
	Prompt         string          `json:"prompt"`
}

// Reply is Cursor's permission reply.
type Reply struct {
	Permission   string `json:"permission,omitempty"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: the before* and preToolUse events, or an unknown one.
func (adapter) Blocks(event string) bool {
	return event == "" || Events(event) == hookrun.PreToolUse
}

// Decode reads one event.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if r, err := hookrun.CheckEvent(Name, "hook_event_name", in.HookEventName, event); err != nil {
		return r, err
	}
	cwd := in.Cwd
	if cwd == "" && len(in.WorkspaceRoots) > 0 {
		cwd = in.WorkspaceRoots[0]
	}
	req := &hookrun.Request{Native: in.HookEventName, Event: Events(in.HookEventName), Session: in.ConversationID,
		Cwd: cwd, ToolUseID: in.ToolUseID, Prompt: in.Prompt, Raw: raw}
	switch in.HookEventName {
	case "beforeShellExecution":
		if in.Command == "" {
			return nil, hookrun.Malformed(Name, "beforeShellExecution without a command")
		}
		b, _ := json.Marshal(map[string]string{"command": in.Command})
		req.Input = b
		return req, hookrun.ToolCall(req, Name, "Shell", toolcall.Table{"Shell": Tools()["Shell"]}, nil)
	case "beforeReadFile":
		if in.FilePath == "" {
			return nil, hookrun.Malformed(Name, "beforeReadFile without a file_path")
		}
		// The file's content is in the event; only its path matters here.
		b, _ := json.Marshal(map[string]string{"file_path": in.FilePath})
		req.Input = b
		return req, hookrun.ToolCall(req, Name, "Read", toolcall.Table{"Read": Tools()["Read"]}, nil)
	case "beforeMCPExecution":
		// tool_input is a JSON string of the arguments.
		var s string
		if json.Unmarshal(in.ToolInput, &s) == nil {
			in.ToolInput = json.RawMessage(s)
		}
		if len(in.ToolInput) == 0 {
			in.ToolInput = json.RawMessage("{}")
		}
		req.Input = in.ToolInput
		return req, hookrun.ToolCall(req, Name, "MCP:"+in.ToolName, nil, nil)
	}
	req.Input = in.ToolInput
	return req, hookrun.ToolCall(req, Name, in.ToolName, Tools(), nil)
}

// Encode writes the deny, or {} ({"continue":true} to a prompt, which
// Cursor would otherwise not send: airlock never stops the user's own
// words).
func (adapter) Encode(req *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if req != nil && req.Native == "beforeSubmitPrompt" {
		return hookrun.WriteJSON(stdout, stderr, struct {
			Continue bool `json:"continue"`
		}{true})
	}
	if !res.Deny {
		return hookrun.WriteJSON(stdout, stderr, Reply{})
	}
	human := res.Human
	if human == "" {
		human = res.Reason
	}
	return hookrun.WriteJSON(stdout, stderr, Reply{Permission: "deny", UserMessage: human, AgentMessage: res.Reason})
}
