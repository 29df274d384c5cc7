//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNonBlocking opens name for reading with O_NONBLOCK, so that opening
// a FIFO returns at once instead of waiting for a writer; the caller then
// refuses it as not regular.
func openNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
