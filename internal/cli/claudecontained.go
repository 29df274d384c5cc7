package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/contain/record"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
)

// claudeManagedSettings is Claude Code's managed settings file on Linux:
// the highest layer, written by an administrator.
var claudeManagedSettings = "/etc/claude-code/managed-settings.json"

// hookContained is the hook's answer to "does this call run in a
// sandbox whose network is airlock's proxy?" (pipeline.Pipeline.Contained):
// the decision service's view of its client process (kernel, nil
// outside the service), else, for Claude Code's Bash tool, the sandbox
// settings Claude Code itself reads.
func hookContained(getenv func(string) string, kernel func(*pipeline.Request) bool) func(*pipeline.Request) bool {
	return func(r *pipeline.Request) bool {
		if kernel != nil && kernel(r) {
			return true
		}
		return claudeSandboxed(getenv, r)
	}
}

// claudeSandboxed reports whether a Claude Code Bash call runs in Claude
// Code's own sandbox with airlock's proxy as its only network ("airlock
// install claude-code --contain"). Claude Code runs the hook outside
// that sandbox (only Bash commands go in), so the hook process says
// nothing; the settings files do. They are what Claude Code enforces, and
// the agent cannot change them: self-protection refuses every write to
// them, and the sandbox's own denyWrite covers them. Nothing the agent
// sends can make a call contained: the tool input is read only for
// dangerouslyDisableSandbox, which can only make it not contained.
//
// The settings name a port; claudeSandboxFenced checks that airlock's
// proxy is what listens there, and that no layer re-allows what
// airlock's filesystem rules deny.
//
// Not read: a --settings layer on the command line the human started
// Claude Code with (docs/THREAT-MODEL.md says so).
func claudeSandboxed(getenv func(string) string, r *pipeline.Request) bool {
	if r.Agent != claudecode.Name || r.Tool != "Bash" {
		return false
	}
	var in struct {
		Disable bool `json:"dangerouslyDisableSandbox"`
	}
	if len(r.Input) > 0 && (json.Unmarshal(r.Input, &in) != nil || in.Disable) {
		return false
	}
	user := getenv("CLAUDE_CONFIG_DIR")
	if user == "" {
		if home := getenv("HOME"); home != "" {
			user = filepath.Join(home, ".claude")
		}
	}
	project := getenv("CLAUDE_PROJECT_DIR")
	if !filepath.IsAbs(project) {
		project = r.Cwd
	}
	if !filepath.IsAbs(user) || !filepath.IsAbs(project) {
		return false
	}
	var layers [][]byte
	var files []agentinstall.SettingsLayer
	for _, f := range []string{
		filepath.Join(user, "settings.json"),
		filepath.Join(project, ".claude", "settings.json"),
		filepath.Join(project, ".claude", "settings.local.json"),
		claudeManagedSettings,
	} {
		b, err := os.ReadFile(f)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			b = nil
		case err != nil:
			return false
		case len(bytes.TrimSpace(b)) == 0:
			b = []byte("{}")
		}
		layers = append(layers, b)
		files = append(files, agentinstall.SettingsLayer{File: f, Data: b})
	}
	if !agentinstall.ClaudeSandboxEnforced(layers...) {
		return false
	}
	return claudeSandboxFenced(getenv, project, agentinstall.ClaudeSandboxPort(layers...), files)
}

// claudeSandboxFenced checks what the settings alone cannot say: that
// the port Claude Code's sandbox sends everything to is airlock's own
// proxy, running now (record.CheckProxy: airlock's proxy recorded it in
// the state directory, the agent's sandbox can neither read nor write
// there, and that process holds every socket listening on the port), and
// that no layer's sandbox.filesystem rule gives back what airlock's
// denyRead and denyWrite take away (a project's allowRead of airlock's
// state). Either missing, the call is not contained: another proxy on
// that port would decide instead of airlock.
func claudeSandboxFenced(getenv func(string) string, project string, port int, files []agentinstall.SettingsLayer) bool {
	paths := policy.PathsFrom(getenv)
	if paths.StateDir == "" || record.CheckProxy(paths.StateDir, port) != nil {
		return false
	}
	exe, _ := os.Executable()
	var noRead, noWrite []string
	for _, p := range policy.ProtectedPaths(paths, project, policy.Options{Getenv: getenv, Cwd: project, Executable: exe}) {
		if p.State || p.Secret {
			noRead = append(noRead, p.Path)
		}
		noWrite = append(noWrite, p.Path)
	}
	return agentinstall.ClaudeSandboxReopens(files, paths.Home, noRead, noWrite) == ""
}
