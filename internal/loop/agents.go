package loop

import "sort"

// AgentPreset is how the loop runs one agent CLI it knows in that CLI's
// non-interactive mode (airlock loop --agent NAME).
type AgentPreset struct {
	// Name is what --agent takes.
	Name string
	// Command is the agent command, as --agent-cmd takes it. Each lets the
	// agent use its tools without asking, as the default Claude command
	// does: nobody can answer a prompt in a loop, so an agent that asks
	// does nothing, and airlock's hook stays the gate for what the tools do.
	Command string
	// Kind is the agent kind (KindClaude or KindOther).
	Kind string
	// Output names the format the agent writes on standard output, which
	// the scanner reads after the fact.
	Output string
}

// DefaultClaudeCmd is Claude Code in print mode, allowed to use the tools
// a story needs. In print mode Claude Code refuses every tool that needs a
// permission prompt, so plain "claude --print" can edit nothing (observed
// on 2.1.332: its Write and Bash calls reach airlock's hook, which allows
// them, and are then refused by Claude Code). Allowing them lets them
// through to airlock's hook, which stays the gate for what they do.
const DefaultClaudeCmd = "claude --print --allowedTools Bash,Edit,Write,Read,Glob,Grep"

// agentPresets are the agents --agent knows. The commands other than
// Claude Code's come from each CLI's --help at the
// versions in .ci/npm (docs/E2E.md). A map made on each call: a
// package-level one is built by package initialisation in every process,
// the hook's included.
func agentPresets() map[string]AgentPreset {
	return map[string]AgentPreset{
		"claude": {Name: "claude", Kind: KindClaude, Output: "Claude Code text, or stream-json with --output-format",
			Command: DefaultClaudeCmd},
		// codex exec reads the prompt from standard input when its argument is
		// "-"; --json writes its events as JSON lines.
		"codex": {Name: "codex", Kind: KindOther, Output: "codex exec --json events",
			Command: "codex exec --json --skip-git-repo-check -"},
		// Gemini runs headless with -p; yolo lets its shell tool run without a
		// confirmation nobody could give (it would hang).
		"gemini": {Name: "gemini", Kind: KindOther, Output: "gemini -o stream-json events",
			Command: "gemini --approval-mode yolo -o stream-json -p " + PromptPlaceholder},
		"copilot": {Name: "copilot", Kind: KindOther, Output: "copilot --output-format json events",
			Command: "copilot --allow-all-tools --output-format json -p " + PromptPlaceholder},
		"opencode": {Name: "opencode", Kind: KindOther, Output: "opencode run --format json events",
			Command: "opencode run --format json " + PromptPlaceholder},
	}
}

// LookupAgent returns the preset --agent name selects.
func LookupAgent(name string) (AgentPreset, bool) {
	p, ok := agentPresets()[name]
	return p, ok
}

// AgentNames lists the names --agent takes, sorted.
func AgentNames() []string {
	presets := agentPresets()
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
