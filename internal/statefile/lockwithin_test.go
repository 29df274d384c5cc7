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

// TestTryLock: the lock is taken at once when free, refused without
// waiting while another open file holds it, and LockWithin's fast path
// (TryLock) still excludes a second holder.
func TestTryLock(t *testing.T) {
	name := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := open(), open()
	defer a.Close()
	defer b.Close()
	if ok, err := TryLock(a); !ok || err != nil {
		t.Fatalf("TryLock of a free lock = %v, %v; want true", ok, err)
	}
	if ok, err := TryLock(b); ok || err != nil {
		t.Fatalf("TryLock of a held lock = %v, %v; want false, no error", ok, err)
	}
	if _, err := LockWithin(open(), 20*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("LockWithin while held = %v, want ErrLockTimeout", err)
	}
	Unlock(a)
	unlock, err := LockWithin(open(), 5*time.Second) // a hang, not a speed check
	if err != nil {
		t.Fatalf("LockWithin of a free lock: %v", err)
	}
	if ok, _ := TryLock(b); ok {
		t.Fatal("TryLock got the lock LockWithin holds")
	}
	unlock()
	if ok, err := TryLock(b); !ok || err != nil {
		t.Fatalf("TryLock after LockWithin's unlock = %v, %v; want true", ok, err)
	}
}
