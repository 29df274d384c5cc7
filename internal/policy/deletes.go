package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// This file widens the destruction grades (destroy.go) from rm to every
// program that truncates or deletes what it names (issue 24): truncate,
// cp /dev/null, shred, srm, unlink, rimraf and del-cli (run directly or
// through npx), chmod removing access, rsync --delete, dd of=, and
// find -delete. Each is graded like rm: its operands inside the project
// are snapshotted and the run goes on; outside (home, /tmp excepted, the
// system, another repository) it is held.
//
// It also keeps sensitive home directories (~/.ssh, ~/.aws, …) from ever
// being a project: a cwd the agent chose there would otherwise make
// deleting the SSH key "inside the project".

// deletionOperands returns the indices of the arguments of a run that
// it truncates or deletes, for the programs rm's grading does not know.
// ok is false for a program that deletes nothing this file knows of.
func deletionOperands(inv *classify.Invocation) (ops []int, ok bool) {
	args := inv.Args
	name, start := deleterName(inv)
	if start > len(args) {
		return nil, false
	}
	// operands are the non-option words from start, skipping the values
	// of the options named in valued.
	operands := func(valued ...string) []int {
		var out []int
		opts := true
		for i := start; i < len(args); i++ {
			a := args[i]
			switch {
			case opts && a == "--":
				opts = false
			case opts && strings.HasPrefix(a, "-") && a != "-" && !inv.IsDynamic(i):
				for _, v := range valued {
					if a == v {
						i++
					}
				}
			default:
				out = append(out, i)
			}
		}
		return out
	}
	switch name {
	case "unlink", "srm", "rimraf", "del", "del-cli", "trash", "trash-put", "gio-trash":
		return operands(), true
	case "shred":
		return operands("-n", "--iterations", "-s", "--size", "--random-source"), true
	case "truncate":
		return operands("-s", "--size", "-r", "--reference"), true
	case "fallocate":
		// Punching a hole, collapsing, inserting or zeroing a range loses
		// the file's contents there (FINDINGS-9 T5); a plain allocation
		// or -d (holes where the data is already zero) does not.
		for _, a := range args[start:] {
			switch {
			case a == "-p" || a == "-c" || a == "-z" || a == "-i" || a == "--punch-hole" || a == "--collapse-range" ||
				a == "--zero-range" || a == "--insert-range",
				len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "pciz") && !strings.ContainsAny(a[1:], "ol"):
				return operands("-o", "--offset", "-l", "--length"), true
			}
		}
		return nil, false
	case "cp":
		// cp /dev/null F empties F: the destination is the last operand.
		ops := operands("-t", "--target-directory", "-S", "--suffix")
		if len(ops) == 2 && args[ops[0]] == "/dev/null" && !inv.IsDynamic(ops[0]) {
			return ops[1:], true
		}
	case "dd":
		for i := start; i < len(args); i++ {
			if v, found := strings.CutPrefix(args[i], "of="); found && !strings.HasPrefix(v, "/dev/") {
				return []int{i}, true
			}
		}
	case "rsync":
		// rsync --delete SRC... DEST deletes in DEST what SRC lacks; a
		// remote destination is rated external by classify.
		del, moves := false, false
		for _, a := range args[start:] {
			if strings.HasPrefix(a, "--delete") {
				del = true
			}
			if a == "--remove-source-files" {
				moves = true // the sources are deleted once sent
			}
		}
		ops := operands("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from", "--files-from", "--backup-dir", "--suffix", "--chmod", "--chown", "--timeout", "--port", "--log-file", "--partial-dir", "--temp-dir", "-T", "--link-dest", "--compare-dest", "--copy-dest")
		switch {
		case moves && del && len(ops) >= 2:
			return ops, true
		case moves && len(ops) >= 2:
			return ops[:len(ops)-1], true
		case del && len(ops) >= 2:
			return ops[len(ops)-1:], true
		}
	case "sort", "shuf":
		// sort -o FILE (and shuf -o) replaces FILE with its output, even
		// when its input is empty (sort -o F /dev/null).
		for i := start; i < len(args); i++ {
			a := args[i]
			switch {
			case (a == "-o" || a == "--output") && i+1 < len(args):
				return []int{i + 1}, true
			case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o") && len(a) > 2:
				return []int{i}, true
			}
		}
	case "perl":
		// perl -i rewrites every file it is given; perl -i -ne '' F
		// empties F.
		return perlInPlace(inv, start)
	case "ln", "install", "mv":
		// A device (/dev/null) linked, installed or moved over a file
		// replaces it: ln -sf /dev/null F, install /dev/null F.
		ops := operands("-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group")
		if len(ops) == 2 && !inv.IsDynamic(ops[0]) && strings.HasPrefix(args[ops[0]], "/dev/") {
			return ops[1:], true
		}
		if name == "mv" {
			// mv /srv/data /tmp/d: what it moves into scratch is graded
			// as deleted (scratchmoves.go).
			return movedIntoScratch(inv, operands("-S", "--suffix"))
		}
	case "find":
		// find -fprint FILE (and -fprint0, -fprintf, -fls) truncates FILE.
		var out []int
		for i := start; i+1 < len(args); i++ {
			switch args[i] {
			case "-fprint", "-fprint0", "-fprintf", "-fls":
				out = append(out, i+1)
			}
		}
		if len(out) > 0 {
			return out, true
		}
	case "zip":
		// zip -m moves the files into the archive: they are deleted.
		ops := operands("-b", "-n", "-O", "--output-file", "-t", "-tt", "-x", "-i", "-P", "--password", "-Z", "-A")
		for i := start; i < len(args); i++ {
			if a := args[i]; a == "--move" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "m") {
				if len(ops) > 1 {
					return ops[1:], true
				}
			}
		}
	case "7z", "7za", "7zr":
		// 7z a -sdel deletes the files it archived.
		for i := start; i < len(args); i++ {
			if args[i] == "-sdel" {
				ops := operands()
				if len(ops) > 2 {
					return ops[2:], true // a ARCHIVE FILES...
				}
			}
		}
	case "setfacl":
		return setfaclOperands(inv, start) // setfacl.go
	case "chmod":
		ops := operands("--reference")
		if len(ops) >= 2 && !inv.IsDynamic(ops[0]) && removesAccess(args[ops[0]]) {
			return ops[1:], true
		}
	}
	return nil, false
}

// deleterName returns the program a run is, seen through a package
// runner (npx rimraf X, pnpx del-cli X, bunx rimraf X, pnpm dlx rimraf
// X, yarn dlx rimraf X), and where that program's arguments start.
func deleterName(inv *classify.Invocation) (string, int) {
	args := inv.Args
	switch name := inv.Name(); name {
	case "npx", "pnpx", "bunx":
		return npxPackage(args, 1)
	case "pnpm", "yarn":
		if len(args) > 1 && args[1] == "dlx" {
			return npxPackage(args, 2)
		}
	default:
		return name, 1
	}
	return inv.Name(), 1
}

// npxPackage returns the package a package runner runs and where its
// arguments start, skipping the runner's own options.
func npxPackage(args []string, i int) (string, int) {
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "--package" || a == "-c" || a == "--call":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			name := a
			if at := strings.LastIndexByte(name, '@'); at > 0 {
				name = name[:at] // rimraf@5
			}
			return name, i + 1
		}
	}
	return "", len(args) + 1
}

// removesAccess reports whether a chmod mode takes read or write access
// away from the owner: 000, 0, a-rwx, u-r, u=, go-rwx is left out (the
// owner keeps the file).
func removesAccess(mode string) bool {
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		digits := mode
		if len(digits) > 3 {
			digits = digits[len(digits)-3:]
		}
		owner := digits[0] - '0'
		if len(digits) < 3 {
			owner = 0 // "0", "00": nothing for anyone
		}
		return owner&6 != 6
	}
	for _, clause := range strings.Split(mode, ",") {
		who := strings.TrimLeft(clause, "ugoa")
		whoSet := clause[:len(clause)-len(who)]
		owner := whoSet == "" || strings.ContainsAny(whoSet, "ua")
		if !owner || who == "" {
			continue
		}
		switch who[0] {
		case '-':
			if strings.ContainsAny(who[1:], "rw") {
				return true
			}
		case '=':
			if !strings.Contains(who[1:], "r") || !strings.Contains(who[1:], "w") {
				return true
			}
		}
	}
	return false
}

// alwaysDestroys are the deleters whose every run is destruction (they
// delete trees, or overwrite for good): graded like rm -rf even inside
// the project, where they are snapshotted.
func alwaysDestroys(name string) bool {
	switch name {
	case "rimraf", "del", "del-cli", "srm":
		return true
	}
	return false
}

// deletes reports whether a run the classifier did not rate destructive
// deletes what it names (rm FILE, unlink, chmod 000, rimraf): it is
// graded, and held when it lands outside the project.
func deletes(inv *classify.Invocation) bool {
	if inv.Effect.Destructive || inv.Opaque != "" {
		return false
	}
	switch inv.Name() {
	case "rm", "rmdir":
		return true
	case "find":
		// find -delete of temporary files (classify's find.delete.temp)
		// is graded like rm -rf there: through a link it lands elsewhere.
		if slices.Contains(inv.Args[1:], "-delete") {
			return true
		}
	}
	_, ok := deletionOperands(inv)
	return ok
}

// promoteDeletions turns the runs that delete, and that the classifier
// did not rate destructive, into destruction where their grade is not
// inside the project: rm ~/x, unlink ~/.ssh/id_ed25519, chmod -R a-rwx
// ~/x. Inside the project they stay as they were (rm FILE is ordinary
// work), except for the tree deleters (rimraf), which are snapshotted.
// A run whose operands are only known at run time keeps its rating
// unless it is a tree deleter: rm "$f" in a loop is ordinary work, and
// the assignments that name it are substituted before this (values).
// Scratch space (/tmp) is not held for a single file.
func promoteDeletions(r *classify.Result, grades []grade, cwd, home string, fsys fileSystem) {
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if i < len(grades) && !deletes(inv) && !inv.Effect.Destructive && followedDeletes(r, i) {
			// make -C /srv/data clean with rm -f app *.o, bash x.sh
			// with rm -f /srv/data/db: a deletion in what the run
			// follows lands outside the project, as if typed inline.
			if g := grades[i]; g.place == placeOutside || g.place == placeHistory {
				inv.Effect.Destructive = true
				inv.Effect.Reasons = append(inv.Effect.Reasons, classify.Reason{Rule: "file.delete", Message: "what " + inv.Name() + " runs deletes, truncates or locks files, graded like rm (" + clipText(g.why) + ")"})
				r.Effect.Destructive = true
			}
			continue
		}
		if i >= len(grades) || !deletes(inv) {
			continue
		}
		g := &grades[i]
		if g.place == placeUnknown && len(inv.Via) > 0 && inv.Remote == "" {
			// bash -c 'unlink ~/x' runs where the command runs: its
			// operands are placed as if typed inline.
			flat := *inv
			flat.Via = nil
			sub := classify.Result{Invocations: []classify.Invocation{flat}}
			if gs := gradeRuns(&sub, cwd, home, fsys); len(gs) == 1 && gs[0].place == placeOutside {
				*g = gs[0]
			}
		}
		name, _ := deleterName(inv)
		tree := alwaysDestroys(name)
		switch {
		case g.place == placeInside && !tree:
			continue
		case g.place == placeUnknown && !tree && !(g.relinked && (throughLinks(r, inv) || tempDeletion(inv) && mayMoveInto(r, inv))) &&
			!climbsAtRuntime(inv) && !existsBehindRuntime(inv, rootOf(cwd, home, fsys), fsys) &&
			!(findFollows(inv) && !scratchOnly(inv, home, fsys)):
			continue
		case g.place == placeOutside && !tree && scratchOnly(inv, home, fsys):
			continue
		case g.place == placeOutside && !tree:
			// rm -f /tmp/x ok: the scratch files aside, the rest is
			// graded as if named alone.
			if rest, ok := withoutScratch(inv, fsys); ok {
				sub := classify.Result{Invocations: []classify.Invocation{rest}}
				gs := gradeRuns(&sub, cwd, home, fsys)
				if len(gs) == 1 && gs[0].place == placeInside {
					continue
				}
				if len(gs) == 1 && gs[0].place != placeUnknown {
					*g = gs[0] // name what is outside, not the scratch file
				}
			}
		}
		inv.Effect.Destructive = true
		// classify's "only deletes temporary files" no longer holds once
		// the deletion is placed elsewhere: a reason must not contradict
		// the decision it explains.
		for _, x := range inv.Effect.Reasons {
			if isTemp(x) {
				r.Effect.Reasons = slices.DeleteFunc(r.Effect.Reasons, func(y classify.Reason) bool { return y == x })
			}
		}
		inv.Effect.Reasons = slices.DeleteFunc(inv.Effect.Reasons, isTemp)
		inv.Effect.Reasons = append(inv.Effect.Reasons, classify.Reason{Rule: "file.delete", Message: inv.Name() + " deletes, truncates or locks what it names (" + clipText(strings.Join(inv.Args[1:], " ")) + "), graded like rm"})
		r.Effect.Destructive = true
	}
}

// climbsAtRuntime reports an operand known only at run time that climbs
// out of what it names with "..": rm -f "$TMPDIR/../srv/data/db" reads as
// scratch space and is not (FINDINGS-9 K1). An operand that is just a
// run-time name (rm -f "$f" in a loop) is ordinary work.
func climbsAtRuntime(inv *classify.Invocation) bool {
	for _, o := range inv.Operands {
		if w := strings.Trim(o.Word, `"'`); o.Dynamic && (strings.Contains(w, "/../") || strings.HasSuffix(w, "/..")) {
			return true
		}
	}
	return false
}

// existsBehindRuntime reports an operand known only at run time whose
// static end is itself an absolute path of two or more names that exists
// now outside the project: rm -f "$NOPE/home/user/thesis.tex" deletes that
// file when NOPE is empty or unset (FINDINGS-9 K1). "$dir/x.o" ends in
// "/x.o", which names nothing at the top of the file system.
func existsBehindRuntime(inv *classify.Invocation, root string, fsys fileSystem) bool {
	for _, o := range inv.Operands {
		if !o.Dynamic {
			continue
		}
		for _, tail := range staticTails(o.Word) {
			for _, t := range braceAlternatives(tail) {
				if existsOutside(t, root, fsys) {
					return true
				}
			}
		}
	}
	return false
}

// existsOutside reports whether an absolute path of two or more names
// (its last one may be a glob: $NOPE/etc/host*) names something that
// exists now outside the project.
func existsOutside(tail, root string, fsys fileSystem) bool {
	if strings.Count(tail, "/") < 2 || !strings.HasPrefix(tail, "/") {
		return false
	}
	tail = filepath.Clean(tail)
	if root != "" && (tail == root || strings.HasPrefix(tail, root+"/")) {
		return false
	}
	dir, base := filepath.Split(tail)
	if hasGlob(dir) {
		return false
	}
	if !hasGlob(base) {
		_, err := fsys.Lstat(tail)
		return err == nil
	}
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if ok, _ := filepath.Match(base, e.Name()); ok {
			return true
		}
	}
	return false
}

// braceAlternatives expands the first {a,b,…} of a path (one level), as
// the shell does before the deletion: $NOPE/etc/{hosts,hostname}.
func braceAlternatives(p string) []string {
	i := strings.IndexByte(p, '{')
	j := strings.IndexByte(p[max(i, 0):], '}')
	if i < 0 || j < 0 || !strings.Contains(p[i:i+j], ",") {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[i+1:i+j], ",") {
		out = append(out, p[:i]+alt+p[i+j+1:])
	}
	return out
}

// rootOf is the project a command's directory belongs to ("" for none).
func rootOf(cwd, home string, fsys fileSystem) string {
	d := &destruction{home: home, res: resolver{fs: fsys}}
	real, unknown := d.res.resolve(cwd)
	if unknown {
		return ""
	}
	root, _ := d.projectRoot(real)
	return root
}

// staticTails are the texts a word may end with past its run-time parts:
// what follows the last one, and, where a part is a variable with a
// default value (${NOPE:-/etc}/hosts), that default and what follows.
func staticTails(w string) []string {
	word, ok := shellparse.ParseWord(w)
	if !ok {
		return nil
	}
	var tail, withDefault strings.Builder
	var walk func([]syntax.WordPart)
	walk = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				tail.WriteString(unescapeLit(p.Value))
				withDefault.WriteString(unescapeLit(p.Value))
			case *syntax.SglQuoted:
				tail.WriteString(shellparse.QuotedValue(p))
				withDefault.WriteString(shellparse.QuotedValue(p))
			case *syntax.DblQuoted:
				walk(p.Parts)
			case *syntax.ParamExp:
				tail.Reset()
				withDefault.Reset()
				if p.Exp != nil && (p.Exp.Op == syntax.DefaultUnset || p.Exp.Op == syntax.DefaultUnsetOrNull) && p.Exp.Word != nil {
					if lit, ok := literalWord(p.Exp.Word); ok {
						withDefault.WriteString(lit)
					}
				}
			default:
				tail.Reset()
				withDefault.Reset()
			}
		}
	}
	walk(word.Parts)
	if withDefault.String() != tail.String() {
		return []string{tail.String(), withDefault.String()}
	}
	return []string{tail.String()}
}

// isTemp reports classify's reason that calls a deletion temporary.
func isTemp(r classify.Reason) bool { return strings.HasSuffix(r.Rule, ".temp") }

// tempDeletion reports a run classify rated as deleting temporary files
// only (rm -rf /tmp/x, rm -rf "$(mktemp -d)"): scratch space, which is not
// held, unless something may move data into it first (mayMoveInto).
func tempDeletion(inv *classify.Invocation) bool {
	if slices.ContainsFunc(inv.Effect.Reasons, isTemp) {
		return true
	}
	if scratchOnly(inv, "", nil) {
		return true // rm -f /tmp/x: classify says nothing of one file
	}
	any := false
	for i := 1; i < len(inv.Args); i++ {
		if strings.HasPrefix(inv.Args[i], "-") && !inv.IsDynamic(i) {
			continue
		}
		if _, ok := shellparse.MktempWord(inv.Args[i]); !ok {
			return false
		}
		any = true
	}
	return any
}

// mayMoveInto reports whether a program of the command that may run
// before the deletion del could move what it deletes there from
// elsewhere: mv ~/docs /tmp/x && rm -rf /tmp/x deletes ~/docs though
// /tmp/x is scratch. A mover (mv, rename, git mv, rsync
// --remove-source-files, tar --remove-files, zip -m) counts, in the
// command or in a script, recipe or package script it runs (followed), and
// so does a run airlock cannot read; a program that only copies, builds or
// writes does not (trap 'rm -f /tmp/x.lock' EXIT; make build).
func mayMoveInto(r *classify.Result, del *classify.Invocation) bool {
	for i := range r.Invocations {
		o := &r.Invocations[i]
		if o == del || del.Seq > 0 && o.Seq > del.Seq {
			continue // itself, or it starts after the deletion has ended
		}
		if movesFromElsewhere(o) {
			return true // zip -rm, gzip: what they delete they also move
		}
		if o.Effect.Destructive || deletes(o) {
			continue
		}
		if moves(o) && !movesOnlyScratch(o) {
			return true
		}
	}
	for i := range r.Followed {
		if moves(&r.Followed[i]) {
			return true
		}
	}
	return false
}

// moves reports a run that moves files from where they are, or one
// airlock cannot read (FINDINGS-9 T2): a program that removes its inputs
// once it has written them elsewhere is a mover too (removesInputs).
func moves(inv *classify.Invocation) bool {
	if inv.Opaque != "" || inv.Effect.Opaque {
		return true
	}
	return removesInputs(inv.Args) && !inPlace(inv.Args)
}

// inPlace reports a compressor that removes its input and writes its
// output beside it, never elsewhere (gzip f makes f.gz; -c, which
// writes elsewhere, keeps f): it moves nothing into another directory.
func inPlace(args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := filepath.Base(args[0])
	if (name == "busybox" || name == "toybox") && len(args) > 1 {
		name = args[1]
	}
	switch name {
	case "gzip", "gunzip", "xz", "unxz", "bzip2", "bunzip2", "lzma", "unlzma", "lzip", "pigz", "unpigz", "pbzip2", "plzip", "compress", "uncompress":
		return true
	}
	return false
}

// movesFromElsewhere reports a run that removes its inputs once written
// elsewhere (zip -m, zstd --rm, tar --remove-files) and names something
// outside the temporary directory: zip -m "$d"/a.zip "$d"/m.py only
// moves a scratch file, and gzip f leaves f.gz where f was.
func movesFromElsewhere(inv *classify.Invocation) bool {
	return removesInputs(inv.Args) && !inPlace(inv.Args) && !movesOnlyScratch(inv)
}

// movesOnlyScratch reports a run all of whose operands are scratch: new
// names of mktemp ("$d"/x) or static paths that lead into a temporary
// directory through the links that exist now.
func movesOnlyScratch(inv *classify.Invocation) bool {
	any := false
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if strings.HasPrefix(a, "-") && !inv.IsDynamic(i) {
			continue
		}
		if inv.IsDynamic(i) {
			rest, ok := shellparse.MktempWord(a)
			if !ok || strings.Contains(rest, "..") {
				return false
			}
			any = true
			continue
		}
		c := filepath.Clean(a)
		if !inTempDir(c) || !leadsToScratch(c, "", gradeFS) {
			return false
		}
		any = true
	}
	return any
}

// removesInputs reports a run (its words, the program first) that takes
// files away from where they are: mv and the renamers, gio move, git mv,
// the multi-call binaries' mv, rsync --remove-source-files (and any
// abbreviation of it), tar --remove-files (--remove-f), zip -m (alone or
// in a cluster, -rm, -qmr; --move), 7z a -sdel, rar m / a -df, the
// compressors that replace their input by default (gzip, xz, bzip2,
// lzma, lzip, pigz, pbzip2, plzip, compress and their un- forms) unless
// -k, -c or -t keeps it, those that do with --rm (zstd, lz4, brotli), and
// the other movers of files: rclone move/moveto, kioclient move, the
// object-store clients' mv (mc, s5cmd, s3cmd, gsutil, aws s3, gcloud
// storage: a local source is deleted once uploaded) and version
// control's mv (hg, svn, bzr, darcs, jj, sl).
// Examples run in TestRemovesInputs.
func removesInputs(args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := filepath.Base(args[0])
	rest := args[1:]
	has := func(opts ...string) bool {
		return slices.ContainsFunc(rest, func(a string) bool {
			return slices.ContainsFunc(opts, func(o string) bool { return a == o || strings.HasPrefix(a, o+"=") })
		})
	}
	// longPrefix: a word that is a prefix of full, at least min long
	// (getopt and popt take any unique abbreviation).
	longPrefix := func(full string, min int) bool {
		return slices.ContainsFunc(rest, func(a string) bool {
			a, _, _ = strings.Cut(a, "=")
			return len(a) >= min && strings.HasPrefix(full, a)
		})
	}
	// short: a single-dash cluster holding the letter (zip -rm, xz -kT0).
	short := func(letter byte) bool {
		return slices.ContainsFunc(rest, func(a string) bool {
			return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], letter) >= 0
		})
	}
	switch name {
	case "mv", "rename", "prename", "file-rename", "rename.ul", "mmv":
		return true
	case "busybox", "toybox":
		return removesInputs(rest)
	case "gio":
		return len(rest) > 0 && (rest[0] == "move" || rest[0] == "mv" || rest[0] == "rename")
	case "git":
		sub, _, _ := classify.GitSubcommand(rest)
		return sub == "mv"
	case "rsync":
		return longPrefix("--remove-source-files", len("--remove-so")) || longPrefix("--remove-sent-files", len("--remove-se"))
	case "tar", "bsdtar", "gtar":
		return longPrefix("--remove-files", len("--rem"))
	case "zip":
		return short('m') || longPrefix("--move", len("--mo"))
	case "7z", "7za", "7zr":
		return has("-sdel")
	case "rar", "winrar":
		return len(rest) > 0 && (rest[0] == "m" || rest[0] == "mf") || has("-df")
	case "zstd", "unzstd", "zstdmt", "lz4", "unlz4", "brotli":
		return has("--rm")
	case "rclone":
		// rclone move and moveto delete the source once copied;
		// --delete-empty-src-dirs goes with them (FINDINGS-9 T2b). Its
		// options take values, so any word move or moveto counts.
		return has("--delete-empty-src-dirs") || slices.Contains(rest, "move") || slices.Contains(rest, "moveto")
	case "gvfs-move":
		return true
	case "kioclient", "kioclient5", "kioclient6":
		return verbAfter(rest, 0, "move", "mv")
	case "mc", "mcli", "s5cmd", "s3cmd", "gsutil":
		return verbAfter(rest, 0, "mv", "move") || name != "gsutil" && has("--remove")
	case "aws":
		return verbAfter(rest, 0, "s3") && verbAfter(rest, 1, "mv")
	case "gcloud":
		return verbAfter(rest, 0, "storage") && verbAfter(rest, 1, "mv")
	case "hg", "svn", "bzr", "darcs", "jj", "sl":
		return verbAfter(rest, 0, "mv", "move", "rename", "ren")
	case "gzip", "gunzip", "xz", "unxz", "bzip2", "bunzip2", "lzma", "unlzma", "lzip", "pigz", "unpigz", "pbzip2", "plzip", "compress", "uncompress", "lzop":
		if name == "lzop" {
			return short('U') || has("--unlink", "--delete")
		}
		keeps := short('k') || short('c') || short('t') || short('l') ||
			longPrefix("--keep", len("--k")) || longPrefix("--stdout", len("--std")) || has("--to-stdout", "--test", "--list")
		operands := slices.ContainsFunc(rest, func(a string) bool { return a != "-" && !strings.HasPrefix(a, "-") })
		return !keeps && operands
	}
	return false
}

// verbAfter reports whether the n-th word of args that is no option
// (no leading "-") is one of verbs: a program's subcommand, read without
// its options' values (a value that is one of verbs counts too).
func verbAfter(args []string, n int, verbs ...string) bool {
	k := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if k == n {
			return slices.Contains(verbs, a)
		}
		k++
	}
	return false
}

// throughLinks reports a deletion that a link made earlier in the same
// command could lead out of its place (FINDINGS-9 T1):
//
//   - a recursive rm (-r, -R, --recursive or any prefix of it getopt takes,
//     --rec, --recu) or a find that deletes (-delete, or a run of its -exec)
//     whose operand goes through a directory below the temporary one or
//     the project (/tmp/x/y, "$d"/x/, /tmp/x/*, $d/l/, $d/l/.), where
//     ln -s ~/work /tmp/x makes rm -rf /tmp/x/ delete ~/work's contents; a
//     name right below a directory, with no trailing slash (/tmp/x,
//     "$(mktemp -d)"), is removed itself, link or not; find -L, -H or
//     -follow follows a link wherever it is;
//   - a program that empties or rewrites what its operand leads to
//     (truncate, shred, cp /dev/null, dd of=, sort -o, chmod, : > F)
//     follows a link even as its last name: ln -s /srv/data/db $d/f;
//     truncate -s0 $d/f empties /srv/data/db.
func throughLinks(r *classify.Result, inv *classify.Invocation) bool {
	name, _ := deleterName(inv)
	if len(inv.Via) == 1 && (inv.Via[0] == "find -exec" || inv.Via[0] == "find -execdir") {
		// rm {} run by find: the find's start paths are what it goes
		// through.
		for i := range r.Invocations {
			if f := &r.Invocations[i]; f.Name() == "find" && len(f.Via) == 0 && (inv.Seq == 0 || f.Seq == 0 || f.Seq <= inv.Seq) {
				return findThroughLinks(f)
			}
		}
		return true
	}
	switch name {
	case "rm", "srm", "rimraf", "del", "del-cli":
		if name == "rm" && !rmRecursive(inv) {
			return false
		}
		for i := 1; i < len(inv.Args); i++ {
			if inv.Args[i] == "--" {
				continue
			}
			if strings.HasPrefix(inv.Args[i], "-") && !inv.IsDynamic(i) {
				continue
			}
			if linkedPath(inv, i) {
				return true
			}
		}
		return false
	case "find":
		return findThroughLinks(inv)
	case "unlink", "rmdir", "trash", "trash-put", "gio-trash":
		return false // they remove the name itself
	}
	if _, ok := emptiedTargets(inv); ok {
		return true
	}
	ops, ok := deletionOperands(inv)
	return ok && len(ops) > 0
}

// rmRecursive reports rm -r, -R, --recursive or an abbreviation of it
// (getopt takes any unique prefix: --r, --rec, --recu).
func rmRecursive(inv *classify.Invocation) bool {
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "--" {
			break
		}
		if inv.IsDynamic(i) {
			continue
		}
		if long, ok := strings.CutPrefix(a, "--"); ok {
			if long != "" && strings.HasPrefix("recursive", long) {
				return true
			}
			continue
		}
		if strings.HasPrefix(a, "-") && strings.ContainsAny(a, "rR") {
			return true
		}
	}
	return false
}

// findThroughLinks reports a find that deletes through a start path a
// link could lead elsewhere: find $d/l/ -delete follows the link $d/l.
func findThroughLinks(inv *classify.Invocation) bool {
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if inv.IsDynamic(i) {
			if linkedPath(inv, i) {
				return true
			}
			continue
		}
		switch {
		case a == "-L" || a == "-H" || a == "-follow":
			return true
		case strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")":
			return false // the expression starts: no start path follows
		case linkedPath(inv, i):
			return true
		}
	}
	return false
}

// findFollows reports a find that follows symbolic links (-L, -H,
// -follow): find -L /tmp/w -delete deletes where /tmp/w leads
// (FINDINGS-9 T4).
func findFollows(inv *classify.Invocation) bool {
	return inv.Name() == "find" && slices.ContainsFunc(inv.Args[1:], func(a string) bool { return a == "-L" || a == "-H" || a == "-follow" })
}

// findStarts returns the indices of find's start paths: the words before
// its expression, its own options (-L, -H, -P, -O3, -D x) aside.
func findStarts(inv *classify.Invocation) []int {
	var out []int
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case inv.IsDynamic(i):
			out = append(out, i)
		case a == "-D":
			i++
		case a == "-L" || a == "-H" || a == "-P" || strings.HasPrefix(a, "-O"):
		case strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")":
			return out
		default:
			out = append(out, i)
		}
	}
	return out
}

// linkedPath reports an operand of a deletion a link could lead
// elsewhere: one with a trailing slash or "/.", a glob, one below a
// directory that is not the temporary one (or the current one), or a
// run-time word other than a bare mktemp.
func linkedPath(inv *classify.Invocation, i int) bool {
	a := inv.Args[i]
	if inv.IsDynamic(i) {
		rest, ok := shellparse.MktempWord(a)
		return !ok || rest != ""
	}
	a = strings.Trim(a, `"'`)
	if strings.HasSuffix(a, "/") || strings.HasSuffix(a, "/.") || hasGlob(a) {
		return true
	}
	c := filepath.Clean(a)
	d := filepath.Dir(c)
	return d != "/tmp" && d != "/var/tmp" && d != filepath.Clean(os.TempDir()) && d != "."
}

// withoutScratch returns a run without its static operands in a
// temporary directory, when it names some there and others elsewhere;
// ok is false when nothing would be left out or nothing would remain.
func withoutScratch(inv *classify.Invocation, fsys fileSystem) (classify.Invocation, bool) {
	tmp := filepath.Clean(os.TempDir())
	res := resolver{fs: fsys}
	inTmp := func(p string) bool {
		return strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/var/tmp/") || strings.HasPrefix(p, tmp+"/")
	}
	out := *inv
	out.Via = nil
	out.Args, out.Dynamic = []string{inv.Args[0]}, nil
	dyn := []bool{false}
	dropped, kept := false, false
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if !strings.HasPrefix(a, "-") && !inv.IsDynamic(i) {
			c := filepath.Clean(a)
			if real, unknown := res.resolve(c); inTmp(c) && !unknown && inTmp(real) {
				dropped = true
				continue
			}
			kept = true
		}
		out.Args = append(out.Args, a)
		dyn = append(dyn, inv.IsDynamic(i))
	}
	if inv.Dynamic != nil {
		out.Dynamic = dyn
	}
	out.Operands = nil
	for _, o := range inv.Operands {
		if o.Arg > 0 {
			continue // re-indexed below
		}
		out.Operands = append(out.Operands, o)
	}
	for i := 1; i < len(out.Args); i++ {
		if a := out.Args[i]; !strings.HasPrefix(a, "-") {
			out.Operands = append(out.Operands, classify.Operand{Word: a, Role: classify.RoleDelete, Arg: i, Dynamic: out.IsDynamic(i)})
		}
	}
	return out, dropped && kept
}

// scratchOnly reports whether every static operand of a run is in a
// temporary directory: deleting a scratch file there is not held. With a
// file system, the operand must also lead there through the links that
// exist now (FINDINGS-9 T4: /tmp/w, a link to ~/docs made by an earlier
// command, makes rm -rf /tmp/w/ delete ~/docs's contents).
func scratchOnly(inv *classify.Invocation, home string, fsys fileSystem) bool {
	tmp := filepath.Clean(os.TempDir())
	any := false
	// For the deleters this file knows, only what they empty is weighed
	// (dd's of=, sort -o's file), not their other words (if=/dev/zero,
	// the input sort reads).
	only, known := deletionOperands(inv)
	if inv.Name() == "find" && !known {
		only, known = findStarts(inv), true
	}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if known {
			if !slices.Contains(only, i) {
				continue
			}
			if v, isOut := strings.CutPrefix(a, "of="); isOut {
				a = v
			}
			if v, isOut := strings.CutPrefix(a, "--output="); isOut {
				a = v
			} else if strings.HasPrefix(a, "-o") && len(a) > 2 {
				a = a[2:]
			}
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		if inv.IsDynamic(i) {
			return false
		}
		c := filepath.Clean(a)
		if !(strings.HasPrefix(c, "/tmp/") || strings.HasPrefix(c, "/var/tmp/") || strings.HasPrefix(c, tmp+"/")) {
			return false
		}
		if home != "" && strings.HasPrefix(c, filepath.Clean(home)+"/") {
			return false // a home kept below the temporary directory
		}
		if fsys != nil && !nameInScratch(inv, a, c, home, fsys) {
			return false
		}
		any = true
	}
	return any
}

// nameInScratch reports whether what a deletion's operand removes or
// empties is in a temporary directory, through the links that exist now.
func nameInScratch(inv *classify.Invocation, a, c, home string, fsys fileSystem) bool {
	real, unknown := removedName(inv, a, c, fsys)
	if unknown || !inTempDir(real) {
		return false
	}
	if home != "" {
		res := resolver{fs: fsys}
		h, _ := res.resolve(filepath.Clean(home))
		if real == h || strings.HasPrefix(real, h+"/") {
			return false
		}
	}
	return true
}

// leadsToScratch reports whether a temporary path leads, through the
// links that exist now, into a temporary directory still, and not into
// home (a home kept below the temporary directory).
func leadsToScratch(c, home string, fsys fileSystem) bool {
	res := resolver{fs: fsys}
	real, unknown := res.resolve(c)
	if unknown || !inTempDir(real) {
		return false
	}
	if home != "" {
		h, _ := res.resolve(filepath.Clean(home))
		if real == h || strings.HasPrefix(real, h+"/") {
			return false
		}
	}
	return true
}

// inTempDir reports a clean absolute path below a temporary directory.
func inTempDir(p string) bool {
	tmp := filepath.Clean(os.TempDir())
	return strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/var/tmp/") || strings.HasPrefix(p, tmp+"/")
}

// removedName is the real place of a deletion's operand c (written a):
// a program that removes a name (rm, unlink, rmdir, find without -L)
// removes a link itself, so only the directories above it are resolved,
// unless a trailing slash or "/." goes into it; one that empties or
// rewrites (truncate, : >) follows it, and so does a nil run (a
// directory gone into). unknown says a link cannot be followed.
func removedName(inv *classify.Invocation, a, c string, fsys fileSystem) (real string, unknown bool) {
	res := resolver{fs: fsys}
	if inv == nil {
		return res.resolve(c) // a directory gone into
	}
	switch inv.Name() {
	case "rm", "unlink", "rmdir", "srm", "trash", "trash-put":
	case "find":
		if slices.ContainsFunc(inv.Args[1:], func(x string) bool { return x == "-L" || x == "-follow" || x == "-H" }) {
			return res.resolve(c)
		}
	default:
		return res.resolve(c)
	}
	if strings.HasSuffix(a, "/") || strings.HasSuffix(a, "/.") || c == "/" {
		return res.resolve(c)
	}
	dir, unknown := res.resolve(filepath.Dir(c))
	return filepath.Join(dir, filepath.Base(c)), unknown
}

// sensitiveHomeDirs are never a project, whatever the working directory:
// they hold credentials and configuration, and a cwd the agent chose
// among them must not make deleting them "inside the project".
var sensitiveHomeDirs = []string{".ssh", ".aws", ".gnupg", ".config", ".kube", ".docker", ".azure",
	".gcloud", ".netrc", ".password-store", ".local/share/keyrings", ".pki", ".terraform.d"}

// sensitiveDir reports whether p is the home directory or inside one of
// its sensitive directories.
func sensitiveDir(p, home string) bool {
	if home == "" {
		return false
	}
	home = filepath.Clean(home)
	if p == home {
		return true
	}
	rel, ok := strings.CutPrefix(p, home+"/")
	if !ok {
		return false
	}
	for _, s := range sensitiveHomeDirs {
		if rel == s || strings.HasPrefix(rel, s+"/") {
			return true
		}
	}
	return false
}

// gradeDeletion places the operands of a run of a deleter rm's grading
// does not know (truncate, shred, rimraf, dd of=, …): every operand must
// land inside the project.
func (d *destruction) gradeDeletion(inv *classify.Invocation, dirs []string) grade {
	ops, ok := deletionOperands(inv)
	if !ok {
		return grade{place: placeUnknown, why: "airlock cannot tell what " + inv.Name() + " deletes"}
	}
	words := make([]string, 0, len(ops))
	var runtime []string // the globs of run-time words (destroyruntime.go)
	for _, i := range ops {
		if inv.IsDynamic(i) {
			globs, ok := d.runtimeGlobs(inv.Args[i])
			if !ok || inv.Name() == "dd" || inv.Name() == "rsync" || climbsAfterGlob(globs[len(globs)-1]) {
				return grade{place: placeUnknown, why: inv.Args[i] + " is only known when the command runs"}
			}
			runtime = append(runtime, globs...)
			continue
		}
		w := inv.Args[i]
		if v, found := strings.CutPrefix(w, "of="); found && inv.Name() == "dd" {
			w = v
		}
		if host, _, found := strings.Cut(w, ":"); found && inv.Name() == "rsync" && !strings.Contains(host, "/") {
			return grade{place: placeOutside, why: "rsync deletes on " + host}
		}
		words = append(words, w)
	}
	return d.gradeWords(inv, append(words, runtime...), dirs)
}

// gradeWords places static path words: inside only when all are.
func (d *destruction) gradeWords(inv *classify.Invocation, words []string, dirs []string) grade {
	g := grade{place: placeInside, ignored: true}
	for _, w := range words {
		one := d.place(inv, w, dirs, true)
		if one.place != placeInside {
			return one
		}
		g.paths = append(g.paths, one.paths...)
	}
	return g
}

// emptiedTargets returns the files a run that writes nothing empties
// through its truncating redirections (: > F, > F, true > F,
// cat /dev/null > F), when every redirection is such a one.
func emptiedTargets(inv *classify.Invocation) ([]string, bool) {
	switch inv.Name() {
	case "", ":", "true", "false":
	case "cat":
		for _, a := range inv.Args[1:] {
			if a != "/dev/null" {
				return nil, false
			}
		}
	default:
		return nil, false
	}
	if inv.Group || len(inv.Redirects) == 0 {
		return nil, false
	}
	var out []string
	for _, r := range inv.Redirects {
		if r.Dynamic || r.Op != ">" && r.Op != ">|" && r.Op != "&>" {
			return nil, false
		}
		out = append(out, r.Target)
	}
	return out, true
}

// perlInPlace returns the files perl -i rewrites: its operands after the
// code (-e/-E) or the script, when an -i flag is given.
func perlInPlace(inv *classify.Invocation, start int) ([]int, bool) {
	args := inv.Args
	inPlace, code := false, false
	var ops []int
	for i := start; i < len(args); i++ {
		a := args[i]
		if len(ops) > 0 || a == "--" || !strings.HasPrefix(a, "-") || inv.IsDynamic(i) {
			if a == "--" && len(ops) == 0 {
				continue
			}
			ops = append(ops, i)
			continue
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'i':
				inPlace = true
				j = len(a) // the rest is the backup suffix
			case 'e', 'E':
				code = true
				if j == len(a)-1 {
					i++ // the code is the next word
				}
				j = len(a)
			case 'M', 'm', 'I', 'x', 'C', 'd', 'D', 'V', 'l', '0', 'F':
				j = len(a) // a value follows in the same word
			}
		}
	}
	if !inPlace {
		return nil, false
	}
	if !code && len(ops) > 0 {
		ops = ops[1:] // the first operand is the script
	}
	if len(ops) == 0 {
		return nil, false
	}
	return ops, true
}
