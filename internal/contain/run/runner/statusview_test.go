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
