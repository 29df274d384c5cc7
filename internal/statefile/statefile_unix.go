//go:build unix

package statefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// OpenFlags are added to every open in the state directory: the last
// component is never followed if it is a symlink, and the descriptor does
// not leak into programs airlock runs.
const OpenFlags = syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// IsSymlinkRefusal reports whether an open failed because O_NOFOLLOW met
// a symlink.
func IsSymlinkRefusal(err error) bool { return errors.Is(err, syscall.ELOOP) }

// Owner returns the user id that owns a file, when the system says.
func Owner(st fs.FileInfo) (int, bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}

// Lock takes an exclusive advisory lock on f, waiting for it.
func Lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// TryLock takes the lock Lock takes if nobody holds it, without waiting:
// ok is false when another holds it.
func TryLock(f *os.File) (ok bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case !errors.Is(err, syscall.EINTR):
			return false, err
		}
	}
}

// Unlock releases the lock Lock took.
func Unlock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// Open is os.OpenFile with OpenFlags added, for a regular file in the
// state directory: the file is read and written with plain blocking
// calls, as os.OpenFile's file is (a regular file cannot be polled), but
// the open skips os.OpenFile's attempt to register it with the runtime's
// poller: five system calls per file, and the poller's own set-up on the
// first, that a short-lived hook process pays for every file it opens.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flag|OpenFlags, uint32(perm.Perm()))
		if err == nil {
			return os.NewFile(uintptr(fd), path), nil
		}
		if err != syscall.EINTR {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// ReadDirNames returns the names in dir, in no order, as os.ReadDir
// reads them (a symlinked dir is followed), without os.Open's attempt to
// register the directory with the runtime's poller (see Open).
func ReadDirNames(dir string) ([]string, error) {
	for {
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: dir, Err: err}
		}
		f := os.NewFile(uintptr(fd), dir)
		defer f.Close()
		return f.Readdirnames(-1)
	}
}
