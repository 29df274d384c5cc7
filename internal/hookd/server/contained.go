//go:build linux

package server

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// sandboxed reports whether process pid runs in a sandbox like "airlock
// run"'s, from what the kernel says about that process, read through
// /proc by the service itself. Nothing the process sends counts: not its
// environment (AIRLOCK_CONTAINED is set inside for programs to read, and
// anyone can set it), not its arguments, not the relay that handed its
// connection over. Every condition must hold:
//
//   - its network namespace is not the service's and has no interface but
//     loopback: nothing leaves except through a unix socket (airlock's
//     proxy, in "airlock run");
//   - its pid and mount namespaces are not the service's: it cannot
//     signal the service, and it sees its own file system;
//   - in that file system, airlock's secrets and journal are absent;
//   - it has no effective capability and no_new_privs is set, so it can
//     neither undo those mounts nor gain privileges by exec.
//
// A process that passes is fenced as the contained mode promises,
// whoever built its sandbox. It is the hook's process: the agent that
// started it and the commands that agent runs are in the same sandbox,
// because the hook is the agent's child and its command line is in the
// agent's settings, which the sandbox keeps read-only.
func sandboxed(pid int, stateDir string) bool {
	if pid <= 0 || !filepath.IsAbs(stateDir) {
		return false
	}
	proc := "/proc/" + strconv.Itoa(pid)
	for _, ns := range []string{"net", "pid", "mnt"} {
		var theirs, ours syscall.Stat_t
		if syscall.Stat(proc+"/ns/"+ns, &theirs) != nil || syscall.Stat("/proc/self/ns/"+ns, &ours) != nil {
			return false
		}
		if theirs.Dev == ours.Dev && theirs.Ino == ours.Ino {
			return false
		}
	}
	if !onlyLoopback(proc + "/net/dev") {
		return false
	}
	if !unprivileged(proc + "/status") {
		return false
	}
	for _, f := range []string{"secrets", "journal"} {
		if _, err := os.Lstat(proc + "/root" + filepath.Join(stateDir, f)); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	return true
}

// onlyLoopback reports whether the network namespace whose
// /proc/PID/net/dev this is has no interface but "lo".
func onlyLoopback(netdev string) bool {
	b, err := os.ReadFile(netdev)
	if err != nil {
		return false
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if len(lines) < 3 {
		// Two header lines, then one line per interface: lo at least.
		return false
	}
	for _, l := range lines[2:] {
		name, _, ok := bytes.Cut(l, []byte(":"))
		if !ok || string(bytes.TrimSpace(name)) != "lo" {
			return false
		}
	}
	return true
}

// unprivileged reports whether the process whose /proc/PID/status this
// is has no effective capability and no_new_privs set.
func unprivileged(status string) bool {
	b, err := os.ReadFile(status)
	if err != nil {
		return false
	}
	capEff, nnp := false, false
	for _, l := range bytes.Split(b, []byte("\n")) {
		k, v, ok := bytes.Cut(l, []byte(":"))
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		switch string(k) {
		case "CapEff":
			capEff = len(v) > 0 && len(bytes.Trim(v, "0")) == 0
		case "NoNewPrivs":
			nnp = string(v) == "1"
		}
	}
	return capEff && nnp
}
