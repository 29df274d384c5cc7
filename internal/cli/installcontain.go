package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/contain/run"
	"github.com/airlock-dev/airlock/internal/policy"
)

const installContainHelp = `

--contain (claude-code only) also turns on Claude Code's own sandbox
and points it at airlock: sandbox.enabled, sandbox.failIfUnavailable,
sandbox.allowUnsandboxedCommands false, sandbox.network.httpProxyPort
(airlock's proxy, "airlock proxy --listen 127.0.0.1:PORT"; --proxy-port,
default 7779), and sandbox.filesystem rules: no read of airlock's state
and secrets, no write to airlock's files, any agent's settings or the
project's agent files (./.claude/settings.json, ./.mcp.json, …). Every
sandboxed Bash command's network then goes through airlock's proxy; the
PreToolUse hook stays the first gate. Your own sandbox settings are kept
in airlock's state directory and put back by uninstall. On Linux Claude
Code's sandbox needs bwrap and socat (airlock doctor checks). See
docs/CONTAIN.md.`

// claudeSandboxSpec is what --contain writes: the paths come from
// self-protection's own list, so the sandbox and the hook agree. The
// files self-protection guards in every project (its agent settings,
// .mcp.json, airlock's project policy: policy.ProjectFiles) are written
// relative ("./.claude/settings.json"), which Claude Code's sandbox reads
// against the directory it runs in, so that a user-scope install covers
// every project; project is the root of a project-scope or local install
// ("" for user scope), whose files are written absolute as well, in case
// a relative entry is read against the settings file's directory.
func claudeSandboxSpec(e *env, exe string, port int, project string) agentinstall.ClaudeSandbox {
	paths := policy.PathsFrom(e.getenv)
	cwd, _ := e.getwd()
	s := agentinstall.ClaudeSandbox{ProxyPort: port}
	for _, p := range policy.ProtectedPaths(paths, "", policy.Options{Getenv: e.getenv, Cwd: cwd, Executable: exe}) {
		if p.State || p.Secret {
			s.DenyRead = append(s.DenyRead, p.Path)
		}
		s.DenyWrite = append(s.DenyWrite, p.Path)
	}
	for _, b := range []string{RunBinary, "airlock-bridge"} {
		s.DenyWrite = append(s.DenyWrite, filepath.Join(filepath.Dir(exe), b))
	}
	// The project's files: self-protection's, and those airlock run
	// fences (FINDINGS-9 C3: git's config and hooks, .npmrc, .vscode, …).
	var rel []string
	for _, f := range policy.ProjectFiles() {
		rel = append(rel, f.Path)
	}
	rel = append(rel, run.FencedProjectFiles()...)
	for _, f := range rel {
		s.DenyWrite = append(s.DenyWrite, "./"+f)
	}
	if project != "" {
		for _, f := range rel {
			s.DenyWrite = append(s.DenyWrite, filepath.Join(project, f))
		}
	}
	return s
}

// sandboxBackupFile is where the user's own sandbox settings of one
// settings file are kept: in the state directory, which the agent can
// neither read nor write.
func sandboxBackupFile(e *env, settingsFile string) string {
	sum := sha256.Sum256([]byte(settingsFile))
	return filepath.Join(policy.PathsFrom(e.getenv).StateDir, "claude-sandbox", hex.EncodeToString(sum[:8])+".json")
}

// saveSandboxBackup keeps the first backup only: installing again must
// not replace the user's settings with airlock's own.
func saveSandboxBackup(e *env, settingsFile string, b agentinstall.SandboxBackup) error {
	f := sandboxBackupFile(e, settingsFile)
	if _, err := os.Stat(f); err == nil {
		return nil
	}
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
		return err
	}
	// Written aside and renamed: a half-written backup never stands in
	// for the user's settings.
	tmp, err := os.CreateTemp(filepath.Dir(f), ".backup-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f)
}

// loadSandboxBackup returns the backup for a settings file, ok false
// when --contain was never installed there.
func loadSandboxBackup(e *env, settingsFile string) (agentinstall.SandboxBackup, bool, error) {
	var b agentinstall.SandboxBackup
	data, err := os.ReadFile(sandboxBackupFile(e, settingsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return b, false, nil
	}
	if err != nil {
		return b, false, err
	}
	return b, true, json.Unmarshal(data, &b)
}
