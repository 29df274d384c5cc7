// Package antigravity is the adapter for Google Antigravity's CLI (agy)
// hooks, from its public bug reports and other guards' measurements
// (../shared/agents/README.md, "More agents"): not installable here, so
// nothing in this package was seen against a real agy.
//
// A PreToolUse hook in ~/.gemini/config/hooks.json, selected for shell
// calls by the matcher "run_command", gets
//
//	{"toolCall":{"name":"run_command","args":{"CommandLine":"git push","Cwd":"/w"}}}
//
// on standard input: no event name and no working directory outside the
// tool's own arguments (agy runs hooks in ~/.gemini/config, so the
// process's own directory says nothing). The event is the one the hook
// was installed for (--event), PreToolUse when not told.
//
// The reply is a decision on standard output, and agy reads its shapes
// its own way:
//
//   - {"decision":"deny","reason":…} refuses the call and shows the
//     reason to the model. A Claude-shaped deny (hookSpecificOutput) is
//     not read at all and the command runs, so it is never written here.
//   - {"decision":"allow"} approves the call outright, skipping agy's own
//     permission rules (measured on 1.2.3), or was seen not to let it run
//     (1.2.7, headless). Either way it is not airlock's to say: airlock
//     only ever withholds permission.
//   - {"decision":"ask"} hands the call to agy's own permission rules, as
//     if no hook had spoken: it is what airlock answers for a call it lets
//     through.
//   - {}, an empty decision, text that is not JSON, or a non-zero exit
//     refuse the call (1.2.x); empty output ran the call on 1.2.3 and was
//     reported refused on others. A crash of airlock is thus a refusal,
//     but airlock never relies on that: every failure it can see is
//     answered with the deny above.
//
// In some versions a deny became a permission prompt the user could
// accept, and command hooks ran only with enable_json_hooks and
// enable_prehook set in ~/.gemini/antigravity-cli/settings.json
// (airlock doctor checks them); docs/AGENTS.md says what airlock can and
// cannot promise there.
package antigravity

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
)

// Name is the agent's name on the command line.
const Name = "antigravity"

// Event is the event airlock installs.
const Event = "PreToolUse"

// Tools is agy's tool table. Only run_command reaches the hook as
// airlock installs it (matcher run_command); the file tools are read in
// case a user widens the matcher, by the one field that names the file,
// and a call without that field is refused. Every other tool is unknown:
// held, never read as local. run_command is not Closed: agy's other
// arguments are not known, and holding every command for one of them
// would stop all work.
var Tools = sync.OnceValue(func() toolcall.Table {
	return toolcall.Table{
		"run_command":                {Class: toolcall.Shell, Command: []string{"CommandLine"}},
		"write_to_file":              {Class: toolcall.Write, Path: []string{"TargetFile"}, Content: []string{"CodeContent"}},
		"replace_file_content":       {Class: toolcall.Write, Path: []string{"TargetFile"}},
		"multi_replace_file_content": {Class: toolcall.Write, Path: []string{"TargetFile"}},
		"view_file":                  {Class: toolcall.Read, Path: []string{"AbsolutePath"}},
		"list_dir":                   {Class: toolcall.Read, Path: []string{"DirectoryPath"}},
	}
})

// Input is agy's event.
type Input struct {
	ToolCall *struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"toolCall"`
}

// Reply is agy's hook decision.
type Reply struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

type adapter struct{}

// New is the adapter.
func New() hookrun.Adapter { return adapter{} }

func (adapter) Name() string { return Name }

// Blocks: the pre-tool event, or the hook's event when not told (the
// input never names one).
func (adapter) Blocks(event string) bool { return event == "" || event == Event }

// Decode reads one event.
func (adapter) Decode(event string, data []byte) (*hookrun.Request, error) {
	if event != "" && event != Event {
		// airlock installs PreToolUse only; another event is not one it
		// decides, and its input shape is not known.
		return &hookrun.Request{Native: event}, hookrun.Malformed(Name, "airlock answers only %s for agy, not %s", Event, event)
	}
	var in Input
	raw, err := hookrun.DecodeObject(Name, data, &in)
	if err != nil {
		return nil, err
	}
	if in.ToolCall == nil {
		return nil, hookrun.Malformed(Name, "missing toolCall")
	}
	req := &hookrun.Request{Native: Event, Event: hookrun.PreToolUse, Input: in.ToolCall.Args, Raw: raw}
	if hookrun.IsObject(in.ToolCall.Args) {
		var probe struct {
			Cwd *string `json:"Cwd"`
		}
		if json.Unmarshal(in.ToolCall.Args, &probe) == nil && probe.Cwd != nil {
			req.Cwd = *probe.Cwd
		}
	}
	return req, hookrun.ToolCall(req, Name, in.ToolCall.Name, Tools(), nil)
}

// Encode writes agy's deny, or "ask" for a call airlock lets through
// (see the package comment), always on exit 0. An event airlock does not
// decide gets no output.
func (adapter) Encode(req *hookrun.Request, res *hookrun.Result, stdout, stderr io.Writer) int {
	if res.Deny {
		return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "deny", Reason: res.Reason})
	}
	if req != nil && req.Event == hookrun.PreToolUse {
		return hookrun.WriteJSON(stdout, stderr, Reply{Decision: "ask"})
	}
	return 0
}
