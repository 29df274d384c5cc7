package journal

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestArchiveKeepsTheChainProvable(t *testing.T) {
	j := open(t)
	j.MaxSegment = 2 << 10 // a segment every few lines
	id := record(t, j, held("git push", "/p")).QueueID
	fill(t, j, 60)
	segs, _ := segments(j.Dir())
	if len(segs) < 4 {
		t.Fatalf("%d segments", len(segs))
	}
	if _, err := j.Archive(2); !errors.Is(err, ErrOpenItems) {
		t.Fatalf("archiving a pending item: %v", err)
	}
	if _, err := j.Settle(EventReject, id, "", 0); err != nil {
		t.Fatal(err)
	}
	before := mustVerify(t, j)
	cp, err := j.Archive(2)
	if err != nil {
		t.Fatal(err)
	}
	if live, _ := segments(j.Dir()); len(live) != 2 {
		t.Fatalf("%d live segments, want 2", len(live))
	}
	a := mustVerify(t, j)
	if a.Entries+a.Archived != before.Entries || a.Head != before.Head || cp.Count != a.Archived {
		t.Fatalf("after archive: %d live + %d archived, head %s; before %d, %s", a.Entries, a.Archived, a.Head, before.Entries, before.Head)
	}
	// The chain goes on, and the archive can leave the machine.
	record(t, j, held("npm publish", "/p"))
	os.RemoveAll(filepath.Join(j.Dir(), archiveDir))
	a = mustVerify(t, j)
	if a.ArchivedGone != len(cp.Segments) || a.Index != "ok" {
		t.Fatalf("gone %d index %s", a.ArchivedGone, a.Index)
	}
	if items, err := j.Open(time.Now()); err != nil || len(items) != 1 {
		t.Fatalf("open items after archive: %d %v", len(items), err)
	}
	// A checkpoint not written by the human's path does not vouch.
	cpPath := filepath.Join(j.Dir(), checkpointFile)
	data, _ := os.ReadFile(cpPath)
	data[len(data)-10] ^= 1
	os.WriteFile(cpPath, data, 0o600)
	if a, err := j.Verify(); err != nil || a.OK() {
		t.Fatalf("a changed checkpoint verified: %v", err)
	}
}
