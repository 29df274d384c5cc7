package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// looseObjects counts the object files under a store's objects/, and the
// quarantine directories left there.
func looseObjects(t *testing.T, stateDir string) (objects, incoming int) {
	t.Helper()
	_ = filepath.WalkDir(filepath.Join(stateDir, "snapshots"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), incomingPrefix) {
			incoming++
			return nil
		}
		parent := filepath.Base(filepath.Dir(p))
		if !d.IsDir() && len(parent) == 2 && filepath.Base(filepath.Dir(filepath.Dir(p))) == "objects" {
			objects++
		}
		return nil
	})
	return objects, incoming
}

// TestReserveRefusesAndLeavesNothing: a snapshot that would leave less
// than the reserve free is refused before anything is written.
func TestReserveRefusesAndLeavesNothing(t *testing.T) {
	root := t.TempDir()
	state := t.TempDir()
	write(t, filepath.Join(root, "build/a"), strings.Repeat("a", 4096), 0o644)
	free, ok := freeBytes(state)
	if !ok {
		t.Skip("this system cannot tell free space")
	}
	st := &Store{StateDir: state, Reserve: free + 1<<30}
	_, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"build"}, Ignored: true, Command: "rm -rf build"})
	if !errors.Is(err, ErrNoSpace) || !strings.Contains(err.Error(), "reserve") || !strings.Contains(err.Error(), "prune --now") {
		t.Fatalf("Take = %v, want ErrNoSpace naming the reserve and the way out", err)
	}
	if n, q := looseObjects(t, state); n != 0 || q != 0 {
		t.Fatalf("a refused snapshot left %d objects and %d quarantine dirs", n, q)
	}
	// With room, the same snapshot is taken.
	st.Reserve = -1
	if _, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"build"}, Ignored: true, Command: "rm -rf build"}); err != nil {
		t.Fatal(err)
	}
}

// TestFullDiskLeavesNothing takes a snapshot larger than a small
// filesystem (a 2 MiB tmpfs, mounted by the test as root): it fails, and
// leaves none of its objects behind, so the next small snapshot fits.
func TestFullDiskLeavesNothing(t *testing.T) {
	state := t.TempDir()
	if err := syscall.Mount("tmpfs", state, "tmpfs", 0, "size=2m"); err != nil {
		if os.Getenv("CI") == "true" && os.Geteuid() == 0 {
			t.Fatalf("mounting a small tmpfs as root under CI: %v", err)
		}
		t.Skipf("cannot mount a small tmpfs here (%v): run as root", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(state, syscall.MNT_DETACH) })
	root := t.TempDir()
	// Incompressible-looking data is not needed: objects are stored
	// uncompressed (core.looseCompression=0).
	for i := 0; i < 6; i++ {
		write(t, filepath.Join(root, "big", string(rune('a'+i))), strings.Repeat(string(rune('a'+i)), 512<<10), 0o644)
	}
	st := &Store{StateDir: state, Reserve: -1}
	_, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"big"}, Ignored: true, Command: "rm -rf big"})
	if err == nil {
		t.Fatal("a 3 MiB snapshot fit on a 2 MiB filesystem")
	}
	if n, q := looseObjects(t, state); n != 0 || q != 0 {
		t.Fatalf("the failed snapshot left %d objects and %d quarantine dirs", n, q)
	}
	write(t, filepath.Join(root, "small/x"), "x", 0o644)
	m, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"small"}, Ignored: true, Command: "rm -rf small"})
	if err != nil {
		t.Fatalf("after a failed snapshot the next small one: %v", err)
	}
	if _, err := st.Find(m.ID); err != nil {
		t.Fatal(err)
	}
}

// TestPruneNowFreesAtOnce: prune --now removes a dropped snapshot's
// objects at once, and a quarantine directory a killed snapshot left.
func TestPruneNowFreesAtOnce(t *testing.T) {
	root := t.TempDir()
	state := t.TempDir()
	write(t, filepath.Join(root, "build/a"), "alpha", 0o644)
	st := &Store{StateDir: state, Reserve: -1}
	m, err := st.Take(context.Background(), Request{Root: root, Paths: []string{"build"}, Ignored: true, Command: "rm -rf build"})
	if err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(m.GitDir, "objects", incomingPrefix+"killed")
	write(t, filepath.Join(left, "ab", "cdef"), "partial", 0o644)
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(left, old, old); err != nil {
		t.Fatal(err)
	}
	before, _ := looseObjects(t, state)
	if before == 0 {
		t.Fatal("the snapshot wrote no objects")
	}
	dropped, err := st.Prune(Retention{MaxAge: time.Nanosecond, Now: true})
	if err != nil || len(dropped) != 1 {
		t.Fatalf("Prune = %v, %v", dropped, err)
	}
	if n, q := looseObjects(t, state); n != 0 || q != 0 {
		t.Fatalf("prune --now left %d objects and %d quarantine dirs", n, q)
	}
}
