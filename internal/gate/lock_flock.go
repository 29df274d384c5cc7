//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package gate

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive advisory lock on name, waiting at most wait.
// The lock dies with the process, so a crashed hook never leaves a session
// locked; a lock that cannot be had in time is a state error, which the
// gate answers by allowing.
func lockFile(name string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("locking %s: another hook process held it for %v", name, wait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
