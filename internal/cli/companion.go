package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// runCompanion runs one of airlock's companion binaries (airlock-mcp,
// airlock-notify, airlock-serve) with args and this command's streams,
// forwarding signals to it, and exits with its status. The companion
// must sit next to the airlock binary (the directory "go install" puts
// them all in): it is not looked up on PATH, so that nothing earlier on
// PATH can stand in for it. what names the command for the error, e.g.
// "airlock notify".
func runCompanion(e *env, what, binary string, args []string) int {
	bin := ""
	if exe, err := e.executable(); err == nil {
		if cand := filepath.Join(filepath.Dir(exe), binary); isExecutable(cand) {
			bin = cand
		}
	}
	if bin == "" {
		return fail(e.stderr, &usageError{Msg: what + " needs the " + binary + " binary next to airlock",
			Hints: []string{"go install github.com/airlock-dev/airlock/cmd/" + binary + "@latest (or go build -o DIR ./cmd/" + binary + " next to airlock)"}})
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	dieWithParent(cmd)
	unlock := lockThread()
	err := runForwarding(cmd)
	unlock()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return fail(e.stderr, err)
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0
}
