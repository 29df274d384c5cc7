//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/airlock-dev/airlock/internal/safefile"
	"github.com/airlock-dev/airlock/internal/statusline"
)

// The status line inside the sandbox reads airlock's state file
// (statusline.FileName, in the journal's directory), which is not there:
// the journal's directory is hidden with the rest of the state. The
// runner keeps a copy of that one file in a directory of its run
// directory, bound read-only in the hidden state directory
// (statusline.ViewDir): the sandbox sees the held counts and the
// sessions' marks, and nothing else of the state. The writers replace the
// file by renaming a new one over it, so a bind of the file itself would
// keep showing the first one; the copy is renewed on each replacement
// (inotify on the journal's directory, once the run has lasted
// watchAfter), and the directory that holds it is what is bound.

// maxStatus bounds the copy: the state file stays far smaller.
const maxStatus = 256 << 10

// watchAfter is how long a run lasts before the copy follows the state
// file: the first copy is made at once, and changes after it are picked
// up when the watch starts (it copies again then). Closing an inotify
// instance waits for the kernel to retire its marks (13 ms measured
// here; a process that exits with one open closes it the same way), so
// a run that ends sooner, "airlock run -- true" or a short build, never
// makes one (docs/BENCHMARKS.md, containment start-up, round 3). A
// status line refreshed every few hundred milliseconds shows the copy of
// the run's start until then.
const watchAfter = time.Second

// startStatusView makes runDir/status-view and, off the run's start-up
// path (in its own goroutine), copies the state file of journalDir into
// it and, once the run has lasted watchAfter, keeps the copy current
// until stop. Only the directory must exist before bubblewrap binds it;
// the copy shows up a moment later, which a status line (advisory,
// refreshed every few hundred milliseconds) does not notice. It returns
// "" (nothing to bind) when it cannot make the directory.
func startStatusView(runDir, journalDir string) (view string, stop func()) {
	return startStatusViewAfter(runDir, journalDir, watchAfter)
}

func startStatusViewAfter(runDir, journalDir string, after time.Duration) (view string, stop func()) {
	if !filepath.IsAbs(journalDir) {
		return "", func() {}
	}
	view = filepath.Join(runDir, statusline.ViewDir)
	if err := os.Mkdir(view, 0o755); err != nil {
		return "", func() {}
	}
	src, dst := statusline.Path(journalDir), filepath.Join(view, statusline.FileName)
	var mu sync.Mutex
	var events *os.File
	stopped := false
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		copyStatus(src, dst)
		t := time.NewTimer(after)
		select {
		case <-quit:
			t.Stop()
			return
		case <-t.C:
		}
		f := watch(journalDir)
		mu.Lock()
		if stopped || f == nil {
			mu.Unlock()
			if f != nil {
				f.Close()
			}
			return
		}
		events = f
		mu.Unlock()
		// Copied again after the watch is set: a replacement since the
		// first copy, or in between, is seen by one or the other.
		copyStatus(src, dst)
		buf := make([]byte, 64*(syscall.SizeofInotifyEvent+syscall.NAME_MAX+1))
		for {
			n, err := f.Read(buf)
			if err != nil {
				return
			}
			if namesStatus(buf[:n]) {
				copyStatus(src, dst)
			}
		}
	}()
	return view, func() {
		mu.Lock()
		stopped = true
		close(quit)
		if events != nil {
			events.Close()
		}
		mu.Unlock()
		<-done
	}
}

// watch watches journalDir (made if missing: the journal makes it on
// first use anyway) for files written or renamed into it; nil when it
// cannot. The descriptor is non-blocking, so the runtime's poller serves
// it and Close ends a read.
func watch(journalDir string) *os.File {
	if err := os.MkdirAll(journalDir, 0o700); err != nil {
		return nil
	}
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	if _, err := syscall.InotifyAddWatch(fd, journalDir, syscall.IN_CLOSE_WRITE|syscall.IN_MOVED_TO|syscall.IN_CREATE); err != nil {
		syscall.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), "inotify")
}

// namesStatus reports whether a batch of inotify events names the state
// file.
func namesStatus(b []byte) bool {
	for len(b) >= syscall.SizeofInotifyEvent {
		ev := (*syscall.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := syscall.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			return false
		}
		name := b[syscall.SizeofInotifyEvent:end]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == statusline.FileName {
			return true
		}
		b = b[end:]
	}
	return false
}

// copyStatus replaces dst with src's content (a regular file, bounded),
// renaming a new file over it so that a reader inside sees one or the
// other whole. A state file that cannot be read leaves the copy as it
// was: the status line is advisory.
func copyStatus(src, dst string) {
	b, err := safefile.ReadRegular(src, safefile.ReadOptions{Limit: maxStatus})
	if err != nil {
		return
	}
	_ = safefile.Replace(dst, b, safefile.Options{Perm: 0o644, NoSync: true})
}
