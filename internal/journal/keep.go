package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/airlock-dev/airlock/internal/statefile"
)

// Kept state. A hook process opens the journal once: it takes the lock,
// lists the segments, reads HEAD, opens the newest segment, reads its
// tail and lets it all go. The resident service (airlock hookd) records
// every call it answers, so doing that on each call was a third of its
// work per allowed call. With KeepOpen on, the service keeps the lock
// file, the newest segment, HEAD and what the writer learned (size,
// sequence, last hash, anchored head) between calls.
//
// Other processes still write: the in-process hook (airlock hook, the
// fallback), airlock queue approve, rotation, audit archive and repair.
// So before a kept writer is used again, with the lock held, it is
// checked against the files; any doubt and the journal is opened afresh
// as a hook process would open it (writer.open). The writer is reused
// only when all of these still hold:
//
//   - journal/HEAD is the file left (same device and inode, its fixed
//     size), and its bytes are the ones left: every append by any
//     airlock rewrites HEAD with the new sequence and hash (its bytes,
//     not its modification time, which filesystems keep to a clock tick);
//   - the newest segment's path names the file kept open, whose size is
//     the size left (a line appended by a writer that died before
//     rewriting HEAD, a torn tail, a truncation);
//   - no next segment exists (a rotation by someone else);
//   - the index directory is the one left (a rebuild replaces it).
//
// The lock file itself is checked after locking to be the file its path
// names: a lock on a file that was removed and made again excludes no
// one.

var keeps struct {
	sync.Mutex
	on bool
	by map[string]*keeper
}

// KeepOpen turns kept state on or off for every journal this process
// opens. The resident service turns it on; a hook process, which records
// one event and exits, has nothing to keep. Turning it off closes what
// was kept.
func KeepOpen(on bool) {
	keeps.Lock()
	defer keeps.Unlock()
	keeps.on = on
	if !on {
		for _, k := range keeps.by {
			k.sem <- struct{}{}
			k.drop()
			k.closeFiles()
			<-k.sem
		}
		keeps.by = nil
	}
}

// keeper is one journal directory's kept state.
type keeper struct {
	// sem lets one caller of this process at a time hold the journal's
	// lock through the kept lock file: flock is per open file, so two
	// goroutines locking the same file would both be let in.
	sem chan struct{}
	// reused and opened count the calls that reused the kept writer and
	// that opened the journal afresh (for tests).
	reused, opened int

	lock     *os.File
	lockInfo fs.FileInfo // the kept lock file's identity
	w        *writer     // the writer the last call left, its segment open; nil: none
	seg      fs.FileInfo // the segment as left
	head     *os.File    // journal/HEAD, read-write
	headInfo fs.FileInfo
	headRec  []byte // HEAD's bytes as left
	index    fs.FileInfo
	buf      []byte
}

// keeper is the kept state of j's directory, or nil when keeping is off.
func (j *Journal) keeper() *keeper {
	keeps.Lock()
	defer keeps.Unlock()
	if !keeps.on || j.keepOff {
		return nil
	}
	if keeps.by == nil {
		keeps.by = map[string]*keeper{}
	}
	k := keeps.by[j.dir]
	if k == nil {
		k = &keeper{sem: make(chan struct{}, 1), buf: make([]byte, headSize)}
		keeps.by[j.dir] = k
	}
	return k
}

// locked is Journal.locked through the kept state.
func (k *keeper) locked(j *Journal, fn func(w *writer) error) error {
	wait := j.lockWait()
	deadline := time.Now().Add(wait)
	select {
	case k.sem <- struct{}{}:
	default:
		timer := time.NewTimer(wait)
		select {
		case k.sem <- struct{}{}:
			timer.Stop()
		case <-timer.C:
			return fmt.Errorf("journal lock: %w: waited %s (the limit) for another call of this process to let go of %s", statefile.ErrLockTimeout, wait, filepath.Join(j.dir, lockFile))
		}
	}
	defer func() { <-k.sem }()

	unlock, err := k.flock(j, time.Until(deadline))
	if err != nil {
		return err
	}
	defer unlock()

	w := k.take(j)
	reused := w != nil
	if w == nil {
		k.opened++
		w = &writer{j: j, macOK: j.macChecker()}
		if err := w.open(); err != nil {
			if w.f != nil {
				w.f.Close()
			}
			return err
		}
	} else {
		k.reused++
	}
	err = w.run(fn)
	if err != nil || w.tornKept != nil || w.lost != "" || !k.leave(w, reused) {
		// Nothing is kept that an error may have left half done, nor a
		// journal that is being read as cut or is behind its head: the
		// next call opens it afresh.
		w.f.Close()
		k.drop()
	}
	return err
}

// flock takes the journal's lock through the kept lock file; when
// another process holds it, through a file of its own, as a hook process
// does, waiting at most wait.
func (k *keeper) flock(j *Journal, wait time.Duration) (unlock func(), err error) {
	path := filepath.Join(j.dir, lockFile)
	for try := 0; try < 2; try++ {
		if k.lock == nil {
			f, err := openFile(path, os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				return nil, fmt.Errorf("journal lock: %w", err)
			}
			st, err := f.Stat()
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("journal lock: %w", err)
			}
			k.lock, k.lockInfo = f, st
		}
		got, err := tryLock(k.lock)
		if err != nil || !got {
			break
		}
		// The lock protects only if the path still names this file.
		if pst, err := os.Lstat(path); err == nil && os.SameFile(k.lockInfo, pst) {
			return func() { statefile.Unlock(k.lock) }, nil
		}
		statefile.Unlock(k.lock)
		k.lock.Close()
		k.lock, k.lockInfo = nil, nil
	}
	if wait <= 0 {
		wait = time.Nanosecond
	}
	return j.lockFile(wait)
}

// take returns the kept writer for j when the files show that nobody
// else wrote since it was left, else nil (and drops it).
func (k *keeper) take(j *Journal) *writer {
	w := k.w
	k.w = nil
	if w == nil {
		return nil
	}
	if !k.unchanged(w) {
		w.f.Close()
		k.drop()
		return nil
	}
	// Only what open learned is kept; everything a call sets is new.
	return &writer{j: j, macOK: j.macChecker(), seg: w.seg, f: w.f, size: w.size, seq: w.seq, prev: w.prev,
		head: w.head, headF: k.head}
}

// unchanged checks the files against what the last call left (see the
// comment at the top).
func (k *keeper) unchanged(w *writer) bool {
	dir := w.j.dir
	hst, err := os.Lstat(filepath.Join(dir, headFile))
	if err != nil || !os.SameFile(hst, k.headInfo) || hst.Size() != headSize {
		return false
	}
	// HEAD's bytes, rather than its modification time, which many
	// filesystems keep to a clock tick: two writes in one tick look alike.
	if _, err := k.head.ReadAt(k.buf, 0); err != nil || !bytes.Equal(k.buf, k.headRec) {
		return false
	}
	fst, err := w.f.Stat()
	if err != nil || fst.Size() != w.size || !sameStamp(fst, k.seg) {
		return false
	}
	pst, err := os.Lstat(w.seg.path)
	if err != nil || !os.SameFile(pst, fst) {
		return false
	}
	if _, err := os.Lstat(filepath.Join(dir, segmentName(w.seg.n+1))); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	ist, err := os.Lstat(filepath.Join(dir, indexDir))
	return err == nil && ist.IsDir() && os.SameFile(ist, k.index)
}

// leave records what the files look like as this call leaves them, under
// the lock, and keeps w for the next call. It reports false when they
// cannot be read back as w left them. reused says that take checked the
// paths of HEAD and the index at the start of this call: under the lock
// they still name the same files (a rebuild of the index during the call
// makes the next call open afresh, once). The segment's path is checked
// by the next take.
func (k *keeper) leave(w *writer, reused bool) bool {
	dir := w.j.dir
	fst, err := w.f.Stat()
	if err != nil || fst.Size() != w.size {
		return false
	}
	if !reused {
		hpath := filepath.Join(dir, headFile)
		hst, err := os.Lstat(hpath)
		if err != nil {
			return false
		}
		if k.head == nil || !os.SameFile(hst, k.headInfo) {
			if k.head != nil {
				k.head.Close()
				k.head = nil
			}
			f, err := openFile(hpath, os.O_RDWR, 0)
			if err != nil {
				return false
			}
			if st, err := f.Stat(); err != nil || !os.SameFile(st, hst) {
				f.Close()
				return false
			}
			k.head = f
		}
		ist, err := os.Lstat(filepath.Join(dir, indexDir))
		if err != nil || !ist.IsDir() {
			return false
		}
		k.headInfo, k.index = hst, ist
	}
	if _, err := k.head.ReadAt(k.buf, 0); err != nil {
		return false // not headSize bytes: not a HEAD this airlock wrote
	}
	k.headRec = append(k.headRec[:0], k.buf...)
	k.seg = fst
	k.w = w
	return true
}

// drop forgets the kept writer (its segment is the caller's to close)
// and what the files looked like.
func (k *keeper) drop() {
	if k.w != nil {
		k.w.f.Close()
	}
	k.w, k.seg, k.headRec = nil, nil, nil
}

func (k *keeper) closeFiles() {
	if k.head != nil {
		k.head.Close()
		k.head = nil
	}
	if k.lock != nil {
		k.lock.Close()
		k.lock = nil
	}
}

// sameStamp reports whether a and b are the same file with the same size
// and modification time (to the nanosecond the filesystem keeps).
func sameStamp(a, b fs.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// keptCalls is how many calls of dir reused the kept writer and how many
// opened the journal afresh (for tests).
func keptCalls(dir string) (reused, opened int) {
	keeps.Lock()
	k := keeps.by[dir]
	keeps.Unlock()
	if k == nil {
		return 0, 0
	}
	k.sem <- struct{}{}
	defer func() { <-k.sem }()
	return k.reused, k.opened
}
