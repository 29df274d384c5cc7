// Package agentinstall installs airlock's hook into the agents other than
// Claude Code (whose installer is internal/agent/claudecode), removes it
// again, and inspects what is installed for "airlock doctor".
//
// One file per agent holds that agent's facts: where its configuration
// lives, which events airlock hooks, the hook's timeout in the agent's own
// unit, and what else the agent needs before it really runs a hook (Codex's
// trust entry). The phases are shared: jsonhooks.go merges a hook into a
// JSON hook list without touching anything else in the file, managed.go
// writes the files airlock owns outright (the OpenCode plugin, Cline's hook
// scripts), and plan.go turns either into the exact bytes to write.
//
// Installing computes a Plan before it writes anything: the same Plan is
// what --dry-run prints, and uninstalling after installing gives back the
// files byte for byte (the tests check this for every agent on files that
// hold the user's own content).
package agentinstall
