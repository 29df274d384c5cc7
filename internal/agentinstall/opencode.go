package agentinstall

import (
	_ "embed"
	"path/filepath"
	"sync"
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
	managedShim(a, file, note, OpenCodePlugin, pluginBinary)
	return a
})

// OpenCodePlugin is the plugin file airlock writes for a binary: airlock,
// or the hook client beside it, with the arguments its form takes.
func OpenCodePlugin(exe string) []byte { return shimFile(openCodePlugin, "opencode", exe) }

// pluginBinary reads the binary a plugin file runs, as a hook command
// line would name it.
func pluginBinary(data []byte) string { return shimBinary(data, "opencode") }
