package claudecode

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Scope is one of Claude Code's settings files (agent-hooks.md §1.1).
type Scope int8

// The settings files airlock installs into.
const (
	// User: ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json),
	// for every project of this user.
	User Scope = iota
	// Project: .claude/settings.json in the project, committed and shared.
	Project
	// Local: .claude/settings.local.json in the project, git-ignored.
	Local
)

// Scopes lists every scope, in the order doctor shows them.
var Scopes = []Scope{User, Project, Local}

var scopeNames = [...]string{"user", "project", "local"}

func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return fmt.Sprintf("scope(%d)", int8(s))
}

// ErrNoHome is returned when the user's settings file cannot be located.
var ErrNoHome = errors.New("cannot find the user's settings: set HOME or CLAUDE_CONFIG_DIR")

// SettingsFile returns the path of a scope's settings file. projectDir is
// the project root for the project and local scopes.
func SettingsFile(s Scope, getenv func(string) string, projectDir string) (string, error) {
	switch s {
	case User:
		if dir := getenv("CLAUDE_CONFIG_DIR"); dir != "" {
			return filepath.Join(dir, "settings.json"), nil
		}
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, ".claude", "settings.json"), nil
		}
		return "", ErrNoHome
	case Project:
		return filepath.Join(projectDir, ".claude", "settings.json"), nil
	case Local:
		return filepath.Join(projectDir, ".claude", "settings.local.json"), nil
	}
	return "", fmt.Errorf("unknown scope %d", s)
}

// SettingsFiles returns every settings file airlock's hooks may live in:
// the agent must not edit them, since removing the hooks disables airlock.
func SettingsFiles(getenv func(string) string, projectDir string) []string {
	var out []string
	for _, s := range Scopes {
		if s != User && projectDir == "" {
			continue
		}
		if f, err := SettingsFile(s, getenv, projectDir); err == nil {
			out = append(out, f)
		}
	}
	return out
}
