//go:build !unix

package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
)

// errNoLock is why the journal cannot be written on this system yet:
// without a lock, concurrent hook processes could interleave or lose
// events (invariant 4), so nothing is recorded, and a hook that cannot
// record refuses the action: it fails closed.
var errNoLock = errors.New("the journal's file locking is not implemented on " + runtime.GOOS + " yet, so airlock records nothing here and refuses every action it would have to record")

// openFlags adds nothing: this system has no O_NOFOLLOW.
const openFlags = 0

func isSymlinkRefusal(error) bool { return false }

func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

func lockFile(*os.File) error { return fmt.Errorf("%w", errNoLock) }

func unlockFile(*os.File) {}
