package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/hookd/server"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/proxied"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
)

const hookdHelp = `
Run the resident decision service for this state directory: it answers
hook invocations handed to it on a unix socket (hookd.sock in the state
directory), so that a hook process does not pay airlock's start-up on
every tool call. It exits after --idle without a request, when the
airlock binary it runs is replaced, or when its socket or state directory
is removed (checked every few seconds while idle).

The service is an optimisation only. A hook that finds no service, or a
service it does not trust (not this same airlock binary), or gets no
whole answer in time, decides in its own process, with the same answer.
The service runs the hook with the invocation's own arguments, standard
input, environment and working directory, and reads the policy files
afresh for every request.

airlock-hook, installed beside airlock, is the hook client that starts
the service when there is none; airlock install writes it into the
agents' hook lines (--no-hookd: the in-process line). AIRLOCK_HOOKD=off
turns both off.

Examples:
  airlock hookd              # serve in the foreground
  airlock hookd --stop       # stop the service of this state directory`

// hookdCommand is "airlock hookd". Self-protection lists it as mutating:
// an agent must not start its own service, or stop the user's.
func hookdCommand() *command {
	return &command{name: "hookd", summary: "run the resident hook decision service (started by airlock-hook)",
		usage: []string{"airlock hookd [--idle DURATION]", "airlock hookd --stop"},
		help:  hookdHelp, run: runHookd,
		flags: []flagSpec{
			durationFlag("idle", "DURATION", 30*time.Minute, "exit after this long without a request"),
			boolFlag("stop", "stop the service of this state directory and exit"),
		}}
}

func runHookd(e *env) int {
	if e.flags.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "hookd takes no operands", Hints: []string{"airlock hookd [--idle 30m]"}})
	}
	dir := policy.PathsFrom(e.getenv).StateDir
	sock := hookd.SocketPath(e.getenv)
	if sock == "" {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("no usable state directory for the service (%q)", dir),
			Hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME to an absolute path shorter than 90 bytes"}})
	}
	exe, err := e.executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fail(e.stderr, fmt.Errorf("cannot find airlock's own binary: %w", err))
	}
	if *e.flags.Bool("stop") {
		return stopHookd(e, sock, exe)
	}
	idle := *e.flags.Duration("idle")
	if idle <= 0 {
		return fail(e.stderr, &usageError{Msg: "--idle must be positive", Hints: []string{"airlock hookd --idle 30m"}})
	}
	// Before anything is opened: the service's threads wake less often
	// (see serviceTimerSlack); this may execute airlock again.
	serviceTimerSlack()
	// Each connection is served on a kept thread, where the handler's
	// decision runs in place (goOnDirWorker).
	s := &server.Server{StateDir: dir, Idle: idle, Exe: exe, Handle: hookdHandler(dir), Go: goOnDirWorker,
		Log: func(format string, args ...any) {
			fmt.Fprintf(e.stderr, "airlock hookd: "+format+"\n", args...)
		}}
	// SIGTERM (airlock hookd --stop) and ^C finish the requests in hand
	// and remove the socket.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			s.Shutdown()
		}
	}()
	switch err := s.Serve(); {
	case errors.Is(err, server.ErrRunning):
		fmt.Fprintln(e.stderr, "airlock hookd: a service already runs for", dir)
		return ExitOK
	case err != nil:
		return fail(e.stderr, err)
	}
	return ExitOK
}

// stopHookd signals the service of this state directory, after checking
// that the listener is this airlock binary (never a process someone else
// put behind the socket).
func stopHookd(e *env, sock, exe string) int {
	c, err := hookd.Dial(sock, exe)
	if errors.Is(err, hookd.ErrNoService) {
		fmt.Fprintln(e.stdout, "no service runs for", filepath.Dir(sock))
		return ExitOK
	}
	if err != nil {
		return fail(e.stderr, fmt.Errorf("the socket %s: %w", sock, err))
	}
	defer c.Close()
	pid, err := c.Peer()
	if err == nil {
		err = terminate(pid)
	}
	if err != nil {
		return fail(e.stderr, fmt.Errorf("stopping the service: %w", err))
	}
	fmt.Fprintln(e.stdout, "stopped the service", pid, "of", filepath.Dir(sock))
	return ExitOK
}

// hookdHandler runs one forwarded hook invocation exactly as a hook
// process would: the same table entry, the invocation's own arguments,
// standard input, environment and working directory, and the same
// process whose agent may have started an MCP proxy (the client, which
// the kernel names: see package proxied). The policy is loaded afresh
// each time, as a process does; what is kept between requests (the
// journal's open files and writer, files the classifier read) is checked
// against the files on every call and read again when they changed, so
// the service's answer is the in-process answer.
//
// Each request runs in the invocation's working directory, so that a
// relative path anywhere in the decision resolves as it would in the hook
// process, and requests run in parallel (they meet at the journal's
// lock, as hook processes do): see inDir.
func hookdHandler(stateDir string) server.Handler {
	want := filepath.Clean(stateDir)
	// Requests run in parallel here: the held calls of a burst share one
	// lock and one fsync (journal/group.go).
	journal.GroupCommit(true)
	// The service records every call: it keeps the journal's lock file and
	// writer open between calls, checked against the files each time
	// (journal/keep.go).
	journal.KeepOpen(true)
	// Files the classifier reads (git's configuration for aliases, a
	// project's scripts) are kept by their identity and read again when
	// they change (classify/filecache.go).
	classify.KeepFiles(true)
	// The service's own binary, read once: os.Executable reads
	// /proc/self/exe, which names the same file for the service's whole
	// life (it exits when that binary is replaced), so a readlink per
	// request would only repeat it.
	executable := sync.OnceValues(os.Executable)
	// The service's own HOME, read once. A request is decided with its
	// own HOME (its environment, as the hook process would); when that
	// differs from the service's, is absent or is relative, the service's
	// home is the same user's too and is protected as well (serviceHomes).
	ownHome := os.Getenv("HOME")
	return func(r *hookd.Request) *hookd.Response {
		if len(r.Args) == 0 || r.Args[0] != "hook" {
			// The socket answers the hook and nothing else: it must not be
			// a way to run approve, install or any other verb.
			return declined("not a hook invocation")
		}
		getenv := envLookup(r.Env)
		if hookd.Disabled(getenv) {
			return declined("AIRLOCK_HOOKD=off")
		}
		if d := hookd.StateDir(getenv); filepath.Clean(d) != want {
			return declined("another state directory: " + d)
		}
		if r.Cwd == "" || !filepath.IsAbs(r.Cwd) {
			return declined("no absolute working directory")
		}
		// An mcp__ call goes to airlock's MCP proxy, which decides it
		// itself, when the hook process's agent started that proxy: the
		// hook process is the client, named by the kernel (never by the
		// request). A client that cannot be pinned while a proxy runs is
		// left to decide in its own process, where it is its own caller.
		caller := proxied.Client(r.Client.PID, r.Client.Pinned)
		if !caller.Known() && proxied.Registered(want) {
			return declined("the client process cannot be pinned (no SO_PEERPIDFD) while an MCP proxy is registered")
		}
		var stdout, stderr bytes.Buffer
		var status int
		if err := inDir(r.Cwd, func() {
			e := &env{stdin: bytes.NewReader(r.Stdin), stdout: &stdout, stderr: &stderr,
				getenv: getenv, getwd: func() (string, error) { return r.Cwd, nil }, executable: executable,
				caller: caller, contained: clientContained(r.Client), otherHomes: serviceHomes(ownHome, getenv("HOME"))}
			status = e.dispatch(hookRoot(), r.Args)
		}); err != nil {
			return declined(err.Error())
		}
		return &hookd.Response{Kind: hookd.KindAnswer, Status: status, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	}
}

// clientContained is the service's answer to "does this call run in a
// sandbox?": the kernel's view of the client process (hookd.Client), the
// same for every call of the request. The request's own words (its
// environment, its arguments, its event) are never asked.
func clientContained(c hookd.Client) func(*pipeline.Request) bool {
	if c.Contained == nil {
		return nil
	}
	return func(*pipeline.Request) bool { return c.Contained() }
}

// serviceHomes is the service's own home when a request's HOME is not the
// same absolute directory: protected with the request's (the union), so
// that a request cannot have fewer paths guarded by naming another HOME,
// or none.
func serviceHomes(own, requested string) []string {
	if !filepath.IsAbs(own) || filepath.Clean(own) == "/" {
		return nil
	}
	own = filepath.Clean(own)
	if filepath.IsAbs(requested) && filepath.Clean(requested) == own {
		return nil
	}
	return []string{own}
}

func declined(reason string) *hookd.Response {
	return &hookd.Response{Kind: hookd.KindDeclined, Reason: reason}
}

// envLookup reads a forwarded environment as os.Getenv reads the
// process's own: the first entry of a name wins.
func envLookup(env []string) func(string) string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if _, seen := m[k]; !seen {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// hookRoot is the hook's entry alone under the root: what Main and the
// service both dispatch a hook invocation through.
func hookRoot() *command {
	return &command{name: "airlock", subs: []*command{hookCommand()}}
}

// askService hands a hook invocation to a running service of this same
// binary and writes its answer. ok is false whenever it did not get a
// whole answer; stdin is then what the in-process hook must read (the
// bytes already taken, followed by the rest).
func (e *env) askService(args []string) (status int, stdin io.Reader, ok bool) {
	stdin = e.stdin
	if hookd.Disabled(e.getenv) {
		return 0, stdin, false
	}
	sock := hookd.SocketPath(e.getenv)
	if sock == "" {
		return 0, stdin, false
	}
	c, err := hookd.Dial(sock, "/proc/self/exe")
	if err != nil {
		return 0, stdin, false
	}
	defer c.Close()
	cwd, err := e.getwd()
	if err != nil {
		return 0, stdin, false
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, hookd.MaxStdin))
	stdin = io.MultiReader(bytes.NewReader(data), e.stdin)
	if err != nil {
		return 0, stdin, false
	}
	resp, err := c.Ask(&hookd.Request{Args: args, Env: os.Environ(), Cwd: cwd, Stdin: data})
	if err != nil {
		return 0, stdin, false
	}
	e.stdout.Write(resp.Stdout)
	e.stderr.Write(resp.Stderr)
	return resp.Status, nil, true
}
