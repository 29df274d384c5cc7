package agentinstall

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/hookline"
)

// A shim is the one file airlock writes for an agent that runs plugins in
// process instead of hook commands (OpenCode's plugin, Pi's extension):
// a template that execs the hook line for every tool call and fails
// closed. These are the parts every shim agent shares.

// managedShim wires an agent whose whole hook is the file file names:
// installed and removed as a managed file, inspected by the binary it
// runs.
func managedShim(a *Agent, file func(Env, Scope) string, note string, content func(exe string) []byte, binary func([]byte) string) {
	a.install = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope, Notes: []string{note}}
		return p, installManaged(p, file(env, scope), content(env.runs()), 0o644, r)
	}
	a.uninstall = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope}
		return p, uninstallManaged(p, file(env, scope), r)
	}
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := Status{Agent: a.Name, Scope: scope}
		inspectManaged(&st, a, file(env, scope), content, binary, env, r)
		return st
	}
}

// shimFile fills a shim template for a binary (airlock, or the hook
// client beside it) with the arguments its form takes for agent.
func shimFile(template, agent, exe string) []byte {
	lit, _ := json.Marshal(exe) // a JSON string is a JavaScript string literal
	args, _ := json.Marshal(hookline.Args(exe, agent))
	s := strings.Replace(template, "__AIRLOCK__", string(lit), 1)
	s = strings.Replace(s, "__ARGS__", string(args), 1)
	s = strings.Replace(s, "__TIMEOUT_MS__", strconv.FormatInt(hookTimeout.Milliseconds(), 10), 1)
	return []byte(s)
}

// shimBinary reads the binary a shim file runs, as a hook command line
// would name it.
func shimBinary(data []byte, agent string) string {
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "const AIRLOCK = "); ok {
			var exe string
			if json.Unmarshal([]byte(strings.TrimSuffix(v, ";")), &exe) == nil {
				return hookline.Prefix(exe, agent)
			}
		}
	}
	return ""
}
