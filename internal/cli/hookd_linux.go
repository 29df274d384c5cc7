package cli

import (
	"fmt"
	"runtime"
	"syscall"
)

// inDir gives the calling goroutine a working directory of its own: it
// locks the goroutine to its thread, unshares the thread's file-system
// attributes (CLONE_FS: working directory, root, umask) from the rest of
// the process, and changes that thread's directory. The lock is never
// released, so when the goroutine ends (the service's connection
// goroutine, after its answer) the runtime ends the thread with it, and
// no other goroutine ever runs with this directory. Threads the runtime
// starts meanwhile are made by its template thread, not this one (the
// runtime does so for locked threads for this very reason). The hook's
// code starts no goroutine, so its whole decision runs on this thread.
func inDir(dir string) error {
	runtime.LockOSThread()
	if err := syscall.Unshare(syscall.CLONE_FS); err != nil {
		return fmt.Errorf("a working directory of its own (unshare CLONE_FS): %w", err)
	}
	return syscall.Chdir(dir)
}

// terminate asks the service with process id pid to stop.
func terminate(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
