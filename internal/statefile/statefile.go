// Package statefile holds what every package that keeps files in airlock's
// state directory needs from the operating system: opening without
// following a symlink at the last component, the owner of a file, and an
// exclusive advisory lock. The journal and the notification watcher share
// it, so the two cannot drift apart on what "safe to open" means.
package statefile

import (
	"errors"
	"runtime"
)

// ErrNoLock is returned by Lock on systems where airlock has no file
// locking yet. Callers fail closed on it: without a lock, concurrent
// writers could interleave or lose what they append.
var ErrNoLock = errors.New("file locking is not implemented on " + runtime.GOOS + " yet")
