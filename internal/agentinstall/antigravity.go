package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Antigravity's CLI (agy) reads named hooks from ~/.gemini/config/
// hooks.json: each top-level key names a set of events, each event a list
// of matcher groups, Claude Code's shape; the timeout is in seconds
// (from its bug reports and other guards' installers; agy is not
// installable here). airlock's set is named "airlock" and selects shell
// calls with the matcher run_command.
//
// Workspace hooks (.agents/hooks.json) load only from agy 1.1.7 on, so
// airlock installs for the user only.
var antigravity = sync.OnceValue(func() *Agent {
	return withAntigravitySettings(withJSONHooks(&Agent{
		Name:   "antigravity",
		Title:  "Google Antigravity CLI (agy)",
		Scopes: []Scope{User},
		NoScope: map[Scope]string{Project: "agy reads a workspace's .agents/hooks.json only from version 1.1.7 on; " +
			"the user's ~/.gemini/config/hooks.json is read in every workspace"},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}, &hookFile{
		agent:  "antigravity",
		events: []string{"airlock"},
		nested: true,
		cmdKey: "command",
		hooks: []hookSpec{{event: "PreToolUse", matcher: "run_command", fields: func(cmd string) *jsonedit.Object {
			return object(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(int64(hookTimeout.Seconds()))})
		}}},
	}, func(env Env, scope Scope) string {
		return filepath.Join(env.Home, ".gemini", "config", "hooks.json")
	}))
})

// AntigravitySettings is the file where some agy versions want
// enable_json_hooks and enable_prehook before they run command hooks.
func AntigravitySettings(home string) string {
	return filepath.Join(home, ".gemini", "antigravity-cli", "settings.json")
}

// withAntigravitySettings adds to the doctor's inspection the two
// switches some agy versions (1.0.x) need before they run any command
// hook: without them the hook is loaded and never run, and every tool
// call runs unguarded. Newer versions run hooks without them; airlock
// cannot tell which version will read the file, so it asks for both.
func withAntigravitySettings(a *Agent) *Agent {
	inspect := a.inspect
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := inspect(env, scope, r)
		if !st.Installed {
			return st
		}
		path := AntigravitySettings(env.Home)
		st.Files = append(st.Files, path)
		data, existed, err := r.read(path)
		var missing []string
		switch {
		case err != nil:
			st.problem("check the file's permissions", "%s: %v", path, err)
			return st
		case !existed:
			missing = []string{"enable_json_hooks", "enable_prehook"}
		default:
			root, err := jsonedit.Parse(data)
			if err != nil {
				st.problem("fix the file by hand", "%s: %v", path, err)
				return st
			}
			for _, k := range []string{"enable_json_hooks", "enable_prehook"} {
				if v, _ := root.Get(k); v != true {
					missing = append(missing, k)
				}
			}
		}
		if len(missing) > 0 {
			st.problem(`set "enable_json_hooks": true and "enable_prehook": true in `+path,
				"%s does not set %s to true: some agy versions run command hooks only with enable_json_hooks and enable_prehook set, and without them run every tool call without asking airlock", path, joinWords(missing))
		}
		return st
	}
	return a
}

func joinWords(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	out := w[0]
	for _, s := range w[1 : len(w)-1] {
		out += ", " + s
	}
	return out + " and " + w[len(w)-1]
}
