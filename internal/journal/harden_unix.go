//go:build unix

package journal

import (
	"io/fs"
	"os"
	"syscall"
)

// openState opens path with open(2) and wraps the descriptor with
// os.NewFile, not os.OpenFile: on Linux os.OpenFile offers every file it
// opens to the runtime's poller, which a regular file refuses, at the
// cost of four fcntl calls and an epoll_ctl per open (the resident
// service opens one or more journal files on every call). The file is
// the same blocking file either way. One difference: a file opened with
// O_APPEND this way does not refuse WriteAt (os.OpenFile's does); the
// journal writes with WriteAt only to HEAD (head.go), which it does not
// open for appending.
func openState(path string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
