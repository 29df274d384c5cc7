package agentinstall

import (
	"path/filepath"
	"strings"
	"sync"
)

// Cline runs an executable file named after the event from its hooks
// directory (user ~/Documents/Cline/Hooks, project .clinerules/hooks), on
// macOS and Linux, once hooks are turned on in Cline. airlock writes a
// two-line script that execs its hook.
var cline = sync.OnceValue(func() *Agent {
	a := &Agent{
		Name:    "cline",
		Title:   "Cline",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}
	file := func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".clinerules", "hooks", "PreToolUse")
		}
		return filepath.Join(env.Home, "Documents", "Cline", "Hooks", "PreToolUse")
	}
	note := "Cline runs hooks only once they are turned on in its settings"
	a.install = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope, Notes: []string{note}}
		return p, installManaged(p, file(env, scope), ClineScript(env.runs()), 0o755, r)
	}
	a.uninstall = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope}
		return p, uninstallManaged(p, file(env, scope), r)
	}
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := Status{Agent: a.Name, Scope: scope}
		inspectManaged(&st, a, file(env, scope), ClineScript, scriptCommand, env, r)
		return st
	}
	return a
})

// ClineScript is the PreToolUse hook script airlock writes for a binary.
func ClineScript(exe string) []byte {
	return []byte("#!/bin/sh\n# airlock-managed: written by \"airlock install cline\"; \"airlock uninstall cline\" removes it.\nexec " +
		HookCommand(exe, "cline", "PreToolUse") + "\n")
}

func scriptCommand(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if c, ok := strings.CutPrefix(line, "exec "); ok {
			return c
		}
	}
	return ""
}
