package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Crush reads hooks from crush.json: the user's in $CRUSH_GLOBAL_CONFIG,
// or $XDG_CONFIG_HOME/crush, or ~/.config/crush; a project's crush.json
// (or .crush.json) in the project's root. Each handler is flat, {name,
// matcher, command, timeout}, timeout in seconds; with no matcher it runs
// for every tool. Crush merges every file it finds, so airlock's hook in
// the user's file stands in every project.
var crush = sync.OnceValue(func() *Agent {
	return withJSONHooks(&Agent{
		Name:    "crush",
		Title:   "Crush",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}, &hookFile{
		agent:  "crush",
		events: []string{"hooks"},
		cmdKey: "command",
		hooks: []hookSpec{{event: "PreToolUse", fields: func(cmd string) *jsonedit.Object {
			return object(kv{"name", "airlock"}, kv{"command", cmd}, kv{"timeout", num(int64(hookTimeout.Seconds()))})
		}}},
	}, crushFile)
})

// crushFile is where Crush reads hooks for a scope.
func crushFile(env Env, scope Scope) string {
	if scope == Project {
		return filepath.Join(env.Project, "crush.json")
	}
	if d := env.getenv("CRUSH_GLOBAL_CONFIG"); filepath.IsAbs(d) {
		return filepath.Join(d, "crush.json")
	}
	return filepath.Join(env.xdgConfig(), "crush", "crush.json")
}
