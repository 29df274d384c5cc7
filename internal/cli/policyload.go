package cli

import (
	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/contain/egress/egressconfig"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/policy"
)

// loadPolicy builds the policy in effect for a working directory, with
// self-protection covering the airlock binary and the agent settings files
// its hooks live in. The "mcp:" section is compiled with its schema
// (internal/mcp/mcpconfig), so that a mistake there fails the load, and
// every tool call is refused, as a mistake anywhere else in the file does.
func loadPolicy(e *env, cwd string) (*policy.Policy, error) {
	exe, _ := e.executable()
	projectDir := e.getenv("CLAUDE_PROJECT_DIR")
	settingsRoot := projectDir
	if settingsRoot == "" {
		settingsRoot = cwd
	}
	return policy.Load(policy.Options{
		Getenv:     e.getenv,
		Cwd:        cwd,
		ProjectDir: projectDir,
		Executable: exe,
		Protect:    claudecode.SettingsFiles(e.getenv, settingsRoot),
		MCP:        mcpconfig.Schema,
		Egress:     egressconfig.Schema,
		OtherHomes: e.otherHomes,
	})
}

// workdir is the directory given, or the process's own.
func workdir(e *env, dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return e.getwd()
}
