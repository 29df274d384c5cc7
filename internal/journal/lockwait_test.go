//go:build unix

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/statefile"
)

// TestAStoppedHolderDoesNotStallAppends: while another process holds the
// journal's lock and never lets go (a service stopped with SIGSTOP), an
// append waits LockWait and then fails naming the limit; once the holder
// goes, appends work again and nothing was written twice.
func TestAStoppedHolderDoesNotStallAppends(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "journal"))
	if err != nil {
		t.Fatal(err)
	}
	j.LockWait = 50 * time.Millisecond
	if err := j.Append(&Entry{Event: "note", Note: "first"}); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(filepath.Join(j.Dir(), "lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := statefile.Lock(holder); err != nil {
		t.Fatal(err)
	}
	err = j.Append(&Entry{Event: "note", Note: "while stopped"})
	if !errors.Is(err, statefile.ErrLockTimeout) || !strings.Contains(err.Error(), "the limit") {
		t.Fatalf("Append while the lock is held = %v, want a timeout naming the limit", err)
	}
	statefile.Unlock(holder)
	holder.Close()
	j.LockWait = 10 * time.Second // a hang, not a speed check
	if err := j.Append(&Entry{Event: "note", Note: "after"}); err != nil {
		t.Fatalf("Append after the holder left: %v", err)
	}
	var notes []string
	if err := j.Each(func(e *Entry) error { notes = append(notes, e.Note); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(notes, ",") != "first,after" {
		t.Fatalf("journal holds %q", notes)
	}
}
