//go:build !linux

// Command airlock-hook is the hook client of airlock's resident decision
// service (see main.go). Outside Linux there is no service: it runs
// "airlock hook" from its own directory.
package main

import (
	"os"
	"path/filepath"
	"syscall"
)

func main() {
	self, err := os.Executable()
	if err != nil {
		os.Stderr.WriteString("airlock-hook: error: " + err.Error() + "\n")
		os.Exit(2)
	}
	airlock := filepath.Join(filepath.Dir(self), "airlock")
	err = syscall.Exec(airlock, append([]string{airlock, "hook"}, os.Args[1:]...), os.Environ())
	os.Stderr.WriteString("airlock-hook: error: cannot run " + airlock + ": " + err.Error() + "\n")
	os.Exit(2)
}
