package run

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The review after the run (FINDINGS-9 C2, C1b). Mounts fence what
// exists when the plan is made; what the command makes or changes
// elsewhere in the project is looked at once it has ended, when nothing
// inside can race the look: the sandbox's pid namespace ended with the
// command.
//
// One walk of the project finds what changed during the run by its
// change time (ctime: set by the kernel at every write, rename, chmod
// or link, and not settable from user space), so that nothing needs to
// be listed before the run but the few files the table reviews. Each
// file the walk finds is then:
//   - a table entry (CodeFiles): set aside (Review, a Fence pattern),
//     named (Watch), or, for a repository (Repo), its config and hooks
//     looked at (repoFiles);
//   - otherwise, by the general rule, named when its name starts with a
//     dot or it lies under a dot-directory (not an ordinary one, not a
//     cache), or when it is an executable git's index did not hold
//     before the run.

// SetAsideSuffix is added to the name of a file set aside for review.
const SetAsideSuffix = ".airlock-review"

// clockSlack widens "during the run" backwards: the kernel stamps
// changes with its coarse clock, up to a tick (10 ms at 100 Hz) behind
// the time the plan read, so a write just after the plan may carry a
// time just before it. A file changed in the slack before the run is
// named too: it only costs a line.
const clockSlack = 50 * time.Millisecond

// changedSince reports a change time at or after since. A file system
// that keeps whole seconds (ext4 with small inodes) or two (FAT) stamps
// a change down to its second: a time with no nanoseconds counts from
// two seconds before since's.
func changedSince(st fs.FileInfo, since time.Time) bool {
	ct := changeTime(st)
	if ct.Nanosecond() == 0 {
		return !ct.Before(since.Truncate(time.Second).Add(-2 * time.Second))
	}
	return !ct.Before(since)
}

// isGitDir reports a directory that is a git repository's own (HEAD,
// objects and refs in it), wherever it is.
func isGitDir(d string) bool {
	for _, n := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Lstat(filepath.Join(d, n)); err != nil {
			return false
		}
	}
	return true
}

// Review limits: the walk stops after maxReviewEntries names (and says
// so), a reviewed file is kept for putting back up to maxKept bytes.
const (
	maxKept      = 1 << 20
	maxKeptFiles = 64
)

// maxReviewEntries bounds the names the walk looks at (a variable for
// the test of the bound).
var maxReviewEntries = 400000

// Before is what the review compares with, taken when the plan is made.
type Before struct {
	// Since is when the plan was made, less clockSlack.
	Since time.Time
	// Kept are the Review entries' files as they were: their bytes and
	// mode, to put back after one the run changed is set aside.
	Kept map[string]KeptFile
	// Writable are the directories writable inside: a repository's
	// files found outside them (a gitdir naming another place) are
	// named, not moved, as the run could not have written them.
	Writable []string
	// Tracked gives the paths git's index held when the plan was made
	// (trackedAtPlan); nil, none.
	Tracked func() map[string]bool
	// ReadOnly are the project's paths bound read-only inside: nothing
	// below them changed during the run (a change time there is the
	// human's, outside), so the review does not look there.
	ReadOnly []string
	// Git is git's resolved configuration and hooks (GitReview).
	Git *GitState
}

// KeptFile is one reviewed file's content before the run.
type KeptFile struct {
	Data []byte
	Mode fs.FileMode
}

// takeBefore keeps the files of the table's Review entries in project,
// and returns those it cannot keep (too large, too many, not a regular
// file): the plan fences them read-only instead.
func takeBefore(project string, now time.Time) (*Before, []string) {
	b := &Before{Since: now.Add(-clockSlack), Kept: map[string]KeptFile{}}
	var fence []string
	for _, c := range CodeFiles {
		if c.Handling != Review || hasWild(c.Pattern) {
			continue
		}
		root := filepath.Join(project, filepath.FromSlash(c.Pattern))
		st, err := os.Lstat(root)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			if !b.keep(root, st) {
				fence = append(fence, root)
			}
			continue
		}
		ok := true
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !ok {
				return filepath.SkipDir
			}
			if d.IsDir() {
				return nil
			}
			st, err := d.Info()
			if err != nil || !b.keep(p, st) {
				ok = false
				return filepath.SkipDir
			}
			return nil
		})
		if !ok {
			fence = append(fence, root)
		}
	}
	return b, fence
}

func (b *Before) keep(p string, st fs.FileInfo) bool {
	if !st.Mode().IsRegular() || st.Size() > maxKept || len(b.Kept) >= maxKeptFiles {
		return false
	}
	data, err := os.ReadFile(p)
	if err != nil || int64(len(data)) != st.Size() {
		return false
	}
	b.Kept[p] = KeptFile{Data: data, Mode: st.Mode().Perm()}
	return true
}

// Found is one file the review acted on or names.
type Found struct {
	// Path is the file, absolute.
	Path string
	// Why is the table's reason, or the general rule's.
	Why string
	// Handling is the table's; 0 for the general rule.
	Handling Handling
	// AsideAs is the name it was set aside under; "" when only named.
	AsideAs string
	// Restored: the bytes it had before the run were put back.
	Restored bool
	// Err is why setting it aside (or putting it back) failed.
	Err error
}

// Reviewed is the review's result.
type Reviewed struct {
	Found []Found
	// Truncated: the walk stopped at maxReviewEntries; files past it
	// were not looked at.
	Truncated bool
}

// Reasons of the general rule.
const (
	WhyDot    = "a dot file that no list of airlock's names, made or changed during the run: a tool may read it as code at its next start here"
	WhyUnread = "a directory the review could not list: a tool may still open a file in it by name"
	WhyExec   = "an executable made or changed during the run that git did not track before it: running it runs what the agent wrote"
)

// ReviewRun walks project after the run and sets aside or names what
// changed in it since b was taken (see the top of this file). It does
// not look inside the project's own .git at the top: its config, hooks
// and info are read-only inside, and .git/modules is NewModuleFiles'.
func ReviewRun(project string, b *Before) Reviewed {
	var r Reviewed
	if project == "" || b == nil {
		return r
	}
	since := b.Since
	changed := func(st fs.FileInfo) bool { return changedSince(st, since) }
	isTracked := func(rel string) bool { return b.Tracked != nil && b.Tracked()[rel] }
	// Reviewed files that existed: changed ones are set aside and put
	// back; missing ones were deleted, which runs nothing.
	for p, k := range b.Kept {
		st, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if st.Mode().IsRegular() && st.Mode().Perm() == k.Mode {
			if now, err := os.ReadFile(p); err == nil && bytes.Equal(now, k.Data) {
				continue
			}
		}
		c, _ := CodeFileFor(relSlash(project, p))
		if plain := plainCheck[c.Pattern]; plain != nil && plain(p) {
			continue
		}
		r.Found = append(r.Found, setAsideRestore(p, c, &k))
	}
	ro := map[string]bool{}
	for _, p := range b.ReadOnly {
		ro[p] = true
	}
	entries := 0
	// Breadth first, the caches last: the table's files near the top are
	// looked at before a walk that reaches its bound could stop (an agent
	// that makes 400,000 files first).
	type dirItem struct {
		dir, rel string
		inCache  bool
	}
	var queue, cacheQueue []dirItem
	walk := func(dir, rel string, inCache bool) {
		if inCache {
			cacheQueue = append(cacheQueue, dirItem{dir, rel, true})
		} else {
			queue = append(queue, dirItem{dir, rel, false})
		}
	}
	visit := func(dir, rel string, inCache bool) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			// A directory made unreadable (chmod 111) still lets a tool
			// open a file in it by name: what the review cannot list is
			// named.
			if !errors.Is(err, fs.ErrNotExist) {
				r.Found = append(r.Found, Found{Path: dir, Why: WhyUnread})
			}
			return
		}
		for _, e := range ents {
			if entries++; entries > maxReviewEntries {
				r.Truncated = true
				return
			}
			name := e.Name()
			crel := name
			if rel != "" {
				crel = rel + "/" + name
			}
			p := filepath.Join(dir, name)
			if ro[p] {
				continue
			}
			if name == ".git" {
				if rel != "" {
					r.Found = append(r.Found, repoFiles(p, since, b.Writable)...)
				}
				continue
			}
			if e.IsDir() && isGitDir(p) {
				// A repository's own directory elsewhere (a separate git
				// directory, a bare repository): its config and hooks are
				// reviewed, its objects and refs are data.
				r.Found = append(r.Found, repoFiles(p, since, b.Writable)...)
				continue
			}
			first, _, _ := strings.Cut(crel, "/")
			inTable := tableRoots[first] || rel == "" && topWild(name)
			if inCache && !inTable {
				if e.IsDir() {
					walk(p, crel, true)
				}
				continue
			}
			if e.IsDir() {
				walk(p, crel, inCache || cacheDirs[name])
				continue
			}
			st, err := e.Info()
			if err != nil || !changed(st) {
				continue
			}
			if _, kept := b.Kept[p]; kept {
				continue
			}
			if c, ok := CodeFileFor(crel); ok {
				switch c.Handling {
				case Watch:
					r.Found = append(r.Found, Found{Path: p, Why: c.Reason, Handling: Watch})
				case Fence, Review:
					// A Fence path is read-only when it exists, so one
					// found here was made during the run (by a pattern,
					// or under a directory that had no placeholder).
					if plain := plainCheck[c.Pattern]; plain != nil && plain(p) {
						continue
					}
					r.Found = append(r.Found, setAsideRestore(p, c, nil))
				}
				continue
			}
			if inCache {
				continue
			}
			switch {
			case dotty(crel):
				r.Found = append(r.Found, Found{Path: p, Why: WhyDot})
			case st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 && !isTracked(crel):
				r.Found = append(r.Found, Found{Path: p, Why: WhyExec})
			}
		}
	}
	walk(project, "", false)
	for !r.Truncated && len(queue)+len(cacheQueue) > 0 {
		var it dirItem
		if len(queue) > 0 {
			it, queue = queue[0], queue[1:]
		} else {
			it, cacheQueue = cacheQueue[0], cacheQueue[1:]
		}
		visit(it.dir, it.rel, it.inCache)
	}
	return r
}

// tableRoots are the first names of the table's patterns: below a cache
// directory, only paths under one of them are looked at.
var tableRoots = func() map[string]bool {
	out := map[string]bool{}
	for _, c := range CodeFiles {
		first, _, _ := strings.Cut(c.Pattern, "/")
		if !hasWild(first) {
			out[first] = true
		}
	}
	return out
}()

// topWild reports a name at the project's top that a one-name pattern
// with a wildcard matches (*.code-workspace).
func topWild(name string) bool {
	for _, c := range CodeFiles {
		if !strings.Contains(c.Pattern, "/") && hasWild(c.Pattern) {
			if ok, _ := filepath.Match(c.Pattern, name); ok {
				return true
			}
		}
	}
	return false
}

// dotty reports a path the general rule names: a dot-directory on its way
// that is not an ordinary one, or a dot name that is not ordinary.
func dotty(rel string) bool {
	names := strings.Split(rel, "/")
	for _, n := range names[:len(names)-1] {
		if strings.HasPrefix(n, ".") && !ordinaryDirs[n] {
			return true
		}
	}
	base := names[len(names)-1]
	return strings.HasPrefix(base, ".") && !ordinaryDot[base] && !strings.HasSuffix(base, SetAsideSuffix) && !isAsideName(base)
}

// isAsideName reports NAME.airlock-review.N, a name the review gave.
func isAsideName(base string) bool {
	i := strings.LastIndex(base, SetAsideSuffix+".")
	if i < 0 {
		return false
	}
	_, err := strconv.Atoi(base[i+len(SetAsideSuffix)+1:])
	return err == nil
}

// setAsideRestore renames p to a free NAME.airlock-review and, when k
// holds what was there before the run, writes that back at p.
func setAsideRestore(p string, c CodeFile, k *KeptFile) Found {
	f := Found{Path: p, Why: c.Reason, Handling: c.Handling}
	to, err := SetAsideName(p)
	if err == nil {
		err = os.Rename(p, to)
	}
	if err != nil {
		f.Err = err
		return f
	}
	f.AsideAs = to
	if k != nil {
		// O_EXCL: nothing stands at p now; were something to, it is not
		// written through.
		w, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, k.Mode)
		if err == nil {
			_, err = w.Write(k.Data)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			f.Err = err
			return f
		}
		f.Restored = true
	}
	return f
}

// SetAsideName is p+SetAsideSuffix, or that with .N for the first N not
// taken.
func SetAsideName(p string) (string, error) {
	name := p + SetAsideSuffix
	cand := name
	for i := 1; i < 100; i++ {
		if _, err := os.Lstat(cand); errors.Is(err, fs.ErrNotExist) {
			return cand, nil
		}
		cand = name + "." + strconv.Itoa(i)
	}
	return "", errors.New("no free name to set it aside under")
}

// repoFiles reviews the repository whose .git (a directory, or a gitdir
// file naming one) is at dotgit, below the project's top: its config
// when the run made or changed it and it holds a key git's own commands
// do not write there (plainGitConfig), its config.worktree and hooks
// other than *.sample when made or changed, in its own directory and in
// the common one a worktree's names (commondir). Each is set aside: git
// then reads the repository with the defaults (FINDINGS-9 C1b).
func repoFiles(dotgit string, since time.Time, writable []string) []Found {
	gitdir := dotgit
	st, err := os.Lstat(dotgit)
	if err != nil {
		return nil
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		// git follows a .git that is a link, to a directory or a gitdir
		// file.
		if gitdir, err = filepath.EvalSymlinks(dotgit); err != nil {
			return nil
		}
		if st, err = os.Stat(gitdir); err != nil {
			return nil
		}
	}
	if !st.IsDir() {
		if gitdir = gitdirOf(gitdir); gitdir == "" {
			return nil
		}
	}
	dirs := []string{gitdir}
	if c, err := readSmall(filepath.Join(gitdir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gitdir, cd)
		}
		dirs = append(dirs, filepath.Clean(cd))
	}
	entry, _ := CodeFileFor("x/.git")
	var out []Found
	changedAt := func(p string) bool {
		st, err := os.Lstat(p)
		return err == nil && changedSince(st, since)
	}
	for _, d := range dirs {
		var cand []string
		if cfg := filepath.Join(d, "config"); changedAt(cfg) && !plainGitConfig(cfg) {
			cand = append(cand, cfg)
		}
		if wt := filepath.Join(d, "config.worktree"); changedAt(wt) {
			cand = append(cand, wt)
		}
		hooks, _ := os.ReadDir(filepath.Join(d, "hooks"))
		for _, h := range hooks {
			hp := filepath.Join(d, "hooks", h.Name())
			if !strings.HasSuffix(h.Name(), ".sample") && !strings.Contains(h.Name(), SetAsideSuffix) && changedAt(hp) {
				cand = append(cand, hp)
			}
		}
		for _, c := range cand {
			if writable != nil && !slices.ContainsFunc(writable, func(w string) bool { return within(c, w) }) {
				out = append(out, Found{Path: c, Why: entry.Reason, Handling: Repo})
				continue
			}
			out = append(out, setAsideRestore(c, entry, nil))
		}
	}
	return out
}

// gitdirOf reads a gitdir file ("gitdir: PATH", relative to the file's
// directory) and returns the directory it names, or "".
func gitdirOf(file string) string {
	b, err := readSmall(file)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	d := strings.TrimSpace(rest)
	if d == "" {
		return ""
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(filepath.Dir(file), d)
	}
	return filepath.Clean(d)
}

// readSmall reads a regular file of at most 64 KiB, not through a link.
func readSmall(p string) ([]byte, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 64<<10 {
		return nil, errors.New("not a small regular file")
	}
	return os.ReadFile(p)
}

func relSlash(project, p string) string {
	r, err := filepath.Rel(project, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}
