package agentinstall

import (
	"errors"
	"path/filepath"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// Kiro CLI keeps hooks per agent, in the "hooks" field of each agent file
// (user ~/.kiro/agents/*.json, project .kiro/agents/*.json). Its hooks
// answer by exit status only: 2 blocks, with stderr going to the model.
// An agent file without the hook is an unguarded agent, so airlock merges
// its hook into every agent file of the scope, and creates none: which
// agents exist is the user's choice.
var kiro = sync.OnceValue(func() *Agent {
	a := &Agent{
		Name:    "kiro",
		Title:   "Kiro CLI",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"preToolUse"},
	}
	h := &hookFile{
		agent:  "kiro",
		events: []string{"hooks"},
		cmdKey: "command",
		hooks: []hookSpec{{event: "preToolUse", fields: func(cmd string) *jsonedit.Object {
			return object(kv{"matcher", "*"}, kv{"command", cmd}, kv{"timeout_ms", num(hookTimeout.Milliseconds())})
		}}},
	}
	dir := func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".kiro", "agents")
		}
		return filepath.Join(env.Home, ".kiro", "agents")
	}
	a.install = func(env Env, scope Scope, r reader) (*Plan, error) {
		files, err := r.list(dir(env, scope), ".json")
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, &NoAgentFileError{Dir: dir(env, scope)}
		}
		p := &Plan{Agent: a.Name, Scope: scope}
		for _, f := range files {
			if err := installJSON(p, h, f, env.runs(), r); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	a.uninstall = func(env Env, scope Scope, r reader) (*Plan, error) {
		files, err := r.list(dir(env, scope), ".json")
		if err != nil {
			return nil, err
		}
		p := &Plan{Agent: a.Name, Scope: scope}
		for _, f := range files {
			if err := uninstallJSON(p, h, f, r); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := Status{Agent: a.Name, Scope: scope}
		files, err := r.list(dir(env, scope), ".json")
		if err != nil {
			st.problem("check the directory's permissions", "%s: %v", dir(env, scope), err)
			return st
		}
		var bare []string
		for _, f := range files {
			one := Status{Agent: a.Name, Scope: scope}
			inspectJSON(&one, a, h, f, env, r)
			st.Files = append(st.Files, one.Files...)
			st.Commands = append(st.Commands, one.Commands...)
			st.Problems = append(st.Problems, one.Problems...)
			st.Installed = st.Installed || one.Installed
			if !one.Installed {
				bare = append(bare, f)
			}
		}
		if st.Installed {
			for _, f := range bare {
				st.problem("airlock install kiro --"+string(scope), "%s: this Kiro agent has no airlock hook: it runs unguarded", f)
			}
		}
		return st
	}
	return a
})

// NoAgentFileError is returned when Kiro has no agent file in a scope:
// airlock's hook lives in agent files, and airlock does not invent one.
type NoAgentFileError struct {
	Dir string
}

func (e *NoAgentFileError) Error() string {
	return "no Kiro agent file in " + e.Dir + ": Kiro keeps hooks per agent, and airlock merges its hook into the agents you have"
}

// Is makes errors.Is(err, ErrNoAgentFile) true.
func (e *NoAgentFileError) Is(target error) bool { return target == ErrNoAgentFile }

// ErrNoAgentFile matches a NoAgentFileError.
var ErrNoAgentFile = errors.New("no agent file")
