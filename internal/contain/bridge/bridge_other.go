//go:build !linux

// Package bridge is the first process inside "airlock run"'s sandbox,
// which exists on Linux only.
package bridge

import (
	"fmt"
	"io"
)

// ReadyFD is the descriptor of the bridge's readiness byte (Linux).
const ReadyFD = 4

// GoFD is the descriptor of the runner's go byte (Linux).
const GoFD = 5

// Main refuses: the bridge runs only inside the Linux sandbox.
func Main(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "airlock-bridge runs only inside airlock run's Linux sandbox")
	return 126
}
