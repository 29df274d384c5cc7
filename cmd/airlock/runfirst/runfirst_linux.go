//go:build linux

package runfirst

import (
	"os"
	"syscall"
)

// RunBinary is airlock-run, beside the airlock binary (internal/cli's
// RunBinary; this package imports nothing of the module).
const RunBinary = "airlock-run"

func init() {
	if args, ok := runArgs(os.Args); ok {
		execRun(args)
	}
}

// runArgs returns the arguments for airlock-run when os.Args is
// "airlock run ARG...", with ARG... not a request for run's help: those,
// and "airlock run" alone (a usage error), are the command line's.
func runArgs(argv []string) ([]string, bool) {
	if len(argv) < 3 || argv[1] != "run" || argv[2] == "--help" || argv[2] == "-h" {
		return nil, false
	}
	return argv[2:], true
}

// execRun replaces this process with airlock-run beside the airlock
// binary (never one found on PATH, which something earlier on it could
// stand in for). It returns only when it could not; main then runs
// "airlock run" as it always did, and says what is wrong.
func execRun(args []string) {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	// The directory by hand: path/filepath is one more package to wait
	// for before this one may run (os.Executable's path is absolute and
	// clean).
	i := len(exe) - 1
	for i > 0 && exe[i] != '/' {
		i--
	}
	bin := exe[:i+1] + RunBinary
	st, err := os.Stat(bin)
	if err != nil || st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return
	}
	_ = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}
