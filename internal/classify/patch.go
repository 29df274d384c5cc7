package classify

import (
	"strings"
)

// This file reads the patches that git apply, git am and patch apply, so
// that the files they create or change are known (issue 24): a patch
// that creates .claude/settings.json writes it as surely as a
// redirection does. The patch text comes from the files named on the
// command line (through the classifier's FS), or from a here-document or
// here-string; a patch piped in, named by a word known only at run time,
// missing or larger than MaxPatchBytes is unreadable, and the run may
// then write anything under the directory it applies in.
//
// Role of these paths (for Operands, internal/classify/roles.go): every
// path of PatchPlan.Paths is "written" (created, changed, deleted or a
// rename's destination), relative to PatchPlan.Dir; PatchPlan.Unknown
// set means an operand of role "unknown" that stands for the whole
// directory, which a writing program's unknown operand already is.

// MaxPatchBytes bounds a patch airlock reads; a larger one is unreadable.
const MaxPatchBytes = 1 << 20

// maxPatchPaths bounds the paths taken from one patch.
const maxPatchPaths = 4096

// PatchPlan is what a run that applies a patch writes.
type PatchPlan struct {
	// Program is how the run is named in reasons: "git apply", "git am",
	// "patch".
	Program string
	// Dir is the directory the patch's paths are relative to, as the
	// command wrote it ("" for the directory the command runs in; git
	// applies relative to the repository's top, which a caller checks
	// too).
	Dir string
	// Paths are the files the patch creates, changes, deletes or renames
	// to, each with every leading-directory strip (-p0, -p1, …) it may be
	// applied with, so that no strip level is missed.
	Paths []string
	// Unknown says why the patch text could not be read ("" when it
	// was): the run may then write anything under Dir.
	Unknown string
	// Texts are the patches read, for what they write (patchwrites.go).
	Texts []string
}

// PatchTargets reports what a run of git apply, git am or patch writes.
// ok is false for any other run, and for runs that write nothing (git
// apply --check or --stat, patch --dry-run, git am --abort).
func PatchTargets(inv *Invocation, fsys FS) (PatchPlan, bool) {
	switch inv.Name() {
	case "git":
		return gitPatch(inv, fsys)
	case "patch", "gpatch":
		return patchRun(inv, fsys)
	}
	return PatchPlan{}, false
}

func gitPatch(inv *Invocation, fsys FS) (PatchPlan, bool) {
	sub, rest, ok := GitSubcommand(inv.Args[1:])
	if !ok || sub != "apply" && sub != "am" {
		return PatchPlan{}, false
	}
	plan := PatchPlan{Program: "git " + sub}
	// git -C DIR: the patch files and the paths are relative to DIR.
	subAt := len(inv.Args) - len(rest) - 1
	cdir := ""
	for i := 1; i < subAt; i++ {
		if inv.Args[i] == "-C" && i+1 < subAt {
			if inv.IsDynamic(i + 1) {
				plan.Unknown = "git -C " + inv.Args[i+1] + " is known only when the command runs"
			}
			cdir = joinDir(cdir, inv.Args[i+1])
			i++
		}
	}
	plan.Dir = cdir
	base := subAt + 1
	var files []int
	apply := sub == "am" // git am applies; git apply does unless only asked to report
	report := false
	for j, a := range rest {
		i := base + j
		switch {
		case inv.IsDynamic(i) && !strings.HasPrefix(a, "-"):
			files = append(files, i)
		case a == "--check" || a == "--stat" || a == "--numstat" || a == "--summary":
			report = true
		case a == "--apply":
			apply = true
		case a == "--abort" || a == "--skip" || a == "--quit" || a == "--show-current-patch" || strings.HasPrefix(a, "--show-current-patch="):
			return PatchPlan{}, false
		case a == "--continue" || a == "-r" || a == "--resolved":
			plan.Unknown = "git am " + a + " applies the patches of an earlier run, which airlock does not read"
		case strings.HasPrefix(a, "--directory="):
			plan.Dir = joinDir(plan.Dir, strings.TrimPrefix(a, "--directory="))
		case strings.HasPrefix(a, "--build-fake-ancestor="):
			plan.Paths = append(plan.Paths, strings.TrimPrefix(a, "--build-fake-ancestor="))
		case strings.HasPrefix(a, "-"):
		default:
			files = append(files, i)
		}
	}
	if sub == "apply" && report && !apply {
		return PatchPlan{}, false
	}
	var names []patchFile
	for _, i := range files {
		names = append(names, patchFile{i, joinDir(cdir, inv.Args[i])})
	}
	readPatches(&plan, inv, names, fsys)
	return plan, true
}

// patchFile is a patch named on the command line: the argument it is in
// and its name from the command's directory.
type patchFile struct {
	arg  int
	name string
}

func patchRun(inv *Invocation, fsys FS) (PatchPlan, bool) {
	plan := PatchPlan{Program: "patch"}
	var input []patchFile
	var operands []int
	valued := map[string]bool{"-p": true, "-i": true, "-d": true, "-o": true, "-D": true, "-r": true, "-B": true,
		"-Y": true, "-z": true, "-V": true, "-F": true, "-g": true, "-x": true}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		next := func() (int, bool) {
			if i+1 < len(inv.Args) {
				i++
				return i, true
			}
			return 0, false
		}
		switch {
		case a == "--dry-run" || a == "-C" || a == "--check":
			return PatchPlan{}, false
		case a == "-i" || a == "--input":
			if j, ok := next(); ok {
				input = append(input, patchFile{j, inv.Args[j]})
			}
		case strings.HasPrefix(a, "--input="):
			input = append(input, patchFile{i, strings.TrimPrefix(a, "--input=")})
		case len(a) > 2 && strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--"):
			input = append(input, patchFile{i, a[2:]})
		case a == "-d" || a == "--directory":
			if j, ok := next(); ok {
				plan.Dir = joinDir(plan.Dir, inv.Args[j])
			}
		case strings.HasPrefix(a, "--directory="):
			plan.Dir = joinDir(plan.Dir, strings.TrimPrefix(a, "--directory="))
		case len(a) > 2 && strings.HasPrefix(a, "-d") && !strings.HasPrefix(a, "--"):
			plan.Dir = joinDir(plan.Dir, a[2:])
		case a == "-o" || a == "--output":
			if j, ok := next(); ok {
				plan.Paths = append(plan.Paths, inv.Args[j])
			}
		case strings.HasPrefix(a, "--output="):
			plan.Paths = append(plan.Paths, strings.TrimPrefix(a, "--output="))
		case len(a) > 2 && strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--"):
			plan.Paths = append(plan.Paths, a[2:])
		case valued[a] || a == "--strip" || a == "--reject-file" || a == "--prefix" || a == "--suffix" || a == "--basename-prefix" || a == "--ifdef" || a == "--fuzz" || a == "--version-control" || a == "--get":
			next()
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			operands = append(operands, i)
		}
	}
	// patch [ORIGFILE [PATCHFILE]]: the first operand is the file it
	// changes, the second the patch.
	if len(operands) >= 1 {
		plan.Paths = append(plan.Paths, inv.Args[operands[0]])
	}
	if len(operands) >= 2 {
		input = append(input, patchFile{operands[1], inv.Args[operands[1]]})
	}
	// patch -d DIR changes to DIR before it reads anything.
	for k := range input {
		input[k].name = joinDir(plan.Dir, input[k].name)
	}
	readPatches(&plan, inv, input, fsys)
	return plan, true
}

// readPatches reads the patch files at the given argument indices, or the
// standard input when there are none.
func readPatches(plan *PatchPlan, inv *Invocation, files []patchFile, fsys FS) {
	if len(files) == 0 {
		text, why := patchStdin(inv, fsys)
		if why != "" {
			plan.Unknown = why
			return
		}
		plan.Paths = append(plan.Paths, patchPaths(text)...)
		plan.Texts = append(plan.Texts, text)
		return
	}
	for _, f := range files {
		name := f.name
		if inv.IsDynamic(f.arg) {
			plan.Unknown = "the patch " + name + " is named by a word known only when the command runs"
			return
		}
		if inv.Args[f.arg] == "-" {
			text, why := patchStdin(inv, fsys)
			if why != "" {
				plan.Unknown = why
				return
			}
			plan.Paths = append(plan.Paths, patchPaths(text)...)
			plan.Texts = append(plan.Texts, text)
			continue
		}
		text, why := readPatchFile(name, fsys)
		if why != "" {
			plan.Unknown = why
			return
		}
		plan.Paths = append(plan.Paths, patchPaths(text)...)
		plan.Texts = append(plan.Texts, text)
	}
}

// patchStdin returns the text a run is fed: a here-document or
// here-string, or a file redirected in.
func patchStdin(inv *Invocation, fsys FS) (string, string) {
	if inv.StdinKnown {
		if len(inv.StdinText) > MaxPatchBytes {
			return "", "the patch fed to it is larger than " + sizeKiB(MaxPatchBytes)
		}
		return inv.StdinText, ""
	}
	for _, r := range inv.Redirects {
		if r.Op == "<" {
			if r.Dynamic {
				return "", "the patch is read from " + r.Target + ", known only when the command runs"
			}
			return readPatchFile(r.Target, fsys)
		}
	}
	return "", "the patch comes on standard input (a pipe), which airlock cannot read in advance"
}

// readPatchFile reads a named patch, bounded.
func readPatchFile(name string, fsys FS) (string, string) {
	if fsys == nil {
		return "", "the patch " + name + " cannot be read (" + errNoFS.Error() + ")"
	}
	fi, err := fsys.Stat(name)
	if err != nil {
		return "", "the patch " + name + " cannot be read now (" + err.Error() + ")"
	}
	if fi.IsDir() || fi.Size() > MaxPatchBytes {
		return "", "the patch " + name + " is not a file of at most " + sizeKiB(MaxPatchBytes)
	}
	data, err := fsys.ReadFile(name)
	if err != nil {
		return "", "the patch " + name + " cannot be read now (" + err.Error() + ")"
	}
	if len(data) > MaxPatchBytes {
		return "", "the patch " + name + " is larger than " + sizeKiB(MaxPatchBytes)
	}
	return string(data), ""
}

func sizeKiB(n int) string {
	k := n >> 10
	s := ""
	for ; k > 0; k /= 10 {
		s = string(rune('0'+k%10)) + s
	}
	return s + " KiB"
}

// patchPaths returns the files a patch names as changed, created,
// deleted or renamed to, in the unified, context, git and apply_patch
// formats, with every strip level of each.
func patchPaths(text string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = patchName(p)
		if p == "" || p == "/dev/null" {
			return
		}
		parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
		for k := 0; k < len(parts); k++ {
			cand := strings.Join(parts[k:], "/")
			if k == 0 && strings.HasPrefix(p, "/") {
				cand = p
			}
			if cand != "" && !seen[cand] && len(out) < maxPatchPaths {
				seen[cand] = true
				out = append(out, cand)
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		// patch(1) reads a diff indented by a consistent amount, and
		// Codex trims its markers: a header is looked for after any
		// leading white space (a context line read as a header only adds
		// a name to check).
		line = strings.TrimLeft(strings.TrimRight(line, "\r"), " \t")
		switch {
		case strings.HasPrefix(line, "diff --git "):
			a, b := splitGitDiffLine(strings.TrimPrefix(line, "diff --git "))
			add(a)
			add(b)
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			add(line[4:])
		case strings.HasPrefix(line, "*** Add File: "), strings.HasPrefix(line, "*** Update File: "),
			strings.HasPrefix(line, "*** Delete File: "), strings.HasPrefix(line, "*** Move to: "):
			_, p, _ := strings.Cut(line, ": ")
			add(p)
		case strings.HasPrefix(line, "*** ") && !strings.HasPrefix(line, "****") && !strings.HasSuffix(line, " ****"):
			add(line[4:]) // a context diff's header
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "),
			strings.HasPrefix(line, "rename from "), strings.HasPrefix(line, "copy from "):
			_, p, _ := strings.Cut(line, " ")
			_, p, _ = strings.Cut(p, " ")
			add(p)
		case strings.HasPrefix(line, "Index: "), strings.HasPrefix(line, "Prereq: "):
			add(line[7:])
		}
	}
	return out
}

// patchName takes the file name off a header line: unquoted, without
// the timestamp after a tab.
func patchName(p string) string {
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSpace(p)
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
		p = unquoteC(p[1 : len(p)-1])
	}
	return p
}

// unquoteC undoes git's C-style quoting of a path, enough for the
// escapes that matter to a file name (\", \\, \t, \n, octal).
func unquoteC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; {
		case e == 'n':
			b.WriteByte('\n')
		case e == 't':
			b.WriteByte('\t')
		case e >= '0' && e <= '7' && i+2 < len(s):
			b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
			i += 2
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// splitGitDiffLine splits "a/x b/y" (or quoted names) into its two
// names. With unquoted names holding spaces, the split is where the
// second name starts with the same prefix letter and "/".
func splitGitDiffLine(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if j := strings.Index(s[1:], `" `); j >= 0 {
			return s[:j+2], strings.TrimSpace(s[j+3:])
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return s[:i], s[i+1:]
	}
	a, b, _ := strings.Cut(s, " ")
	return a, b
}

// joinDir puts a relative name under a directory given as the command
// wrote it.
func joinDir(dir, name string) string {
	if dir == "" || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "~") {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
