package classify

import (
	"strings"
	"testing"
)

// TestNestedAgents checks the nested-agent rules with close variants: an
// agent airlock has no hook for is opaque and still looked through for
// the commands in its words; a hooked agent is opaque only with its
// guard off, in every spelling AgentGuardOff reads.
func TestNestedAgents(t *testing.T) {
	for _, tc := range []struct{ cmd, label, reason string }{
		{"aider --message 'git push' --yes", "external+opaque", "--yes approves every action"},
		{"aider --yes-always --message 'fix tests'", "local+opaque", "agent.unhooked"},
		{"open-interpreter --auto_run", "local+opaque", "Open Interpreter"},
		{"plandex --full", "local+opaque", "Plandex"},
		{"sgpt -s 'list files'", "local+opaque", "shell-gpt"},
		{"sgpt --code 'fizzbuzz'", "local", ""},
		{"claude config set disableAllHooks 1", "local+opaque", "turns the agent's guard off"},
		{"claude config add hooks.PreToolUse x", "local+opaque", "hooks"},
		{"claude config set -g permissions.defaultMode bypassPermissions", "local+opaque", "bypassPermissions"},
		{"claude config set -g permissions.defaultMode default", "local", ""},
		{"claude config set disableAllHooks $V", "local+opaque", "known only when it runs"},
		{"codex -c hooks=false exec x", "local+opaque", "guard off"},
		{"gemini --approval-mode yolo", "local+opaque", "guard off"},
		{"gemini --approval-mode default -p x", "local", ""},
		{"droid --skip-permissions-unsafe", "local+opaque", "guard off"},
		{"CLAUDE_CONFIG_DIR=/tmp/c claude -p x", "local+opaque", "CLAUDE_CONFIG_DIR"},
		{"bash -c 'claude --dangerously-skip-permissions -p x'", "local+opaque", "guard off"},
		{"copilot --allow-all-tools -p x", "local", ""},
	} {
		got := Command(tc.cmd)
		if got.Label() != tc.label {
			t.Errorf("%s\n  got  %s %v\n  want %s", tc.cmd, got.Label(), got.Reasons, tc.label)
			continue
		}
		if tc.reason != "" && !strings.Contains(reasonText(got.Effect), tc.reason) {
			t.Errorf("%s: reasons %v do not mention %q", tc.cmd, got.Reasons, tc.reason)
		}
	}
}
