//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/statusline"
)

// TestStatusViewInside: inside the sandbox the status line shows the
// held counts (not "airlock ?"), from a read-only copy of the state file
// the runner keeps current as it is replaced outside; the copy's
// directory holds that file alone, it cannot be written, and the journal
// stays absent.
func TestStatusViewInside(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	jdir := filepath.Dir(w.journal)
	write := func(held int) {
		if err := statusline.Update(jdir, func(st *statusline.State) bool {
			return st.SetHeld(held, map[string]int{"s1": held})
		}); err != nil {
			t.Fatal(err)
		}
	}
	write(1)
	view := filepath.Join(w.state, statusline.ViewDir, statusline.FileName)
	marker := filepath.Join(w.project, "saw-first")
	// The test writes the second state once the command inside has seen
	// the first (it leaves a marker in the project).
	go func() {
		for i := 0; i < 2000; i++ {
			if _, err := os.Stat(marker); err == nil {
				write(3)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	script := `
wait_for() { i=0; while ! grep -q "$1" ` + view + ` 2>/dev/null; do i=$((i+1)); [ $i -gt 1000 ] && { echo "timeout waiting for $1"; exit 1; }; sleep 0.02; done; }
wait_for '"held":1'
echo first: $(` + filepath.Join(binDir, "airlock") + ` statusline </dev/null)
touch ` + marker + `
wait_for '"held":3'
echo second: $(` + filepath.Join(binDir, "airlock") + ` statusline </dev/null)
echo view: $(ls -A ` + filepath.Dir(view) + `)
echo > ` + view + ` 2>/dev/null && echo wrote-view
cat ` + w.journal + ` 2>/dev/null && echo read-journal
ls ` + jdir + ` 2>/dev/null && echo saw-journal-dir
true`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 {
		t.Fatalf("status %d\n%s", st, out)
	}
	for _, want := range []string{"first: airlock ⏸ 1 held", "second: airlock ⏸ 3 held", "view: STATUS\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("inside, want %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"wrote-view", "read-journal", "JOURNAL-LINE", "saw-journal-dir"} {
		if strings.Contains(out, bad) {
			t.Errorf("inside: %q\n%s", bad, out)
		}
	}
}

// inotifyFDs counts this process's inotify instances.
func inotifyFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// TestStatusViewShortRun: a run that ends before the watch's delay gets
// the first copy and never makes an inotify instance, whose close would
// wait for the kernel (statusview.go's watchAfter); one that lasts
// longer follows each replacement of the state file.
func TestStatusViewShortRun(t *testing.T) {
	for _, long := range []bool{false, true} {
		jdir := filepath.Join(t.TempDir(), "journal")
		if err := os.MkdirAll(jdir, 0o700); err != nil {
			t.Fatal(err)
		}
		write := func(held int) {
			t.Helper()
			if err := statusline.Update(jdir, func(st *statusline.State) bool {
				return st.SetHeld(held, map[string]int{"s1": held})
			}); err != nil {
				t.Fatal(err)
			}
		}
		waitFor := func(path, want string) {
			t.Helper()
			for i := 0; i < 1000; i++ {
				if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			b, _ := os.ReadFile(path)
			t.Fatalf("long=%v: the copy never showed %s: %q", long, want, b)
		}
		write(1)
		before := inotifyFDs(t)
		after := time.Hour
		if long {
			after = 0
		}
		view, stop := startStatusViewAfter(t.TempDir(), jdir, after)
		if view == "" {
			t.Fatal("no view")
		}
		copyPath := filepath.Join(view, statusline.FileName)
		waitFor(copyPath, `"held":1`)
		if long {
			// The watch is set once the copy after it is made; a
			// replacement from then on is followed.
			for i := 0; i < 1000 && inotifyFDs(t) == before; i++ {
				time.Sleep(10 * time.Millisecond)
			}
			write(3)
			waitFor(copyPath, `"held":3`)
		} else if n := inotifyFDs(t); n != before {
			t.Errorf("a short run made an inotify instance: %d, was %d", n, before)
		}
		stop()
		if n := inotifyFDs(t); n != before {
			t.Errorf("long=%v: %d inotify instances after stop, was %d", long, n, before)
		}
	}
}
