package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Gemini CLI reads hooks from settings.json (user ~/.gemini, project
// .gemini). BeforeTool fires before every tool; its timeout is in
// milliseconds. A crash or a timeout runs the tool call (OBSERVED, 0.61.0).
var gemini = sync.OnceValue(func() *Agent {
	return withNote(Project, "Gemini CLI reads a project's .gemini/settings.json only in a folder it trusts "+
		"(an untrusted folder's settings are replaced by empty ones); trust the folder in Gemini, or install for the user", withJSONHooks(&Agent{
		Name:    "gemini",
		Title:   "Google Gemini CLI",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"BeforeTool"},
	}, &hookFile{
		agent:  "gemini",
		events: []string{"hooks"},
		nested: true,
		cmdKey: "command",
		hooks: []hookSpec{{event: "BeforeTool", matcher: ".*", fields: func(cmd string) *jsonedit.Object {
			return object(kv{"name", "airlock"}, kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(hookTimeout.Milliseconds())})
		}}},
	}, func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".gemini", "settings.json")
		}
		return filepath.Join(env.Home, ".gemini", "settings.json")
	}))
})

// withNote adds a note to every install into a scope.
func withNote(scope Scope, note string, a *Agent) *Agent {
	install := a.install
	a.install = func(env Env, s Scope, r reader) (*Plan, error) {
		p, err := install(env, s, r)
		if err == nil && s == scope {
			p.Notes = append(p.Notes, note)
		}
		return p, err
	}
	return a
}
