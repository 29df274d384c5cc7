package policy

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file decides, for a deletion inside the project, whether another
// program of the same command may change what it deletes before it runs
// (FINDINGS-9 B6; the grading's phase in destroy.go). Two things can: a
// link made at a path the deletion goes through (ln -s ~ build/h && rm -rf
// build/h/ empties the home), and data moved into what it deletes from
// where the snapshot does not look (mv ~/thesis build/x && rm -rf build).
// A copy out of the deleted tree (cp -r build /tmp/b), an archive of it,
// a checkout that writes tracked files beside it, or a program that only
// runs the project's code (go test, npm ci, kill) does neither by what
// airlock reads of it: its words name no path that the deletion goes
// through or that it moves into the deleted tree.
//
// A run whose effect airlock reads only through its words (go test, a
// built program) is trusted, as a command of its own would be, with what
// its own code does: it could delete the human's files itself, and its
// own decision is what holds it. The deletion after it adds no reach. What
// such a run moves into the deleted place between the decision and the
// deletion is not in the snapshot, as with any change between check and
// use (docs/THREAT-MODEL.md). Interpreter code airlock reads is read for
// moves and links (classify's interp.relink), and code that runs shell
// text counts, since that text may move.

// relinkedInto says why another run of r may move or link something into
// what the k-th run deletes, graded g (inside the project), before it
// runs; "" when none may. at holds the directories each run may run in.
func (d *destruction) relinkedInto(r *classify.Result, k int, g *grade, at [][]string, ordered bool) string {
	del := &r.Invocations[k]
	through, deleted := d.traversed(g, del, at[k])
	if !slices.Equal(at[k], at[0]) || !relativeWords(del) {
		// The deletion reaches its paths through the project's root
		// by name (an absolute path, ~, "..", a cd the shell makes when
		// it runs): a run before it could have moved that.
		through = append(through, d.root)
	}
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if i == k || ordered && inv.Seq > del.Seq {
			continue // itself, or a run that starts after it has ended
		}
		if !mayChangeLayout(r, i, inv) {
			continue
		}
		if why := d.reaches(r, i, inv, at[i], through, deleted); why != "" {
			return why
		}
	}
	return ""
}

// mayChangeLayout is the test every run met before FINDINGS-9 B6: it is
// not itself a deletion (a mover is), and it is not known to leave every
// path where it is.
func mayChangeLayout(r *classify.Result, i int, inv *classify.Invocation) bool {
	return (!inv.Effect.Destructive && !deletes(inv) || movesFromElsewhere(inv)) && !layoutSafe(inv) && !makesNoLinks(inv) && !runsOnlyLayoutSafe(r, i, inv)
}

// reaches says why the run inv (index i of r, -1 for a followed run) may
// put a link at one of the paths through or move something into one of
// deleted, or "".
func (d *destruction) reaches(r *classify.Result, i int, inv *classify.Invocation, dirs, through, deleted []string) string {
	name := clipText(inv.Name())
	suffix := "; run the deletion as a command of its own to have it snapshotted"
	flat := withoutSameDir(inv)
	switch {
	case flat.Opaque != "" || flat.Effect.Opaque || flat.Remote != "" || len(flat.Via) > 0 || name == "":
		return "an earlier program of the command runs what airlock cannot read (" + name + "), which could change what the deletion's paths lead to" + suffix
	case movesFromElsewhere(flat):
		return name + " removes what it reads once written elsewhere (it moves files), so the deletion may take what it moved" + suffix
	case readsAsRelinking(flat):
		return name + " runs code that moves or links files, or runs shell text, before the deletion" + suffix
	case i >= 0 && runnerElsewhere(flat) != "":
		return name + " runs its tasks in another directory, which airlock does not follow for the deletion" + suffix
	}
	if i >= 0 {
		for f := range r.Followed {
			fr := &r.Followed[f]
			if fr.From != i || !mayChangeLayout(r, -1, fr) {
				continue
			}
			if why := d.reaches(r, -1, fr, dirs, through, deleted); why != "" {
				return why
			}
		}
	}
	if len(through) > 0 && !readRoles(r, i, flat) {
		return name + " runs in the same command, airlock does not read what it writes, and it could make a link at " + clipText(through[0]) + ", which the deletion goes through" + suffix
	}
	dests, unknown, mover := d.destinations(flat, dirs)
	if len(through) == 0 && !mover {
		// A link anywhere is no matter to a deletion that goes through
		// no path by name, and a copy moves nothing (cp -r build
		// "$BACKUP" && rm -rf build).
		return ""
	}
	if unknown {
		return name + " writes to a place known only when it runs, which could be a link the deletion goes through" + suffix
	}
	for _, w := range dests {
		for _, t := range through {
			if t == w || strings.HasPrefix(t, w+"/") {
				return name + " may make a link at " + clipText(t) + ", which the deletion goes through" + suffix
			}
		}
		if !mover {
			continue
		}
		for _, p := range deleted {
			if p == w || strings.HasPrefix(p, w+"/") || strings.HasPrefix(w, p+"/") {
				return name + " moves files into or over " + clipText(p) + ", which the snapshot taken now would not hold" + suffix
			}
		}
	}
	return ""
}

// readRoles reports a run whose every word has a role airlock reads
// (classify's roles.go), or whose words are a git command's (git writes
// in its worktree) or a task runner's whose runs airlock followed: what
// it may write or link is then what its words name. go test ./..., kill
// %1 or a built program run with no words are not read: their own code
// decides what they write.
func readRoles(r *classify.Result, i int, inv *classify.Invocation) bool {
	for _, o := range inv.Operands {
		if o.Role == classify.RoleUnknown && !(inv.Name() == "git" && o.Arg > 0) {
			return false
		}
	}
	if len(inv.Operands) > 0 || inv.Name() == "git" {
		return true
	}
	return i >= 0 && slices.ContainsFunc(r.Followed, func(f classify.Invocation) bool { return f.From == i })
}

// readsAsRelinking reports interpreter code airlock read that moves or
// links files (classify's interp.relink) or runs shell text.
func readsAsRelinking(inv *classify.Invocation) bool {
	return slices.ContainsFunc(inv.Effect.Reasons, func(x classify.Reason) bool {
		return x.Rule == "interp.relink" || strings.HasPrefix(x.Rule, "interp.spawn")
	})
}

// traversed returns, for a deletion graded inside the project, the paths
// it goes through on its way (each directory below the project's root
// above what it deletes, and what it deletes when it follows that name: a
// trailing "/", a deleter other than rm) and the paths it deletes, all
// absolute.
func (d *destruction) traversed(g *grade, del *classify.Invocation, dirs []string) (through, deleted []string) {
	follows := followsLast(del)
	starts := del.Name() == "find" && !follows && len(withoutSameDir(del).Via) == 0
	if starts {
		// find looks up its start paths and walks below them without
		// following links (a directory turned into one while it walks is
		// reported, not entered): only the start paths' directories are
		// gone through by name.
		for _, o := range del.Operands {
			if o.Role != classify.RoleDelete {
				continue
			}
			for _, abs := range d.absolute(strings.Trim(o.Word, `"'`), dirs) {
				if abs == "" || o.Dynamic {
					return []string{d.root}, []string{d.root}
				}
				for p := filepath.Dir(filepath.Clean(abs)); strings.HasPrefix(p, d.root+"/"); p = filepath.Dir(p) {
					through = append(through, p)
				}
			}
		}
	}
	for _, p := range g.paths {
		if p == "." || p == "" {
			deleted = append(deleted, d.root)
			continue
		}
		abs := filepath.Join(d.root, p)
		deleted = append(deleted, abs)
		comps := strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
		for n := 1; n < len(comps) && !starts; n++ {
			through = append(through, filepath.Join(d.root, filepath.Join(comps[:n]...)))
		}
		if follows {
			through = append(through, abs)
		}
	}
	return through, deleted
}

// relativeWords reports a deletion whose every word names a path below
// the directory the command starts in, without climbing ("build", not
// "/abs/proj/build", "~/proj/build" or "../proj/build").
func relativeWords(inv *classify.Invocation) bool {
	for _, o := range inv.Operands {
		w := strings.Trim(o.Word, `"'`)
		if o.Role == classify.RoleDelete && (filepath.IsAbs(w) || strings.HasPrefix(w, "~") || w == ".." || strings.HasPrefix(w, "../") || strings.Contains(w, "/../") || strings.HasSuffix(w, "/..")) {
			return false
		}
	}
	return true
}

// followsLast reports a deletion that goes through its operand when that
// is a link: rm, rmdir and unlink remove the link itself unless the name
// ends in "/" or "/."; find does with -L, -H or -follow; git reads its
// worktree without following links; every other deleter (chmod,
// truncate, shred, a redirection) follows.
func followsLast(inv *classify.Invocation) bool {
	inv = withoutSameDir(inv)
	switch inv.Name() {
	case "rm", "rmdir", "unlink", "rimraf", "git":
	case "find":
		if slices.ContainsFunc(inv.Args[1:], func(a string) bool { return a == "-L" || a == "-H" || a == "-follow" }) {
			return true
		}
	default:
		return true
	}
	for _, o := range inv.Operands {
		w := strings.Trim(o.Word, `"'`)
		if o.Role == classify.RoleDelete && (strings.HasSuffix(w, "/") || strings.HasSuffix(w, "/.")) {
			return true
		}
	}
	return false
}

// destinations are the absolute paths a run may write, create, move or
// link at: every operand airlock does not know to be only read or run
// (an unknown role counts, as a write by a program that may write
// anything), and for git, which writes tracked files and links anywhere
// in its worktree, the project's root. unknown is set when one is known
// only at run time (a new name of mktemp is scratch, not the project);
// mover when the run moves files.
func (d *destruction) destinations(inv *classify.Invocation, dirs []string) (out []string, unknown, mover bool) {
	mover = removesInputs(inv.Args)
	for _, o := range inv.Operands {
		switch o.Role {
		case classify.RoleRead, classify.RoleExec:
			continue
		case classify.RoleMoveFrom, classify.RoleMoveTo:
			mover = true
		}
		if o.Dynamic {
			if rest, ok := shellparse.MktempWord(o.Word); ok && !strings.Contains(rest, "..") {
				continue
			}
			return nil, true, mover
		}
		for _, abs := range d.absolute(o.Word, dirs) {
			if abs == "" {
				return nil, true, mover
			}
			if hasGlob(abs) {
				abs, _ = splitGlob(abs)
			}
			out = append(out, d.real(abs))
		}
	}
	if inv.Name() == "git" {
		for _, a := range inv.Args[1:] {
			if a == "-C" || strings.HasPrefix(a, "--work-tree") || strings.HasPrefix(a, "--git-dir") {
				return nil, true, mover
			}
		}
		for _, e := range inv.Env {
			if strings.HasPrefix(e, "GIT_DIR=") || strings.HasPrefix(e, "GIT_WORK_TREE=") {
				return nil, true, mover
			}
		}
		out = append(out, d.root)
	}
	return out, false, mover
}

// real is a path as the kernel reaches it through the links that exist
// now, or as written when that cannot be told.
func (d *destruction) real(abs string) string {
	abs = filepath.Clean(abs)
	if real, unknown := d.res.resolve(abs); !unknown {
		return real
	}
	return abs
}
