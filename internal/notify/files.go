package notify

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/airlock-dev/airlock/internal/statefile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrUnsafe is wrapped when a file or directory of notify's state is not
// what airlock made (a symlink, another user's, not a regular file):
// airlock refuses it rather than follow it.
var ErrUnsafe = errors.New("unsafe state file")

// safeDir makes dir (0700) when missing and refuses a symlink, a
// non-directory or another user's directory.
func safeDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symlink", ErrUnsafe, dir)
	case !st.IsDir():
		return fmt.Errorf("%w: %s is not a directory", ErrUnsafe, dir)
	}
	if uid, ok := statefile.Owner(st); ok && uid != os.Geteuid() {
		return fmt.Errorf("%w: %s belongs to user %d", ErrUnsafe, dir, uid)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// openFile opens a state file without following a symlink, and refuses
// anything but this user's regular file.
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|statefile.OpenFlags, perm)
	if err != nil {
		if statefile.IsSymlinkRefusal(err) {
			return nil, fmt.Errorf("%w: %s is a symlink", ErrUnsafe, path)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%w: %s is not a regular file", ErrUnsafe, path)
	}
	if err == nil {
		if uid, ok := statefile.Owner(st); ok && uid != os.Geteuid() {
			err = fmt.Errorf("%w: %s belongs to user %d", ErrUnsafe, path, uid)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readSmall reads a state file of at most limit bytes; a missing file is
// (nil, nil).
func readSmall(path string, limit int64) ([]byte, error) {
	f, err := openFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return b, nil
}

// writeAtomic replaces path with data (mode 0600) through a new file in
// the same directory and a rename, so a crash leaves the old or the new
// content, never half of one.
func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp-" + randomHex(8)
	f, err := openFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on supported systems; a nonce or key
		// made without it would be guessable, so stop.
		panic("notify: crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// withLock runs fn holding an exclusive lock on dir/lock.
func withLock(dir string, fn func() error) error {
	if err := safeDir(dir); err != nil {
		return err
	}
	f, err := openFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := statefile.Lock(f); err != nil {
		if errors.Is(err, statefile.ErrNoLock) {
			// Without file locking two watchers could both use one
			// nonce, so the watcher does not run here: it fails
			// closed, like the journal.
			return fmt.Errorf("notify: %w", err)
		}
		return err
	}
	defer statefile.Unlock(f)
	return fn()
}
