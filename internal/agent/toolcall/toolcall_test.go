package toolcall

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
)

var table = Table{
	"sh":    {Class: Shell, Command: []string{"command", "cmd"}, Dir: []string{"workdir"}},
	"argv":  ArgvSpec("command"),
	"patch": PatchSpec("input"),
	"grep":  {Class: Read, Path: []string{"path"}, OptionalPath: true},
	"fetch": {Class: Fetch, URL: []string{"url"}},
	"write": {Class: Write, Path: []string{"file_path"}, Content: []string{"content"}},
	"todo":  {Class: Local},
}

func mcp(tool string) (string, string, bool) { return SplitMCP(tool, "mcp__", "__") }

func TestTranslate(t *testing.T) {
	tests := []struct {
		tool, input string
		kind        policy.Kind
		command     string
		paths       []string
		cwd         string
		wantErr     bool
	}{
		{tool: "sh", input: `{"cmd":"git push"}`, kind: policy.Shell, command: "git push", cwd: "/w"},
		{tool: "sh", input: `{"command":"ls","workdir":"sub"}`, kind: policy.Shell, command: "ls", cwd: "/w/sub"},
		{tool: "sh", input: `{"command":"ls","workdir":"/etc"}`, kind: policy.Shell, command: "ls", cwd: "/etc"},
		{tool: "sh", input: `{"command":""}`, wantErr: true},
		{tool: "sh", input: `{"command":["git","push"]}`, wantErr: true},
		// An argv array is quoted back, so the words reach the classifier
		// as they will run.
		{tool: "argv", input: `{"command":["bash","-lc","git push && echo 'x'"]}`, kind: policy.Shell, command: `bash -lc 'git push && echo '\''x'\'''`, cwd: "/w"},
		{tool: "patch", input: `{"input":"*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.go\n*** Move to: c.go\n*** Delete File: d\n*** End Patch"}`,
			kind: policy.Shell, command: "cat > a.txt <<'AIRLOCK_PATCH_EOF'\nhi\nAIRLOCK_PATCH_EOF\ncp -- b.go c.go\nrm -f -- b.go\nrm -f -- d", cwd: "/w"},
		// Without a deletion or a move a patch stays a write.
		{tool: "patch", input: `{"input":"*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.go\n+x\n*** End Patch"}`,
			kind: policy.Write, paths: []string{"a.txt", "b.go"}, cwd: "/w"},
		// A patch naming no file is refused, not judged as writing nothing.
		{tool: "patch", input: `{"input":"+just text"}`, wantErr: true},
		{tool: "grep", input: `{}`, kind: policy.Read, paths: []string{"/w"}, cwd: "/w"},
		{tool: "fetch", input: `{}`, wantErr: true},
		{tool: "write", input: `{"file_path":"x"}`, kind: policy.Write, paths: []string{"x"}, cwd: "/w"},
		{tool: "todo", input: `{}`, kind: policy.LocalTool, cwd: "/w"},
		// Unknown is never local.
		{tool: "Todo", input: `{}`, kind: policy.UnknownTool, cwd: "/w"},
		{tool: "mcp__s__t", input: `{"a":1}`, kind: policy.UnknownTool, cwd: "/w"},
		{tool: "sh", input: `[1]`, wantErr: true},
	}
	for _, tt := range tests {
		c, err := table.Translate(tt.tool, json.RawMessage(tt.input), "/w", mcp)
		if tt.wantErr {
			if !errors.Is(err, ErrField) {
				t.Errorf("%s %s: err %v, want a field error", tt.tool, tt.input, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tt.tool, tt.input, err)
			continue
		}
		a := c.Action("/w")
		if a.Kind != tt.kind || a.Command != tt.command || a.Cwd != tt.cwd || len(a.Paths) != len(tt.paths) {
			t.Errorf("%s %s: action %+v", tt.tool, tt.input, a)
			continue
		}
		for i := range a.Paths {
			if a.Paths[i] != tt.paths[i] {
				t.Errorf("%s: paths %v, want %v", tt.tool, a.Paths, tt.paths)
			}
		}
	}
}

// An MCP call keeps its server and tool for the guard, spelled as Claude
// Code spells it, with its arguments.
func TestMCPClaudeSpelling(t *testing.T) {
	c, err := table.Translate("mcp__texts__send", json.RawMessage(`{"to":"x"}`), "/w", mcp)
	if err != nil {
		t.Fatal(err)
	}
	name, input := c.Claude(nil)
	if a := c.Action("/w"); a.Tool != "mcp__texts__send" || name != "mcp__texts__send" || string(input) != `{"to":"x"}` {
		t.Errorf("action %+v, claude %s %s", a, name, input)
	}
}
