package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTripNotGit snapshots named targets of a directory that is no
// git repository (the private store) and restores bytes, modes and links.
func TestRoundTripNotGit(t *testing.T) {
	root := t.TempDir()
	st := &Store{StateDir: t.TempDir()}
	write(t, filepath.Join(root, "build/a"), "alpha\r\n", 0o600)
	write(t, filepath.Join(root, "build/bin/run"), "#!/bin/sh\n", 0o750)
	write(t, filepath.Join(root, "build/empty"), "", 0o644)
	if err := os.Symlink("a", filepath.Join(root, "build/link")); err != nil {
		t.Fatal(err)
	}
	m, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"build"}, Ignored: true, Command: "rm -rf build"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Files != 4 || m.Size != int64(len("alpha\r\n")+len("#!/bin/sh\n")+len("a")) {
		t.Errorf("took %d files, %d bytes", m.Files, m.Size)
	}
	if err := os.RemoveAll(filepath.Join(root, "build")); err != nil {
		t.Fatal(err)
	}
	res, err := st.Restore(context.Background(), m.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 4 {
		t.Errorf("wrote %v", res.Written)
	}
	for name, want := range map[string]os.FileMode{"build/a": 0o600, "build/bin/run": 0o750, "build/empty": 0o644} {
		fi, err := os.Lstat(filepath.Join(root, name))
		if err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v (%v), want %v", name, fi.Mode(), err, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "build/a")); string(b) != "alpha\r\n" {
		t.Errorf("build/a holds %q", b)
	}
	if l, _ := os.Readlink(filepath.Join(root, "build/link")); l != "a" {
		t.Errorf("build/link -> %q", l)
	}
	// Changed since: refused, then forced.
	write(t, filepath.Join(root, "build/a"), "mine", 0o600)
	var ce *ConflictError
	if _, err := st.Restore(context.Background(), m.ID, false); !errors.As(err, &ce) || len(ce.Paths) != 1 {
		t.Fatalf("restore over a changed file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "build/a")); string(b) != "mine" {
		t.Errorf("a refused undo wrote: %q", b)
	}
	if _, err := st.Restore(context.Background(), m.ID, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "build/a")); string(b) != "alpha\r\n" {
		t.Errorf("forced undo left %q", b)
	}
}

// TestTakeRefuses: over the bound, another repository inside, a special
// file: no snapshot, and nothing listed.
func TestTakeRefuses(t *testing.T) {
	root := t.TempDir()
	st := &Store{StateDir: t.TempDir(), MaxBytes: 10}
	write(t, filepath.Join(root, "big/x"), "more than ten bytes", 0o644)
	write(t, filepath.Join(root, "vendor/lib/.git/HEAD"), "ref: refs/heads/main\n", 0o644)
	ctx := context.Background()
	if _, err := st.Take(ctx, Request{Root: root, Paths: []string{"big"}}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the bound: %v", err)
	}
	st.MaxBytes = 0
	if _, err := st.Take(ctx, Request{Root: root, Paths: []string{"vendor"}}); !errors.Is(err, ErrUnsafe) {
		t.Errorf("nested repository: %v", err)
	}
	if all, err := st.List(); err != nil || len(all) != 0 {
		t.Errorf("listed %v (%v)", all, err)
	}
}

// TestRestoreNoLinkAbove: a link planted where a directory was does not
// carry the restored files elsewhere, even forced.
func TestRestoreNoLinkAbove(t *testing.T) {
	root, away := t.TempDir(), t.TempDir()
	st := &Store{StateDir: t.TempDir()}
	write(t, filepath.Join(root, "build/a"), "alpha", 0o644)
	m, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"build"}})
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, "build"))
	if err := os.Symlink(away, filepath.Join(root, "build")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Restore(context.Background(), m.ID, true); !errors.Is(err, ErrUnsafe) {
		t.Errorf("restore through a link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(away, "a")); err == nil {
		t.Error("undo wrote through the link")
	}
}

// TestPrune drops by size, oldest first, and deletes the refs.
func TestPrune(t *testing.T) {
	root := t.TempDir()
	st := &Store{StateDir: t.TempDir()}
	write(t, filepath.Join(root, "f"), "12345", 0o644)
	var ids []string
	var m0 Meta
	for i := 0; i < 3; i++ {
		m, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"f"}})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			m0 = m
		}
		ids = append(ids, m.ID)
	}
	// Every object is older than the store's expiry, as after a while.
	old := time.Now().Add(-2 * time.Hour)
	filepath.WalkDir(filepath.Join(m0.GitDir, "objects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	dropped, err := st.Prune(Retention{MaxBytes: 10})
	if err != nil || len(dropped) != 1 || dropped[0].ID != ids[0] {
		t.Fatalf("pruned %v (%v)", dropped, err)
	}
	if _, err := st.Find(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Errorf("pruned snapshot still found: %v", err)
	}
	if _, err := git(context.Background(), m0.GitDir, "", nil, nil, "rev-parse", "--verify", RefPrefix+ids[0]); err == nil {
		t.Error("pruned snapshot's ref is still there")
	}
	if _, err := git(context.Background(), m0.GitDir, "", nil, nil, "cat-file", "-e", m0.Commit); err == nil {
		t.Error("pruned snapshot's commit is still in the store")
	}
	kept, _ := st.Find(ids[1])
	if _, err := st.Restore(context.Background(), kept.ID, false); err != nil {
		t.Errorf("a kept snapshot after prune: %v", err)
	}
	if all, _ := st.List(); len(all) != 2 {
		t.Errorf("kept %d", len(all))
	}
}
