package classify

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
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
	for n := range fileReaders.Get() {
		names = append(names, n)
	}
	for n := range searchers.Get() {
		names = append(names, n)
	}
	lists := len(names)
	for n := range listers.Get() {
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
	for w := range wrapperNames.Get() {
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
	subs := gitSubCases(t)
	if len(subs) < 150 {
		t.Fatalf("read %d subcommands from gitSubEffect's cases, want git's table (about 160)", len(subs))
	}
	for _, sub := range subs {
		e, ok := gitSubEffect(sub)
		if !ok {
			t.Errorf("git %s: a case of gitSubEffect that it does not rate", sub)
		}
		for _, r := range e.Reasons {
			if (r.Rule == "git.history" || r.Rule == "git.refs") && !GitChangesHistory(sub) {
				t.Errorf("git %s: rated %s by classify, not known to change history", sub, r.Rule)
			}
		}
	}
}

// TestOnlyReads checks what a run that only reads shows, and that a
// run whose options run a program or write a file is not one. git's own
// options are read with the classifier's table of them, so a value is
// never taken for the subcommand.
func TestOnlyReads(t *testing.T) {
	for _, c := range []struct {
		cmd      string
		ok       bool
		files    string
		searches string
	}{
		{"cat a.go b.go", true, "a.go b.go", ""},
		{"head -n 5 a.go", true, "a.go", ""},
		{"sed -n 1,20p a.go", true, "a.go", ""},
		{"sed -i s/a/b/ a.go", false, "", ""},
		{"grep -e foo -r src", true, "", "grep:foo:src"},
		{"rg foo", true, "", "rg:foo:"},
		{"rg --pre cat foo", false, "", ""},
		{"git grep -n foo -- src", true, "", "git grep:foo:src"},
		{"git --attr-source HEAD status", true, "", ""},
		{"git -C sub log --output=x", false, "", ""},
		{"git branch -D main", false, "", ""},
		{"find . -name x -delete", false, "", ""},
		{"sort -o out in", false, "", ""},
		{"ls -la", true, "", ""},
		{"python3 x.py", false, "", ""},
	} {
		invs := Command(c.cmd).Invocations
		if len(invs) != 1 {
			t.Fatalf("%s: %d runs", c.cmd, len(invs))
		}
		r, ok := OnlyReads(&invs[0].Invocation)
		var searches []string
		for _, s := range r.Searches {
			searches = append(searches, s.Tool+":"+strings.Join(s.Patterns, " ")+":"+strings.Join(s.Paths, " "))
		}
		if ok != c.ok || strings.Join(r.Files, " ") != c.files || strings.Join(searches, ",") != c.searches {
			t.Errorf("%s: only reads %v, files %q, searches %q; want %v, %q, %q", c.cmd, ok, r.Files, searches, c.ok, c.files, c.searches)
		}
	}
}

// gitSubCases are the subcommands gitSubEffect's switch names, read from
// git.go: the switch cannot be ranged over as the map it replaced was.
func gitSubCases(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "git.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var subs []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "gitSubEffect" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, x := range cc.List {
					if bl, ok := x.(*ast.BasicLit); ok && bl.Kind == token.STRING {
						s, _ := strconv.Unquote(bl.Value)
						subs = append(subs, s)
					}
				}
			}
			return true
		})
	}
	return subs
}
