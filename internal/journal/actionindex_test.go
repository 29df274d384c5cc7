package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// TestApprovalFoundByAction: the approval of a held call is found
// through its action's posting file among many other held actions, used
// once, and not taken for another action's; damage to the action files
// fails closed or is rebuilt from the journal, never lets an approval
// through twice.
func TestApprovalFoundByAction(t *testing.T) {
	type damage struct {
		name string
		// before runs after the approval, before the first retry; after
		// runs after the first (approved) retry.
		before, after func(t *testing.T, j *Journal, key string)
		// found: the first retry is let through.
		found bool
	}
	afile := func(j *Journal, key string) string { return filepath.Join(j.Dir(), indexDir, key) }
	for _, c := range []damage{
		{name: "no damage", found: true},
		{name: "action file garbage: rebuilt", found: true, before: func(t *testing.T, j *Journal, key string) {
			os.WriteFile(afile(j, key), bytes.Repeat([]byte{0x5a}, recordSize+3), 0o600)
		}},
		{name: "index from before action files: rebuilt", found: true, before: func(t *testing.T, j *Journal, key string) {
			os.Remove(filepath.Join(j.Dir(), indexDir, keyActions))
			os.Remove(afile(j, key))
		}},
		{name: "action file deleted: held again", found: false, before: func(t *testing.T, j *Journal, key string) {
			os.Remove(afile(j, key))
		}},
		{name: "action file lost the approval: held again", found: false, before: func(t *testing.T, j *Journal, key string) {
			b, _ := os.ReadFile(afile(j, key))
			os.WriteFile(afile(j, key), b[:len(b)-recordSize], 0o600)
		}},
		{name: "action file lost the use: not a fresh approval", found: true, after: func(t *testing.T, j *Journal, key string) {
			b, _ := os.ReadFile(afile(j, key))
			if p := decodePosting(b[len(b)-recordSize:]); p.Kind != kindUsed {
				t.Fatalf("the action file's last posting is kind %d, not the use", p.Kind)
			}
			os.WriteFile(afile(j, key), b[:len(b)-recordSize], 0o600)
		}},
		{name: "action file's approval points elsewhere: rebuilt", found: true, before: func(t *testing.T, j *Journal, key string) {
			b, _ := os.ReadFile(afile(j, key))
			last := b[len(b)-recordSize:]
			p := decodePosting(last)
			p.Off -= int64(p.Len)
			p.encode(last)
			os.WriteFile(afile(j, key), b, 0o600)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := open(t)
			now := t0
			j.Now = func() time.Time { return now }
			for i := 0; i < 40; i++ {
				record(t, j, held("git push origin b"+strconv.Itoa(i), "/p"))
			}
			ev := held("git push origin main", "/p")
			id := record(t, j, ev).QueueID
			for i := 40; i < 80; i++ {
				record(t, j, held("git push origin b"+strconv.Itoa(i), "/p"))
			}
			if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
				t.Fatal(err)
			}
			key := actionKey(entryOf(held("git push origin main", "/p")))
			if c.before != nil {
				c.before(t, j, key)
			}
			// Another directory, another command: other actions.
			for _, other := range []*struct{ cmd, cwd string }{{"git push origin main", "/q"}, {"git push origin b3", "/p"}} {
				o := held(other.cmd, other.cwd)
				if r := record(t, j, o); r.Approval != "" {
					t.Fatalf("%s in %s used the approval of another action", other.cmd, other.cwd)
				}
			}
			retry := held("git push origin main", "/p")
			r := record(t, j, retry)
			if got := r.Approval == id && retry.Verdict.Decision == policy.Allow; got != c.found {
				t.Fatalf("first retry: approval %q, %s; want found %v", r.Approval, retry.Verdict.Decision, c.found)
			}
			if c.after != nil {
				c.after(t, j, key)
			}
			again := held("git push origin main", "/p")
			if r := record(t, j, again); r.Approval != "" || again.Verdict.Decision != policy.Defer {
				t.Fatalf("the approval was used twice: %+v", r)
			}
			if c.found {
				if a := mustVerify(t, j); a.Index != "ok" {
					t.Fatalf("index after the hook path: %s", a.Index)
				}
			}
		})
	}
}

// synthHeld writes n held calls, each its own action, straight into dir
// (as synthJournal does) and lets the journal index them.
func synthHeld(b *testing.B, dir string, n int) *Journal {
	b.Helper()
	os.MkdirAll(dir, 0o700)
	os.MkdirAll(filepath.Join(filepath.Dir(dir), "secrets"), 0o700)
	os.WriteFile(filepath.Join(filepath.Dir(dir), filepath.FromSlash(HumanKeyFile)), bytes.Repeat([]byte("k"), 32), 0o600)
	var buf bytes.Buffer
	prev := ""
	t := time.Now().Add(-time.Duration(n) * time.Second)
	for i := 1; i <= n; i++ {
		t = t.Add(time.Second)
		e := &Entry{Seq: int64(i), Time: t, Event: "PreToolUse", Agent: "claude-code", Session: "s-" + strconv.Itoa(i/2000), Cwd: "/home/u/proj",
			Tool: "Bash", Kind: "shell", Command: fmt.Sprintf("git push origin b%d", i), Decision: "defer", Rule: "table.external", Effect: "external", Prev: prev}
		e.ID = queueID(prev, int64(i))
		line, err := marshalLine(e)
		if err != nil {
			b.Fatal(err)
		}
		prev = lineHash(line)
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, segmentName(1)), buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	j, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := j.Open(time.Now()); err != nil { // builds the index
		b.Fatal(err)
	}
	return j
}

// BenchmarkApprovalLookup: a retry of an approved held call looking for
// its approval (approvalFor, under the lock) in a queue of 1,000 and of
// 100,000 held calls, the approved one in the middle (docs/BENCHMARKS.md):
//
//	go test -run '^$' -bench ApprovalLookup -benchtime 2000x ./internal/journal/
func BenchmarkApprovalLookup(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			j := synthHeld(b, filepath.Join(b.TempDir(), "journal"), n)
			items, err := j.Open(time.Now())
			if err != nil || len(items) < n-10 {
				b.Fatalf("%d items, %v", len(items), err)
			}
			mid := items[n/2]
			if _, err := j.Settle(EventApprove, mid.Entry.ID, "", time.Hour); err != nil {
				b.Fatal(err)
			}
			retry := &Entry{Kind: "shell", Cwd: mid.Entry.Cwd, Command: mid.Entry.Command}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var got string
				if err := j.locked(func(w *writer) error {
					var err error
					got, _, err = w.approvalFor(retry, time.Now())
					return err
				}); err != nil || got != mid.Entry.ID {
					b.Fatalf("approval %q, %v; want %s", got, err, mid.Entry.ID)
				}
			}
		})
	}
}
