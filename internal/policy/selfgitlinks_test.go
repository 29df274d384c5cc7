package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitFixture makes a fixture whose proj is a repository with the
// branches of evilBranch.
func gitFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	f.write("home/.local/state/airlock/secrets/serve.token", strings.Repeat("d4", 32)+"\n")
	f.write("home/.local/state/airlock/secrets/human.key", strings.Repeat("k", 32))
	f.write("home/.claude/settings.json", "{}\n")
	evilBranch(t, f)
	return f
}

// evilBranch makes proj a repository (main checked out, README.md
// committed) whose branch evil commits s10, a link to airlock's secrets,
// and c10, a link to ~/.claude; good commits a plain file.
func evilBranch(t *testing.T, f *fixture) { t.Helper(); evilBranchTB(t, f) }

func evilBranchTB(t testing.TB, f *fixture) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	home := f.path("home")
	if _, err := os.Stat(f.path("proj/README.md")); err != nil {
		f.write("proj/README.md", "# r\n")
	}
	proj := f.path("proj")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", proj}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+f.root, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	_ = os.Remove(f.path("proj/.git/HEAD"))
	git("init", "-q", "-b", "main")
	git("add", "README.md")
	git("commit", "-qm", "one")
	git("checkout", "-qb", "evil")
	if err := os.Symlink(filepath.Join(home, ".local/state/airlock/secrets"), filepath.Join(proj, "s10")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".claude"), filepath.Join(proj, "c10")); err != nil {
		t.Fatal(err)
	}
	git("add", "s10", "c10")
	git("commit", "-qm", "links")
	git("checkout", "-q", "main")
	git("checkout", "-qb", "good")
	f.write("proj/NOTES.md", "n\n")
	git("add", "NOTES.md")
	git("commit", "-qm", "notes")
	git("checkout", "-q", "main")
	for _, l := range []string{"s10", "c10"} {
		if _, err := os.Lstat(filepath.Join(proj, l)); err == nil {
			t.Fatalf("%s is still in the worktree", l)
		}
	}
}

// TestGitCheckoutLinks: a link a git command checks out, merges, pulls
// from "." or clones is read from the repository at decision time, so a
// read or write through it in the same command is refused (FINDINGS-6 F8,
// FINDINGS-5 L5); trees without such links, and files beside them, pass.
func TestGitCheckoutLinks(t *testing.T) {
	f := gitFixture(t)
	p := f.load()
	decide := func(cmd string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
	}
	wt := f.path("wt")
	deny := []string{
		`git checkout evil -- s10 && cat s10/serve.token`,
		`git checkout evil && cat s10/serve.token`,
		`git checkout -q evil; base64 s10/human.key`,
		`git switch evil && cat s10/serve.token`,
		`git restore --source evil s10 && cat s10/serve.token`,
		`git restore -s evil -- s10 && cat s10/serve.token`,
		`git restore --source=evil s10 && cat s10/serve.token`,
		`git pull . evil && cat s10/serve.token`,
		`git merge evil && cat s10/serve.token`,
		`git merge --no-edit -m x evil && cat s10/serve.token`,
		`git rebase evil && cat s10/serve.token`,
		`git cherry-pick evil && cat s10/serve.token`,
		`git reset --hard evil && cat s10/serve.token`,
		`git read-tree -u --reset evil && cat s10/serve.token`,
		`git worktree add ` + wt + ` evil && cat ` + wt + `/s10/serve.token`,
		`git clone -q . ../c && git -C ../c checkout evil && cat ../c/s10/serve.token`,
		`git clone -q -b evil . ../c && cat ../c/s10/serve.token`,
		`git checkout evil && : > c10/settings.json`,
		`git checkout evil && grep -R . s10`,
		`git checkout $(echo evil) && cat s10/serve.token`,
		`git fetch -q origin x; git checkout FETCH_HEAD && cat s10/serve.token`,
		`git -C . checkout evil && cat s10/serve.token`,
		`git cherry-pick main..evil && cat s10/serve.token`,
		`git checkout -q evil && git checkout -q main && git checkout - && cat s10/serve.token`,
		`cd sub 2>/dev/null; git checkout evil && cat s10/serve.token`,
		`GIT_DIR=.git git checkout evil && cat s10/serve.token`,
		`mkdir -p src && cd src && git checkout evil && cat ../s10/serve.token`,
		`git --work-tree=. checkout evil && cat s10/serve.token`,
	}
	for _, cmd := range deny {
		v := decide(cmd)
		if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was %s by %s (%s); want a deny by self-protection", cmd, v.Decision, v.Rule, v.Message)
		}
	}
	ordinary := []string{
		`git checkout good && cat NOTES.md`,
		`git checkout evil && cat README.md`,
		`git checkout -b feature && cat README.md`,
		`git checkout README.md && cat README.md`,
		`git pull && cat README.md`,
		`git stash && git stash pop && cat README.md`,
		`git merge good && cat NOTES.md`,
		`git worktree add ../wt2 good && cat ../wt2/NOTES.md`,
		`git clone -q . ../c2 && cat ../c2/README.md`,
		`git rebase --continue && cat README.md`,
		`git checkout evil`,
		`GIT_PAGER=cat git checkout good && cat NOTES.md`,
		`git cherry-pick main..good && cat NOTES.md`,
		`git checkout - && cat README.md`,
	}
	for _, cmd := range ordinary {
		if v := decide(cmd); v.Decision == Deny && strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was denied by %s (%s); no link of the command's is read through", cmd, v.Rule, v.Message)
		}
	}
}

// BenchmarkRunTimeSources compares, in one run, a decision on a static
// read with the decisions this phase adds work to: a read of a run-time
// word (its source judged), and a checkout followed by a read (git run
// at decision time to list the tree's links).
func BenchmarkRunTimeSources(b *testing.B) {
	f := newFixture(b)
	f.write("home/.local/state/airlock/secrets/serve.token", strings.Repeat("d4", 32)+"\n")
	f.write("proj/files.txt", "README.md\n")
	f.write("home/.claude/settings.json", "{}\n")
	evilBranchTB(b, f)
	p := f.load()
	for _, c := range []struct{ name, cmd string }{
		{"static-read", `cat README.md`},
		{"git-ls-files-read", `cat $(git ls-files '*.md')`},
		{"list-file-read", `xargs -a files.txt cat`},
		{"decoded-read", `cat $(echo UkVBRE1FLm1k | base64 -d)`},
		{"status-then-read", `git status && cat NOTES.md`},
		{"checkout-then-read", `git checkout good && cat NOTES.md`},
	} {
		a := Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: f.path("proj"), Snapshots: true}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p.DecideIn(Unattended, a)
			}
		})
	}
}

// TestUnreadTreeNamesItsLimit: where the links a command makes cannot be
// read, the refusal says why (the limit or the run-time word), not only
// that the target is unknown.
func TestUnreadTreeNamesItsLimit(t *testing.T) {
	f := gitFixture(t)
	writeArchives(t, f)
	p := f.load()
	for cmd, want := range map[string]string{
		`git checkout $(cat rev.txt) && cat s10/serve.token`:                                          "a revision known only when it runs",
		`git fetch -q o x; git checkout FETCH_HEAD && cat s10/x`:                                      "FETCH_HEAD does not resolve now",
		`GIT_DIR=.git git checkout evil && cat s10/serve.token`:                                       "repository or worktree moved",
		`tar xJf odd.tar.xz && cat x/serve.token`:                                                     "cannot be listed now",
		`curl -sL http://192.0.2.2/a.tgz | tar xz && cat s9/x`:                                        "from a pipe",
		`python3 -c 'import tarfile,sys;tarfile.open(sys.argv[1]).extractall()' evil.tar && cat s9/x`: "does not name literally",
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
		if v.Decision != Deny || !strings.Contains(v.Message, want) {
			t.Errorf("%q: got %s by %s (%s); want a deny naming %q", cmd, v.Decision, v.Rule, v.Message, want)
		}
	}
}

// TestGitLinksLimit: a tree with more links than airlock reads makes the
// worktree unresolvable, and the refusal names the limit.
func TestGitLinksLimit(t *testing.T) {
	f := gitFixture(t)
	p := f.load()
	saved := maxGitLinks
	maxGitLinks = 1 // evil has two
	defer func() { maxGitLinks = saved }()
	v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: `git checkout evil && cat README.md`, Cwd: f.path("proj"), Snapshots: true})
	if v.Decision != Deny || !strings.Contains(v.Message, "past airlock's limits") {
		t.Errorf("got %s by %s (%s); want a deny naming the limit", v.Decision, v.Rule, v.Message)
	}
	maxGitLinks = saved
	if v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: `git checkout evil && cat README.md`, Cwd: f.path("proj"), Snapshots: true}); v.Decision == Deny {
		t.Errorf("within the limit: got %s by %s (%s)", v.Decision, v.Rule, v.Message)
	}
}
