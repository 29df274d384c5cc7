// Package pipeline decides a tool call once, whatever entry point it came
// through, and records what it decided.
//
// An entry point (an agent hook adapter such as internal/agent/claudecode,
// later the MCP proxy and the review surface) only translates: it turns
// its wire format into a Request, hands it to Pipeline.Decide or
// Pipeline.Observe, and turns the Outcome back into its wire format. It
// calls no stage itself.
//
// Decide runs these stages, in order; each may replace the verdict of the
// ones before it, and Outcome.Stage names the last one that did:
//
//   - "self": self-protection (policy.Decide's "self." rules);
//   - "rules": the policy's rules and mode table (policy.Decide);
//   - "mcp": the MCP firewall, for mcp__server__tool calls (internal/mcp/guard);
//   - no stage name: when nobody can answer a prompt, an ask becomes a
//     hold (policy.NoHumanToAsk);
//   - "gate": the fact-forcing gate, for calls not held (Gate);
//   - "approval": a hold a human approved runs once: the journal finds
//     the approval under its lock, and this package's claim (approval.go)
//     decides, under the same lock, that the call spends it (Recorder);
//   - "journal": a decision that cannot be recorded is refused.
//
// A policy that cannot be loaded refuses the call at stage "policy.error".
package pipeline
