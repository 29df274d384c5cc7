//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"syscall"
)

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
