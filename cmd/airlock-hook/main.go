// Command airlock-hook is the hook client of airlock's resident decision
// service: "airlock-hook claude-code ..." answers exactly as "airlock hook
// claude-code ..." does, at a fraction of the start-up cost, by handing
// the invocation to "airlock hookd" over a unix socket.
//
// It must sit in the same directory as the airlock binary, which it both
// trusts as the service (the service must be running that very file) and
// runs as the fallback: whenever it gets no whole answer from a trusted
// service, it replaces itself with "airlock hook ..." and the hook decides
// in process. It never answers on its own, so it cannot allow anything
// airlock would not.
//
// It links only the standard library's os and syscall layers and
// internal/hookd (cmd/airlock-hook/deps_test.go holds it to that): every
// package linked here is initialised on every tool call.
//go:build linux

package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/airlock-dev/airlock/internal/hookd"
)

func main() {
	self, err := os.Readlink("/proc/self/exe")
	if err != nil {
		self, err = os.Executable()
	}
	if err != nil {
		fatal("cannot find its own binary: " + err.Error())
	}
	airlock := filepath.Join(filepath.Dir(self), "airlock")
	if len(os.Args) == 2 {
		// A person asking, not an agent's hook call: answer as airlock.
		switch os.Args[1] {
		case "--version", "version":
			err := syscall.Exec(airlock, []string{airlock, "--version"}, os.Environ())
			fatal("cannot run " + airlock + ": " + err.Error())
		case "-h", "--help", "help":
			err := syscall.Exec(airlock, []string{airlock, "hook", "--help"}, os.Environ())
			fatal("cannot run " + airlock + ": " + err.Error())
		}
	}
	args := append([]string{"hook"}, os.Args[1:]...)
	if hookd.Disabled(os.Getenv) {
		fallback(airlock, args, nil, false)
	}
	sock := hookd.SocketPath(os.Getenv)
	if sock == "" {
		fallback(airlock, args, nil, false)
	}
	c, err := hookd.Dial(sock, airlock)
	if err != nil {
		// No service yet (or a dead one's socket): start one for the next
		// call, and decide this one in process. An untrusted listener is
		// left alone: the real service cannot bind while it holds the name,
		// and airlock hook decides without it.
		fallback(airlock, args, nil, err == hookd.ErrNoService)
	}
	cwd, err := os.Getwd()
	if err != nil {
		c.Close()
		fallback(airlock, args, nil, false)
	}
	stdin, err := io.ReadAll(io.LimitReader(os.Stdin, hookd.MaxStdin))
	if err != nil {
		c.Close()
		fallback(airlock, args, stdin, false)
	}
	resp, err := c.Ask(&hookd.Request{Args: args, Env: os.Environ(), Cwd: cwd, Stdin: stdin})
	c.Close()
	if err != nil {
		fallback(airlock, args, stdin, false)
	}
	// An empty part is not written: an allowed call usually prints
	// nothing, and a write of nothing is still a system call.
	if len(resp.Stdout) > 0 {
		os.Stdout.Write(resp.Stdout)
	}
	if len(resp.Stderr) > 0 {
		os.Stderr.Write(resp.Stderr)
	}
	os.Exit(resp.Status)
}

// fallback replaces this process with "airlock hook ...", which decides
// in process. read is what was already taken from standard input: it is
// put back in front of the rest through a memory file, so the hook reads
// the event whole. start also starts a service for the calls to come.
func fallback(airlock string, args []string, read []byte, start bool) {
	if start {
		startService(airlock)
	}
	if read != nil {
		if err := restoreStdin(read, 0, 0); err != nil {
			fatal("cannot hand the event to airlock hook: " + err.Error())
		}
	}
	argv := append([]string{airlock}, args...)
	// AIRLOCK_HOOKD=off: the hook must not try the service again (it just
	// failed), it decides here.
	env := append(os.Environ(), "AIRLOCK_HOOKD=off")
	err := syscall.Exec(airlock, argv, env)
	fatal("cannot run " + airlock + ": " + err.Error())
}

// restoreStdin makes fd dst (standard input) read the bytes already
// taken and then whatever was left unread on src.
func restoreStdin(read []byte, src, dst int) error {
	fd, err := memfd("airlock-hook-stdin")
	if err != nil {
		return err
	}
	for b := read; len(b) > 0; {
		n, err := syscall.Write(fd, b)
		if err != nil {
			return err
		}
		b = b[n:]
	}
	// The part not yet read is copied after it (usually nothing: the
	// event is read to its end before the service is asked).
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(src, buf)
		if n <= 0 || err != nil {
			break
		}
		if _, err := syscall.Write(fd, buf[:n]); err != nil {
			return err
		}
	}
	if _, err := syscall.Seek(fd, 0, 0); err != nil {
		return err
	}
	if err := syscall.Dup3(fd, dst, 0); err != nil {
		return err
	}
	return syscall.Close(fd)
}

// startService starts "airlock hookd" detached (its own session, no
// terminal, standard streams on /dev/null), and does not wait for it. If
// another hook started one first, the new one finds the lock taken and
// exits.
func startService(airlock string) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	p, err := os.StartProcess(airlock, []string{airlock, "hookd"}, &os.ProcAttr{
		Dir:   "/",
		Files: []*os.File{null, null, null},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err == nil {
		p.Release()
	}
}

// fatal blocks the call: with no way to reach airlock at all, refusing is
// the only safe answer (exit 2 is a blocking error for Claude Code).
func fatal(msg string) {
	os.Stderr.WriteString("airlock-hook: error: " + msg + "\nhint: install airlock-hook in the same directory as airlock, or point the hook at \"airlock hook\"\n")
	os.Exit(2)
}
