//go:build unix

package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/statefile"
)

// A keepStep is something that happens to the journal between two of the
// service's calls. fresh says whether the service's next call must open
// the journal afresh rather than reuse what it kept.
type keepStep struct {
	name  string
	fresh bool
	do    func(t *testing.T, other *Journal)
}

// otherJournal is the journal as another process sees it: the in-process
// hook, airlock queue approve, audit repair or archive. It keeps nothing.
func otherJournal(t *testing.T, dir string) *Journal {
	t.Helper()
	o, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	o.keepOff = true
	o.Now = func() time.Time { return t0 }
	return o
}

// newestSegment is the path of the journal's newest segment.
func newestSegment(t *testing.T, dir string) string {
	t.Helper()
	segs, err := segments(dir)
	if err != nil || len(segs) == 0 {
		t.Fatalf("segments: %v %v", segs, err)
	}
	return segs[len(segs)-1].path
}

// keepMoves is the cases: each is what another writer (or a crash, or a
// person) does to the journal, and whether the kept writer must notice.
var keepMoves = []keepStep{
	{name: "nothing", fresh: false, do: func(*testing.T, *Journal) {}},
	{name: "another process appends", fresh: true, do: func(t *testing.T, o *Journal) {
		record(t, o, allowed("echo other"))
	}},
	{name: "another process queues a held call", fresh: true, do: func(t *testing.T, o *Journal) {
		record(t, o, held("git push origin other", "/p"))
	}},
	{name: "nothing again", fresh: false, do: func(*testing.T, *Journal) {}},
	{name: "another process rotates", fresh: true, do: func(t *testing.T, o *Journal) {
		o.MaxSegment = 1
		record(t, o, allowed("echo rotated"))
		o.MaxSegment = DefaultMaxSegment
	}},
	{name: "a writer died after its line, before HEAD", fresh: true, do: func(t *testing.T, o *Journal) {
		hp := filepath.Join(o.Dir(), headFile)
		rec, st := readFileStat(t, hp)
		record(t, o, allowed("echo died"))
		// HEAD back as it was, to the nanosecond: only the segment's size
		// tells.
		f, err := os.OpenFile(hp, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt(rec, 0)
		f.Close()
		if err := os.Chtimes(hp, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "a writer died mid-line", fresh: true, do: func(t *testing.T, o *Journal) {
		appendBytes(t, newestSegment(t, o.Dir()), `{"seq":999,"time":"2026-`)
	}},
	{name: "audit repair sets a torn line aside", fresh: true, do: func(t *testing.T, o *Journal) {
		appendBytes(t, newestSegment(t, o.Dir()), `{"seq":999,"ti`)
		if n, err := o.Repair(); err != nil || n == 0 {
			t.Fatalf("repair: %d %v", n, err)
		}
	}},
	{name: "a rotation died before its first line", fresh: true, do: func(t *testing.T, o *Journal) {
		segs, _ := segments(o.Dir())
		n := segs[len(segs)-1].n + 1
		if err := os.WriteFile(filepath.Join(o.Dir(), segmentName(n)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "the index is removed", fresh: true, do: func(t *testing.T, o *Journal) {
		if err := os.RemoveAll(filepath.Join(o.Dir(), indexDir)); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "audit verify rebuilds the index", fresh: true, do: func(t *testing.T, o *Journal) {
		if err := o.locked(func(w *writer) error { return w.rebuild() }); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "HEAD rewritten with its size and time kept", fresh: true, do: func(t *testing.T, o *Journal) {
		hp := filepath.Join(o.Dir(), headFile)
		_, st := readFileStat(t, hp)
		h, err := readHead(o.Dir())
		if err != nil || h == nil {
			t.Fatal(h, err)
		}
		h.Count += 7
		if err := writeHead(o.Dir(), h, false); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(hp, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "HEAD replaced by a copy", fresh: true, do: func(t *testing.T, o *Journal) {
		hp := filepath.Join(o.Dir(), headFile)
		rec, _ := readFileStat(t, hp)
		os.Remove(hp)
		if err := os.WriteFile(hp, rec, 0o600); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "the lock file is made again", fresh: false, do: func(t *testing.T, o *Journal) {
		os.Remove(filepath.Join(o.Dir(), lockFile))
	}},
	{name: "nothing at the end", fresh: false, do: func(*testing.T, *Journal) {}},
}

// archiveMoves: audit archive moves the older segments out (it refuses
// while they hold open queue items, so these calls are all allowed).
var archiveMoves = []keepStep{
	{name: "another process rotates", fresh: true, do: func(t *testing.T, o *Journal) {
		o.MaxSegment = 1
		record(t, o, allowed("echo rotated"))
		o.MaxSegment = DefaultMaxSegment
	}},
	{name: "nothing", fresh: false, do: func(*testing.T, *Journal) {}},
	{name: "audit archive", fresh: true, do: func(t *testing.T, o *Journal) {
		if _, err := o.Archive(1); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "nothing after", fresh: false, do: func(*testing.T, *Journal) {}},
}

func readFileStat(t *testing.T, path string) ([]byte, os.FileInfo) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, st
}

func appendBytes(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// journalFiles is every segment's bytes (live, set aside and archived)
// and HEAD's, by name: what the two runs must agree on.
func journalFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, sub := range []string{"", archiveDir} {
		ents, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, de := range ents {
			name := de.Name()
			if !strings.HasPrefix(name, "journal-") && name != headFile {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, sub, name))
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Join(sub, name)] = string(b)
		}
	}
	return out
}

// runKeepSteps has the service record one allowed call, then after each
// step another, with kept state on or off; it returns the journal's
// files, its audit, and per step whether the service's call opened the
// journal afresh.
func runKeepSteps(t *testing.T, keep bool, steps []keepStep, withHeld bool) (map[string]string, *Audit, []bool) {
	t.Helper()
	KeepOpen(keep)
	defer KeepOpen(false)
	svc := open(t)
	svc.Now = func() time.Time { return t0 }
	other := otherJournal(t, svc.Dir())
	record(t, svc, allowed("echo 0"))
	var fresh []bool
	for i, s := range steps {
		s.do(t, other)
		_, opened := keptCalls(svc.Dir())
		// Alternate allowed and held calls: both kinds go through the kept
		// writer, and a held one searches the queue under the lock.
		ev := allowed(fmt.Sprintf("echo %d", i+1))
		if withHeld && i%2 == 1 {
			ev = held(fmt.Sprintf("git push origin b%d", i+1), "/p")
		}
		if _, err := svc.Record(claimed(ev)); err != nil {
			t.Fatalf("after %q: %v", s.name, err)
		}
		_, now := keptCalls(svc.Dir())
		fresh = append(fresh, now > opened)
	}
	a, err := svc.Verify()
	if err != nil {
		t.Fatal(err)
	}
	return journalFiles(t, svc.Dir()), a, fresh
}

// TestTheServiceKeptWriterNoticesEveryOtherWriter: the service keeps the
// journal open between calls; after each thing another process, a crash
// or a person can do to the journal, its next call writes exactly what a
// hook process opening the journal afresh writes (the same bytes in every
// segment and in HEAD), the chain verifies, and the kept writer was set
// aside exactly when something changed.
func TestTheServiceKeptWriterNoticesEveryOtherWriter(t *testing.T) {
	t.Run("writers", func(t *testing.T) { compareKeepRuns(t, keepMoves, true) })
	t.Run("archive", func(t *testing.T) { compareKeepRuns(t, archiveMoves, false) })
}

func compareKeepRuns(t *testing.T, steps []keepStep, withHeld bool) {
	want, wantAudit, _ := runKeepSteps(t, false, steps, withHeld)
	got, gotAudit, fresh := runKeepSteps(t, true, steps, withHeld)
	if !wantAudit.OK() {
		t.Fatalf("the journal written afresh does not verify: %+v", wantAudit.Problem)
	}
	if !gotAudit.OK() {
		t.Fatalf("the journal written through kept state does not verify: %+v", gotAudit.Problem)
	}
	if gotAudit.Entries != wantAudit.Entries || gotAudit.Head != wantAudit.Head {
		t.Fatalf("kept: %d entries, head %s; afresh: %d, %s", gotAudit.Entries, gotAudit.Head, wantAudit.Entries, wantAudit.Head)
	}
	compareFiles(t, got, want)
	for i, s := range steps {
		if fresh[i] != s.fresh {
			t.Errorf("after %q the service opened the journal afresh: %v, want %v", s.name, fresh[i], s.fresh)
		}
	}
}

func compareFiles(t *testing.T, got, want map[string]string) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if got[n] != want[n] {
			t.Errorf("%s differs:\nkept:   %q\nafresh: %q", n, got[n], want[n])
		}
	}
}

// TestTheServiceKeptWriterSeesLinesCutOff: lines cut off the end by hand
// (a truncation) are reported by audit verify exactly as they are when
// the journal is opened afresh, and the chain goes on from the anchored
// head in both.
func TestTheServiceKeptWriterSeesLinesCutOff(t *testing.T) {
	cut := []keepStep{
		{name: "nothing", do: func(*testing.T, *Journal) {}},
		{name: "the last line is cut off", fresh: true, do: func(t *testing.T, o *Journal) {
			path := newestSegment(t, o.Dir())
			b, _ := readFileStat(t, path)
			at := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
			if err := os.Truncate(path, int64(at)); err != nil {
				t.Fatal(err)
			}
		}},
		// The call after the cut appended from the anchored head; from
		// there the journal is whole again, and its writer is kept.
		{name: "nothing after", fresh: false, do: func(*testing.T, *Journal) {}},
	}
	want, wantAudit, _ := runKeepSteps(t, false, cut, true)
	got, gotAudit, fresh := runKeepSteps(t, true, cut, true)
	if wantAudit.OK() || gotAudit.OK() {
		t.Fatalf("a cut journal verifies: afresh %v, kept %v", wantAudit.OK(), gotAudit.OK())
	}
	if gotAudit.Problem.Kind != wantAudit.Problem.Kind || gotAudit.Problem.Where() != wantAudit.Problem.Where() {
		t.Fatalf("kept: %+v; afresh: %+v", gotAudit.Problem, wantAudit.Problem)
	}
	compareFiles(t, got, want)
	for i, s := range cut {
		if fresh[i] != s.fresh {
			t.Errorf("after %q the service opened the journal afresh: %v, want %v", s.name, fresh[i], s.fresh)
		}
	}
}

// TestTheServiceLocksTheLockFileItsPathNames: when the lock file is
// removed and made again, a process holding the new one excludes the
// service: a lock kept on the old file would exclude no one.
func TestTheServiceLocksTheLockFileItsPathNames(t *testing.T) {
	KeepOpen(true)
	defer KeepOpen(false)
	svc := open(t)
	record(t, svc, allowed("echo 1"))
	lp := filepath.Join(svc.Dir(), lockFile)
	if err := os.Remove(lp); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := statefile.Lock(holder); err != nil {
		t.Fatal(err)
	}
	svc.LockWait = 50 * time.Millisecond
	if _, err := svc.Record(claimed(allowed("echo 2"))); !errors.Is(err, statefile.ErrLockTimeout) {
		t.Fatalf("Record while another process holds the new lock file = %v, want a timeout", err)
	}
	statefile.Unlock(holder)
	svc.LockWait = 10 * time.Second // a hang, not a speed check
	record(t, svc, allowed("echo 3"))
	if a := mustVerify(t, svc); a.Entries != 2 {
		t.Fatalf("%d entries, want 2", a.Entries)
	}
}

// TestTheServiceKeptStateAndGroupCommit: with group commit on, as the
// service runs, calls from many goroutines go through the one kept
// writer and lose nothing.
func TestTheServiceKeptStateAndGroupCommit(t *testing.T) {
	KeepOpen(true)
	defer KeepOpen(false)
	GroupCommit(true)
	defer GroupCommit(false)
	svc := open(t)
	other := otherJournal(t, svc.Dir())
	const n = 40
	errs := make(chan error, n)
	for i := range n {
		go func() {
			ev := allowed(fmt.Sprintf("echo %d", i))
			if i%4 == 0 {
				ev = held(fmt.Sprintf("git push origin b%d", i), "/p")
			}
			_, err := svc.Record(claimed(ev))
			if i%10 == 0 && err == nil {
				_, err = other.Record(claimed(allowed(fmt.Sprintf("echo other %d", i))))
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if a := mustVerify(t, svc); a.Entries != n+n/10 {
		t.Fatalf("%d entries, want %d", a.Entries, n+n/10)
	}
	if reused, _ := keptCalls(svc.Dir()); reused == 0 {
		t.Fatal("no call reused the kept writer")
	}
}

// TestTheServiceWaitsForItsOwnCallsWithinTheLimit: a call of the service
// that never lets go of the kept lock file (stuck, or its thread
// stopped) makes the next call wait LockWait and fail naming the limit,
// as a lock held by another process does.
func TestTheServiceWaitsForItsOwnCallsWithinTheLimit(t *testing.T) {
	KeepOpen(true)
	defer KeepOpen(false)
	svc := open(t)
	record(t, svc, allowed("echo 1"))
	k := svc.keeper()
	k.sem <- struct{}{} // another call of this process holds it
	svc.LockWait = 50 * time.Millisecond
	_, err := svc.Record(claimed(allowed("echo 2")))
	<-k.sem
	if !errors.Is(err, statefile.ErrLockTimeout) || !strings.Contains(err.Error(), "the limit") {
		t.Fatalf("Record while another call holds the kept lock = %v, want a timeout naming the limit", err)
	}
	svc.LockWait = 10 * time.Second // a hang, not a speed check
	record(t, svc, allowed("echo 3"))
	if a := mustVerify(t, svc); a.Entries != 2 {
		t.Fatalf("%d entries, want 2", a.Entries)
	}
}
