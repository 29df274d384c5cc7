package classify

import (
	"sort"
	"testing"
)

// TestReadersAreLocal checks classify's tables against its own ratings:
// a program OnlyReads may count as a plain read, a search or a listing
// (its tables fileReaders, searchers, listers) is rated local, with no flag,
// by the classifier, and a reader or searcher is not looked through for a
// command among its arguments (its operands are files and patterns). A
// program added to one of those tables that runs its arguments, or
// reaches the network, fails here before the gate can take its run as
// evidence. (A lister may be looked through: locate has no spec and is
// not in the inert table, so "locate git push" is rated as a push; the
// gate then refuses it as evidence, which is the safe side.)
func TestReadersAreLocal(t *testing.T) {
	var names []string
	for n := range fileReaders() {
		names = append(names, n)
	}
	for n := range searchers() {
		names = append(names, n)
	}
	lists := len(names)
	for n := range listers() {
		names = append(names, n)
	}
	sort.Strings(names[:lists])
	sort.Strings(names[lists:])
	for i, n := range names {
		e := Command(n + " notes.txt").Effect
		if e.Tier != Local || e.Opaque || e.Destructive || e.NetworkRead {
			t.Errorf("%s notes.txt: rated %s %v, want plain local", n, e.Label(), e.Reasons)
		}
		if i < lists && n != "git grep" && LooksThrough(n) {
			t.Errorf("%s: classify looks through its arguments for a command, so it is no plain read", n)
		}
	}
}

// TestWrappersAreOneTable checks that Wrappers lists what IsWrapper and
// LooksThrough report, both tables included.
func TestWrappersAreOneTable(t *testing.T) {
	ws := Wrappers()
	seen := map[string]bool{}
	for _, w := range ws {
		if seen[w] {
			t.Errorf("%s listed twice", w)
		}
		seen[w] = true
		if !IsWrapper(w) || !LooksThrough(w) {
			t.Errorf("%s: listed but IsWrapper %v, LooksThrough %v", w, IsWrapper(w), LooksThrough(w))
		}
	}
	for w := range wrapperNames() {
		if !seen[w] {
			t.Errorf("%s: in classify's wrapper table but not listed", w)
		}
	}
	for _, w := range []string{"sudo", "env", "timeout", "xargs", "strace", "runuser"} {
		if !seen[w] {
			t.Errorf("%s: not listed", w)
		}
	}
}

// TestGitHistoryAgrees checks GitChangesHistory against classify's own
// table of git subcommands: every subcommand rated as changing history or
// refs is one whose destruction a worktree snapshot does not bring back.
// (The converse does not hold yet: git symbolic-ref and checkout-index
// change history but classify rates them as unknown, which is opaque and
// so held.)
func TestGitHistoryAgrees(t *testing.T) {
	for sub, e := range gitSub {
		for _, r := range e.Reasons {
			if (r.Rule == "git.history" || r.Rule == "git.refs") && !GitChangesHistory(sub) {
				t.Errorf("git %s: rated %s by classify, not known to change history", sub, r.Rule)
			}
		}
	}
}
