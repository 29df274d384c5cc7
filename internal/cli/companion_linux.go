//go:build linux

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
)

// dieWithParent makes the companion get SIGTERM when airlock dies, even by
// SIGKILL, which no handler sees: a proxy or dashboard left running after
// its parent is gone keeps a port and a door open that nobody watches.
// The signal is tied to the thread that started the child, so the caller
// stays on it (lockThread) until the child has exited.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}

// lockThread pins the calling goroutine to its thread for dieWithParent.
func lockThread() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}

// execCompanion replaces this process with binary beside airlock, when
// airlock's streams are the process's own: one process fewer between the
// user and a contained command ("airlock run" start-up, docs/BENCHMARKS.md),
// and signals, the terminal and the exit status reach the companion
// directly. It returns only when it could not exec; the caller then runs
// the companion as a child.
func execCompanion(e *env, binary string, args []string) {
	if e.stdin != os.Stdin || e.stdout != os.Stdout || e.stderr != os.Stderr {
		return
	}
	exe, err := e.executable()
	if err != nil {
		return
	}
	bin := filepath.Join(filepath.Dir(exe), binary)
	if !isExecutable(bin) {
		return
	}
	_ = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}
