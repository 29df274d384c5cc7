package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// Paths are the files and directories airlock keeps its configuration and
// state in, as found from the environment.
type Paths struct {
	// Home is the user's home directory ("" when unknown).
	Home string
	// ConfigDir holds the user's policy file: $XDG_CONFIG_HOME/airlock.
	ConfigDir string
	// UserFile is the user's policy file.
	UserFile string
	// StateDir holds the trust store and, later, the journal:
	// $AIRLOCK_HOME, else $XDG_STATE_HOME/airlock.
	StateDir string
	// Explicit is the file named by AIRLOCK_POLICY; when set it replaces
	// the user and project files.
	Explicit string
}

// ProjectFile is where a project keeps its policy, relative to its root.
const ProjectFile = ".airlock/policy.yaml"

// PathsFrom finds airlock's locations through getenv (os.Getenv in the
// binary, a map in tests).
func PathsFrom(getenv func(string) string) Paths {
	p := Paths{Home: getenv("HOME")}
	config := getenv("XDG_CONFIG_HOME")
	if config == "" && p.Home != "" {
		config = filepath.Join(p.Home, ".config")
	}
	if config != "" {
		p.ConfigDir = filepath.Join(config, "airlock")
		p.UserFile = filepath.Join(p.ConfigDir, "policy.yaml")
	}
	p.StateDir = getenv("AIRLOCK_HOME")
	if p.StateDir == "" {
		state := getenv("XDG_STATE_HOME")
		if state == "" && p.Home != "" {
			state = filepath.Join(p.Home, ".local", "state")
		}
		if state != "" {
			p.StateDir = filepath.Join(state, "airlock")
		}
	}
	if f := getenv("AIRLOCK_POLICY"); f != "" {
		p.Explicit = f
	}
	return p
}

// TrustFile is where trusted project files are recorded.
func (p Paths) TrustFile() string {
	if p.StateDir == "" {
		return ""
	}
	return filepath.Join(p.StateDir, "trust.json")
}

// FindProjectRoot returns the directory holding a project policy file:
// dir itself when it names a project (CLAUDE_PROJECT_DIR), otherwise the
// nearest ancestor of cwd with a .airlock/policy.yaml. It returns "" when
// there is none. Each step is one stat of a file that usually does not
// exist, which is cheap enough for the hot path.
func FindProjectRoot(projectDir, cwd string) string {
	if projectDir != "" {
		return filepath.Clean(projectDir)
	}
	if cwd == "" {
		return ""
	}
	dir := filepath.Clean(cwd)
	for {
		if _, err := os.Stat(filepath.Join(dir, ProjectFile)); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// expandHome turns a leading "~" or "~/" into the home directory.
func expandHome(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}
