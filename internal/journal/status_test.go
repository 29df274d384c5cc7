package journal

import (
	"os"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/statusline"
)

// TestStatusFollowsTheQueue: the status line's state file holds the held
// counts after every append that changes the queue, whoever settles
// (approve, reject), and an allowed call does not write it.
func TestStatusFollowsTheQueue(t *testing.T) {
	j := open(t)
	path := statusline.Path(j.Dir())
	record(t, j, allowed("ls"))
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("an allowed call wrote the status file (%v)", err)
	}
	heldIn := func(cmd, session string) string {
		ev := held(cmd, "/p")
		ev.Session = session
		return record(t, j, ev).QueueID
	}
	a := heldIn("git push origin main", "s1")
	heldIn("git push origin dev", "s1")
	heldIn("npm publish", "s2")
	want := func(total int, by map[string]int) {
		t.Helper()
		st, err := statusline.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Held != total {
			t.Errorf("held %d, want %d", st.Held, total)
		}
		for id, n := range by {
			got := 0
			if ss := st.Session(id); ss != nil {
				got = ss.Held
			}
			if got != n {
				t.Errorf("session %s holds %d, want %d", id, got, n)
			}
		}
	}
	want(3, map[string]int{"s1": 2, "s2": 1})
	if _, err := j.Settle(EventApprove, a, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	want(2, map[string]int{"s1": 1, "s2": 1})
	st, _ := os.Stat(path)
	// An allowed call leaves the file alone.
	record(t, j, allowed("go test ./..."))
	if st2, _ := os.Stat(path); !st2.ModTime().Equal(st.ModTime()) || st2.Size() != st.Size() {
		t.Error("an allowed call rewrote the status file")
	}
	// A file removed or damaged is written again by SyncStatus.
	os.WriteFile(path, []byte("garbage"), 0o600)
	if err := j.SyncStatus(); err != nil {
		t.Fatal(err)
	}
	want(2, map[string]int{"s1": 1, "s2": 1})
}
