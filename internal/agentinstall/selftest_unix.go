//go:build unix

package agentinstall

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the hook in its own process group and makes a timeout
// kill the whole group: a hook script's children (a hung airlock among
// them) go with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
