//go:build !linux

// Package runner starts "airlock run"'s sandbox; it is built on Linux's
// bubblewrap. Elsewhere airlock-run refuses (on macOS, Claude Code's own
// sandbox through "airlock install claude-code --contain" is the way).
package runner

import (
	"io"

	"github.com/airlock-dev/airlock/internal/clierror"
)

// Main refuses: there is no runner for this system.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return clierror.Print(stderr, &clierror.Usage{Msg: "airlock run needs Linux (bubblewrap); it never runs a command uncontained",
		Hints: []string{"on macOS: airlock install claude-code --contain uses Claude Code's own sandbox (docs/CONTAIN.md)"}})
}
