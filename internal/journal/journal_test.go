package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

var t0 = time.Date(2026, 2, 23, 8, 15, 0, 0, time.UTC)

// held is a PreToolUse event for a shell command that the policy deferred.
func held(cmd, cwd string) *vocab.Event {
	return &vocab.Event{
		Time: t0, Agent: "claude-code", Name: "PreToolUse", Session: "s1", Cwd: cwd, Tool: "Bash",
		Action:  &policy.Action{Kind: policy.Shell, Tool: "Bash", Command: cmd, Cwd: cwd},
		Verdict: (&policy.Verdict{Decision: policy.Defer, Rule: "table.external", Effect: classify.Effect{Tier: classify.External}}).Record(),
	}
}

func allowed(cmd string) *vocab.Event {
	ev := held(cmd, "/p")
	ev.Verdict = (&policy.Verdict{Decision: policy.Allow, Rule: "table.local"}).Record()
	return ev
}

func open(t *testing.T) *Journal {
	t.Helper()
	state := t.TempDir()
	// A fixed human key keeps the chain (and so the queue ids after a
	// human act) the same from run to run, for the golden files.
	if err := os.MkdirAll(filepath.Join(state, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, filepath.FromSlash(HumanKeyFile)), bytes.Repeat([]byte("k"), 32), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(filepath.Join(state, "journal"))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// errSpent is the error claimed returns for a named approval that is
// not there to use (the pipeline's ErrApprovalSpent).
var errSpent = errors.New("the approval is already used, expired or not a human's")

// claimed gives a decided event the claim the decision pipeline gives it
// (internal/pipeline/approval.go, which the journal's tests cannot
// import), with the same words: the journal finds the approval under its
// lock, the claim says what it means.
func claimed(ev *vocab.Event) *vocab.Event {
	v := ev.Verdict
	if ev.Action == nil || v == nil {
		return ev
	}
	was := v.Rule == vocab.RuleApproved
	if !was && v.Decision != vocab.Defer && v.Decision != vocab.Ask {
		return ev
	}
	ev.Claim = &vocab.Claim{Ref: ev.Ref, Settle: func(id string) (bool, error) {
		switch {
		case id != "":
			v.Decision, v.Rule = vocab.Allow, vocab.RuleApproved
			if !was || v.Message == "" {
				v.Message = "a human approved this exact action (queue item " + id + "); it runs once"
				if ev.Action.Kind == vocab.Shell {
					v.Message = "a human approved this exact command in this directory (queue item " + id + "); it runs once"
				}
			}
			return true, nil
		case was && ev.Ref != "":
			return false, fmt.Errorf("%w: %s", errSpent, ev.Ref)
		case was:
			v.Decision, v.Rule = vocab.Defer, vocab.RuleSpent
			v.Message = "the human's approval of this action was already used, expired or withdrawn; it is held again"
		}
		return false, nil
	}}
	return ev
}

// record records ev, with the pipeline's claim (see claimed).
func record(t *testing.T, j *Journal, ev *vocab.Event) vocab.Receipt {
	t.Helper()
	r, err := j.Record(claimed(ev))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustVerify(t *testing.T, j *Journal) *Audit {
	t.Helper()
	a, err := j.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if !a.OK() {
		t.Fatalf("verify: %s %s: %s", a.Problem.Kind, a.Problem.Where(), a.Problem.Detail)
	}
	return a
}

func TestRecordChainsAndQueues(t *testing.T) {
	j := open(t)
	if r := record(t, j, allowed("ls")); r.QueueID != "" {
		t.Fatalf("an allowed call got queue id %q", r.QueueID)
	}
	r := record(t, j, held("git push", "/p"))
	if len(r.QueueID) != 8 {
		t.Fatalf("queue id %q, want 8 hex digits", r.QueueID)
	}
	a := mustVerify(t, j)
	if a.Entries != 2 || a.HeadSeq != 2 {
		t.Fatalf("entries %d head %d, want 2 and 2", a.Entries, a.HeadSeq)
	}
	es, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if es[0].Prev != "" || es[1].Prev == "" || es[1].ID != r.QueueID || es[1].Effect != "external" || es[1].Command != "git push" {
		t.Fatalf("entries: %+v %+v", es[0], es[1])
	}
	items, err := j.Queue(t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].ID != r.QueueID || items[0].Status != Pending {
		t.Fatalf("queue: %+v", items)
	}
}

// lines returns the journal's single segment split into lines.
func lines(t *testing.T, j *Journal) (string, [][]byte) {
	t.Helper()
	path := filepath.Join(j.Dir(), segmentName(1))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, bytes.SplitAfter(data, []byte("\n"))
}

func fill(t *testing.T, j *Journal, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		record(t, j, allowed(fmt.Sprintf("echo %d", i)))
	}
}

func TestVerifyNamesTheBrokenLine(t *testing.T) {
	cases := []struct {
		name string
		// change edits the lines of a 9-event journal in place.
		change func(ls [][]byte) [][]byte
		kind   ProblemKind
		line   int
	}{
		{"one byte of a command", func(ls [][]byte) [][]byte {
			ls[4] = bytes.Replace(ls[4], []byte("echo 4"), []byte("echo 5"), 1)
			return ls
		}, Edited, 5},
		{"one byte of a prev", func(ls [][]byte) [][]byte {
			i := bytes.Index(ls[4], []byte(`"prev":"`)) + 8
			ls[4][i] ^= 1
			return ls
		}, Edited, 5},
		{"one byte breaking the JSON", func(ls [][]byte) [][]byte {
			ls[4][0] = '['
			return ls
		}, Edited, 5},
		{"the line before the last edited", func(ls [][]byte) [][]byte {
			ls[7] = bytes.Replace(ls[7], []byte("echo 7"), []byte("echo 9"), 1)
			return ls
		}, Edited, 8},
		{"a line removed", func(ls [][]byte) [][]byte {
			return append(ls[:3:3], ls[4:]...)
		}, Removed, 4},
		{"two lines swapped", func(ls [][]byte) [][]byte {
			ls[3], ls[4] = ls[4], ls[3]
			return ls
		}, Removed, 4},
		{"a line repeated", func(ls [][]byte) [][]byte {
			return append(ls[:5:5], append([][]byte{ls[4]}, ls[5:]...)...)
		}, Reordered, 6},
		{"a torn tail", func(ls [][]byte) [][]byte {
			return append(ls, []byte(`{"seq":10,"ti`))
		}, Torn, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := open(t)
			fill(t, j, 9)
			mustVerify(t, j)
			path, ls := lines(t, j)
			ls = c.change(ls[:9])
			if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
				t.Fatal(err)
			}
			a, err := j.Verify()
			if err != nil {
				t.Fatal(err)
			}
			if a.OK() {
				t.Fatal("verify passed a tampered journal")
			}
			if a.Problem.Kind != c.kind || a.Problem.Line != c.line {
				t.Fatalf("got %s at %s (%s), want %s at line %d", a.Problem.Kind, a.Problem.Where(), a.Problem.Detail, c.kind, c.line)
			}
		})
	}
}

// The chain cannot vouch for its own last line; the anchored head
// (journal/HEAD) can.
func TestTheLastLineIsVouchedForByTheAnchoredHead(t *testing.T) {
	j := open(t)
	fill(t, j, 3)
	mustVerify(t, j)
	path, ls := lines(t, j)
	ls[2] = bytes.Replace(ls[2], []byte("echo 2"), []byte("echo 9"), 1)
	if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := j.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if a.OK() || a.Problem.Kind != Edited || a.Problem.Line != 3 {
		t.Fatalf("an edited last line: %+v", a.Problem)
	}
}

func TestTornTailIsSetAsideAndTheChainGoesOn(t *testing.T) {
	j := open(t)
	fill(t, j, 3)
	path, _ := lines(t, j)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":4,"time":"2026-`)
	f.Close()
	if a, _ := j.Verify(); a.OK() || a.Problem.Kind != Torn {
		t.Fatalf("verify before repair: %+v", a.Problem)
	}
	moved, err := j.Repair()
	if err != nil || moved != int64(len(`{"seq":4,"time":"2026-`)) {
		t.Fatalf("repair moved %d, %v", moved, err)
	}
	record(t, j, allowed("after"))
	a := mustVerify(t, j)
	if a.Entries != 4 || a.SetAside != 1 {
		t.Fatalf("entries %d set aside %d, want 4 and 1", a.Entries, a.SetAside)
	}
	side, _ := os.ReadFile(path + ".torn")
	if !strings.HasPrefix(string(side), `{"seq":4,"time":"2026-`) {
		t.Fatalf(".torn holds %q", side)
	}
}

func TestAWholeFileWithoutNewlineIsTorn(t *testing.T) {
	j := open(t)
	if err := os.WriteFile(filepath.Join(j.Dir(), segmentName(1)), []byte(`{"seq":1`), 0o600); err != nil {
		t.Fatal(err)
	}
	record(t, j, allowed("ls"))
	if a := mustVerify(t, j); a.Entries != 1 || a.HeadSeq != 1 {
		t.Fatalf("entries %d head %d", a.Entries, a.HeadSeq)
	}
}

func TestSegmentsRotateAndTheChainContinues(t *testing.T) {
	j := open(t)
	j.MaxSegment = 600
	fill(t, j, 20)
	segs, err := segments(j.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) < 3 {
		t.Fatalf("%d segments, want rotation into at least 3", len(segs))
	}
	a := mustVerify(t, j)
	if a.Entries != 20 || a.Segments != len(segs) {
		t.Fatalf("entries %d segments %d", a.Entries, a.Segments)
	}
	// Removing a whole middle segment is a removal.
	if err := os.Remove(segs[1].path); err != nil {
		t.Fatal(err)
	}
	if a, _ := j.Verify(); a.OK() || a.Problem.Kind != Removed || a.Problem.Segment != filepath.Base(segs[2].path) {
		t.Fatalf("after removing a segment: %+v", a.Problem)
	}
}

func TestAnApprovedRetryRunsOnce(t *testing.T) {
	j := open(t)
	now := t0
	j.Now = func() time.Time { return now }
	id := record(t, j, held("git push origin main", "/p")).QueueID

	// Not approved yet: a retry is held again, as a new item.
	ev := held("git push origin main", "/p")
	if r := record(t, j, ev); r.Approval != "" || ev.Verdict.Decision != policy.Defer {
		t.Fatalf("unapproved retry: %+v %v", r, ev.Verdict.Decision)
	}
	if _, err := j.Settle(EventApprove, id[:5], "looks right", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Settle(EventApprove, id, "", 0); !errors.Is(err, ErrSettled) {
		t.Fatalf("approving twice: %v", err)
	}
	// Another directory or another text is not the approved action.
	for _, other := range []*vocab.Event{held("git push origin main", "/q"), held("git push origin main --force", "/p")} {
		if r := record(t, j, other); r.Approval != "" {
			t.Fatalf("%q in %s used the approval", other.Action.Command, other.Cwd)
		}
	}
	ev = held("git push origin main", "/p")
	r := record(t, j, ev)
	if r.Approval != id || ev.Verdict.Decision != policy.Allow || ev.Verdict.Rule != RuleApproved || r.QueueID != "" {
		t.Fatalf("approved retry: receipt %+v verdict %+v", r, ev.Verdict)
	}
	again := held("git push origin main", "/p")
	if r := record(t, j, again); r.Approval != "" || again.Verdict.Decision != policy.Defer {
		t.Fatalf("second retry used the approval again: %+v", r)
	}
	items, _ := j.Queue(now)
	it, err := Find(items, id)
	if err != nil || it.Status != Used || it.UsedBy == nil || it.UsedBy.Ref != id {
		t.Fatalf("item after use: %+v %v", it, err)
	}
	mustVerify(t, j)
}

func TestApprovalsExpireAndRejectionsHold(t *testing.T) {
	j := open(t)
	now := t0
	j.Now = func() time.Time { return now }
	a := record(t, j, held("npm publish", "/p")).QueueID
	b := record(t, j, held("gh pr create", "/p")).QueueID
	if _, err := j.Settle(EventApprove, a, "", time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Settle(EventReject, b, "not today", 0); err != nil {
		t.Fatal(err)
	}
	now = t0.Add(2 * time.Minute)
	late := held("npm publish", "/p")
	late.Time = now
	if r := record(t, j, late); r.Approval != "" {
		t.Fatal("an expired approval let the retry through")
	}
	rej := held("gh pr create", "/p")
	if r := record(t, j, rej); r.Approval != "" {
		t.Fatal("a rejected action ran")
	}
	items, _ := j.Queue(now)
	st := map[string]Status{}
	for _, it := range items {
		st[it.ID] = it.Status
	}
	if st[a] != Expired || st[b] != Rejected {
		t.Fatalf("statuses: %v", st)
	}
	if _, err := j.Settle(EventApprove, b, "", 0); !errors.Is(err, ErrSettled) {
		t.Fatalf("approving a rejected item: %v", err)
	}
	if _, err := j.Settle(EventApprove, "zzzz", "", 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestFindPrefixes(t *testing.T) {
	items := []*Item{{Entry: &Entry{ID: "ab12cd34"}}, {Entry: &Entry{ID: "ab99ef00"}}}
	if _, err := Find(items, "ab"); !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("ab: %v", err)
	}
	if it, err := Find(items, "AB1"); err != nil || it.ID != "ab12cd34" {
		t.Fatalf("AB1: %v %v", it, err)
	}
	if _, err := Find(items, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty: %v", err)
	}
}

func TestHugeCommandsAreCut(t *testing.T) {
	j := open(t)
	big := strings.Repeat("x", MaxLine+10)
	record(t, j, held("echo "+big, "/p"))
	es, _ := j.Entries()
	if len(es) != 1 || len(es[0].Command) > MaxLine/2 || !strings.Contains(es[0].Note, "cut") {
		t.Fatalf("cut entry: len %d note %q", len(es[0].Command), es[0].Note)
	}
	mustVerify(t, j)
}

func TestOnlyFindingsThatWereNotRefusedAreQueued(t *testing.T) {
	j := open(t)
	for _, status := range []string{"executed", "denied", "mentioned", "no-result"} {
		ev := held("git push", "/p")
		ev.Name, ev.Agent, ev.Finding = EventScanFinding, "scan", &vocab.Finding{Source: "out", Line: 1, Status: status}
		r := record(t, j, ev)
		if (r.QueueID == "") != (status == "denied") {
			t.Errorf("%s finding: queue id %q", status, r.QueueID)
		}
	}
}

// TestTheJournalSpendsApprovalsOnlyWhenAsked: the journal stores and does
// not decide. An event without a claim (a scanner's finding of the same
// command, a caller's own verdict) is kept as it came and spends nothing;
// a claim whose Settle spends an approval without the approved rule is
// refused, since the queue would not count it as spent; and an approval
// is found and spent for the claimed retry.
func TestTheJournalSpendsApprovalsOnlyWhenAsked(t *testing.T) {
	j := open(t)
	id := record(t, j, held("git push", "/p")).QueueID
	if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	unclaimed := held("git push", "/p")
	if r, err := j.Record(unclaimed); err != nil || r.Approval != "" || unclaimed.Verdict.Decision != vocab.Defer {
		t.Fatalf("an unclaimed event: approval %q, %v, %v", r.Approval, unclaimed.Verdict.Decision, err)
	}
	bad := held("git push", "/p")
	bad.Claim = &vocab.Claim{Settle: func(found string) (bool, error) {
		if found != id {
			t.Errorf("the claim was offered %q, want %q", found, id)
		}
		bad.Verdict.Decision = vocab.Allow // but not RuleApproved
		return true, nil
	}}
	if _, err := j.Record(bad); err == nil {
		t.Fatal("an event spent an approval without the approved rule")
	}
	retry := held("git push", "/p")
	if r := record(t, j, retry); r.Approval != id || retry.Verdict.Rule != RuleApproved {
		t.Fatalf("the claimed retry: approval %q rule %s", r.Approval, retry.Verdict.Rule)
	}
	if r := record(t, j, held("git push", "/p")); r.Approval != "" {
		t.Fatal("the approval was spent twice")
	}
}

// TestEachInStory: the story query returns the story's entries only, not
// another story whose id starts the same or a line that merely quotes
// the field.
func TestEachInStory(t *testing.T) {
	j := open(t)
	for _, s := range []struct{ story, note string }{{"1", ""}, {"10", ""}, {"", `"story":"1"`}, {"1", "second"}} {
		ev := allowed("ls")
		ev.Story, ev.Note = s.story, s.note
		record(t, j, ev)
	}
	var got []string
	if err := j.EachInStory("1", func(e *Entry) error { got = append(got, e.Story+"/"+e.Note); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "1/,1/second" {
		t.Fatalf("story 1: %q", got)
	}
}
