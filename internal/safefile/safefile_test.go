package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReplace: the content is replaced, no temporary file is left, and
// the permissions are the ones asked for or, with KeepPerm, the old
// file's.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	if err := Replace(name, []byte("one"), Options{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(name); st.Mode().Perm() != 0o600 {
		t.Errorf("default permissions %v", st.Mode().Perm())
	}
	if err := os.Chmod(name, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Replace(name, []byte("two"), Options{KeepPerm: true, NoSync: true}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(name)
	st, _ := os.Stat(name)
	if string(b) != "two" || st.Mode().Perm() != 0o644 {
		t.Errorf("got %q %v", b, st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %d files", len(ents))
	}
}

// TestReplaceSymlink: a symlink at the name is replaced by the file; the
// file it pointed to is not written through it.
func TestReplaceSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "link")
	if err := os.Symlink(target, name); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := Replace(name, []byte("new"), Options{KeepPerm: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("wrote through the symlink: %q", b)
	}
	if st, _ := os.Lstat(name); !st.Mode().IsRegular() {
		t.Errorf("name is still %v", st.Mode())
	}
}

// TestReplaceFails: a failed replacement leaves the old file and no
// temporary file.
func TestReplaceFails(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub")
	if err := os.Mkdir(name, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Replace(name, []byte("x"), Options{}); err == nil {
		t.Fatal("replaced a directory")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %d files", len(ents))
	}
}
