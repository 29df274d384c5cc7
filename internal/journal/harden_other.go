//go:build !unix

package journal

import "os"

// openState is os.OpenFile here (see harden_unix.go).
func openState(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}
