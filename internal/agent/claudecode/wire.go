package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Input is one hook event as Claude Code sends it on standard input. Only
// the fields airlock uses are decoded; the raw bytes are kept for the
// journal.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	Prompt         string          `json:"prompt"`
	Source         string          `json:"source"`
	AgentID        string          `json:"agent_id"`
	AgentType      string          `json:"agent_type"`
	// Raw is the whole event as received.
	Raw json.RawMessage `json:"-"`
}

// MaxInput is the largest event read. A Write of a big file carries the
// file in tool_input, so the bound is generous; beyond it the event is
// malformed, which for PreToolUse means blocked.
const MaxInput = 32 << 20

// Errors a hook input can have; each InputError wraps one of them.
var (
	// ErrMalformed: the input is not one JSON object.
	ErrMalformed = errors.New("malformed hook input")
	// ErrMissingField: a field the event needs is absent or of the wrong type.
	ErrMissingField = errors.New("missing or invalid field")
	// ErrUnknownEvent: the event name is not one Claude Code defines.
	ErrUnknownEvent = errors.New("unknown hook event")
)

// InputError says what is wrong with a hook input.
type InputError struct {
	// Event is the event name, when it could be read.
	Event string
	// Field is the field at fault, if any.
	Field string
	// Err is ErrMalformed, ErrMissingField or ErrUnknownEvent.
	Err error
	// Detail adds what the decoder saw.
	Detail string
}

func (e *InputError) Error() string {
	msg := e.Err.Error()
	if e.Field != "" {
		msg += " " + e.Field
	}
	if e.Event != "" {
		msg += " in " + e.Event + " event"
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *InputError) Unwrap() error { return e.Err }

// IsEvent reports whether name is one of Claude Code's hook events
// (agent-hooks.md §1.3). A switch rather than a package-level map: a map
// literal is built by package initialisation in every process.
func IsEvent(name string) bool {
	switch name {
	case "SessionStart", "Setup", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse",
		"PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure",
		"PostToolBatch", "Notification", "MessageDisplay", "SubagentStart", "SubagentStop",
		"TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle", "InstructionsLoaded",
		"ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate",
		"WorktreeRemove", "PreCompact", "PostCompact", "Elicitation", "ElicitationResult",
		"SessionEnd":
		return true
	}
	return false
}

// Decode reads one hook event. It checks what each event needs in order
// to be answered: the event name always; for PreToolUse the tool name, a
// tool_input object and the cwd.
func Decode(data []byte) (*Input, error) {
	if len(data) > MaxInput {
		return nil, &InputError{Err: ErrMalformed, Detail: fmt.Sprintf("larger than %d bytes", MaxInput)}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &InputError{Err: ErrMalformed, Detail: "want one JSON object on standard input"}
	}
	in := &Input{Raw: json.RawMessage(trimmed)}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(in); err != nil {
		return nil, &InputError{Event: sniffEvent(trimmed), Err: ErrMalformed, Detail: err.Error()}
	}
	if dec.More() {
		return nil, &InputError{Event: in.HookEventName, Err: ErrMalformed, Detail: "more than one JSON value"}
	}
	switch {
	case in.HookEventName == "":
		return nil, &InputError{Err: ErrMissingField, Field: "hook_event_name"}
	case !IsEvent(in.HookEventName):
		return nil, &InputError{Event: in.HookEventName, Err: ErrUnknownEvent}
	case in.HookEventName != "PreToolUse":
		return in, nil
	case in.ToolName == "":
		return nil, &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "tool_name"}
	case !isObject(in.ToolInput):
		return nil, &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "tool_input", Detail: "want a JSON object"}
	case in.Cwd == "":
		return nil, &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "cwd"}
	}
	return in, nil
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// sniffEvent finds the event name in input that failed to decode as a
// whole (a bad value elsewhere), so the failure can still be answered the
// way that event needs. It returns "" when the name cannot be read.
func sniffEvent(data []byte) string {
	var probe struct {
		HookEventName string `json:"hook_event_name"`
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&probe); err != nil {
		return ""
	}
	return probe.HookEventName
}
