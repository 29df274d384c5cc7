//go:build unix

package notify

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openFlags: never follow a symlink at the last component, never leak the
// descriptor into a child.
const openFlags = syscall.O_NOFOLLOW | syscall.O_CLOEXEC

func isSymlinkRefusal(err error) bool { return errors.Is(err, syscall.ELOOP) }

func fileOwner(st fs.FileInfo) (int, bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}

func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func unlockFile(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
