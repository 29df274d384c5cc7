package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// GitHub Copilot CLI reads every *.json in ~/.copilot/hooks (user) and
// .github/hooks (repository). airlock writes its own file there. The
// camelCase preToolUse event has Copilot's own payload; timeoutSec is in
// seconds. A crash denies the call, a timeout runs it (OBSERVED, 1.0.102).
var copilot = sync.OnceValue(func() *Agent {
	return withJSONHooks(&Agent{
		Name:   "copilot",
		Title:  "GitHub Copilot CLI",
		Scopes: []Scope{User},
		NoScope: map[Scope]string{Project: "Copilot ignores .github/hooks in a folder it has not been told to trust, silently " +
			"(OBSERVED, 1.0.102), and keeps that trust in its own store, not in a file airlock can write; " +
			"the user's hooks directory (airlock install copilot --user) is read in every folder, -p included"},
		Timeout: hookTimeout,
		Events:  []string{"preToolUse"},
	}, &hookFile{
		agent:    "copilot",
		events:   []string{"hooks"},
		skeleton: []kv{{"version", num(1)}},
		cmdKey:   "bash",
		hooks: []hookSpec{{event: "preToolUse", fields: func(cmd string) *jsonedit.Object {
			return object(kv{"type", "command"}, kv{"bash", cmd}, kv{"timeoutSec", num(int64(hookTimeout.Seconds()))})
		}}},
	}, func(env Env, scope Scope) string {
		return filepath.Join(env.Home, ".copilot", "hooks", "airlock.json")
	})
})
