// Package hookline builds and recognises the command line an agent's
// configuration runs for airlock's hook, in its two forms:
//
//	/usr/local/bin/airlock hook codex --event PreToolUse      (in process)
//	/usr/local/bin/airlock-hook codex --event PreToolUse      (the service's client)
//
// Both forms are airlock's own, so that installing, reinstalling,
// uninstalling and upgrading between them replace or remove the line
// instead of adding a second one or leaving a stale one. It also finds
// the client installed beside the airlock binary, and says why it will
// not use one it finds (ClientError).
//
// One package for both installers (internal/agent/claudecode for Claude
// Code, internal/agentinstall for the other agents), so that what counts
// as airlock's line is decided in one place.
package hookline
