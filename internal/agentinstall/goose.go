package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Goose reads Claude-shaped hooks from ~/.config/goose/hooks.json; a
// group without a matcher runs for every tool; timeout in seconds.
// Project hooks (.goose/settings.json) load only when the user's
// configuration allows them, so airlock installs for the user only.
var goose = sync.OnceValue(func() *Agent {
	return withJSONHooks(&Agent{
		Name:   "goose",
		Title:  "Goose",
		Scopes: []Scope{User},
		NoScope: map[Scope]string{Project: "Goose loads project hooks only when the user's own configuration " +
			"allows project hooks; the user's hooks.json is read in every project"},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}, &hookFile{
		agent:  "goose",
		events: []string{"hooks"},
		nested: true,
		cmdKey: "command",
		hooks: []hookSpec{{event: "PreToolUse", fields: func(cmd string) *jsonedit.Object {
			return object(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(int64(hookTimeout.Seconds()))})
		}}},
	}, func(env Env, scope Scope) string {
		return filepath.Join(env.xdgConfig(), "goose", "hooks.json")
	})
})
