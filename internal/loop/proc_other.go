//go:build !unix

package loop

import "os/exec"

// ownGroup does nothing here: there are no process groups to signal.
func ownGroup(*exec.Cmd) {}

// interruptGroup cannot deliver an interrupt here, so it kills the agent:
// an interrupted story ends either way.
func interruptGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

// killGroup kills the agent.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
