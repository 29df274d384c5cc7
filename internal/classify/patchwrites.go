package classify

import (
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates what a patch writes into files that run later
// (FINDINGS-10 Q1): patch -p1 < h.diff creating .git/hooks/pre-commit is
// a write of git's hook, and git apply mk.diff changing the Makefile's
// recipe is a write of the Makefile with the recipe the patch gives it.
// The target paths are the patch's names with the run's strip level (-pN;
// git's default -p1; patch without -p is read at -p0 and -p1). The new
// content is computed by applying the hunks to the file on disk; when it
// cannot be, what the file runs is unknown (opaque for a file that runs
// later by itself, like a hook).

// patchStrips returns the strip levels a run applies its patches with.
func patchStrips(inv *shell.Invocation) []int {
	git := inv.Name() == "git"
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		v := ""
		switch {
		case a == "-p" || a == "--strip":
			if i+1 < len(inv.Args) {
				v = inv.Args[i+1]
			}
		case strings.HasPrefix(a, "--strip="):
			v = strings.TrimPrefix(a, "--strip=")
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			v = a[2:]
		default:
			continue
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && !inv.IsDynamic(i) {
			return []int{n}
		}
		return []int{0, 1, 2}
	}
	if git {
		return []int{1}
	}
	return []int{0, 1}
}

// patchSection is one file a patch changes.
type patchSection struct {
	name   string // the name after +++ (or --- for a deletion), unstripped
	isNew  bool
	hunks  [][2][]string // each hunk's old and new lines
	broken bool
}

// patchSections splits a unified or git diff into the files it changes.
func patchSections(text string) []patchSection {
	var out []patchSection
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		if !strings.HasPrefix(l, "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			continue
		}
		oldName := patchName(l[4:])
		newName := patchName(strings.TrimRight(lines[i+1], "\r")[4:])
		s := patchSection{name: newName, isNew: oldName == "/dev/null"}
		if newName == "/dev/null" {
			s.name = oldName
		}
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@") {
			var h [2][]string
			i++
			for ; i < len(lines); i++ {
				t := strings.TrimRight(lines[i], "\r")
				if t == "" && i == len(lines)-1 {
					break
				}
				if t == "" {
					h[0], h[1] = append(h[0], ""), append(h[1], "")
					continue
				}
				switch t[0] {
				case ' ':
					h[0], h[1] = append(h[0], t[1:]), append(h[1], t[1:])
				case '-':
					if strings.HasPrefix(t, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
						goto done
					}
					h[0] = append(h[0], t[1:])
				case '+':
					h[1] = append(h[1], t[1:])
				case '\\':
				default:
					goto done
				}
			}
		done:
			s.hunks = append(s.hunks, h)
		}
		i--
		out = append(out, s)
	}
	return out
}

// stripPatchName removes n leading directories from a patch's name.
func stripPatchName(name string, n int) (string, bool) {
	parts := strings.Split(strings.TrimPrefix(name, "/"), "/")
	if n == 0 {
		return name, true
	}
	if n >= len(parts) {
		return "", false
	}
	return strings.Join(parts[n:], "/"), true
}

// applyHunks applies a section's hunks to old, in order; false when a
// hunk's old lines are not found.
func applyHunks(old string, hunks [][2][]string) (string, bool) {
	lines := strings.Split(old, "\n")
	trailing := strings.HasSuffix(old, "\n")
	if trailing {
		lines = lines[:len(lines)-1]
	}
	if old == "" {
		lines = nil
	}
	at := 0
	for _, h := range hunks {
		k := findLines(lines, h[0], at)
		if k < 0 {
			return "", false
		}
		next := append(append(append([]string{}, lines[:k]...), h[1]...), lines[k+len(h[0]):]...)
		at = k + len(h[1])
		lines = next
	}
	return strings.Join(lines, "\n") + "\n", true
}

// findLines finds want in lines from index from on.
func findLines(lines, want []string, from int) int {
	for k := from; k+len(want) <= len(lines); k++ {
		match := true
		for j := range want {
			if lines[k+j] != want[j] {
				match = false
				break
			}
		}
		if match {
			return k
		}
	}
	return -1
}

// patchWrites rates the files that run later which a patch run writes.
func (c *Classifier) patchWrites(inv *shell.Invocation) Effect {
	if inv.Name() != "git" && inv.Name() != "patch" && inv.Name() != "gpatch" {
		return nothing
	}
	plan, ok := PatchTargets(&Invocation{Invocation: *inv}, c.FS)
	if !ok || plan.Unknown != "" {
		return nothing // an unread patch is rated by self-protection (self.patch-unread)
	}
	var e Effect
	for _, text := range plan.Texts {
		links := strings.Contains(text, "new file mode 120000")
		for _, s := range patchSections(text) {
			if links && s.isNew {
				// A link the patch makes (mode 120000): its text is the
				// target; one to git's files is held as ln -s is.
				if t, ok := applyHunks("", s.hunks); ok && gitLinkTarget(strings.TrimSpace(t)) {
					e.Add(opaque("surface.git-link", plan.Program+" makes "+clip(s.name)+" a link to "+clip(strings.TrimSpace(t))+", git's own files: a later write through it changes the hooks or configuration every git command runs"))
				}
			}
			for _, n := range patchStrips(inv) {
				name, ok := stripPatchName(s.name, n)
				if !ok {
					continue
				}
				name = joinDir(plan.Dir, name)
				target := c.surfaceName(name)
				if target == "" {
					continue
				}
				content, known := "", false
				switch {
				case s.isNew:
					content, known = applyHunks("", s.hunks)
				case c.FS != nil:
					if old, err := c.readFile(target); err == nil {
						content, known = applyHunks(string(old), s.hunks)
					}
				}
				fe := c.file(target, content, known)
				if _, task := surfaceKind(target); task && !known {
					fe.Add(opaque("patch.unknown", plan.Program+" changes "+clip(name)+", and what it runs after the change cannot be computed from the patch"))
				}
				e.Add(fe.with(throughLink(name, target)))
			}
		}
	}
	return e
}
