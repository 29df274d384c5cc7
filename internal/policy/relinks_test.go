package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRelinkedDeletions is FINDINGS-9 B6 and its attack variants: a
// deletion inside the project after another program is snapshotted unless
// that program may put a link at a path the deletion goes through or move
// something into what it deletes (relinks.go). Ordinary clean-ups after
// a copy out, an archive, a test run or a signal pass; a move or link in,
// by any spelling (interpreter code, a nested shell, a script, a path
// below the deleted name after a program airlock does not read), is held.
func TestRelinkedDeletions(t *testing.T) {
	build := map[string]string{"proj/build/a": "x\n", "proj/build/y/f": "x\n", "proj/dist/a": "x\n", "proj/scripts/gen.py": "print('gen')\n"}
	with := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range build {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	cases := []findingCase{
		// Ordinary work (FINDINGS-9 B6's rows).
		{finding: "go test, then rm -rf build", cmd: `go test ./... && rm -rf build`, want: notHeld},
		{finding: "a backup copy out of build", cmd: `cp -r build /tmp/build.bak && rm -rf build`, want: notHeld},
		{finding: "an archive of build", cmd: `tar czf /tmp/build.tgz build && rm -rf build`, want: notHeld},
		{finding: "kill a job, then rm -rf build", cmd: `kill %1; rm -rf build`, want: notHeld},
		{finding: "pkill, then rm -rf build", cmd: `pkill -f 'node server.js'; rm -rf build`, want: notHeld},
		{finding: "docker compose down", cmd: `docker compose down && rm -rf build`, want: notHeld},
		{finding: "npm ci, then rm -rf dist", cmd: `npm ci && rm -rf dist`, want: notHeld},
		{finding: "cargo clean, then rm -rf dist", cmd: `cargo clean && rm -rf dist`, want: notHeld},
		{finding: "git stash", cmd: `git stash && rm -rf build`, want: notHeld},
		{finding: "a generator script that moves nothing", cmd: `python3 scripts/gen.py && rm -rf build`, want: notHeld},
		{finding: "a copy into build from the project", cmd: `cp -r src build/ && rm -rf build`, want: notHeld},
		{finding: "rsync out to scratch", cmd: `rsync -a build/ /tmp/mirror/ && rm -rf build`, want: notHeld},
		{finding: "a copy to a run-time directory, then rm below build", cmd: `cp -r /srv/data "$D" && rm -rf build/y`, want: held},

		// Moves into what is deleted.
		{finding: "mv from outside into build", cmd: `mv /srv/data build/x && rm -rf build`, want: held},
		{finding: "mv from outside as build", cmd: `mv /srv/data build && rm -rf build`, want: held},
		{finding: "mv -t build", cmd: `mv -t build /srv/data && rm -rf build`, want: held},
		{finding: "rsync --remove-source-files into build", cmd: `rsync -a --remove-source-files /srv/data/ build/ && rm -rf build`, want: held},
		{finding: "gio move into build", cmd: `gio move /srv/data build/ && rm -rf build`, want: held},
		{finding: "python's os.rename into build", cmd: `python3 -c 'import os; os.rename("/srv/data", "build/t")' && rm -rf build`, want: held},
		{finding: "python's shutil.move into build", cmd: `python3 -c 'import shutil; shutil.move("/srv/data", "build/t")' && rm -rf build`, want: held},
		{finding: "node's renameSync into build", cmd: `node -e 'require("fs").renameSync("/srv/data", "build/t")' && rm -rf build`, want: held},
		{finding: "python running mv", cmd: `python3 -c 'import os; os.system("mv /srv/data build/t")' && rm -rf build`, want: held},
		{finding: "a script file that renames into build", setup: with(map[string]string{"proj/scripts/mv.py": "import os\nos.rename('/srv/data', 'build/t')\n"}), cmd: `python3 scripts/mv.py && rm -rf build`, want: held},
		{finding: "a shell script that moves into build", setup: with(map[string]string{"proj/mv.sh": "#!/bin/sh\nmv /srv/data build/t\n"}), cmd: `sh mv.sh && rm -rf build`, want: held},
		{finding: "a make recipe that moves into build", setup: with(map[string]string{"proj/Makefile": "stash:\n\tmv /srv/data build/t\n"}), cmd: `make stash && rm -rf build`, want: held},
		{finding: "bash -c mv into build", cmd: `bash -c 'mv /srv/data build/t' && rm -rf build`, want: held},

		// Links at a path the deletion goes through.
		{finding: "ln -s, then rm through it", cmd: `ln -s /srv/data build/h && rm -rf build/h/`, want: held},
		{finding: "ln -s, then rm below it", cmd: `ln -s /srv/data build/h && rm -rf build/h/x`, want: held},
		{finding: "ln -sfn over build, then rm build/", cmd: `ln -sfn /srv/data build && rm -rf build/`, want: held},
		{finding: "cp -a of a link, then rm through it", cmd: `cp -a /srv/link build/h && rm -rf build/h/`, want: held},
		{finding: "python os.symlink, then rm through it", cmd: `python3 -c 'import os; os.symlink("/srv/data", "build/t")' && rm -rf build/t/`, want: held},
		{finding: "sh -c ln, then rm through it", cmd: `sh -c 'ln -s /srv/data build/t'; rm -rf build/t/`, want: held},
		{finding: "a program airlock does not read, then rm below build", cmd: `go run ./cmd/gen && rm -rf build/y`, want: held},
		{finding: "a built program, then rm through build/y/", cmd: `./build/app && rm -rf build/y/`, want: held},
		{finding: "a program airlock does not read, then rm by absolute path", cmd: `go test ./... && rm -rf @ROOT@/proj/build`, want: held},
		{finding: "a program airlock does not read, then cd and rm", cmd: `kill %1; cd build && rm -rf y`, want: held},
		{finding: "a program beside the deletion, below build", cmd: `go test ./... & rm -rf build/y`, want: held},
		{finding: "git pull, then rm below build", cmd: `git pull && rm -rf build/y/`, want: held},
		{finding: "rsync -a (copies links), then rm through build/h/", cmd: `rsync -a /srv/data/ build/ && rm -rf build/h/`, want: held},
		{finding: "an archive extracted into build, then rm through it", cmd: `tar xf a.tar -C build && rm -rf build/x/`, want: held},

		// Other spellings: a loop, code written and run by the same
		// command, other interpreters, a build script, a cd, a name known
		// only at run time, a background job, find -exec, busybox, eval.
		{finding: "a loop moves into build after rm", cmd: `for i in 1 2; do rm -rf build; mv /srv/data build; done`, want: held},
		{finding: "code written then run", cmd: "printf 'import os\\nos.rename(\"/srv/data\", \"build/t\")\\n' > a.py && python3 a.py && rm -rf build", want: held},
		{finding: "perl's rename", cmd: `perl -e 'rename "/srv/data", "build/t"' && rm -rf build`, want: held},
		{finding: "ruby's FileUtils.mv", cmd: `ruby -e 'require "fileutils"; FileUtils.mv("/srv/data", "build/t")' && rm -rf build`, want: held},
		{finding: "a node script that renames", setup: with(map[string]string{"proj/build.js": "require('fs').renameSync('/srv/data', 'build/t')\n"}), cmd: `node build.js && rm -rf build`, want: held},
		{finding: "npm run build running that script", setup: with(map[string]string{"proj/build.js": "require('fs').renameSync('/srv/data', 'build/t')\n", "proj/package.json": `{"name":"p","scripts":{"build":"node build.js"}}`}), cmd: `npm run build && rm -rf build`, want: held},
		{finding: "ln after cd, rm through it", cmd: `cd build && ln -s /srv h && cd .. && rm -rf build/h/`, want: held},
		{finding: "mv to a run-time name", cmd: `mv /srv/data "$D" && rm -rf build`, want: held},
		{finding: "mv in the background", cmd: `mv /srv/data build/ & rm -rf build`, want: held},
		{finding: "find -exec mv", cmd: `find /srv/data -maxdepth 0 -exec mv {} build/ \; ; rm -rf build`, want: held},
		{finding: "busybox mv", cmd: `busybox mv /srv/data build/ && rm -rf build`, want: held},
		{finding: "eval mv", cmd: `eval 'mv /srv/data build/' && rm -rf build`, want: held},
		{finding: "go test, then rm -rf build/*", cmd: `go test ./... && rm -rf build/*`, want: held},
		{finding: "hard links copied in keep their data", cmd: `cp -al /srv/data build/d && rm -rf build`, want: notHeld},
		{finding: "find -delete does not follow the link made", cmd: `ln -s /srv build/h && find build -delete`, want: notHeld},
		{finding: "a move after the deletion has ended", cmd: `rm -rf build && mv /srv/data build`, want: notHeld},
		{finding: "go test beside rm -rf build", cmd: `go test ./... & rm -rf build`, want: notHeld},

		// find walks below its start paths without following links:
		// only the start paths' directories are gone through by name.
		{finding: "go test, then find -delete from the root", cmd: `go test ./... && find . -name '*.pyc' -delete`, want: notHeld},
		{finding: "go test, then find -delete below build", cmd: `go test ./... && find build/y -delete`, want: held},
		{finding: "ln, then find -delete through it", cmd: `ln -sfn /srv/data build/y && find build/y/ -delete`, want: held},
		{finding: "find -L after go test", cmd: `go test ./... && find -L build -name '*.o' -delete`, want: held},

		// make's recipes are read the same way (make test build clean).
		{finding: "make test clean, the test recipe runs go test", setup: with(map[string]string{"proj/Makefile": "test:\n\tgo test ./...\nclean:\n\trm -rf build\n"}), cmd: `make test clean`, want: notHeld},
		{finding: "a recipe links, another deletes through it", setup: with(map[string]string{"proj/Makefile": "gen:\n\tln -sfn /srv/data build/y\nclean:\n\trm -rf build/y/x\n"}), cmd: `make gen clean`, want: held},
		{finding: "a recipe moves into what another deletes", setup: with(map[string]string{"proj/Makefile": "gen:\n\tmv /srv/data build/\nclean:\n\trm -rf build\n"}), cmd: `make gen clean`, want: held},
		{finding: "a recipe runs go test, another deletes below build", setup: with(map[string]string{"proj/Makefile": "test:\n\tgo test ./...\nclean:\n\trm -rf build/y\n"}), cmd: `make test clean`, want: held},

		// Deletions outside stay held whatever runs before (K1).
		{finding: "python3 -V, then rm outside", cmd: `python3 -V; rm /srv/data/db`, want: held},
		{finding: "go test, then rm -rf outside", cmd: `go test ./... && rm -rf /srv/data`, want: held},
	}
	for i := range cases {
		cases[i].fixed = true
		if cases[i].setup == nil {
			cases[i].setup = build
		}
	}
	runFindingCases(t, "B6", findingFixture(nil), cases)
}

// TestCheckoutThenDeletion: a checkout writes tracked files and links in
// the worktree; rm -rf build goes through no path below the root, so a
// checkout before it leaves it snapshotted, while a deletion below a name
// the checked-out tree may make a link is held.
func TestCheckoutThenDeletion(t *testing.T) {
	f := gitFixture(t)
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
	git("checkout", "-qb", "linked")
	if err := os.Symlink("/srv/data", filepath.Join(proj, "build")); err != nil {
		t.Fatal(err)
	}
	git("add", "build")
	git("commit", "-qm", "build is a link")
	git("checkout", "-q", "main")
	f.write("proj/build/a", "x\n")
	f.write("proj/build/y/f", "x\n")
	p := f.load()
	for _, c := range []struct {
		cmd  string
		want findingCheck
	}{
		{`git checkout main && rm -rf build`, notHeld},
		{`git switch main && rm -rf build`, notHeld},
		{`git checkout linked && rm -rf build`, notHeld}, // rm removes the link itself
		{`git checkout linked && rm -rf build/y`, held},
		{`git checkout linked && rm -rf build/`, held},
		{`git -C . checkout linked && rm -rf build`, notHeld}, // no path gone through by name
		{`git -C . checkout linked && rm -rf build/y`, held},  // -C: another worktree is not read
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: proj, Snapshots: true})
		checkFinding(t, c.cmd, v, c.want)
	}
}
