package agentinstall

import (
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Cursor reads hooks.json (user ~/.cursor, project .cursor). One event
// name Cursor does not know voids the whole file (measured on
// cursor-agent 2026.09.10), so airlock writes only the long-standing
// beforeShellExecution and beforeMCPExecution, each with failClosed so
// that a crash or timeout refuses the call; timeout in seconds.
var cursor = sync.OnceValue(func() *Agent {
	return withUnknownEventCheck(withJSONHooks(&Agent{
		Name:    "cursor",
		Title:   "Cursor (cursor-agent)",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"beforeShellExecution", "beforeMCPExecution"},
	}, &hookFile{
		agent:    "cursor",
		events:   []string{"hooks"},
		skeleton: []kv{{"version", num(1)}},
		cmdKey:   "command",
		hooks: []hookSpec{
			{event: "beforeShellExecution", fields: cursorHandler},
			{event: "beforeMCPExecution", fields: cursorHandler},
		},
	}, func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".cursor", "hooks.json")
		}
		return filepath.Join(env.Home, ".cursor", "hooks.json")
	}))
})

// withUnknownEventCheck adds to Cursor's inspection the check that every
// event name in its hook files is one Cursor knows.
func withUnknownEventCheck(a *Agent) *Agent {
	inspect := a.inspect
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := inspect(env, scope, r)
		for _, f := range st.Files {
			data, existed, err := r.read(f)
			if err != nil || !existed {
				continue
			}
			root, err := jsonedit.Parse(data)
			if err != nil {
				continue
			}
			hv, _ := root.Get("hooks")
			hooks, _ := hv.(*jsonedit.Object)
			if hooks == nil {
				continue
			}
			for _, ev := range hooks.Keys() {
				if !CursorEvent(ev) {
					st.problem("remove or rename \""+ev+"\" in "+f, "%s names the event %q, which Cursor does not know: Cursor then discards the whole file, airlock's hooks with it", f, ev)
				}
			}
		}
		return st
	}
	return a
}

func cursorHandler(cmd string) *jsonedit.Object {
	return object(kv{"command", cmd}, kv{"timeout", num(int64(hookTimeout.Seconds()))}, kv{"failClosed", true})
}

// CursorEvent: the hook event names Cursor knows. A file naming any
// other is discarded whole by Cursor, airlock's hooks with it.
func CursorEvent(name string) bool {
	switch name {
	case "beforeShellExecution", "afterShellExecution", "beforeMCPExecution", "afterMCPExecution",
		"beforeReadFile", "afterFileEdit", "beforeSubmitPrompt", "afterAgentResponse",
		"afterAgentThought", "stop", "sessionStart", "sessionEnd", "preToolUse", "postToolUse",
		"postToolUseFailure", "subagentStart", "subagentStop", "preCompact", "beforeTabFileRead",
		"afterTabFileEdit":
		return true
	}
	return false
}
