package classify

import (
	"bytes"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Kept files. The resident service (airlock hookd) classifies every call
// of every session, and the same files come up again and again: the git
// configuration read for aliases on every git run (gitRepoCommands), a
// project's scripts and makefiles. A hook process reads each once and
// exits; the service, with KeepFiles on, keeps what it read, keyed by the
// file's path and identity: device and inode, size, mode, and the
// modification and status change times to the nanosecond. The stat that
// readFile makes anyway says whether the file is still the one read; a
// changed file is read again.
//
// The change time (ctime) is what makes the key hold against the agent:
// a program can set a file's modification time back (touch -d), and a
// new file can get the inode number of one just removed, but every write
// and every touch moves the change time to now. A file whose change time
// is within racyWindow of the moment it was read is not kept, since
// filesystems keep times to a clock tick (or a second, or two): a write
// of the same size in the same tick would leave the whole key as it was.
// Where the change time cannot be read (not Linux), nothing is kept.

// racyWindow is how old a file's change time must be for its contents to
// be kept (a variable for tests).
var racyWindow = 3 * time.Second

// maxKeptBytes bounds what is kept in all; past it everything kept is
// let go and keeping starts again.
const maxKeptBytes = 8 << 20

var kept struct {
	sync.Mutex
	on    bool
	files map[string]keptFile
	bytes int
}

type keptFile struct {
	info fs.FileInfo
	data []byte
	hits int // reads answered from it, for tests
}

// KeepFiles turns keeping on or off for this process (off lets go of
// what was kept). The resident service turns it on.
func KeepFiles(on bool) {
	kept.Lock()
	defer kept.Unlock()
	kept.on, kept.files, kept.bytes = on, nil, 0
}

// readKept reads name, which info (a stat just made) describes, from what
// was kept when the real filesystem is read and keeping is on.
func (c *Classifier) readKept(name string, info fs.FileInfo) ([]byte, error) {
	o, ok := c.FS.(osFS)
	if !ok {
		return c.FS.ReadFile(name)
	}
	kept.Lock()
	on := kept.on
	f, hit := kept.files[o.resolve(name)]
	if hit && sameVersion(f.info, info) {
		f.hits++
		kept.files[o.resolve(name)] = f
		kept.Unlock()
		o.log.read(o.resolve(name), f.data, nil)
		// A copy: a caller may change what it is given.
		return bytes.Clone(f.data), nil
	}
	kept.Unlock()
	data, err := c.FS.ReadFile(name)
	if err != nil || !on || int64(len(data)) != info.Size() {
		return data, err
	}
	ct, ok := changeTime(info)
	keep := ok && time.Since(ct) >= racyWindow && time.Since(info.ModTime()) >= racyWindow
	path := o.resolve(name)
	kept.Lock()
	defer kept.Unlock()
	if !keep {
		// What was kept of an older version is no use now.
		if old, ok := kept.files[path]; ok {
			kept.bytes -= len(old.data)
			delete(kept.files, path)
		}
		return data, nil
	}
	if !kept.on {
		return data, nil
	}
	if kept.files == nil || kept.bytes+len(data) > maxKeptBytes {
		kept.files, kept.bytes = map[string]keptFile{}, 0
	}
	if old, ok := kept.files[path]; ok {
		kept.bytes -= len(old.data)
	}
	kept.files[path] = keptFile{info: info, data: bytes.Clone(data)}
	kept.bytes += len(data)
	return data, nil
}

// sameVersion reports whether a and b describe the same file as it was:
// the same device and inode, size, mode, modification and change times.
func sameVersion(a, b fs.FileInfo) bool {
	if !os.SameFile(a, b) || a.Size() != b.Size() || !a.ModTime().Equal(b.ModTime()) || a.Mode() != b.Mode() {
		return false
	}
	ca, oka := changeTime(a)
	cb, okb := changeTime(b)
	return oka && okb && ca.Equal(cb)
}

// keptHits is how many reads of path were answered from what was kept
// (tests).
func keptHits(path string) int {
	kept.Lock()
	defer kept.Unlock()
	return kept.files[path].hits
}
