package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDestructionGraded places destruction by resolved target: only what
// is known to land inside the project's worktree is snapshotted; outside,
// history and whatever cannot be placed keep the destructive row.
func TestDestructionGraded(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(base, "proj")
	for _, d := range []string{"proj/.git", "proj/build/sub", "other/.git", "elsewhere"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(proj, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("build", filepath.Join(proj, "alias")); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"build/x.o": "", "Makefile": "all:\n\tcc -o app main.c\nclean:\n\trm -rf build\nwipe:\n\trm -rf ../other\n", "build/Makefile": "clean:\n\trm -rf sub\n",
		"list.txt": "build/x.o\n", "bad.txt": "build/x.o\n../other/x\n"} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Defaults()
	const snap, deny, held = "snapshot", "deny", "defer"
	tests := []struct {
		cmd   string
		want  string   // snap or deny
		paths []string // what the snapshot takes
	}{
		{"rm -rf build", snap, []string{"build"}},
		{"rm -rf ./build/../build/sub", snap, []string{"build/sub"}},
		{"rm -rf alias", snap, []string{"build"}},
		{"rm -r -f -- build", snap, []string{"build"}},
		{"rm -rf bu*", snap, []string{"build"}},
		{"find build -name '*.o' -delete", snap, []string{"build"}},
		// The shell's directory for the run: rm runs in build only.
		{"cd build && rm -rf sub", snap, []string{"build/sub"}},
		{"cd .. && rm -rf proj/build", snap, []string{"build"}},
		{"git reset --hard", snap, []string{"."}},
		{"git reset --hard HEAD", snap, []string{"."}},
		{"git checkout -- .", snap, []string{"."}},
		{"git clean -fdx", snap, []string{"."}},
		{"git -C build clean -fd", snap, []string{"."}},
		{"shred -u build/x", snap, []string{"build/x"}}, // graded like rm (deletes.go)
		// Wrappers that keep the shell's user and directory (sameDir).
		{"bash -c 'rm -rf build'", snap, []string{"build"}},
		{"sh -c 'cd build && rm -rf sub'", snap, []string{"build/sub"}},
		{"nice -n 5 timeout 60 rm -rf build", snap, []string{"build"}},
		{"parallel bash -c 'rm -rf {}' ::: build", snap, []string{"build"}},
		{"parallel -q bash -c 'rm -rf {}' ::: build", snap, []string{"build"}},
		{"parallel 'rm -rf {}' ::: build", snap, []string{"build"}},
		// Outside the project, or its history.
		{"rm -rf ../other", deny, nil},
		{"rm -rf build ../other", deny, nil},
		{"rm -rf out", deny, nil},
		{"rm -rf out/x", deny, nil},
		{"rm -rf .git", deny, nil},
		{"rm -rf .GIT/objects", deny, nil},
		{"rm -rf .", deny, nil},
		{"rm -rf .*", deny, nil},
		{"rm -rf *", deny, nil},
		{"find . -delete", deny, nil},
		{"cd / && rm -rf build", deny, nil},
		{"rm -rf --no-preserve-root build", deny, nil},
		// git's own commands on the project's history are held in the
		// queue for the human, not refused (FINDINGS-5 B7, history.go).
		{"git reset --hard HEAD~3", held, nil},
		{"git branch -D main", held, nil},
		{"git reflog expire --expire=now --all", held, nil},
		{"git stash drop", held, nil},
		{"sudo git branch -D main", deny, nil},
		{"git push --force origin main", deny, nil},
		{"git -C ../other clean -fdx", deny, nil},
		// What cannot be placed is outside.
		{"rm -rf $DIR", deny, nil},
		{"rm -rf ~bob/build", deny, nil},
		{"cd $D && rm -rf build", deny, nil},
		{"cd && rm -rf build", deny, nil},
		{"ln -s ~ build2; rm -rf build2/", deny, nil},
		// make starts after rm has ended: it cannot change what build
		// leads to for rm (TestDeletionThenOtherWork). Beside it, make's
		// recipe (cc -o app) and tee write app and log: neither names
		// a path rm -rf build goes through or moves into it
		// (relinks.go, FINDINGS-9 B6); a deletion below build/ is held.
		{"rm -rf build && make", snap, []string{"build"}},
		{"make & rm -rf build", snap, []string{"build"}},
		{"rm -rf build | tee log", snap, []string{"build"}},
		{"make & rm -rf build/sub", deny, nil},
		{"rm -rf build/sub | ln -sfn ~ build", deny, nil},
		{"sudo rm -rf build", deny, nil},
		{"env -C / rm -rf build", deny, nil},
		{"bash -c 'cd / && rm -rf build'", deny, nil},
		{"bash -c 'rm -rf ../other'", deny, nil},
		{"sudo bash -c 'rm -rf build'", deny, nil},
		{"fish -c 'rm -rf build'", deny, nil},
		{"bash -c 'rm -rf $D'", deny, nil},
		{"find -L build -delete", deny, nil},
		{"GIT_DIR=../other/.git git clean -fdx", deny, nil},
		{"git -c core.worktree=/ clean -fdx", deny, nil},
		// shred -u deletes what it is given: the snapshot, in airlock's
		// own store, brings it back.
		{"shred -u build/x", snap, []string{"build/x"}},
		// find's pattern limits what it deletes; from the project's root
		// what matches now is snapshotted, unless the pattern can reach
		// into .git.
		{"find . -name '*.o' -delete", snap, []string{"build/x.o"}},
		{"find . -type d -name sub -exec rm -rf {} +", snap, []string{"build/sub"}},
		{"find . -name 'HEAD' -delete", deny, nil},
		{"find . -name '*' -exec rm -rf {} +", deny, nil},
		{"find ../other -name '*.o' -delete", deny, nil},
		{"find . -name '*.o' -not -path './other/*' -delete", snap, []string{"build/x.o"}},
		{"find . -not -name '*.o' -delete", deny, nil},
		{"make clean", snap, []string{"build"}},
		{"make -C build clean", deny, nil},
		// make -f names the file it reads; the recipe still runs here.
		{"make -f Makefile clean", snap, []string{"build"}},
		{"make --file=Makefile clean", snap, []string{"build"}},
		{"make -fMakefile clean", snap, []string{"build"}},
		{"make -f build/Makefile clean", snap, []string{"sub"}},
		{"make -C build -f Makefile clean", deny, nil},
		{"make -kC build clean", deny, nil},
		// xargs and parallel: placed once classify has bounded the words
		// they add (below find's start paths with its pattern, the words
		// of a list file, literal values).
		{"find . -name '*.o' -print0 | xargs -0 rm -f", snap, []string{"build/x.o"}},
		{"find build -name '*.o' | xargs rm -f", snap, []string{"build"}},
		{"find build -name '*.o' | parallel rm", snap, []string{"build"}},
		{"parallel rm -rf {} ::: build", snap, []string{"build"}},
		{"echo build | xargs rm -rf", snap, []string{"build"}},
		{"xargs -a list.txt rm -f", snap, []string{"build/x.o"}},
		{"xargs rm -f < list.txt", snap, []string{"build/x.o"}},
		{"xargs -a bad.txt rm -f", deny, nil},
		{"cat list.txt | xargs rm -f", deny, nil},
		{"find ../other -print0 | xargs -0 rm -rf", deny, nil},
		{"find -L build -print0 | xargs -0 rm -f", deny, nil},
		{"find . -print0 | xargs -0 rm -rf", deny, nil},
		{"find out -print0 | xargs -0 rm -f", deny, nil},
		{"echo \"'../other'\" | xargs rm -rf", deny, nil},
		{"sudo xargs -a list.txt rm -f", deny, nil},
		{"xargs -a list.txt sudo rm -f", deny, nil},
		{"parallel rm -rf {} ::: build ../other", deny, nil},
		// busybox rm is rm.
		{"busybox rm -rf build", snap, []string{"build"}},
		{"parallel busybox rm -rf {} ::: build", snap, []string{"build"}},
		{"busybox rm -rf ../other", deny, nil},
		// Scratch files beside project files: the rest is graded alone.
		{"rm -f /tmp/x ../other/x", deny, nil},
		{"rm -rf /tmp/x build", snap, []string{"build"}},
		{"make -f Makefile wipe", deny, nil},
		{"make wipe", deny, nil},
	}
	for _, tt := range tests {
		a := Action{Kind: Shell, Tool: "Bash", Command: tt.cmd, Cwd: proj, Snapshots: true}
		v := p.DecideIn(Unattended, a)
		if tt.want == snap {
			if v.Decision != Warn || v.Rule != RuleSnapshot || v.Snapshot == nil {
				t.Errorf("%q: got %s by %s (%v), want a snapshot", tt.cmd, v.Decision, v.Rule, v.Reasons)
				continue
			}
			if v.Snapshot.Root != proj || !v.Snapshot.Git || !reflect.DeepEqual(v.Snapshot.Paths, tt.paths) {
				t.Errorf("%q: snapshot plan %+v, want root %s paths %v", tt.cmd, *v.Snapshot, proj, tt.paths)
			}
			// An entry point that cannot take snapshots gets the table:
			// nothing destructive runs without one.
			a.Snapshots = false
			if v := p.DecideIn(Unattended, a); v.Decision != Deny || v.Snapshot != nil {
				t.Errorf("%q without snapshots: got %s by %s, want deny", tt.cmd, v.Decision, v.Rule)
			}
			continue
		}
		if tt.want == held {
			if v.Decision != Defer || v.Snapshot != nil {
				t.Errorf("%q: got %s by %s (snapshot %v), want defer", tt.cmd, v.Decision, v.Rule, v.Snapshot)
			}
			if v := p.DecideIn(Interactive, a); v.Decision != Ask {
				t.Errorf("%q in interactive mode: got %s by %s, want ask", tt.cmd, v.Decision, v.Rule)
			}
			continue
		}
		if v.Decision != Deny || v.Snapshot != nil {
			t.Errorf("%q: got %s by %s (snapshot %v), want deny", tt.cmd, v.Decision, v.Rule, v.Snapshot)
		}
	}
}

// TestDeletionBesideScratch: deleting a scratch file in /tmp together
// with files of the project is ordinary work, as each alone is; with a
// file outside both it is held, and the reason names that file.
func TestDeletionBesideScratch(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(base, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Defaults()
	for cmd, want := range map[string]Decision{
		"rm -f /tmp/x out.log":                      Allow,
		"echo out.log | xargs rm -f /tmp/x":         Allow,
		"echo out.log | xargs busybox rm -f /tmp/x": Allow,
		"rm -f /tmp/x /etc/hosts":                   Deny,
		"rm -f /var/tmp/x ../../y":                  Deny,
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj, Snapshots: true})
		if v.Decision != want {
			t.Errorf("%s: %s by %s (%v), want %s", cmd, v.Decision, v.Rule, v.Reasons, want)
		}
		if want == Deny && strings.Contains(v.Message+fmt.Sprint(v.Reasons), "/tmp/x leads") {
			t.Errorf("%s: the reason names the scratch file: %v", cmd, v.Reasons)
		}
	}
}

// TestDestructionNoProject: home, /, /tmp and system directories are no
// project, so nothing there is inside one.
func TestDestructionNoProject(t *testing.T) {
	p := Defaults()
	for _, cwd := range []string{"/", "/tmp", "/etc", "/usr/local"} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: "rm -rf build", Cwd: cwd, Snapshots: true})
		if v.Decision != Deny || v.Snapshot != nil {
			t.Errorf("rm -rf build in %s: got %s by %s, want deny", cwd, v.Decision, v.Rule)
		}
	}
}

// TestFindFedByXargs: find run by xargs (no find -exec around it) is
// graded without a panic, and its -delete is held (safety-net's
// "echo ok | xargs busybox find . -delete" once crashed the decision).
func TestFindFedByXargs(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	p := f.load()
	for _, cmd := range []string{"echo ok | xargs busybox find . -delete", "echo . | xargs find -L -delete", "echo ok | xargs find . -name x"} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
		if strings.Contains(cmd, "-delete") && (v.Decision == Allow || v.Decision == Warn) {
			t.Errorf("%q: got %s by %s, want it held", cmd, v.Decision, v.Rule)
		}
	}
}

// TestDestructiveTableDecoded reads the destructive entry in both forms,
// strictly.
func TestDestructiveTableDecoded(t *testing.T) {
	doc, err := parseFile("p.yaml", []byte("version: 1\ntable:\n  unattended:\n    destructive: {inside_project: defer, outside: deny}\n  supervised:\n    destructive: ask\n"))
	if err != nil {
		t.Fatal(err)
	}
	u, s := doc.tables[Unattended], doc.tables[Supervised]
	if u[rowInside].d != Defer || u[rowDestructive].d != Deny || s[rowInside].d != Ask || s[rowDestructive].d != Ask {
		t.Errorf("decoded %+v %+v", u, s)
	}
	for _, bad := range []string{
		"version: 1\ntable:\n  unattended:\n    destructive: {inside_project: allow}\n",
		"version: 1\ntable:\n  unattended:\n    destructive: {outside: snapshot}\n",
		"version: 1\ntable:\n  unattended:\n    destructive: {inside: snapshot}\n",
		"version: 1\ntable:\n  unattended:\n    inside_project: snapshot\n",
		"version: 1\nsnapshots: {max_mib: 0}\n",
		"version: 1\nsnapshots: {keep: 3}\n",
	} {
		if _, err := parseFile("p.yaml", []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
