package classify

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestKeptFilesAreReadAgainWhenChanged: with KeepFiles on (the service),
// a script read once is answered from what was kept while it is the same
// file; a change of the same size, at another time, is read again; a
// file written moments ago is not kept at all, since a second write in
// the same clock tick could look the same; and a new file at the path
// (another inode) is read again.
func TestKeptFilesAreReadAgainWhenChanged(t *testing.T) {
	KeepFiles(true)
	defer KeepFiles(false)
	dir := t.TempDir()
	script := filepath.Join(dir, "deploy.sh")
	write := func(body string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(script, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	tier := func() Tier {
		t.Helper()
		return CommandIn("bash deploy.sh", DirFS(dir)).Effect.Tier
	}
	old := time.Now().Add(-time.Hour)
	// A test cannot set a file's change time back: files written here
	// count as old enough to keep, but for the part about the window.
	racyWindow = 0
	defer func() { racyWindow = 3 * time.Second }()

	write("git push\n", old)
	if got := tier(); got != External {
		t.Fatalf("a script that pushes: %v, want external", got)
	}
	hits := keptHits(script)
	if got := tier(); got != External || keptHits(script) == hits {
		t.Fatalf("the same script again: %v, %d kept reads, want external from what was kept", got, keptHits(script)-hits)
	}

	// The same size, the modification time set back to what it was (touch
	// -d): the change time moved, so it is read again.
	write("git pull\n", old)
	if got := tier(); got == External {
		t.Fatal("a script changed to pull, its time set back, still reads as the push it was")
	}

	// Another file put at the path (the inode number may be reused), with
	// the old time and size: read again.
	tier()
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	write("git push\n", old)
	if got := tier(); got != External {
		t.Fatalf("a new file at the path: %v, want external", got)
	}

	// Within the window of its change time, nothing is kept, whatever
	// its modification time says: a second write of the same size in the
	// same clock tick leaves the whole key as it was.
	racyWindow = time.Hour
	write("git push\n", old)
	if got := tier(); got != External {
		t.Fatalf("a script changed back to push: %v, want external", got)
	}
	if isKept(script) {
		t.Fatal("a file changed within the window was kept")
	}
}

// Without KeepFiles (a hook process), nothing is kept.
func TestFilesAreNotKeptByDefault(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "deploy.sh"), []byte("git push\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "deploy.sh"), old, old)
	hits := keptHits(filepath.Join(dir, "deploy.sh"))
	for range 2 {
		if got := CommandIn("bash deploy.sh", DirFS(dir)).Effect.Tier; got != External {
			t.Fatalf("%v, want external", got)
		}
	}
	if keptHits(filepath.Join(dir, "deploy.sh")) != hits {
		t.Fatal("a read was answered from a kept copy with KeepFiles off")
	}
}

func isKept(path string) bool {
	kept.Lock()
	defer kept.Unlock()
	_, ok := kept.files[path]
	return ok
}
