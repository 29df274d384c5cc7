// Package clierror prints command-line errors the way every airlock binary
// does (after filippo.io/age): one "airlock: error:" line, then an
// "airlock: hint:" line per hint. Both airlock and airlock-mcp use it, so
// the two binaries speak alike without the proxy linking the whole CLI.
package clierror

import (
	"errors"
	"fmt"
	"io"
)

// ExitUsage is the exit status of a usage or internal error.
const ExitUsage = 2

// Usage is a mistake in how a command was called, with what to do instead.
type Usage struct {
	Msg   string
	Hints []string
}

func (e *Usage) Error() string { return e.Msg }

// Print writes err as an "airlock: error:" line followed by the hints of a
// Usage error it wraps, and returns ExitUsage.
func Print(w io.Writer, err error) int {
	fmt.Fprintf(w, "airlock: error: %v\n", err)
	var u *Usage
	if errors.As(err, &u) {
		for _, h := range u.Hints {
			fmt.Fprintf(w, "airlock: hint: %s\n", h)
		}
	}
	return ExitUsage
}
