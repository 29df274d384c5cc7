package journal

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
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
