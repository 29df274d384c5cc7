//go:build unix

package journal

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openFlags are added to every open in the state directory: the last
// component is never followed if it is a symlink, and the descriptor does
// not leak into programs airlock runs.
const openFlags = syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// isSymlinkRefusal reports whether an open failed because O_NOFOLLOW met
// a symlink.
func isSymlinkRefusal(err error) bool { return errors.Is(err, syscall.ELOOP) }

// fileOwner returns the user id that owns a file, when the system says.
func fileOwner(st fs.FileInfo) (int, bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}

// lockFile takes an exclusive advisory lock on f, waiting for it.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// unlockFile releases the lock lockFile took.
func unlockFile(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
