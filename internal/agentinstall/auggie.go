package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Auggie (Augment Code's CLI) reads hooks in Claude Code's shape from
// settings.json (user ~/.augment, project .augment). Two differences
// from Claude Code's, both observed on 0.36.0: the matcher is a regular
// expression that must compile ("*" does not, and Auggie then ignores
// the whole hook configuration), so airlock's matches every tool with
// ".*"; and the timeout is in milliseconds.
var auggie = sync.OnceValue(func() *Agent {
	h := claudeShape("auggie", func(cmd string) *jsonedit.Object {
		return object(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(hookTimeout.Milliseconds())})
	})
	h.hooks[0].matcher = ".*"
	return withJSONHooks(&Agent{
		Name:    "auggie",
		Title:   "Auggie (Augment Code CLI)",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}, h, func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".augment", "settings.json")
		}
		return filepath.Join(env.Home, ".augment", "settings.json")
	})
})
