package statefile

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrLockTimeout says a lock was not granted within its deadline.
var ErrLockTimeout = errors.New("lock not granted in time")

// LockWithin takes an exclusive lock on f, waiting at most d. It takes
// ownership of f: on success, unlock releases the lock and closes f; on
// any error the caller does nothing more with f.
//
// The wait is a blocking flock in its own goroutine, so waiters are
// served in the kernel's order rather than by polling. When the deadline
// passes first, that goroutine keeps f, and releases and closes it if
// the lock is granted later: a stopped holder (SIGSTOP) makes every call
// wait d and then refuse, naming the limit, instead of hanging without
// end.
func LockWithin(f *os.File, d time.Duration) (unlock func(), err error) {
	// Usually nobody holds it: taken at once, without the goroutine and
	// the timer, which a hook deciding in a process of its own pays for
	// (a thread woken to run the goroutine, the main one parked).
	switch ok, err := TryLock(f); {
	case err != nil:
		f.Close()
		return nil, err
	case ok:
		return func() { Unlock(f); f.Close() }, nil
	}
	// Unbuffered: a grant is handed over only to a caller still waiting.
	got := make(chan error)
	abandon := make(chan struct{})
	go func() {
		err := Lock(f)
		select {
		case got <- err:
		case <-abandon:
			if err == nil {
				Unlock(f)
			}
			f.Close()
			return
		}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, err
		}
		return func() { Unlock(f); f.Close() }, nil
	case <-timer.C:
		close(abandon)
		// The goroutine may have been granted the lock just now, and be
		// waiting to hand it over: it sees abandon and lets it go.
		return nil, fmt.Errorf("%w: waited %s (the limit) for %s; the process holding it may be stopped or stuck", ErrLockTimeout, d, f.Name())
	}
}
