//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"syscall"
)

// readLimited opens name, refuses anything but a regular file and reads
// at most limit bytes (see ReadRegular), on the bare descriptor.
//
// The file is opened with O_NONBLOCK, so that opening a FIFO returns at
// once instead of waiting for a writer; it is then refused as not
// regular, from fstat on the descriptor, before anything is read. On a
// regular file the flag changes nothing, so it is not cleared. The
// descriptor is never wrapped in an *os.File: one opened non-blocking is
// registered with the runtime's poller (an epoll instance and an event
// descriptor in a one-call hook process; in every process three fcntl
// and a refused epoll_ctl per file). A read is open, fstat, read to the
// end, close: what the resident service pays per policy or state file on
// every call. A short read that ends at the size fstat gave is the end:
// the usual file is read in one read(2).
func readLimited(name string, limit int64) ([]byte, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, notRegularErr(name, typeMode(uint32(st.Mode)))
	}
	if st.Size > limit {
		return nil, limitErr(name, st.Size, limit)
	}
	// The size can change between the stat and the read: the limit is
	// enforced on what is read, too. One byte past the limit is asked
	// for, so that a file grown past it is seen.
	data := make([]byte, 0, min(st.Size, limit)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):min(cap(data), int(limit)+1)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n <= 0 {
			break
		}
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, limitErr(name, -1, limit)
		}
		if st.Size > 0 && int64(len(data)) == st.Size && len(data) < cap(data) {
			// A regular file read short, at exactly the size fstat gave:
			// its end, without one more read to be told so. A file whose
			// size reads as 0 (/proc) is read until a read returns
			// nothing, since it comes a piece at a time.
			break
		}
	}
	return data, nil
}

// fstat is syscall.Fstat, retried on EINTR.
func fstat(fd int, st *syscall.Stat_t) error {
	for {
		err := syscall.Fstat(fd, st)
		if err != syscall.EINTR {
			return err
		}
	}
}

// typeMode is the file type bits of a stat mode as fs.FileMode, for the
// error that names what a refused file is.
func typeMode(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
