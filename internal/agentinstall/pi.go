package agentinstall

import (
	_ "embed"
	"path/filepath"
	"strings"
	"sync"
)

//go:embed pi_extension.ts
var piExtension string

// Pi has no hook command: its extensions are TypeScript modules run in
// process, discovered in ~/.pi/agent/extensions (user; $PI_CODING_AGENT_DIR
// moves ~/.pi/agent) and .pi/extensions (project). airlock writes a small
// extension that execs the hook line for every tool call and fails
// closed (Pi blocks a call whose tool_call handler throws); Pi has no
// handler timeout, so the extension keeps its own.
var pi = sync.OnceValue(func() *Agent {
	a := &Agent{
		Name:    "pi",
		Title:   "Pi",
		Scopes:  []Scope{User, Project},
		Timeout: hookTimeout,
		Events:  []string{"tool_call"},
	}
	file := func(env Env, scope Scope) string {
		if scope == Project {
			return filepath.Join(env.Project, ".pi", "extensions", "airlock.ts")
		}
		return filepath.Join(PiAgentDir(env), "extensions", "airlock.ts")
	}
	note := "Pi loads the extension at start-up: restart running Pi sessions (or /reload); pi --no-extensions runs without it (docs/AGENTS.md)"
	managedShim(a, file, note, PiExtension, piBinary)
	return a
})

// PiAgentDir is Pi's user configuration directory: $PI_CODING_AGENT_DIR
// (with "~" expanded, as Pi does), or ~/.pi/agent.
func PiAgentDir(env Env) string {
	if d := env.getenv("PI_CODING_AGENT_DIR"); d != "" {
		if d == "~" {
			return env.Home
		}
		if rest, ok := strings.CutPrefix(d, "~/"); ok {
			return filepath.Join(env.Home, rest)
		}
		if filepath.IsAbs(d) {
			return d
		}
	}
	return filepath.Join(env.Home, ".pi", "agent")
}

// PiExtension is the extension file airlock writes for a binary:
// airlock, or the hook client beside it, with the arguments its form
// takes.
func PiExtension(exe string) []byte { return shimFile(piExtension, "pi", exe) }

// piBinary reads the binary an extension file runs, as a hook command
// line would name it.
func piBinary(data []byte) string { return shimBinary(data, "pi") }
