//go:build unix

package loop

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the agent in its own process group, so that an interrupt
// reaches the agent's children (tool commands) too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// interruptGroup sends SIGINT to the agent's process group.
func interruptGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }

// killGroup sends SIGKILL to the agent's process group.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
