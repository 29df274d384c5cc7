package run

import (
	"path/filepath"
	"slices"
	"strings"
)

// A read-only bind fences one path, not the directories above it: inside
// a writable directory, `mv .git .git.bak` takes the binds of
// .git/config, .git/hooks and .git/info with it, and a new .git made in
// its place holds what the agent wrote, which the human's next git
// command runs (FINDINGS-10 C4). rename(2) of a mount point fails with
// EBUSY, in bubblewrap as root and as an unprivileged user alike, and so
// does a rename onto one (mv -T x .git) and rmdir of one. So every
// directory between a writable root and a fenced path below it is bound
// onto itself first: writable as before, its contents can change, but it
// stays where the fence was made. The fence then holds for every fenced
// path, not only the ones a list names.

// anchors returns the directories to bind onto themselves, writable,
// before the read-only binds: each directory strictly between a writable
// root (rw, itself a mount point) and a fenced path (fenced), that exists
// (exists) or is made before the sandbox starts (made), and that no
// read-only path covers (inside one, nothing can be renamed anyway, and a
// writable bind there would undo it). Shallowest first, so that a bind
// of a directory never hides one below it.
func anchors(fenced, readOnly, rw, made []string, exists func(string) bool) []string {
	var out []string
	covered := func(d string) bool {
		return slices.ContainsFunc(readOnly, func(r string) bool { return within(d, r) })
	}
	for _, f := range fenced {
		var root string
		for _, w := range rw {
			if within(f, w) && len(w) > len(root) {
				root = w
			}
		}
		if root == "" || f == root {
			continue
		}
		for d := filepath.Dir(f); d != root && within(d, root) && d != filepath.Dir(d); d = filepath.Dir(d) {
			if covered(d) || !exists(d) && !slices.Contains(made, d) {
				continue
			}
			out = append(out, d)
		}
	}
	out = dedupe(out)
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Count(a, "/") - strings.Count(b, "/")
	})
	return out
}
