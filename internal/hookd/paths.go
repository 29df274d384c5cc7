package hookd

import "path/filepath"

// SocketName and LockName are the service's files in the state directory.
// Self-protection covers the whole state directory, so an agent can
// neither put its own socket there nor remove the service's.
const (
	SocketName = "hookd.sock"
	LockName   = "hookd.lock"
)

// StateDir is airlock's state directory as policy.PathsFrom finds it,
// repeated here so that the tiny client does not link the policy package
// (a test checks that both agree).
func StateDir(getenv func(string) string) string {
	if d := getenv("AIRLOCK_HOME"); d != "" {
		return d
	}
	state := getenv("XDG_STATE_HOME")
	if state == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		state = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(state, "airlock")
}

// SocketPath is the service's socket for this environment, or "" when
// there can be none: no state directory, a relative one (it would name a
// different place for every working directory), or a path too long for a
// unix socket address (108 bytes on Linux).
func SocketPath(getenv func(string) string) string {
	dir := StateDir(getenv)
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	p := filepath.Join(dir, SocketName)
	if len(p) >= 108 {
		return ""
	}
	return p
}

// Disabled reports whether the environment turns the service off
// (AIRLOCK_HOOKD=off): the hook then decides in its own process and no
// service is started.
func Disabled(getenv func(string) string) bool { return getenv("AIRLOCK_HOOKD") == "off" }
