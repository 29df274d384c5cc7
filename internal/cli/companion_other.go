//go:build !linux

package cli

// execCompanion does nothing outside Linux: the companion runs as a child.
func execCompanion(*env, string, []string) {}
