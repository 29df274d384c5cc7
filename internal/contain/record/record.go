// Package record keeps, in airlock's state directory, what a contained
// run or airlock's egress proxy leaves for a later process to check:
// which port the proxy Claude Code's sandbox is pointed at really is
// airlock's (proxy.go), and which placeholders a runner made for its run,
// so that those a killed runner left are found and removed at the next
// start (placeholders.go). The state directory is outside every sandbox's
// reach (absent in airlock run's, denyRead and denyWrite in Claude Code's)
// and self-protection refuses the agent's writes to it, so what is
// recorded there was written by airlock.
//
// A record names its process by pid and start time, as the kernel counts
// it (/proc/PID/stat), so that a pid used again by another process does
// not pass for the one that wrote it. It links no network code: the hook
// and doctor (the airlock binary) read it.
package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// Dir is the records' directory under the state directory.
const Dir = "contain"

// maxRecord bounds a record read: each is a few hundred bytes.
const maxRecord = 64 << 10

// Proc is one process: its pid and its start time in clock ticks since
// boot (field 22 of /proc/PID/stat).
type Proc struct {
	Pid   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// Self is the calling process.
func Self() (Proc, error) {
	pid := os.Getpid()
	st, err := startTime(pid)
	if err != nil {
		return Proc{}, err
	}
	return Proc{Pid: pid, Start: st}, nil
}

// Alive reports whether the process still runs: the pid exists and
// started when the record says. Without /proc nothing is alive.
func (p Proc) Alive() bool {
	if p.Pid <= 0 {
		return false
	}
	st, err := startTime(p.Pid)
	return err == nil && st == p.Start
}

// startTime reads a process's start time from /proc/PID/stat. The
// command name (field 2, in parentheses) may hold spaces and
// parentheses: the fields are counted after its last ')'.
func startTime(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, errors.New("record: unreadable /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	// After the name: state is field 3, starttime field 22.
	if len(f) < 20 {
		return 0, errors.New("record: short /proc stat")
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// write replaces path with v as JSON, mode 0600, in a 0700 directory.
func write(path string, v any) error { return writeOpt(path, v, false) }

func writeOpt(path string, v any, noSync bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return safefile.Replace(path, append(b, '\n'), safefile.Options{Perm: 0o600, NoSync: noSync})
}

// read reads the record at path into v: a regular file, bounded.
func read(path string, v any) error {
	b, err := safefile.ReadRegular(path, safefile.ReadOptions{Limit: maxRecord})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
