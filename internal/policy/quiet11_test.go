package policy

import (
	"os"
	"testing"
)

// TestQuiet11 holds the attack variants of the loosenings that fix
// FINDINGS-10's ordinary work refused (B1–B13): each loosening's close
// variant that must stay held, beside the ordinary work it lets through.
func TestQuiet11(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	cases := []findingCase{
		// B1: find's -o. An action binds to its own branch; what a
		// disjunction prints or deletes matches one of its patterns
		// (classify findexpr.go). A branch with no name test, a negation,
		// a "," list or a primary airlock cannot read bounds nothing.
		{finding: "B1 ordinary: find . -name '*.orig' -o -name '*.rej' -print0 | xargs -0 rm -f", cmd: `find . -name '*.orig' -o -name '*.rej' -print0 | xargs -0 rm -f`, want: notHeld, fixed: true},
		{finding: "B1 ordinary: find ( -name … -o -name … ) -exec rm -f {} +", cmd: `find . \( -name '*.orig' -o -name '*.rej' \) -exec rm -f {} +`, want: notHeld, fixed: true},
		{finding: "B1 variant: -o -name settings.json -delete", cmd: `find . -name '*.orig' -o -name 'settings.json' -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -delete (the second branch has no test)", cmd: `find . -name '*.orig' -o -delete`, want: denied, fixed: true},
		{finding: "B1 variant: ( -name … -o -true ) -delete", cmd: `find . \( -name '*.orig' -o -true \) -delete`, want: denied, fixed: true},
		{finding: "B1 variant: ( -name … -o -name '*.json' ) -delete", cmd: `find . \( -name '*.orig' -o -name '*.json' \) -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -name 'settings.*' | xargs rm -f", cmd: `find . -name '*.orig' -o -name 'settings.*' | xargs rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: -o ! -name x | xargs rm -f", cmd: `find . -name '*.orig' -o ! -name x | xargs rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: -name … , -delete (a list: the action runs on every file)", cmd: `find . -name '*.orig' , -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -path './.claude/*' -delete", cmd: `find . -name '*.orig' -o -path './.claude/*' -delete`, want: denied, fixed: true},
		{finding: "B1 variant: -o -iname SETTINGS.JSON | xargs rm -f", cmd: `find . -iname '*.orig' -o -iname 'SETTINGS.JSON' | xargs rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: rm -rf $(find … -o -name settings.json)", cmd: `rm -rf $(find . -name '*.orig' -o -name 'settings.json')`, want: denied, fixed: true},
		{finding: "B1 variant: ( -name x -o -name .claude ) -exec rm -rf {} +", cmd: `find . \( -name x -o -name '.claude' \) -exec rm -rf {} +`, want: denied, fixed: true},
		{finding: "B1 variant: -print -o -name settings.json -print0 (two printing branches)", cmd: `find . -name '*.orig' -print -o -name 'settings.json' -print0 | xargs -0 rm -f`, want: denied, fixed: true},
		{finding: "B1 variant: -not ( -name a -o -name b ) -delete", cmd: `find . -not \( -name a -o -name b \) -delete`, want: denied, fixed: true},
		{finding: "B1 variant: an unknown primary in the expression", cmd: `find . -name '*.orig' -frobnicate x -o -name '*.rej' -delete`, want: held, fixed: true},
		// B2: a copy or move into a destination written literally, of
		// names read at run time: only the name is run-time, bounded by
		// the feed's pattern (selfroles.go placeholderInLiteralDir).
		{finding: "B2 ordinary: find … | xargs -I{} cp {} build/", cmd: `find . -name '*.js' | xargs -I{} cp {} build/`, want: notHeld, fixed: true},
		{finding: "B2 variant: find -name '*.json' | xargs -I{} cp {} .claude/", cmd: `find . -name '*.json' | xargs -I{} cp {} .claude/`, want: denied, fixed: true},
		{finding: "B2 variant: find -name settings.json | xargs cp -t ~/.claude/", cmd: `find . -name settings.json | xargs cp -t ~/.claude/`, want: denied, fixed: true},
		{finding: "B2 variant: find … | xargs -I{} mv {} .claude/", cmd: `find . -name '*.json' | xargs -I{} mv {} .claude/`, want: denied, fixed: true},
		{finding: "B2 variant: a run-time destination directory", cmd: `find . -name '*.json' | xargs cp -t "$D/"`, want: held, fixed: true},
		{finding: "B2 variant: into airlock's policy directory", cmd: `find . -name '*.yaml' | xargs -I{} cp {} ~/.config/airlock/`, want: denied, fixed: true},
		{finding: "B2 variant: through a link to .claude made first", cmd: `ln -s .claude lnk; find . -name '*.json' | xargs -I{} cp {} lnk/`, want: denied, fixed: true},
		{finding: "B2 variant: names from a list file into .claude/", cmd: `cat list.txt | xargs -I{} cp {} .claude/`, want: denied, fixed: true},

		// B4: ls of a glob prints the glob's matches when none of them is
		// a directory (classify lsfeed.go); a directory's names are bare.
		{finding: "B4 ordinary: ls *.log | xargs rm -f", setup: map[string]string{"proj/a.log": "", "proj/b.log": ""}, cmd: `ls *.log | xargs rm -f`, want: notHeld, fixed: true},
		{finding: "B4 ordinary: ls *.go | xargs -I{} cp {} dist/", cmd: `ls *.go | xargs -I{} cp {} dist/`, want: notHeld, fixed: true},
		{finding: "B4 variant: ls .claude/* | xargs rm", cmd: `ls .claude/* | xargs rm`, want: denied, fixed: true},
		{finding: "B4 variant: ls -d .cl* | xargs rm -rf", cmd: `ls -d .cl* | xargs rm -rf`, want: denied, fixed: true},
		{finding: "B4 variant: ls .claude | xargs rm (bare names)", cmd: `ls .claude | xargs rm`, want: held, fixed: true},
		{finding: "B4 variant: a match that is a directory prints its names bare", setup: map[string]string{"proj/d.log/main.go": ""}, cmd: `ls *.log | xargs rm`, want: held, fixed: true},
		{finding: "B4 variant: a match that is a link to .claude", prep: func(t *testing.T, f *fixture) {
			if err := os.Symlink(".claude", f.path("proj/x.log")); err != nil {
				t.Fatal(err)
			}
		}, cmd: `ls *.log | xargs rm`, want: held, fixed: true},
		{finding: "B4 variant: ls -l prints more than names", setup: map[string]string{"proj/a.log": ""}, cmd: `ls -l *.log | xargs rm`, want: held, fixed: true},
		{finding: "B4 variant: a directory made in the same command", setup: map[string]string{"proj/a.log": ""}, cmd: `mkdir z.log && ls *.log | xargs rm`, want: held, fixed: true},
		{finding: "B4 variant: after cd .claude", cmd: `cd .claude && ls *.json | xargs rm`, want: held, fixed: true},
		{finding: "B4 variant: ls ~/.claude/*.json | xargs rm", cmd: `ls ~/.claude/*.json | xargs rm`, want: held, fixed: true},
		// B3: git ls-files --deleted lists the index's files absent from
		// the work tree (classify feeds.go Missing); the hook settings,
		// tracked and there, are not among them.
		{finding: "B3 ordinary: git ls-files --deleted | xargs git rm", prep: trackedThenDeleted, cmd: `git ls-files --deleted | xargs git rm`, want: notHeld, fixed: true},
		{finding: "B3 ordinary: git ls-files -d -z | xargs -0 git rm --cached", prep: trackedThenDeleted, cmd: `git ls-files -d -z | xargs -0 git rm --cached`, want: notHeld, fixed: true},
		{finding: "B3 variant: git ls-files -d -c (the cached files too) | xargs git rm", prep: trackedThenDeleted, cmd: `git ls-files -d -c | xargs git rm`, want: denied, fixed: true},
		{finding: "B3 variant: git ls-files -m -d | xargs rm", prep: trackedThenDeleted, cmd: `git ls-files -m -d | xargs rm`, want: denied, fixed: true},
		{finding: "B3 variant: git ls-files | xargs git rm", prep: trackedThenDeleted, cmd: `git ls-files | xargs git rm`, want: denied, fixed: true},
		{finding: "B3 variant: the hook settings deleted first, then restored from the list", prep: trackedThenDeleted, cmd: `rm .claude/settings.json; git ls-files -d | xargs git checkout --`, want: denied, fixed: true},
		// B13: a file a code runner is given to read is not its code
		// (policy selfcodewords.go); awk, json.tool and fd get roles in
		// their reading spellings (classify readroles.go).
		{finding: "B13 ordinary: awk '{print}' ~/.claude/settings.json", cmd: `awk '{print}' ~/.claude/settings.json`, want: notHeld, fixed: true},
		{finding: "B13 ordinary: python3 -m json.tool --indent 2 .claude/settings.json", cmd: `python3 -m json.tool --indent 2 .claude/settings.json`, want: notHeld, fixed: true},
		{finding: "B13 variant: sed -n 'w .claude/settings.json' x.txt", cmd: `sed -n 'w .claude/settings.json' x.txt`, want: denied, fixed: true},
		{finding: "B13 variant: sed -n 'w …' of the file itself", cmd: `sed -n 'w .claude/settings.json' .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: sed -i", cmd: `sed -i 's/a/b/' .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: sed -n p of airlock's token", cmd: `sed -n 'p' ~/.local/state/airlock/secrets/serve.token`, want: denied, fixed: true},
		{finding: "B13 variant: sed's e command runs the lines", cmd: `sed -n 'e' .claude/settings.json`, want: held, fixed: true},
		{finding: "B13 variant: awk print > a literal file", cmd: `awk '{print > ".claude/settings.json"}' x.txt`, want: denied, fixed: true},
		{finding: "B13 variant: awk print > FILENAME", cmd: `awk '{print > FILENAME}' .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: awk of airlock's token", cmd: `awk '{print}' ~/.local/state/airlock/secrets/serve.token`, want: denied, fixed: true},
		{finding: "B13 variant: gawk -i inplace", cmd: `gawk -i inplace '{print}' .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: awk -f a program file", cmd: `awk -f x.awk .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: awk system() of airlock's verb", cmd: `awk 'BEGIN{system("airlock queue approve x")}' .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: json.tool's output file", cmd: `python3 -m json.tool x.json .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: json.tool in place", cmd: `python3 -m json.tool .claude/settings.json .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: json.tool of airlock's token", cmd: `python3 -m json.tool ~/.local/state/airlock/secrets/serve.token`, want: denied, fixed: true},
		{finding: "B13 variant: fd -X rm", cmd: `fd . ~/.claude -X rm`, want: denied, fixed: true},
		{finding: "B13 variant: fd -x cat", cmd: `fd settings ~/.claude -x cat`, want: held, fixed: true},
		{finding: "B13 variant: a read and a write of the file", cmd: `sed -n p .claude/settings.json > .claude/settings.json`, want: denied, fixed: true},
		{finding: "B13 variant: the read lines run by a shell", cmd: `sed -n p .claude/settings.json | sh`, want: held, fixed: true},
		// B6: a setting's value and an archive listing's member pattern
		// are not paths (classify settingroles.go).
		{finding: "B6 ordinary: go env -w GOPRIVATE and GONOSUMDB globs", cmd: `go env -w GOPRIVATE='github.com/me/*' GONOSUMDB='github.com/me/*'`, want: notHeld, fixed: true},
		{finding: "B6 ordinary: unzip -p app.zip 'src/*.json'", cmd: `unzip -p app.zip 'src/*.json'`, want: notHeld, fixed: true},
		{finding: "B6 variant: go env -w GOBIN to the hook settings' directory", cmd: `go env -w GOBIN='.claude/*'`, want: denied, fixed: true},
		{finding: "B6 variant: go env -w GOENV to the hook settings", cmd: `go env -w GOENV=.claude/settings.json`, want: denied, fixed: true},
		{finding: "B6 variant: unzip of a member pattern (extraction)", cmd: `unzip -o app.zip '.claude/*'`, want: denied, fixed: true},
		{finding: "B6 variant: unzip -l … -d .claude (-d is not a listing's)", cmd: `unzip -l app.zip '*.json' -d .claude`, want: denied, fixed: true},
		{finding: "B6 variant: unzip -p into the hook settings", cmd: `unzip -p app.zip x > .claude/settings.json`, want: denied, fixed: true},
		{finding: "B6 variant: unzip -l of airlock's token", cmd: `unzip -l ~/.local/state/airlock/secrets/serve.token`, want: denied, fixed: true},
		// B12 and B7: $PWD and $(pwd) are the directory the command runs
		// in when nothing in it changes directory or rebinds PWD
		// (selfpwd.go); a link's own path is checked as it is before the
		// run makes it, and later runs go through it (selfprotect.go).
		{finding: "B12 ordinary: GOBIN=\"$(pwd)/bin\" go install ./...", cmd: `GOBIN="$(pwd)/bin" go install ./...`, want: notHeld, fixed: true},
		{finding: "B12 ordinary: echo > \"$PWD/notes.txt\"", cmd: `echo hi > "$PWD/notes.txt"`, want: notHeld, fixed: true},
		{finding: "B12 variant: cp to \"$PWD/.claude/settings.json\"", cmd: `cp x "$PWD/.claude/settings.json"`, want: denied, fixed: true},
		{finding: "B12 variant: ${PWD} and $(pwd) spellings", cmd: `cp x "${PWD}/.claude/settings.json"; cp x "$(pwd)/.claude/settings.json"`, want: denied, fixed: true},
		{finding: "B12 variant: $PWD after cd ~/.local", cmd: `cd ~/.local && GOBIN="$PWD/bin" go install ./...`, want: held, fixed: true},
		{finding: "B12 variant: $PWD after a run-time cd", cmd: `cd "$X" && GOBIN="$PWD/bin" go install ./...`, want: held, fixed: true},
		{finding: "B12 variant: PWD assigned first", cmd: `PWD=~/.local/state/airlock; GOBIN="$PWD/bin" go install ./...`, want: held, fixed: true},
		{finding: "B12 variant: PWD exported first", cmd: `export PWD=/opt/airlock; GOBIN="$PWD/bin" go install ./...`, want: held, fixed: true},
		{finding: "B12 variant: PWD read from a file", cmd: `read PWD < f; cp x "$PWD/settings.json"`, want: held, fixed: true},
		{finding: "B12 variant: PWD a loop variable", cmd: `for PWD in /opt/airlock; do GOBIN="$PWD/bin" go install ./...; done`, want: held, fixed: true},
		{finding: "B12 variant: $PWD in a subshell after cd", cmd: `(cd ~/.claude && cp x "$PWD/settings.json")`, want: denied, fixed: true},
		{finding: "B12 variant: $PWD in sh -c after cd", cmd: `sh -c 'cd ~/.claude; cp x "$PWD/settings.json"'`, want: denied, fixed: true},
		{finding: "B7 ordinary: ln -s \"$(pwd)/bin/tool\" build/tool", cmd: `ln -s "$(pwd)/bin/tool" build/tool`, want: notHeld, fixed: true},
		{finding: "B7 variant: a write through the run-time link", cmd: `ln -sf "$X" build/gen; echo x > build/gen`, want: held, fixed: true},
		{finding: "B7 variant: a copy into the deploy link", cmd: `ln -sfn "releases/$(date +%s)" current && cp x current/settings.json`, want: held, fixed: true},
		{finding: "B7 variant: the link made at the hook settings' directory", cmd: `ln -sfn "$X" .claude`, want: denied, fixed: true},
		{finding: "B7 variant: the link made at the hook settings", cmd: `ln -sf "$X" .claude/settings.json`, want: denied, fixed: true},
		{finding: "B7 variant: a link to .claude by $PWD, then written through", cmd: `ln -sf "$PWD/.claude" cc; cp x cc/settings.json`, want: denied, fixed: true},
		{finding: "B7 variant: ln without -n into an existing link to ~/.claude", prep: func(t *testing.T, f *fixture) {
			if err := os.Symlink(f.path("home/.claude"), f.path("proj/cur")); err != nil {
				t.Fatal(err)
			}
		}, cmd: `ln -sf "$X" cur`, want: held, fixed: true},
		{finding: "B7 variant: the link's path through an existing link to .claude", prep: func(t *testing.T, f *fixture) {
			if err := os.Symlink(".claude", f.path("proj/build")); err != nil {
				t.Fatal(err)
			}
		}, cmd: `ln -sf "$X" build/settings.json`, want: denied, fixed: true},
		// B9: a configuration step's prefix is written itself, not below
		// (classify prefixroles.go); an install step in the same command
		// writes its bin, lib, share … directories.
		{finding: "B9 ordinary: meson setup build --prefix $HOME/.local (the value as the next word)", cmd: `meson setup build --prefix $HOME/.local`, want: notHeld, fixed: true},
		{finding: "B9 ordinary: ./configure --prefix=$HOME/.local --libdir=$HOME/.local/lib64", cmd: `./configure --prefix=$HOME/.local --libdir=$HOME/.local/lib64`, want: notHeld, fixed: true},
		{finding: "B9 variant: a prefix inside airlock's state", cmd: `./configure --prefix=$HOME/.local/state/airlock`, want: denied, fixed: true},
		{finding: "B9 variant: a prefix that is airlock's policy directory", cmd: `./configure --prefix=$HOME/.config/airlock`, want: denied, fixed: true},
		{finding: "B9 variant: meson's prefix inside airlock's state", cmd: `meson setup build --prefix=$HOME/.local/state/airlock`, want: denied, fixed: true},
		{finding: "B9 variant: a run-time prefix", cmd: `./configure --prefix="$P"`, want: held, fixed: true},
		{finding: "B9 variant: configure then make install into ~/.local/bin (PATH programs)", cmd: `./configure --prefix=$HOME/.local && make && make install`, want: held, fixed: true},
		{finding: "B9 variant: configure then make install-strip", cmd: `./configure --prefix=$HOME/.local && make -j4 install-strip`, want: held, fixed: true},
		{finding: "B9 variant: cmake configure then cmake --install", cmd: `cmake -B build -DCMAKE_INSTALL_PREFIX=$HOME/.local && cmake --build build && cmake --install build`, want: held, fixed: true},
		{finding: "B9 variant: meson setup then meson install", cmd: `meson setup build --prefix=$HOME/.local && meson install -C build`, want: held, fixed: true},
		// B8: a copy of a run-time directory's glob into a literal
		// directory is checked as `cp -r "$X"/. build/` is: the
		// destination written whole (selfroles.go runtimeGlobCopy).
		{finding: "B8 ordinary: cp \"$SRC_DIR\"/*.js build/", cmd: `cp "$SRC_DIR"/*.js build/`, want: notHeld, fixed: true},
		{finding: "B8 variant: into the project's root", cmd: `cp -r "$X"/* ./`, want: denied, fixed: true},
		{finding: "B8 variant: into .claude/", cmd: `cp -r "$X"/* .claude/`, want: denied, fixed: true},
		{finding: "B8 variant: into ~/.claude/", cmd: `cp -r "$X"/* ~/.claude/`, want: denied, fixed: true},
		{finding: "B8 variant: into the home", cmd: `cp -r "$X"/* ~/`, want: denied, fixed: true},
		{finding: "B8 variant: into a run-time directory", cmd: `cp -r "$X"/* "$Y"/`, want: held, fixed: true},
		{finding: "B8 variant: into airlock's policy directory", cmd: `cp -r "$X"/* ~/.config/airlock/`, want: denied, fixed: true},
		{finding: "B8 variant: a move (what it takes from the run-time directory)", cmd: `mv "$X"/* build/`, want: held, fixed: true},
		{finding: "B8 variant: into a glob directory", cmd: `cp -r "$X"/* build/*/`, want: held, fixed: true},
		{finding: "B8 variant: into a link to .claude", prep: func(t *testing.T, f *fixture) {
			if err := os.Symlink(".claude", f.path("proj/build")); err != nil {
				t.Fatal(err)
			}
		}, cmd: `cp -r "$X"/* build/`, want: denied, fixed: true},
		// B10: git -C of a read subcommand reads the directory; a glob
		// is followed in each directory it matches now, whose
		// configuration is read (classify gitdirglob.go).
		{finding: "B10 ordinary: for d in */; do git -C \"$d\" log --oneline -1; done", cmd: `for d in */; do git -C "$d" log --oneline -1; done`, want: notHeld, fixed: true},
		// Open with G1 (git -C nr status does not read nr's configuration):
		// the loop is followed through the same reading, so both close
		// together.
		{finding: "B10 variant: a subdirectory's fsmonitor, named (G1)", setup: subRepoFsmonitor, cmd: `git -C sub status`, want: held},
		{finding: "B10 variant: a subdirectory's fsmonitor, through the loop (G1)", setup: subRepoFsmonitor, cmd: `for d in */; do git -C "$d" status; done`, want: held},
		{finding: "B10 variant: git -C */ checkout -- . (writes)", cmd: `for d in */; do git -C "$d" checkout -- .; done`, want: held, fixed: true},
		{finding: "B10 variant: git -C .claude checkout -- settings.json", cmd: `git -C .claude checkout -- settings.json`, want: denied, fixed: true},
		{finding: "B10 variant: diff --output in each directory", cmd: `for d in */; do git -C "$d" diff --output=../.claude/settings.json; done`, want: denied, fixed: true},
		// B11: find's expression words are tests, not files another run
		// writes (classify follow.go mayWrite); the scripts -execdir and
		// --prefix run are each package's own.
		{finding: "B11 ordinary: find packages -name package.json -execdir npm test", setup: map[string]string{"proj/packages/a/package.json": `{"scripts":{"test":"jest"}}`}, cmd: `find packages -name package.json -execdir npm test \;`, want: notHeld, fixed: true},
		{finding: "B11 variant: a package's test script runs airlock's verb (-execdir)", setup: evilPackage, cmd: `find . -name package.json -not -path '*/node_modules/*' -execdir npm test \;`, want: held, fixed: true},
		// Open with N1 (npm --prefix DIR does not read DIR's scripts): the
		// --prefix loop of B11 stays open until both close.
		{finding: "B11 variant: a package's test script runs airlock's verb (--prefix loop, N1)", setup: evilPackage, cmd: `for d in packages/*; do npm --prefix "$d" test; done`, want: held},
		{finding: "B11 variant: npm --prefix of the package, named (N1)", setup: evilPackage, cmd: `npm --prefix packages/evil test`, want: held},
		{finding: "B11 variant: an excluded directory is not skipped unless all of it is", setup: map[string]string{"proj/node_modules/x/package.json": `{"scripts":{"test":"airlock queue approve abcd"}}`}, cmd: `find . -name package.json -not -path '*/node_modules/x' -execdir npm test \;`, want: held, fixed: true},
		{finding: "B11 variant: node_modules not excluded", setup: map[string]string{"proj/node_modules/x/package.json": `{"scripts":{"test":"airlock queue approve abcd"}}`}, cmd: `find . -name package.json -execdir npm test \;`, want: held, fixed: true},
		{finding: "B11 variant: an -o in the expression keeps node_modules", setup: map[string]string{"proj/node_modules/x/package.json": `{"scripts":{"test":"airlock queue approve abcd"}}`}, cmd: `find . -name package.json -not -path '*/node_modules/*' -o -name package.json -execdir npm test \;`, want: held, fixed: true},
		{finding: "B11 ordinary: node_modules excluded by -not -path", setup: map[string]string{"proj/node_modules/x/package.json": `{"scripts":{"test":"airlock queue approve abcd"}}`, "proj/packages/a/package.json": `{"scripts":{"test":"jest"}}`}, cmd: `find . -name package.json -not -path '*/node_modules/*' -execdir npm test \;`, want: notHeld, fixed: true},
		{finding: "B11 variant: package.json written by find -fprint first", cmd: `find . -name package.json -fprint package.json -quit; npm test`, want: held, fixed: true},
		// cd then a deletion: the shell's directory for the run
		// (destroy.go shellDir), not the union of every cd's.
		{finding: "cd ordinary: cd src && rm -f ../build/old", setup: map[string]string{"proj/build/old": "x"}, cmd: `cd src && rm -f ../build/old`, want: notHeld, fixed: true},
		{finding: "cd ordinary: cd src; rm -f ../build/old", setup: map[string]string{"proj/build/old": "x"}, cmd: `cd src; rm -f ../build/old`, want: notHeld, fixed: true},
		{finding: "cd variant: cd src || true; rm -f ../../x (cd may fail)", cmd: `cd src || true; rm -f ../../x`, want: held, fixed: true},
		{finding: "cd variant: (cd src); rm -f ../x (a subshell's cd does not last)", cmd: `(cd src); rm -f ../x`, want: held, fixed: true},
		{finding: "cd variant: cd .. && rm -rf proj2", cmd: `cd .. && rm -rf proj2`, want: held, fixed: true},
		{finding: "cd variant: cd src && rm -rf ../../home", cmd: `cd src && rm -rf ../../home`, want: denied, fixed: true},
		// B5's last row: git restore --staged writes the index only.
		{finding: "B5 ordinary: git restore -S .claude/settings.json", cmd: `git restore -S .claude/settings.json`, want: notHeld, fixed: true},
		{finding: "B5 variant: restore --staged --worktree", cmd: `git restore --staged --worktree .claude/settings.json`, want: denied, fixed: true},
		{finding: "B5 variant: restore -SW", cmd: `git restore -SW .claude/settings.json`, want: denied, fixed: true},
		{finding: "B5 variant: restore (the work tree)", cmd: `git restore .claude/settings.json`, want: denied, fixed: true},
		{finding: "B5 variant: restore -s REV -W -S", cmd: `git restore -s HEAD~1 -W -S .claude/settings.json`, want: denied, fixed: true},
	}
	runFindingCases(t, "10", base, cases)
}

// trackedThenDeleted makes the project a repository whose index holds
// every file, then deletes one tracked file from the work tree.
func trackedThenDeleted(t *testing.T, f *fixture) {
	gitTrackAll(t, f.path("proj"))
	if err := os.Remove(f.path("proj/src/m.py")); err != nil {
		t.Fatal(err)
	}
}

// subRepoFsmonitor is a repository in a subdirectory of the project
// whose configuration runs x.sh (airlock's verb) on git status.
var subRepoFsmonitor = map[string]string{
	"proj/sub/x.sh":        "#!/bin/sh\nairlock queue approve abcd\n",
	"proj/sub/.git/HEAD":   "ref: refs/heads/main\n",
	"proj/sub/.git/config": "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = ./x.sh\n",
}

// evilPackage is a package of a monorepo whose test script runs
// airlock's verb.
var evilPackage = map[string]string{
	"proj/packages/evil/package.json": `{"name":"evil","scripts":{"test":"airlock queue approve abcd"}}`,
}
