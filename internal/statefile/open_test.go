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

func TestReadDirNames(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names, err := ReadDirNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, n := range names {
		got[n] = true
	}
	if len(names) != 3 || !got["a"] || !got["b"] || !got["c"] {
		t.Errorf("ReadDirNames = %v, want a, b and c", names)
	}
	if _, err := ReadDirNames(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing dir: err %v, want fs.ErrNotExist", err)
	}
	if _, err := ReadDirNames(filepath.Join(dir, "a")); err == nil {
		t.Error("a file read as a directory")
	}
}
