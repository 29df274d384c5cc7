package agentinstall

import (
	_ "embed"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/hookline"
)

//go:embed opencode_plugin.js
var openCodePlugin string

// OpenCode has no hook command: its plugins are JavaScript modules run in
// process, from ~/.config/opencode/plugins (user) and .opencode/plugins
// (project). airlock writes a small plugin that execs "airlock hook
// opencode" for every tool call and fails closed; OpenCode has no plugin
// timeout, so the plugin keeps its own.
var opencode = sync.OnceValue(func() *Agent {
	a := &Agent{
		Name:    "opencode",
		Title:   "OpenCode",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"tool.execute.before"},
	}
	file := func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".opencode", "plugins", "airlock.js")
		}
		return filepath.Join(env.xdgConfig(), "opencode", "plugins", "airlock.js")
	}
	note := "OpenCode installs its @opencode-ai/plugin package before it loads any plugin; offline, put it in the config folder's node_modules first (docs/AGENTS.md)"
	a.install = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope, Notes: []string{note}}
		return p, installManaged(p, file(env, scope), OpenCodePlugin(env.runs()), 0o644, r)
	}
	a.uninstall = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope}
		return p, uninstallManaged(p, file(env, scope), r)
	}
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := Status{Agent: a.Name, Scope: scope}
		inspectManaged(&st, a, file(env, scope), OpenCodePlugin, pluginBinary, env, r)
		return st
	}
	return a
})

// OpenCodePlugin is the plugin file airlock writes for a binary: airlock,
// or the hook client beside it, with the arguments its form takes.
func OpenCodePlugin(exe string) []byte {
	lit, _ := json.Marshal(exe) // a JSON string is a JavaScript string literal
	args, _ := json.Marshal(hookline.Args(exe, "opencode"))
	s := strings.Replace(openCodePlugin, "__AIRLOCK__", string(lit), 1)
	s = strings.Replace(s, "__ARGS__", string(args), 1)
	s = strings.Replace(s, "__TIMEOUT_MS__", strconv.FormatInt(hookTimeout.Milliseconds(), 10), 1)
	return []byte(s)
}

// pluginBinary reads the binary a plugin file runs, as a hook command
// line would name it.
func pluginBinary(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "const AIRLOCK = "); ok {
			var exe string
			if json.Unmarshal([]byte(strings.TrimSuffix(v, ";")), &exe) == nil {
				return hookline.Prefix(exe, "opencode")
			}
		}
	}
	return ""
}
