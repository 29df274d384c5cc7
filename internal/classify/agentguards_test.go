package classify

import (
	"os"
	"sort"
	"testing"

	"github.com/airlock-dev/airlock/internal/shell"
)

// agentAdapterPrograms maps each adapter in internal/agent to the program
// its agent runs as. TestAgentGuardsEveryAdapter fails when an adapter is
// added without a row here, so its guard-off flags are looked at.
var agentAdapterPrograms = map[string]string{
	"antigravity": "agy", "auggie": "auggie", "claudecode": "claude", "cline": "cline",
	"codex": "codex", "copilot": "copilot", "crush": "crush", "cursor": "cursor-agent",
	"factory": "droid", "gemini": "gemini", "goose": "goose", "kiro": "kiro-cli",
	"opencode": "opencode", "pi": "pi", "qwen": "qwen",
}

// TestAgentGuardsEveryAdapter: every agent airlock has an adapter for is
// in the hooked-agent table, with at least one run that turns its guard
// off (a flag where the agent has one, else moving its configuration) and
// one ordinary run that does not (FINDINGS-4 K4).
func TestAgentGuardsEveryAdapter(t *testing.T) {
	dirs, err := os.ReadDir("../agent")
	if err != nil {
		t.Fatal(err)
	}
	var adapters []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		switch d.Name() {
		case "hookrun", "toolcall": // shared machinery, not agents
			continue
		}
		adapters = append(adapters, d.Name())
	}
	sort.Strings(adapters)
	for _, a := range adapters {
		prog, ok := agentAdapterPrograms[a]
		if !ok {
			t.Errorf("internal/agent/%s has no row in agentAdapterPrograms: add its program and its guard-off flags (agents.go)", a)
			continue
		}
		if !IsAgent(prog) {
			t.Errorf("%s (adapter %s) is not in the hooked-agent table", prog, a)
		}
	}
	off := []string{
		"agy --dangerously-skip-permissions -p hi",
		"agy --yolo hi",
		"HOME=/tmp/fake agy hi",
		"auggie --augment-cache-dir=/tmp/x -p hi",
		"claude --dangerously-skip-permissions -p hi",
		"cline --yolo hi",
		"cline -y hi",
		"cline --auto-approve hi",
		"cline --auto-approve=true hi",
		"cline --hooks-dir ./h hi",
		"cline --data-dir /tmp/c hi",
		"cline --config /tmp/c hi",
		"CLINE_DATA_DIR=/tmp/c cline hi",
		"npx cline --yolo hi",
		"codex --yolo exec hi",
		"COPILOT_HOME=/tmp/c copilot -p hi",
		"CRUSH_GLOBAL_CONFIG=/tmp/c crush run hi",
		"XDG_CONFIG_HOME=/tmp/c cursor-agent -p hi",
		"droid --skip-permissions-unsafe exec hi",
		"gemini --approval-mode=yolo -p hi",
		"GOOSE_MODE=auto goose run -t hi",
		"HOME=/tmp/c kiro-cli chat hi",
		"OPENCODE_CONFIG=/tmp/c.json opencode run hi",
		"pi --no-extensions -p hi",
		"qwen -y -p hi",
	}
	on := []string{
		"agy -p hi",
		"agy --sandbox -p hi",
		"auggie -p hi",
		"claude -p hi",
		"cline hi",
		"cline --auto-approve false hi",
		"cline --auto-approve=false hi",
		"cline --json -m x hi",
		"codex exec hi",
		"copilot --allow-all-tools -p hi",
		"crush --yolo run hi",
		"cursor-agent --force -p hi",
		"droid exec hi",
		"gemini -p hi",
		"goose run -t hi",
		"kiro-cli chat --trust-all-tools hi",
		"opencode run hi",
		"pi -p hi",
		"qwen -p hi",
	}
	for _, cmd := range off {
		if what, got := guardOff(t, cmd); !got {
			t.Errorf("%s: guard not read as off", cmd)
		} else if what == "" {
			t.Errorf("%s: off without saying what turned it off", cmd)
		}
	}
	for _, cmd := range on {
		if what, got := guardOff(t, cmd); got {
			t.Errorf("%s: read as guard off (%s); it keeps the hook", cmd, what)
		}
	}
}

func guardOff(t *testing.T, cmd string) (string, bool) {
	t.Helper()
	invs := shell.Parse(cmd)
	if len(invs) == 0 {
		t.Fatalf("%s: no program run found", cmd)
	}
	for i := range invs {
		if what, off := AgentGuardOff(&invs[i]); off {
			return what, true
		}
	}
	return "", false
}
