package policy

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// Run-time parts in what a command destroys (FINDINGS-4 R3). A word such
// as build/tmp.$RANDOM or dist/$(date +%s) is known only when the command
// runs, but its run-time parts have a known alphabet (selfslashfree.go):
// none can hold a "/" or be "." or "..", so the word names something in
// the directory its static text puts it in, never above it. The grade
// reads the same globs self-protection reads, one per way the parts can
// come out (each empty, or starting with its first character's class),
// and places each like any other glob (placeGlob): the directory it
// starts from must be inside the project, and so must everything it
// matches now. A part whose output is not known ($(git describe), $(cat
// f), $1, ${f##*/}) keeps the word unplaced: treated as outside.
//
// The snapshot takes the glob's matches, not the directory that holds
// them. What the word can name when it runs is either a match now (taken)
// or a name that does not exist now: nothing is there to lose but what
// the same command makes (mkdir -p $tmp && rm -rf $tmp), or what another
// process makes in between, the time-of-check gap every glob has
// (docs/THREAT-MODEL.md). The parent directory would hold more than can
// be lost (a whole build/), and its size could then refuse the snapshot.
// The variant with every part empty is the static prefix itself
// (build/$(date +%s) may print nothing and remove build/), placed and
// taken whole.

// placeRuntime places a run-time operand through its known-alphabet
// globs.
func (d *destruction) placeRuntime(inv *classify.Invocation, o classify.Operand, dirs []string) grade {
	unknown := grade{place: placeUnknown, why: o.Word + " is only known when the command runs"}
	if o.Pattern != "" {
		return unknown // find's start path given at run time
	}
	globs, ok := d.runtimeGlobs(o.Word)
	if !ok {
		return unknown
	}
	if climbsAfterGlob(globs[len(globs)-1]) {
		// d$RANDOM/../x: what it leads to depends on a directory the
		// command may make, not on what exists now.
		return grade{place: placeUnknown, why: o.Word + " climbs (..) out of a directory named at run time"}
	}
	g := grade{place: placeInside, ignored: true}
	for _, glob := range globs {
		one := d.place(inv, glob, dirs, true)
		if one.place != placeInside {
			if one.place == placeUnknown {
				one.why = o.Word + ", known only when the command runs, could be " + glob + ": " + one.why
			}
			return one
		}
		g.paths = append(g.paths, one.paths...)
	}
	return g
}

// runtimeGlobs returns the globs a run-time word stands for, written for
// filepath.Glob (a "-" inside brackets escaped), and whether every
// run-time part of it has a known alphabet.
func (d *destruction) runtimeGlobs(w string) ([]string, bool) {
	var vars map[string]string
	if d.home != "" {
		vars = map[string]string{"HOME": d.home}
	}
	globs, ok := slashFreeGlobs(w, vars, true)
	if !ok {
		return nil, false
	}
	out := make([]string, len(globs))
	for i, g := range globs {
		out[i] = goClass(g)
	}
	return out, true
}

// goClass escapes a "-" that ends a bracket expression ([0-9-]), which
// the shell reads as itself and filepath.Match refuses as a bad pattern.
func goClass(glob string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '\\' && i+1 < len(glob):
			b.WriteByte(c)
			b.WriteByte(glob[i+1])
			i++
			continue
		case c == '[' && !in:
			in = true
		case c == ']' && in:
			in = false
		case c == '-' && in && i+1 < len(glob) && glob[i+1] == ']':
			b.WriteString(`\-`)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// climbsAfterGlob reports a ".." component after the first one with a
// glob in it.
func climbsAfterGlob(glob string) bool {
	seen := false
	for _, c := range strings.Split(glob, "/") {
		if seen && c == ".." {
			return true
		}
		seen = seen || hasGlob(c)
	}
	return false
}
