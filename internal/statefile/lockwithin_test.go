//go:build unix

package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLockWithin(t *testing.T) {
	name := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// A holder that never lets go (as a stopped process does).
	holder := open()
	if err := Lock(holder); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		_, err := LockWithin(open(), 20*time.Millisecond)
		if !errors.Is(err, ErrLockTimeout) {
			t.Fatalf("LockWithin while held = %v, want ErrLockTimeout", err)
		}
	}
	// The abandoned waiters are granted the lock in turn when the holder
	// goes, and each must let it go at once: callers after them get it.
	Unlock(holder)
	holder.Close()
	for i := 0; i < 5; i++ {
		unlock, err := LockWithin(open(), 5*time.Second) // a hang, not a speed check
		if err != nil {
			t.Fatalf("LockWithin %d after the holder left: %v", i, err)
		}
		time.Sleep(5 * time.Millisecond) // let an abandoned waiter queue behind
		unlock()
	}
}
