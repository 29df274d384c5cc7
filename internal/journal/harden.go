package journal

import (
	"errors"
	"fmt"
	"github.com/airlock-dev/airlock/internal/statefile"
	"io/fs"
	"os"
	"sync"
)

// euid is this process's effective user, asked once: airlock never
// changes its own, and the resident service checked it with a system call
// for every file of every call.
var euid = sync.OnceValue(os.Geteuid)

// ErrUnsafe is wrapped when a file or directory in airlock's state is not
// what airlock made: a symlink, another user's, or not a regular file or
// directory. airlock refuses to use it rather than follow it somewhere
// else (a symlinked segment could make the hook append to, or truncate,
// any file the user can write).
var ErrUnsafe = errors.New("unsafe state file")

// UnsafeError names the path that was refused and why.
type UnsafeError struct {
	Path   string
	Reason string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%v: %s %s (remove or fix it by hand; airlock does not follow it)", ErrUnsafe, e.Path, e.Reason)
}

// Unwrap makes errors.Is(err, ErrUnsafe) hold.
func (e *UnsafeError) Unwrap() error { return ErrUnsafe }

// openFile opens a file in the state directory without following a
// symlink at its last component, refuses anything but a regular file that
// belongs to this user, and narrows a mode wider than 0600. The open
// itself is statefile.Open's (no runtime poller on the hook's path).
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := statefile.Open(path, flag, perm)
	if err != nil {
		if statefile.IsSymlinkRefusal(err) {
			return nil, &UnsafeError{Path: path, Reason: "is a symlink"}
		}
		return nil, err
	}
	if err := checkOpened(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkOpened checks an open file's type, owner and mode.
func checkOpened(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &UnsafeError{Path: path, Reason: "is not a regular file"}
	}
	if uid, ok := statefile.Owner(st); ok && uid != euid() {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("belongs to user %d, not to you", uid)}
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("journal: narrowing the mode of %s: %w", path, err)
		}
	}
	return nil
}

// safeDir makes dir (mode 0700) if it is missing, and refuses it when it
// is a symlink, not a directory, or another user's; a mode wider than
// 0700 is narrowed.
func safeDir(dir string) error {
	// Looked at first and made only when missing: the directory exists on
	// every call but the first, and a mkdir that fails with EEXIST is a
	// system call (a path walk) for nothing.
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		st, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return &UnsafeError{Path: dir, Reason: "is a symlink"}
	case !st.IsDir():
		return &UnsafeError{Path: dir, Reason: "is not a directory"}
	}
	if uid, ok := statefile.Owner(st); ok && uid != euid() {
		return &UnsafeError{Path: dir, Reason: fmt.Sprintf("belongs to user %d, not to you", uid)}
	}
	if st.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("journal: narrowing the mode of %s: %w", dir, err)
		}
	}
	return nil
}
