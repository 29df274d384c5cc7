//go:build !unix

package safefile

import "os"

// openNonBlocking opens name for reading; systems without FIFOs in the
// filesystem need no flag.
func openNonBlocking(name string) (*os.File, error) { return os.Open(name) }
