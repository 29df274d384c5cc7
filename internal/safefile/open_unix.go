//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNonBlocking opens name for reading with O_NONBLOCK, so that opening
// a FIFO returns at once instead of waiting for a writer; the caller then
// refuses it as not regular. The flag is cleared once the file is open:
// it changes nothing for the regular file read next, and a file opened
// non-blocking is registered with the runtime's poller, whose set-up (an
// epoll instance, an event descriptor, five system calls per file) a
// one-call hook process would otherwise pay to read a policy file.
func openNonBlocking(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		if err := syscall.SetNonblock(fd, false); err != nil {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "fcntl", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
