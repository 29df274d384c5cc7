//go:build linux

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadingOnAFullDiskWithATornTail: the disk is full and the journal
// ends in a torn line (a crash mid-write). Setting the torn bytes aside
// needs room, so reading commands read the journal as if cut there and
// list the queue; an append refuses, saying why; once there is room, the
// tail is set aside and appends work again.
func TestReadingOnAFullDiskWithATornTail(t *testing.T) {
	state := t.TempDir()
	if err := syscall.Mount("tmpfs", state, "tmpfs", 0, "size=1m"); err != nil {
		if os.Getenv("CI") == "true" && os.Geteuid() == 0 {
			t.Fatalf("mounting a small tmpfs as root under CI: %v", err)
		}
		t.Skipf("cannot mount a small tmpfs here (%v): run as root", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(state, syscall.MNT_DETACH) })
	j, err := Open(filepath.Join(state, "journal"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := j.Record(held("git push origin main", "/p"))
	if err != nil || rec.QueueID == "" {
		t.Fatalf("Record: %v %+v", err, rec)
	}
	segs, err := filepath.Glob(filepath.Join(j.Dir(), "*.jsonl"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("no segment: %v", err)
	}
	seg, err := os.OpenFile(segs[len(segs)-1], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seg.WriteString(`{"seq":2,"event":"PreToolUse","tor`); err != nil {
		t.Fatal(err)
	}
	seg.Close()
	// Fill the disk.
	filler, err := os.Create(filepath.Join(state, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := filler.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for {
		if _, err := filler.Write(chunk[:1]); err != nil {
			break
		}
	}
	filler.Close()
	items, err := j.Open(time.Now())
	if err != nil {
		t.Fatalf("queue list on a full disk with a torn tail: %v", err)
	}
	if len(items) != 1 || items[0].ID != rec.QueueID {
		t.Fatalf("queue list: %+v, want %s", items, rec.QueueID)
	}
	if _, err := j.Item(rec.QueueID, time.Now()); err != nil {
		t.Fatalf("queue show: %v", err)
	}
	_, err = j.Record(held("git push origin other", "/p"))
	if err == nil || !strings.Contains(err.Error(), "torn end") {
		t.Fatalf("an append after a torn tail on a full disk: %v, want a refusal naming the torn end", err)
	}
	if err := os.Remove(filepath.Join(state, "filler")); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Record(held("git push origin other", "/p")); err != nil {
		t.Fatalf("an append once there is room: %v", err)
	}
	items, err = j.Open(time.Now())
	if err != nil || len(items) != 2 {
		t.Fatalf("after room: %d items, %v", len(items), err)
	}
}
