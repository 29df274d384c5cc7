//go:build !linux

package cli

import "os/exec"

// dieWithParent has no portable equivalent of Linux's parent-death
// signal: elsewhere a companion outlives a SIGKILLed airlock (see
// docs/THREAT-MODEL.md).
func dieWithParent(*exec.Cmd) {}

func lockThread() (unlock func()) { return func() {} }

// execCompanion does nothing outside Linux: the companion runs as a child.
func execCompanion(*env, string, []string) {}
