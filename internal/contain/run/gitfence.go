package run

import (
	"os"
	"path/filepath"
)

// gitFence adds to the plan's read-only paths what of git's own files the
// gitCode list does not reach (FINDINGS-10 C4): a .git that is a file
// (a worktree's or a submodule checkout's "gitdir:" line, which names the
// repository git reads), the repository it names when that lies in a
// writable directory (its config, config.worktree, commondir, hooks,
// info), and a commondir file in the project's own .git or a submodule
// repository's. A commondir or config.worktree that does not exist gets
// no placeholder (an empty commondir stops git); one the run makes is
// undone by the review after it (GitReview).
func gitFence(project string, modules []string, real func(string) string, exists func(string) bool, writableAt func(string) bool) []string {
	var ro []string
	add := func(p string) {
		if r := real(p); exists(r) && writableAt(r) {
			ro = append(ro, r)
		}
	}
	dotgit := filepath.Join(project, ".git")
	dirs := append([]string{dotgit}, modules...)
	if st, err := os.Lstat(dotgit); err == nil && st.Mode().IsRegular() {
		add(dotgit)
		dirs = dirs[1:]
		if gd := gitdirOf(dotgit); gd != "" {
			named := []string{gd}
			if cd := commonDirOf(gd); cd != gd {
				named = append(named, cd)
			}
			for _, d := range named {
				for _, n := range []string{"config", "config.worktree", "hooks", "info"} {
					add(filepath.Join(d, n))
				}
			}
			dirs = append(dirs, named...)
		}
	}
	for _, d := range dirs {
		add(filepath.Join(d, "commondir"))
	}
	return ro
}

// commonDirOf is the common directory git reads beside gitdir: the one
// its commondir file names (relative to gitdir), or gitdir itself.
func commonDirOf(gitdir string) string {
	c, err := readSmall(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return gitdir
	}
	cd := string(c)
	for len(cd) > 0 && (cd[len(cd)-1] == '\n' || cd[len(cd)-1] == '\r' || cd[len(cd)-1] == ' ') {
		cd = cd[:len(cd)-1]
	}
	if cd == "" {
		return gitdir
	}
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitdir, cd)
	}
	return filepath.Clean(cd)
}
