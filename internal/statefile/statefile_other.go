//go:build !unix

package statefile

import (
	"io/fs"
	"os"
)

// OpenFlags adds nothing: this system has no O_NOFOLLOW.
const OpenFlags = 0

// IsSymlinkRefusal is always false here: opens follow symlinks.
func IsSymlinkRefusal(error) bool { return false }

// Owner does not know the owner here.
func Owner(fs.FileInfo) (int, bool) { return 0, false }

// Lock always fails here (ErrNoLock), so callers fail closed.
func Lock(*os.File) error { return ErrNoLock }

// TryLock always fails here (ErrNoLock), as Lock does.
func TryLock(*os.File) (bool, error) { return false, ErrNoLock }

// Unlock does nothing here.
func Unlock(*os.File) {}

// Open is os.OpenFile with OpenFlags added.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|OpenFlags, perm)
}

// ReadDirNames returns the names in dir, in no order.
func ReadDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
