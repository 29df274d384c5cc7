package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads a run told by its own option to work in another
// directory (FINDINGS-10 N1): npm --prefix D, pnpm -C D, yarn --cwd D,
// go -C D, composer -d D, mvn -f D. The tool then reads that directory's
// project files (its scripts, its build file, its conftest.py), so
// airlock reads them there too, as it does after cd D. The options are
// the dirFlags column of the build tools' table (buildtools.go): a tool
// whose files the table lists has them joined to the directory
// (projectCodeFiles); a tool with a reader of its own (npm's scripts, go
// generate, a Rakefile) is read whole from the directory (runDirOf). A
// directory known only at run time is read like cd "$d": relative names
// are flagged. make -C, just -d and task -d are read by their readers
// (runners.go, taskrunners.go).

// runDirOf returns the directory a run of a tool with its own reader
// works in by its option: ok is false when it names none, dynamic true
// when the directory is known only at run time.
func runDirOf(inv *shell.Invocation) (dir string, dynamic, ok bool) {
	t, listed := buildTools.Get()[inv.Name()]
	if !listed || !t.reader || len(t.dirFlags) == 0 {
		return "", false, false
	}
	for j := 1; j < len(inv.Args); j++ {
		a := inv.Args[j]
		if a == "--" {
			break
		}
		if t.leadingDir && j > 1 {
			break // go -C must come first
		}
		val, at, found := flagValue(inv.Args, j, t.dirFlags)
		if !found {
			if t.leadingDir {
				break
			}
			continue
		}
		if inv.IsDynamic(at) {
			return "", true, true
		}
		dir = unquoteValue(val)
		ok = true
		j = at
	}
	return dir, false, ok
}

// flagValue reads word j as one of flags with its value: "-C D",
// "--prefix=D", "-CD" (a one-letter flag). It returns the value and the
// index of the word holding it.
func flagValue(args []string, j int, flags []string) (val string, at int, found bool) {
	a := args[j]
	name, v, has := strings.Cut(a, "=")
	if slices.Contains(flags, name) {
		if has {
			return v, j, true
		}
		if j+1 < len(args) {
			return args[j+1], j + 1, true
		}
		return "", j, false
	}
	if len(a) > 2 && a[0] == '-' && a[1] != '-' && slices.Contains(flags, a[:2]) {
		return a[2:], j, true
	}
	return "", j, false
}

// operandDirFiles lists, for a tool that reads the files of the
// directories its operands name (pytest DIR reads DIR/conftest.py and
// those of the directories above it; cmake DIR and meson setup B DIR read
// DIR's build file), the files of every directory from the working
// directory down to each operand. An operand that names no directory
// adds its own directory's files (pytest lp/test_x.py).
func (c *Classifier) operandDirFiles(inv *shell.Invocation, args []string, t buildTool) []string {
	if !t.operandDirs || c.FS == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for j := 0; j < len(args); j++ {
		a := args[j]
		if strings.HasPrefix(a, "-") {
			continue
		}
		a = unquoteValue(a)
		if a == "" || strings.ContainsAny(a, "$`*?[") || strings.Contains(a, "::") {
			a, _, _ = strings.Cut(a, "::") // pytest lp/test_x.py::test_one
			if a == "" || strings.ContainsAny(a, "$`*?[") {
				continue
			}
		}
		d := path.Clean(a)
		if info, err := c.statFile(d); err != nil || !info.IsDir() {
			if err != nil {
				continue
			}
			d = path.Dir(d)
		}
		for _, dir := range dirsDownTo(d) {
			if seen[dir] {
				continue
			}
			seen[dir] = true
			for _, f := range t.files {
				out = append(out, path.Join(dir, f))
			}
		}
	}
	return out
}

// dirsDownTo lists the directories from the working directory's child
// down to d (lp/a/b: lp, lp/a, lp/a/b); an absolute or parent path is
// itself only.
func dirsDownTo(d string) []string {
	if d == "." {
		return nil
	}
	if path.IsAbs(d) || strings.HasPrefix(d, "..") {
		return []string{d}
	}
	var out []string
	parts := strings.Split(d, "/")
	for i := range parts {
		out = append(out, strings.Join(parts[:i+1], "/"))
	}
	return out
}

// enterRunDir points the classifier at the directory a run works in by
// its own option (runDirOf), as inv.Dir does for a cd before it; the
// returned function restores it. A directory known only at run time
// makes the run opaque: which scripts it runs cannot be read.
func (c *Classifier) enterRunDir(inv *shell.Invocation) (func(), Effect) {
	dir, dynamic, ok := runDirOf(inv)
	switch {
	case !ok:
		return func() {}, nothing
	case dynamic:
		return func() {}, opaque("run.dir", inv.Name()+" is told to work in a directory known only at run time, whose scripts and build files airlock cannot read; name the directory literally")
	case c.FS != nil:
		saved := c.FS
		c.FS = within(c.FS, dir)
		return func() { c.FS = saved }, nothing
	}
	return func() {}, nothing
}

// fileOrDirFiles reads a file option given a directory (mvn -f lp) as
// the tool's files in that directory.
func (c *Classifier) fileOrDirFiles(inv *shell.Invocation, name string) []string {
	info, err := c.statFile(name)
	if err != nil || !info.IsDir() {
		return []string{name}
	}
	var out []string
	for _, f := range buildTools.Get()[inv.Name()].files {
		if !strings.ContainsAny(f, "*?[") {
			out = append(out, path.Join(name, f))
		}
	}
	return out
}

// localPackageInstall follows the install scripts of a package the run
// installs from a directory of the project (npm install ./lp, npm i
// file:./lp, pnpm add ./lp, yarn add file:./lp, bun add ./lp): the
// package manager runs its preinstall, install, postinstall and prepare
// scripts, read from lp/package.json as npm run's are. A packed one
// (./lp.tgz) is opaque: its package.json is inside the archive.
func (c *Classifier) localPackageInstall(inv *shell.Invocation) Effect {
	switch inv.Name() {
	case "npm", "pnpm", "yarn", "yarnpkg", "bun":
	default:
		return nothing
	}
	p := argv.Spec{Short: "wC", Long: []string{"--prefix", "--workspace", "--filter", "--dir", "--cwd", "--reporter", "--loglevel"}}.Parse(inv.Args[1:])
	ops, idx := p.Operands, p.OperandIndex
	for k := range idx {
		idx[k]++ // an index in inv.Args
	}
	if len(ops) < 2 {
		return nothing
	}
	switch ops[0] {
	case "install", "i", "in", "isntall", "add":
	default:
		return nothing
	}
	var e Effect
	for k, o := range ops[1:] {
		spec, file := strings.CutPrefix(unquoteValue(o), "file:")
		if inv.IsDynamic(idx[k+1]) {
			// "$PWD/lp", "$d": a path known only at run time (a scoped
			// registry name, @scope/$x, is not one).
			if file || strings.Contains(spec, "/") && !strings.HasPrefix(spec, "@") {
				e.Add(opaque("package.local", inv.Name()+" installs a package from "+clip(o)+", known only at run time, and runs its install scripts"))
			}
			continue
		}
		if !file && !localPackageSpec(spec) {
			continue
		}
		if packedPackage(spec) {
			e.Add(opaque("package.local", inv.Name()+" installs the packed package "+clip(spec)+" and runs the install scripts inside it, which airlock does not read"))
			continue
		}
		if c.FS == nil {
			continue
		}
		if info, err := c.statFile(path.Clean(spec)); err != nil || !info.IsDir() {
			continue
		}
		saved := c.FS
		c.FS = within(c.FS, path.Clean(spec))
		e.Add(c.scriptsNamed(inv, npmLifecycle.Get()["install"]).through("package.local", inv.Name()+" installs "+clip(spec)+" and runs its install scripts"))
		c.FS = saved
	}
	return e
}

// localPackageSpec reports a package named by a path (./lp, ../lp, /x,
// ~/x, .), not by a registry name or a host's shorthand (user/repo).
func localPackageSpec(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/")
}

// packedPackage reports a package archive.
func packedPackage(s string) bool {
	for _, ext := range []string{".tgz", ".tar.gz", ".tar"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}
