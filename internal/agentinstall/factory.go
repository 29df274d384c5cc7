package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Factory Droid reads Claude Code's hook format from hooks.json (user
// ~/.factory, project .factory); timeout in seconds (docs.factory.ai
// hooks reference; not run here).
var factory = sync.OnceValue(func() *Agent {
	return withJSONHooks(&Agent{
		Name:    "factory",
		Title:   "Factory Droid",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}, claudeShape("factory", func(cmd string) *jsonedit.Object {
		return object(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(int64(hookTimeout.Seconds()))})
	}), func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".factory", "hooks.json")
		}
		return filepath.Join(env.Home, ".factory", "hooks.json")
	})
})

// claudeShape is Claude Code's hook format: "hooks" → event → matcher
// groups, PreToolUse on every tool.
func claudeShape(agent string, fields func(cmd string) *jsonedit.Object) *hookFile {
	return &hookFile{
		agent:  agent,
		events: []string{"hooks"},
		nested: true,
		cmdKey: "command",
		hooks:  []hookSpec{{event: "PreToolUse", matcher: "*", fields: fields}},
	}
}
