//go:build !unix

package notify

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
)

// Without file locking two watchers could both use one nonce, so the
// watcher does not run here: it fails closed, like the journal.
var errNoLock = errors.New("notify: file locking is not implemented on " + runtime.GOOS + " yet")

const openFlags = 0

func isSymlinkRefusal(error) bool { return false }

func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

func lockFile(*os.File) error { return errNoLock }

func unlockFile(*os.File) {}
