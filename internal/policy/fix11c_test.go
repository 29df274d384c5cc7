package policy

import (
	"os"
	"testing"
)

// TestFix11c holds close variants of FINDINGS-10's rows on git's
// directory and configuration wherever they are (W1, G1, G2, J1, K3, Q1,
// D2): another spelling, another file, a second step. Beside them, the
// ordinary git work that must stay quiet. The fixture is
// TestFindings10Open's.
func TestFix11c(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	approve := "airlock queue approve abcd"
	xsh := "#!/bin/sh\n" + approve + "\n"
	// worktree: core.worktree moved to the home by an earlier command.
	worktree := map[string]string{"proj/.git/config": "[core]\n\trepositoryformatversion = 0\n\tworktree = ../../home\n"}
	// evilGit: a git directory that is not .git, running x.sh as its
	// fsmonitor.
	evilGit := map[string]string{"proj/x.sh": xsh, "proj/.evil/config": "[core]\n\tfsmonitor = ./x.sh\n", "proj/.evil/HEAD": "ref: refs/heads/main\n"}
	// commondir: .git/commondir on disk names .evil.
	commondir := map[string]string{"proj/x.sh": xsh, "proj/.evil/config": "[core]\n\tfsmonitor = ./x.sh\n", "proj/.git/commondir": "../.evil\n"}
	// gitFile: sub's .git file names .g2, whose configuration runs ../x.sh
	// from sub, the work tree's top.
	gitFile := map[string]string{"proj/x.sh": xsh, "proj/.g2/HEAD": "ref: refs/heads/main\n", "proj/.g2/config": "[core]\n\tfsmonitor = ../x.sh\n", "proj/sub/.git": "gitdir: ../.g2\n", "proj/sub/a.txt": "a\n"}
	// nested: a repository in the project whose configuration runs x.sh.
	nested := map[string]string{"proj/x.sh": xsh, "proj/nr/.git/HEAD": "ref: refs/heads/main\n", "proj/nr/.git/config": "[core]\n\tfsmonitor = ../x.sh\n"}
	// plainNested: a nested repository with nothing that runs.
	plainNested := map[string]string{"proj/nr/.git/HEAD": "ref: refs/heads/main\n", "proj/nr/.git/config": "[core]\n\tbare = false\n"}
	extSub := map[string]string{"proj/x.sh": xsh, "proj/.gitmodules": "[submodule \"lib\"]\n\tpath = lib\n\turl = ext::sh -c ./x.sh% \n"}
	okSub := map[string]string{"proj/.gitmodules": "[submodule \"lib\"]\n\tpath = lib\n\turl = https://github.com/o/lib.git\n"}
	patches := map[string]string{
		"proj/.git/config": "[core]\n\trepositoryformatversion = 0\n",
		"proj/p0.diff":     "--- /dev/null\n+++ .git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+" + approve + "\n",
		"proj/h.diff": "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/pre-commit\n" +
			"@@ -0,0 +1,2 @@\n+#!/bin/sh\n+" + approve + "\n",
		"proj/ok.diff":   "--- a/src/m.py\n+++ b/src/m.py\n@@ -1 +1 @@\n-print(1)\n+print(2)\n",
		"proj/okmk.diff": "--- a/Makefile\n+++ b/Makefile\n@@ -1,2 +1,2 @@\n build:\n-\techo hi\n+\techo bye\n",
		"proj/x.sh":      xsh,
	}
	gitLinks := func(t *testing.T, f *fixture) {
		if err := os.MkdirAll(f.path("proj/.git/hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
		for link, target := range map[string]string{"proj/hk": ".git/hooks", "proj/gg": ".git"} {
			if err := os.Symlink(target, f.path(link)); err != nil {
				t.Fatal(err)
			}
		}
	}
	fileLinks := func(t *testing.T, f *fixture) {
		if err := os.MkdirAll(f.path("proj/.vscode"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(".vscode", f.path("proj/vs")); err != nil {
			t.Fatal(err)
		}
	}
	task := map[string]string{"proj/t.json": `{"tasks":[{"label":"x","command":"` + approve + `","runOptions":{"runOn":"folderOpen"}}]}`}
	cases := []findingCase{
		// W1: the work tree moved by an option, a variable or the
		// configuration on disk.
		{finding: "W1v git --work-tree=../home checkout HEAD -- .bashrc", cmd: `git --work-tree=../home checkout HEAD -- .bashrc`, want: held, fixed: true},
		{finding: "W1v GIT_WORK_TREE=/ git clean -fdx", cmd: `GIT_WORK_TREE=/ git clean -fdx`, want: held, fixed: true},
		{finding: "W1v core.worktree on disk, then git stash", setup: worktree, cmd: `git stash`, want: held, fixed: true},
		{finding: "W1v core.worktree on disk, then git rm -r .config", setup: worktree, cmd: `git rm -r .config`, want: held, fixed: true},
		{finding: "W1v git config core.worktree ..", cmd: `git config core.worktree ..`, want: held, fixed: true},
		{finding: "W1v git config --file .git/config core.worktree /", cmd: `git config --file .git/config core.worktree /`, want: held, fixed: true},
		{finding: "W1v git -c core.worktree=../other checkout -f", cmd: `git -c core.worktree=../other checkout -f`, want: held, fixed: true},
		// G1: the git directory named elsewhere.
		{finding: "G1v env GIT_DIR=.evil git status", setup: evilGit, cmd: `env GIT_DIR=.evil git status`, want: held, fixed: true},
		{finding: "G1v GIT_COMMON_DIR=.evil git diff", setup: evilGit, cmd: `GIT_COMMON_DIR=.evil git diff`, want: held, fixed: true},
		{finding: "G1v git --git-dir .evil add -A", setup: evilGit, cmd: `git --git-dir .evil add -A`, want: held, fixed: true},
		{finding: "G1v .git/commondir on disk, then git diff", setup: commondir, cmd: `git diff`, want: held, fixed: true},
		{finding: "G1v a .git file naming another directory, git -C sub status", setup: gitFile, cmd: `git -C sub status`, want: held, fixed: true},
		{finding: "G1v cd sub && git add a.txt (the .git file's directory)", setup: gitFile, cmd: `cd sub && git add a.txt`, want: held, fixed: true},
		{finding: "G1v find . -maxdepth 2 -name .git -execdir git diff ;", setup: nested, cmd: `find . -maxdepth 2 -name .git -execdir git diff \;`, want: held, fixed: true},
		{finding: "G1v for d in */; do (cd $d && git status); done", setup: nested, cmd: `for d in */; do (cd "$d" && git status); done`, want: held, fixed: true},
		{finding: "G1v a nested repository under build/, git run from find -execdir", setup: map[string]string{"proj/x.sh": xsh, "proj/build/nr/.git/HEAD": "ref: refs/heads/main\n", "proj/build/nr/.git/config": "[core]\n\tfsmonitor = ../../x.sh\n"}, cmd: `find . -name .git -execdir git status \;`, want: held, fixed: true},
		{finding: "G1v tee .git/commondir", cmd: `echo ../.evil | tee .git/commondir`, want: held, fixed: true},
		{finding: "G1v printf gitdir: > sub/.git", cmd: `mkdir -p sub && printf 'gitdir: ../.evil\n' > sub/.git`, want: held, fixed: true},
		{finding: "G1v GIT_DIR=$D git status (known only at run time)", cmd: `GIT_DIR="$D" git status`, want: held, fixed: true},
		// G2: links to git's files, other spellings and second steps.
		{finding: "G2v ln -sfn .git/hooks build/hooks", cmd: `mkdir -p build && ln -sfn .git/hooks build/hooks`, want: held, fixed: true},
		{finding: "G2v ln -s ../.git/config build/gc", cmd: `ln -s ../.git/config build/gc`, want: held, fixed: true},
		{finding: "G2v tee through a link to .git", setup: map[string]string{"proj/x.sh": xsh}, prep: gitLinks, cmd: `tee gg/hooks/post-checkout < x.sh`, want: held, fixed: true},
		{finding: "G2v cp x.sh hk/ (a directory through a link)", setup: map[string]string{"proj/x.sh": xsh}, prep: gitLinks, cmd: `cp x.sh hk/`, want: held, fixed: true},
		{finding: "G2v cp x.sh ../proj/hk/pre-commit (the link named from above)", setup: map[string]string{"proj/x.sh": xsh}, prep: gitLinks, cmd: `cp x.sh ../proj/hk/pre-commit`, want: held, fixed: true},
		{finding: "G2v cp t.json vs/tasks.json (vs -> .vscode)", setup: task, prep: fileLinks, cmd: `cp t.json vs/tasks.json`, want: held, fixed: true},
		{finding: "G2v tee vs/tasks.json < t.json", setup: task, prep: fileLinks, cmd: `tee vs/tasks.json < t.json`, want: held, fixed: true},
		{finding: "G2v Write hk/pre-commit holding airlock's verb is refused as the hook it is", prep: gitLinks, cmd: xsh, write: "@ROOT@/proj/hk/pre-commit", want: denied, fixed: true},
		{finding: "G2v node fs.symlinkSync(.git/hooks)", cmd: `node -e 'require("fs").symlinkSync(".git/hooks","hk6")'`, want: held, fixed: true},
		// J1: in-place edits of git's configuration, other spellings.
		{finding: "J1v sed -i -e '$a [alias]' -e '$a st = !./x.sh' .git/config", cmd: `sed -i -e '$a [alias]' -e '$a \tst = !./x.sh' .git/config`, want: held, fixed: true},
		{finding: "J1v perl -i -pe s/[core]/… pager/ .git/config", cmd: `perl -i -pe 's/^\[core\]/[core]\n\tpager = .\/x.sh/' .git/config`, want: held, fixed: true},
		{finding: "J1v ex -sc 1a|fsmonitor … -cx .git/config", cmd: `ex -sc '1a|fsmonitor = ./x.sh' -cx .git/config`, want: held, fixed: true},
		{finding: "J1v sed -i -f script.sed .git/config (the script is a file)", cmd: `sed -i -f script.sed .git/config`, want: held, fixed: true},
		{finding: "J1v sed -i $EXPR ~/.gitconfig", cmd: `sed -i "$EXPR" ~/.gitconfig`, want: held, fixed: true},
		// K3: the ext:: transport, other spellings.
		{finding: "K3v GIT_ALLOW_PROTOCOL=ext git pull --recurse-submodules", setup: extSub, cmd: `GIT_ALLOW_PROTOCOL=ext git pull --recurse-submodules`, want: held, fixed: true},
		{finding: "K3v git submodule sync && git submodule update", setup: extSub, cmd: `git submodule sync && git submodule update`, want: held, fixed: true},
		{finding: "K3v git -c url.ext::….insteadOf=https://github.com/ fetch", setup: extSub, cmd: `git -c url.ext::sh\ -c\ ./x.sh%\ .insteadOf=https://github.com/ fetch https://github.com/x/y`, want: held, fixed: true},
		{finding: "K3v git -c submodule.lib.update=!./x.sh submodule update", setup: extSub, cmd: `git -c submodule.lib.update='!./x.sh' submodule update`, want: held, fixed: true},
		// Q1: strip levels.
		{finding: "Q1v patch -p0 < p0.diff (.git/hooks/pre-commit with no prefix)", setup: patches, cmd: `patch -p0 < p0.diff`, want: held, fixed: true},
		{finding: "Q1v git apply -p0 p0.diff", setup: patches, cmd: `git apply -p0 p0.diff`, want: held, fixed: true},
		{finding: "Q1v patch --strip=1 -i h.diff", setup: patches, cmd: `patch --strip=1 -i h.diff`, want: held, fixed: true},
		{finding: "Q1v patch -p 1 -i h.diff", setup: patches, cmd: `patch -p 1 -i h.diff`, want: held, fixed: true},
		// D2: container mounts.
		{finding: "D2v docker run -v $PWD/.git/hooks:/h", cmd: `docker run --rm -v "$PWD/.git/hooks":/h alpine true`, want: held, fixed: true},
		{finding: "D2v podman run -v .:/w -w /w/src … > ../.git/hooks/pre-commit", cmd: `podman run --rm -v .:/w -w /w/src alpine sh -c 'echo x > ../.git/hooks/pre-commit'`, want: held, fixed: true},
		{finding: "D2v docker run -v $PWD:/w … cd /w && … > .git/hooks/pre-commit (no -w)", cmd: `docker run --rm -v "$PWD":/w alpine sh -c 'cd /w && echo x > .git/hooks/pre-commit'`, want: held, fixed: true},
		{finding: "Q1v git apply --directory=sub h.diff", setup: patches, cmd: `git apply --directory=sub h.diff`, want: held, fixed: true},
		{finding: "J1v python3 writes .git/hooks/pre-commit (code that writes a file that runs later)", cmd: `python3 -c "open('.git/hooks/pre-commit','w').write('#!/bin/sh\n./x.sh\n')"`, want: held, fixed: true},
		{finding: "J1v python3 appends fsmonitor to .git/config", cmd: `python3 -c "open('.git/config','a').write('[core]\n\tfsmonitor = ./x.sh\n')"`, want: held, fixed: true},
		{finding: "D2v docker run --mount type=bind,src=.git,dst=/g", cmd: `docker run --rm --mount type=bind,src=.git,dst=/g alpine true`, want: held, fixed: true},

		// Ordinary git work stays quiet.
		{finding: "ordinary git status", cmd: `git status`, want: notHeld, fixed: true},
		{finding: "ordinary git --work-tree=. --git-dir=.git status", cmd: `git --work-tree=. --git-dir=.git status`, want: notHeld, fixed: true},
		{finding: "ordinary git -C nr status in a plain nested repository", setup: plainNested, cmd: `git -C nr status`, want: notHeld, fixed: true},
		{finding: "ordinary find -execdir git status over plain repositories", setup: plainNested, cmd: `find . -name .git -execdir git status \;`, want: notHeld, fixed: true},
		{finding: "ordinary for d in */; do (cd $d && git status); done", setup: plainNested, cmd: `for d in */; do (cd "$d" && git status); done`, want: notHeld, fixed: true},
		{finding: "ordinary git submodule update --init --recursive (https urls)", setup: okSub, cmd: `git submodule update --init --recursive`, want: notHeld, fixed: true},
		{finding: "ordinary sed -i a remote's url in .git/config", cmd: `sed -i 's#github.com/old/repo#github.com/new/repo#' .git/config`, want: notHeld, fixed: true},
		{finding: "ordinary git apply ok.diff", setup: patches, cmd: `git apply ok.diff`, want: notHeld, fixed: true},
		{finding: "ordinary patch -p1 < okmk.diff && make build", setup: patches, cmd: `patch -p1 < okmk.diff && make build`, want: notHeld, fixed: true},
		{finding: "ordinary ln -s src/m.py m.py", cmd: `ln -s src/m.py link.py`, want: notHeld, fixed: true},
		{finding: "ordinary cp -r .git /tmp/git-backup", cmd: `cp -r .git /tmp/git-backup`, want: notHeld, fixed: true},
		{finding: "ordinary docker run -v $PWD:/w -w /w node npm test", cmd: `docker run --rm -v "$PWD":/w -w /w node:20 npm test`, want: notHeld, fixed: true},
		{finding: "ordinary git clone --recurse-submodules", cmd: `git clone --recurse-submodules https://github.com/o/r.git /tmp/r`, want: notHeld, fixed: true},
		{finding: "ordinary git checkout -- src/m.py", cmd: `git checkout -- src/m.py`, want: notHeld, fixed: true},
		{finding: "ordinary python3 reads .git/config", cmd: `python3 -c "print(open('.git/config').read())"`, want: notHeld, fixed: true},
		{finding: "ordinary python3 writes out.txt", cmd: `python3 -c "open('out.txt','w').write('x')"`, want: notHeld, fixed: true},
		{finding: "ordinary GIT_WORK_TREE=$PWD git status (a read)", cmd: `GIT_WORK_TREE="$PWD" git status`, want: notHeld, fixed: true},
		{finding: "W1v GIT_WORK_TREE=$W git checkout -f (known only at run time)", cmd: `GIT_WORK_TREE="$W" git checkout -f`, want: held, fixed: true},
		{finding: "ordinary echo x > notes.txt", cmd: `echo x > notes.txt`, want: notHeld, fixed: true},
	}
	runFindingCases(t, "11C", base, cases)
}
