//go:build unix

package statefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestOpen: statefile.Open answers as os.OpenFile with OpenFlags does: it
// creates with the mode asked, reads and writes, refuses a symlink at the
// last component, and reports a missing file as fs.ErrNotExist.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	f, err := Open(p, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("one\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != "one\n" {
		t.Fatalf("ReadAt = %q, %v", buf, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", st.Mode(), err)
	}
	if err := os.Symlink(p, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(dir, "link"), os.O_RDONLY, 0); !IsSymlinkRefusal(err) {
		t.Errorf("symlink: err %v, want a symlink refusal", err)
	}
	_, err = Open(filepath.Join(dir, "missing"), os.O_RDONLY, 0)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Op != "open" {
		t.Errorf("missing file: err %#v, want an open PathError for fs.ErrNotExist", err)
	}
}
