//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// service is an "airlock hookd" this process started for the -hookd
// cases, with the airlock and airlock-hook binaries beside each other.
type service struct {
	// label names it in the report ("" for the -hookd service).
	label           string
	airlock, client string
	env             []string
	cmd             *exec.Cmd
	// root is the service's own directory (state, home), removed by stop.
	root string
	// cpu0 is the service's CPU time when timing started, switches0 its
	// threads' context switches.
	cpu0      time.Duration
	switches0 int64
	// run0 is its threads' time on a CPU (schedstat, nanoseconds).
	run0 time.Duration
	// served counts the requests it answered.
	served int
}

func startService(dir string) (*service, error) {
	bin := filepath.Join(dir, "hookd")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		return nil, err
	}
	airlock, err := build(bin, "airlock", "./cmd/airlock")
	if err != nil {
		return nil, err
	}
	client, err := build(bin, "airlock-hook", "./cmd/airlock-hook")
	if err != nil {
		return nil, err
	}
	return startServiceFrom(airlock, client)
}

// startServiceFrom starts the airlock hookd of the airlock binary given,
// in a state directory of its own, for the airlock-hook client beside it.
func startServiceFrom(airlock, client string) (*service, error) {
	// A short root: the socket's address must fit in 108 bytes.
	root, err := os.MkdirTemp("/tmp", "ht")
	if err != nil {
		return nil, err
	}
	s := &service{airlock: airlock, client: client, env: privateEnv(root), root: root}
	s.cmd = exec.Command(airlock, "hookd", "--idle", "1h")
	s.cmd.Env = s.env
	s.cmd.Stderr = io.Discard
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	sock := filepath.Join(root, "state", "airlock", "hookd.sock")
	for i := 0; ; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if i > 3000 {
			s.stop()
			return nil, errors.New("airlock hookd did not listen within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return s, nil
}

// cpu is the service's user+system CPU time so far.
func (s *service) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name in parentheses; utime and stime are
	// the 14th and 15th fields, in clock ticks (100 per second on Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}

// runTime is the time the service's threads have spent on a CPU, in
// nanoseconds (the first field of /proc/PID/task/*/schedstat), summed:
// the same CPU time as cpu's, without its 10 ms ticks, so that a few
// hundred calls tell two services apart by a few per cent. A thread that
// exited is not counted (the service keeps its threads); 0 when the
// kernel keeps no schedstat.
func (s *service) runTime() time.Duration {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	var n int64
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", s.cmd.Process.Pid, t.Name()))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			v, _ := strconv.ParseInt(f[0], 10, 64)
			n += v
		}
	}
	return time.Duration(n)
}

// switches is the number of context switches of the service's threads
// so far, voluntary and not (/proc/PID/task/*/status; a thread that
// exited is not counted, and the service keeps its threads). Each is a
// thread put to sleep and woken again: the service's hand-offs between
// threads and the runtime's own wake-ups, which cost it CPU beyond its
// decision.
func (s *service) switches() int64 {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	var n int64
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", s.cmd.Process.Pid, t.Name()))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += c
			}
		}
	}
	return n
}

func (s *service) report(w io.Writer) {
	used := s.cpu() - s.cpu0
	switches := s.switches() - s.switches0
	run := s.runTime() - s.run0
	per, perSwitch, perRun := 0.0, 0.0, 0.0
	if s.served > 0 {
		per = float64(used) / 1e6 / float64(s.served)
		perSwitch = float64(switches) / float64(s.served)
		perRun = float64(run) / 1e6 / float64(s.served)
	}
	name := "airlock hookd"
	if s.label != "" {
		name += " " + s.label
	}
	fmt.Fprintf(w, "%s: %.0f ms CPU over the %d timed calls it answered: %.3f ms per call (%.3f ms on a CPU, schedstat), not in the clients' cpu column (add it to theirs); %.1f context switches per call\n", name, float64(used)/1e6, s.served, per, perRun, perSwitch)
}

func (s *service) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(os.Interrupt)
		s.cmd.Wait()
	}
	if s.root != "" {
		os.RemoveAll(s.root)
	}
}
