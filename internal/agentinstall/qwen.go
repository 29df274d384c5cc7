package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Qwen Code, a Gemini CLI fork that took Claude Code's hook format, reads
// hooks from settings.json (user ~/.qwen, project .qwen); its timeout is
// in milliseconds (qwen-code docs; not run here).
var qwen = sync.OnceValue(func() *Agent {
	return withJSONHooks(&Agent{
		// Its command status line (airlock install qwen --statusline).
		statusKey: []string{"ui", "statusLine"},
		Name:      "qwen",
		Title:     "Qwen Code",
		Scopes:    []Scope{User, Project},
		Timeout:   hookTimeout,
		Events:    []string{"PreToolUse"},
	}, claudeShape("qwen", func(cmd string) *jsonedit.Object {
		return object(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(hookTimeout.Milliseconds())})
	}), func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".qwen", "settings.json")
		}
		return filepath.Join(env.Home, ".qwen", "settings.json")
	})
})
