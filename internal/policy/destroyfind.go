package policy

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file places the destruction that reaches only what a find
// pattern matches below a start path (find -name '*.pyc' -delete, -exec
// rm -rf {} on __pycache__), and the destruction a task runner's recipe
// or a script makes (make clean, npm run clean).

// maxFindWalk bounds the entries listed to snapshot what a find pattern
// matches now; past it, the start path is snapshotted whole.
const maxFindWalk = 20000

// gitNames are paths git keeps in .git: a pattern that can match one of
// them, from the project's root, may reach the repository's history.
var gitNames = []string{".git/HEAD", ".git/index", ".git/index.lock", ".git/config", ".git/description",
	".git/packed-refs", ".git/ORIG_HEAD", ".git/FETCH_HEAD", ".git/COMMIT_EDITMSG", ".git/logs/HEAD",
	".git/info/exclude", ".git/hooks/pre-commit.sample", ".git/refs/heads/main", ".git/refs/heads/master",
	".git/objects/ab/0123456789abcdef0123456789abcdef012345", ".git/objects/pack/pack-0123abcd.pack",
	".git/objects/pack/pack-0123abcd.idx", ".git/objects/pack/pack-0123abcd.rev", ".git/objects/info/packs"}

// placeFind places a role limited by a find pattern: the start path must
// be in the project; what the pattern matches now is snapshotted.
func (d *destruction) placeFind(o classify.Operand, dirs []string) grade {
	g := grade{place: placeInside, ignored: true}
	for _, abs := range d.absolute(o.Word, dirs) {
		if abs == "" {
			return grade{place: placeUnknown, why: o.Word + " cannot be placed"}
		}
		real, unknown := d.res.resolve(abs)
		if unknown {
			return grade{place: placeUnknown, why: o.Word + " passes through a link airlock cannot follow"}
		}
		rel := ""
		if real != d.root {
			r, ok := strings.CutPrefix(real, d.root+"/")
			if !ok {
				if one := d.placeReal(o.Word, abs, false); one.place != placeInside {
					return one
				}
				return grade{place: placeOutside, why: o.Word + " is not inside the project (" + d.root + ")"}
			}
			for _, c := range strings.Split(r, "/") {
				if strings.EqualFold(c, ".git") {
					return grade{place: placeHistory, why: o.Word + " is in .git, the repository's history"}
				}
			}
			rel = r
		}
		if rel == "" && d.git {
			for _, n := range gitNames {
				if patternBelow(o, o.Word, n) {
					return grade{place: placeHistory, why: "the pattern " + o.Pattern + " can match what git keeps in .git (" + n + "), the repository's history"}
				}
			}
		}
		if rel != "" {
			// Below the root the start path is snapshotted whole: what
			// matches when the command runs may differ from now.
			g.paths = append(g.paths, rel)
			continue
		}
		matches, ok := d.findMatches(real, o)
		if !ok {
			if rel == "" {
				g.paths = append(g.paths, ".")
				g.changes, g.untracked = true, true
			} else {
				g.paths = append(g.paths, rel)
			}
			continue
		}
		for _, m := range matches {
			g.paths = append(g.paths, filepath.ToSlash(filepath.Join(rel, m)))
		}
	}
	return g
}

// findMatches lists what a find pattern matches below dir now (a
// matching directory whole, without looking inside), skipping .git; ok
// is false past maxFindWalk entries or on an error.
func (d *destruction) findMatches(dir string, o classify.Operand) (out []string, ok bool) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		if n++; n > maxFindWalk {
			return fs.ErrInvalid
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() && strings.EqualFold(e.Name(), ".git") {
			return filepath.SkipDir
		}
		if findMatch(o, o.Word, rel) {
			out = append(out, rel)
			if e.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	return out, err == nil
}

// followedBy reports whether runs were followed from run i (a task
// runner's recipe, a script).
func followedBy(r *classify.Result, i int) bool {
	for k := range r.Followed {
		if r.Followed[k].From == i {
			return true
		}
	}
	return false
}

// runnerDirFlag reports an option with which a task runner runs its
// recipe somewhere else than where it is started. (Switches, not maps:
// nothing to build at start-up, which every hook call pays.)
func runnerDirFlag(name string) bool {
	switch name {
	case "-C", "--directory", "--prefix", "--cwd", "-w", "--workspace", "--dir", "-d", "--working-directory":
		return true
	}
	return false
}

// runnerFileFlag reports an option naming the file a task runner reads
// its recipes from. make runs its recipes where it is started whatever
// file it reads; just and task run them in the directory of the file,
// which is where they are started only when the file is named without a
// directory.
func runnerFileFlag(name string) bool {
	switch name {
	case "-f", "--file", "--makefile", "--justfile", "--taskfile", "-t":
		return true
	}
	return false
}

// runnerElsewhere returns the option with which a task runner runs its
// recipe in another directory than the one it is started in, or "".
func runnerElsewhere(inv *classify.Invocation) string {
	makeLike := inv.Name() == "make" || inv.Name() == "gmake"
	args := inv.Args[1:]
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") && len(a) > 2 && a[0] == '-' {
			// -fFILE, -CDIR, or a cluster such as -kC DIR: a letter that
			// can move the recipe anywhere in it counts.
			if strings.ContainsAny(a[2:], "Cdw") || !makeLike && strings.ContainsAny(a[2:], "ft") {
				return a
			}
			name, value, hasValue = a[:2], a[2:], true
		}
		switch {
		case runnerDirFlag(name):
			// A directory that is the one the runner starts in (make -C .)
			// moves nothing (FINDINGS-4 R4).
			if !hasValue && k+1 < len(args) {
				if d := args[k+1]; d == "." || d == "./" {
					k++
					continue
				}
			} else if hasValue && (value == "." || value == "./") {
				continue
			}
			return a
		case runnerFileFlag(name) && (name != "-t" || !makeLike):
			if makeLike && name != "--justfile" && name != "--taskfile" {
				if !hasValue {
					k++ // the file make reads; its recipes still run here
				}
				continue
			}
			if !hasValue {
				if k+1 >= len(args) {
					return a
				}
				k++
				value = args[k]
			}
			if strings.Contains(value, "/") {
				return a + " " + value
			}
		}
	}
	return ""
}

// gradeFollowed places a run by the runs followed from it (make clean's
// rm -rf build): each destructive one must be inside the project, and
// every other one must leave the layout alone, as for the command's own
// runs.
func (d *destruction) gradeFollowed(r *classify.Result, i int, inv *classify.Invocation, dirs []string) grade {
	inv = withoutSameDir(inv) // /usr/bin/time make, nice make
	// make -C DIR: classify puts "cd DIR" before every line it follows
	// (its recipes run there), so those lines are placed from DIR, each
	// from make's own directory.
	// A tree deletion there stays "another directory" (refused, not
	// snapshotted: the snapshot is of the project).
	makeCd := ""
	if a := runnerElsewhere(inv); a != "" {
		if makeCd = followedMakeDir(r, i, inv); makeCd == "" || followedDestroys(r, i) {
			return grade{place: placeUnknown, why: inv.Name() + " " + a + " runs its recipe in another directory"}
		}
	}
	if len(inv.Via) > 0 || inv.Remote != "" || inv.Opaque != "" {
		return grade{place: placeUnknown, why: "airlock cannot tell what " + inv.Name() + " deletes"}
	}
	g := grade{place: placeInside}
	var find *classify.Invocation
	sub := dirs
	// base is where every followed line starts (make's directory, or
	// -C's): the runs of all lines are in one list, so a cd of one line
	// also moves sub for the lines after it, which start afresh.
	base := dirs
	// The recipe's other runs and its deletions, with the directories
	// each runs in: whether one may link or move into what another
	// deletes is decided once all are placed (relinks.go).
	type placed struct {
		f    *classify.Invocation
		dirs []string
		one  grade
	}
	var others, dels []placed
	for k := range r.Followed {
		f := &r.Followed[k]
		if f.From != i {
			continue
		}
		switch f.Name() {
		case "cd", "pushd":
			if makeCd != "" && f.Name() == "cd" && len(f.Args) == 2 && f.Args[1] == makeCd {
				sub = d.changeDir(f, dirs) // a new line of make's, in -C's directory
				base = sub
				continue
			}
			sub = d.changeDir(f, sub)
			continue
		case "popd":
			sub = nil
			continue
		}
		if f.Name() == "find" && len(f.Via) == 0 {
			find = f
		}
		if !f.Effect.Destructive && deletes(f) && !scratchOnly(f, d.home, d.res.fs) {
			// rm -f app *.o in a recipe, a script's unlink: graded where
			// it lands, as when typed inline (promoteDeletions). Outside
			// both where the cds before it lead and where its line
			// starts: a cd of an earlier line (cd .. && ls, then rm -f
			// out.txt) does not move it.
			one := d.grade(f, sub, find)
			if one.place == placeOutside || one.place == placeHistory {
				if two := d.grade(f, base, find); two.place == placeOutside || two.place == placeHistory {
					one.why = "in what " + inv.Name() + " runs: " + one.why
					return one
				}
			}
			continue
		}
		if !f.Effect.Destructive {
			if classify.FromSetting(f) && !f.Effect.Opaque && !linkMaker(f.Name()) {
				// CC=gcc make clean: the compiler a setting names runs
				// when a recipe asks for it; it makes no link.
				continue
			}
			if !layoutSafe(f) && f.Name() != "echo" && f.Name() != "printf" && !makesNoLinks(f) {
				others = append(others, placed{f: f, dirs: sub})
			}
			continue
		}
		one := d.grade(f, sub, find)
		if one.place == placeUnknown && followedRunner(f) {
			// A script's make or bash (FINDINGS-5 B8): what it runs was
			// followed too, and is among these runs, each placed on its
			// own.
			continue
		}
		if one.place != placeInside {
			one.why = "in what " + inv.Name() + " runs: " + one.why
			return one
		}
		dels = append(dels, placed{f: f, dirs: sub, one: one})
		g.paths = append(g.paths, one.paths...)
		g.ignored = g.ignored || one.ignored
		g.changes = g.changes || one.changes
		g.untracked = g.untracked || one.untracked
	}
	// Another run of the recipes (make test build clean: go test, go
	// build) counts only when it may link at a path a deletion goes
	// through or move into what it deletes (FINDINGS-9 B6), in any
	// order: the recipes' order is make's.
	for _, dl := range dels {
		through, deleted := d.traversed(&dl.one, dl.f, dl.dirs)
		if !slices.Equal(dl.dirs, dirs) || !relativeWords(dl.f) {
			through = append(through, d.root)
		}
		for _, o := range others {
			if why := d.reaches(r, -1, o.f, o.dirs, through, deleted); why != "" {
				return grade{place: placeUnknown, why: "in what " + inv.Name() + " runs: " + why}
			}
		}
	}
	return g
}

// followedMakeDir returns the directory of make -C that classify put
// before the lines it followed from run i (makeRun's "cd DIR || exit"),
// or "" when inv is not make or its first followed run is not that cd.
func followedMakeDir(r *classify.Result, i int, inv *classify.Invocation) string {
	if n := inv.Name(); n != "make" && n != "gmake" {
		return ""
	}
	for k := range r.Followed {
		f := &r.Followed[k]
		if f.From != i {
			continue
		}
		if f.Name() == "cd" && len(f.Args) == 2 && !f.IsDynamic(1) {
			return f.Args[1]
		}
		return ""
	}
	return ""
}

// followedDestroys reports a run whose followed runs are rated
// destructive (a recipe's rm -rf).
func followedDestroys(r *classify.Result, i int) bool {
	for k := range r.Followed {
		if f := &r.Followed[k]; f.From == i && f.Effect.Destructive {
			return true
		}
	}
	return false
}

// followedDeletes reports a run whose followed runs delete (a recipe's
// rm -f, a script's unlink): it is graded by where they land.
func followedDeletes(r *classify.Result, i int) bool {
	for k := range r.Followed {
		if f := &r.Followed[k]; f.From == i && deletes(f) {
			return true
		}
	}
	return false
}

// followedRunner reports a run inside a followed file whose destruction
// is only what it runs in turn (a script's make, a recipe's bash x.sh):
// classify followed that too (its reasons name file and line), and the
// runs it found are in Result.Followed beside it. It must run them where
// it is started: no option sending the recipe elsewhere, no wrapper, no
// remote host.
func followedRunner(f *classify.Invocation) bool {
	if runnerElsewhere(f) != "" || len(f.Via) > 0 || f.Remote != "" || f.Opaque != "" {
		return false
	}
	for _, r := range f.Effect.Reasons {
		if r.Rule == "script.line" {
			return true
		}
	}
	return false
}

// linkMaker reports a program that makes links or moves trees, which
// could change what a deletion's paths lead to.
func linkMaker(name string) bool {
	switch name {
	case "ln", "link", "cp", "mv", "install", "rsync", "tar", "gtar", "bsdtar", "unzip", "7z", "cpio", "git", "ditto", "rename", "mount", "bindfs":
		return true
	}
	return classify.MovesTrees(name)
}
