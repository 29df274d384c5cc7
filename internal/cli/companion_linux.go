package cli

import (
	"os/exec"
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
