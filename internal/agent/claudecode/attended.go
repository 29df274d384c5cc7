package claudecode

// Whether a human can answer an "ask" in the session a hook runs for.
//
// Claude Code turns a hook's "ask" into a denial whenever it cannot show a
// prompt: in print mode (claude -p) and in SDK sessions. That denial
// carries no queue id and nothing is queued, so the held action vanishes.
// What tells the sessions apart, observed on Claude Code 2.1.332 with a
// hook that printed its environment and input (docs/HOOKS.md):
//
//	                                  claude -p    interactive (a TTY)
//	CLAUDE_CODE_SESSION_ATTENDED      0            1
//	CLAUDE_CODE_ENTRYPOINT            sdk-cli      cli
//	permission_mode (event)           default      auto (the default mode now)
//
// permission_mode does not tell them apart, except "dontAsk", which
// refuses every prompt by definition.

// Environment variables Claude Code sets for its hooks.
const (
	envAttended   = "CLAUDE_CODE_SESSION_ATTENDED"
	envEntrypoint = "CLAUDE_CODE_ENTRYPOINT"
)

// NoHuman reports whether nobody can answer a prompt in the session of in.
// It fails towards true: only a session that says it is attended, or an
// older Claude Code that names the interactive entry point "cli" and says
// nothing about attendance, counts as one a human watches. Anything else,
// including a hook run by hand or by a Claude Code that sets neither
// variable, cannot be shown to have a human, and a held action there is
// queued rather than asked about (a queued ask the human also answered is
// harmless; a vanished one is not).
func NoHuman(in *Input, getenv func(string) string) bool {
	if in.PermissionMode == "dontAsk" {
		return true
	}
	if getenv == nil {
		return true
	}
	switch getenv(envAttended) {
	case "1", "true":
		return false
	case "":
		return getenv(envEntrypoint) != "cli"
	}
	return true
}
