package vocab

// The event names entry points hand to the decision pipeline. They are
// Claude Code's (the first adapter's); an adapter for another agent maps
// its own events onto them and keeps the agent's wire bytes as they came.
const (
	// EventPreToolUse is a tool call about to run: it is decided.
	EventPreToolUse = "PreToolUse"
	// EventPostToolUse is a tool call that ran: the gate learns what it read.
	EventPostToolUse = "PostToolUse"
	// EventUserPromptSubmit carries the user's own words.
	EventUserPromptSubmit = "UserPromptSubmit"
	// EventSessionStart is a session starting: it is recorded.
	EventSessionStart = "SessionStart"
	// EventStop is the end of the agent's turn: it is recorded.
	EventStop = "Stop"
	// EventSessionEnd is the end of a session: it is recorded.
	EventSessionEnd = "SessionEnd"
)

// The stages of the decision pipeline, as its outcome names the one that
// set the verdict.
const (
	// StageSelf is self-protection: the policy's "self." rules.
	StageSelf = "self"
	// StageRules is the policy's rules and mode table.
	StageRules = "rules"
	// StageMCP is the MCP firewall.
	StageMCP = "mcp"
	// StageGate is the fact-forcing gate.
	StageGate = "gate"
	// StageApproval is the pipeline letting through, once, a hold a
	// human approved, which the journal found under its lock (or holding
	// again a call whose approval was spent).
	StageApproval = "approval"
	// StageJournal is a decision that could not be recorded, refused.
	StageJournal = "journal"
	// StagePolicyError is a policy that could not be loaded: everything
	// is refused.
	StagePolicyError = "policy.error"
)
