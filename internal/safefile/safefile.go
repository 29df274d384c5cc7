// Package safefile replaces a file so that a reader sees the old content
// or the new, never part of either, and a crash leaves one of them: write
// a new temporary file beside it, sync it, rename it over the old name,
// sync the directory. It is the one implementation of that sequence for
// airlock's own files (the trust list, MCP pins, the gate's state, the
// journal's checkpoint) and the agent settings it installs into.
//
// The temporary file is created with O_EXCL under a random name in the
// same directory (so the rename is atomic and cannot be redirected by a
// planted symlink), and removed when anything fails. Renaming over a
// symlink replaces the link, not the file it points to.
package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Options say how to replace a file.
type Options struct {
	// Perm is the new file's permissions (0o600 when zero).
	Perm fs.FileMode
	// KeepPerm keeps the permissions of the file being replaced, when
	// there is one: a user's settings file stays as readable as it was.
	KeepPerm bool
	// NoSync skips the syncs, for state that is rebuilt when lost (a
	// flush per write would be paid on every hook call that writes it).
	// The replacement is still atomic; after a crash it may be the old
	// content.
	NoSync bool
}

// Replace replaces the file name with data.
func Replace(name string, data []byte, o Options) (err error) {
	perm := o.Perm
	if perm == 0 {
		perm = 0o600
	}
	if o.KeepPerm {
		if st, err := os.Lstat(name); err == nil && st.Mode().IsRegular() {
			perm = st.Mode().Perm()
		}
	}
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	_, werr := f.Write(data)
	cherr := f.Chmod(perm)
	var serr error
	if !o.NoSync {
		serr = f.Sync()
	}
	if err := errors.Join(werr, cherr, serr, f.Close()); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		return err
	}
	if o.NoSync {
		return nil
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable. Systems that cannot sync a
// directory (Windows) return an error that is not worth failing for: the
// rename itself has happened.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}
