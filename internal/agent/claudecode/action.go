package claudecode

import (
	"encoding/json"
	"strings"

	"github.com/airlock-dev/airlock/internal/policy"
)

// localTools are Claude Code's tools that stay on this machine and change
// nothing others see, or that hand work to a sub-agent whose own tool
// calls come through the hook again. A tool missing here is unknown, and
// unknown tools get the policy's "unknown" decision.
var localTools = map[string]bool{
	"Glob": true, "LS": true, "TodoWrite": true, "TodoRead": true, "Task": true, "Agent": true,
	"AskUserQuestion": true, "ExitPlanMode": true, "EnterPlanMode": true, "Skill": true,
	"SlashCommand": true, "BashOutput": true, "KillShell": true, "KillBash": true,
	"TaskOutput": true, "TaskStop": true, "Monitor": true,
	"TaskCreate": true, "TaskUpdate": true, "TaskList": true, "TaskGet": true,
}

// toolInput is the union of the tool_input fields airlock reads.
type toolInput struct {
	Command      *string `json:"command"`
	FilePath     *string `json:"file_path"`
	NotebookPath *string `json:"notebook_path"`
	Path         *string `json:"path"`
	URL          *string `json:"url"`
	// What Write and Edit put in the file: self-protection reads it for
	// shell start-up files.
	Content    *string    `json:"content"`
	OldString  *string    `json:"old_string"`
	NewString  *string    `json:"new_string"`
	NewSource  *string    `json:"new_source"` // NotebookEdit
	ReplaceAll bool       `json:"replace_all"`
	Edits      []editItem `json:"edits"`
}

// editItem is one replacement of a MultiEdit.
type editItem struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// edits returns what a Write, Edit or MultiEdit puts in its file, or nil
// when the input does not say.
func (ti *toolInput) edits(tool string) []policy.Edit {
	switch tool {
	case "Write":
		if ti.Content != nil {
			return []policy.Edit{{Whole: true, New: *ti.Content}}
		}
	case "Edit":
		if ti.OldString != nil && ti.NewString != nil {
			return []policy.Edit{{Old: *ti.OldString, New: *ti.NewString, All: ti.ReplaceAll}}
		}
	case "MultiEdit":
		if len(ti.Edits) > 0 {
			out := make([]policy.Edit, len(ti.Edits))
			for i, e := range ti.Edits {
				out[i] = policy.Edit{Old: e.OldString, New: e.NewString, All: e.ReplaceAll}
			}
			return out
		}
	}
	return nil
}

// newText is the text a Write, Edit, MultiEdit or NotebookEdit puts into
// its file: the classifier reads the commands it holds.
func (ti *toolInput) newText() string {
	var parts []string
	for _, p := range []*string{ti.Content, ti.NewString, ti.NewSource} {
		if p != nil {
			parts = append(parts, *p)
		}
	}
	for _, e := range ti.Edits {
		parts = append(parts, e.NewString)
	}
	return strings.Join(parts, "\n")
}

// ToAction turns a PreToolUse event into the action the policy decides
// (agent-hooks.md §1.6). A tool_input without the field its tool needs is
// an InputError: the hook then blocks, as it must not guess.
func ToAction(in *Input) (policy.Action, error) {
	a := policy.Action{Tool: in.ToolName, Cwd: in.Cwd}
	var ti toolInput
	if err := json.Unmarshal(in.ToolInput, &ti); err != nil {
		return a, &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "tool_input", Detail: err.Error()}
	}
	need := func(v *string, field string) (string, error) {
		if v == nil || *v == "" {
			return "", &InputError{Event: in.HookEventName, Err: ErrMissingField, Field: "tool_input." + field, Detail: "for tool " + in.ToolName}
		}
		return *v, nil
	}
	var err error
	switch name := in.ToolName; {
	case name == "Bash":
		a.Kind = policy.Shell
		a.Command, err = need(ti.Command, "command")
	case name == "Edit" || name == "Write" || name == "MultiEdit":
		a.Kind = policy.Write
		a.Paths, err = one(need(ti.FilePath, "file_path"))
		a.Edits = ti.edits(name)
		a.Content = ti.newText()
	case name == "NotebookEdit":
		a.Kind = policy.Write
		a.Paths, err = one(need(ti.NotebookPath, "notebook_path"))
	case name == "Read":
		a.Kind = policy.Read
		a.Paths, err = one(need(ti.FilePath, "file_path"))
	case name == "NotebookRead":
		a.Kind = policy.Read
		a.Paths, err = one(need(ti.NotebookPath, "notebook_path"))
	case name == "Grep":
		// Grep prints file content, so it reads like Read does; without a
		// path it searches the working directory.
		a.Kind = policy.Read
		a.Paths = []string{in.Cwd}
		if ti.Path != nil && *ti.Path != "" {
			a.Paths = []string{*ti.Path}
		}
	case name == "WebFetch":
		a.Kind = policy.Fetch
		a.URL, err = need(ti.URL, "url")
	case name == "WebSearch":
		a.Kind = policy.Fetch
	case strings.HasPrefix(name, "mcp__"):
		a.Kind = policy.UnknownTool
	case localTools[name]:
		a.Kind = policy.LocalTool
	default:
		// PowerShell included: its text is not POSIX shell, so airlock
		// cannot read it and treats the tool as unknown.
		a.Kind = policy.UnknownTool
	}
	return a, err
}

func one(s string, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}
