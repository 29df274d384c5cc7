package classify

import (
	"path"
	"slices"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the repositories a git run may be in when the directory
// it runs in is known only at run time (find . -name .git -execdir git
// status \;, cd "$d" && git status; FINDINGS-10 G1): git then takes the
// configuration and hooks of whichever repository that directory is in,
// and a repository nested in the project (its own .git/config setting
// core.fsmonitor) is one of them. The repositories below the command's
// directory are found by a bounded walk and each one's configuration and
// hooks are read for the subcommand; a tree past the bound is opaque.

// maxGitWalkEntries and maxGitWalkDepth bound the walk.
const (
	maxGitWalkEntries = 20000
	maxGitWalkDepth   = 6
)

// gitWalkSkips are the trees of installed dependencies and caches, large
// and written by package managers: a repository an agent nests there is
// not read (a limit, docs/FINDINGS-10.md). Build output directories are
// walked: an agent makes them as easily as any other.
var gitWalkSkips = []string{"node_modules", ".venv", "venv", "__pycache__", ".tox", ".cache"}

// nestedGitDirs lists the work trees (or bare repositories) below the
// command's directory: each directory holding .git, or being a git
// directory itself. ok is false past the bound.
func (c *Classifier) nestedGitDirs() (tops []string, ok bool) {
	rd, can := c.FS.(dirReader)
	if !can {
		return nil, true
	}
	entries := 0
	var walk func(dir string, depth int) bool
	walk = func(dir string, depth int) bool {
		list, err := rd.ReadDir(fsName(dir))
		if err != nil {
			return true
		}
		entries += len(list)
		if entries > maxGitWalkEntries {
			return false
		}
		for _, d := range list {
			name := d.Name()
			if name == ".git" {
				tops = append(tops, dir)
				continue
			}
			if !d.IsDir() || slices.Contains(gitWalkSkips, name) {
				continue
			}
			sub := path.Join(dir, name)
			if c.isGitDir(sub) {
				tops = append(tops, sub)
				continue
			}
			if depth+1 > maxGitWalkDepth {
				continue
			}
			if !walk(sub, depth+1) {
				return false
			}
		}
		return true
	}
	return tops, walk(".", 0)
}

// gitAnywhere reads the configuration and hooks of every repository below
// the command's directory for sub, as gitRepoCommands does for one.
func (c *Classifier) gitAnywhere(inv *shell.Invocation, sub string, skip []string) Effect {
	tops, ok := c.nestedGitDirs()
	if !ok {
		return opaque("git.place", "git "+sub+" runs in a directory known only at run time, and the repositories below this one are too many to read (past "+itoa(maxGitWalkEntries)+" entries): which configuration and hooks it runs cannot be known")
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit("git's configuration")
	}
	inner.gitRead = true
	var e Effect
	for _, top := range tops {
		gitDir, _, found := c.discoverGitDir(top)
		if !found {
			continue
		}
		pl := gitPlace{gitDir: gitDir, common: gitDir, workTree: top}
		if c.isGitDir(top) && path.Clean(gitDir) == path.Clean(top) {
			pl.workTree = ""
		}
		if b, err := c.readFile(path.Join(gitDir, "commondir")); err == nil {
			pl.common = joinRel(gitDir, string(trimSpaceBytes(b)))
		}
		at := inner.atGitTop(pl.runsAt())
		for _, cfg := range pl.configs() {
			if data, err := c.readFile(cfg); err == nil {
				e.Add(at.gitConfigFor(cfg, string(data), sub))
			}
		}
		e.Add(c.gitHookRuns(inv, at, pl, sub, skip))
	}
	return e
}

// trimSpaceBytes trims ASCII white space.
func trimSpaceBytes(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\r' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// gitDirOptGiven reports a run that names its git directory (--git-dir,
// GIT_DIR): where it runs does not choose the repository.
func gitDirOptGiven(inv *shell.Invocation, g argv.Parsed) bool {
	if g.Has("--git-dir") {
		return true
	}
	_, ok := inv.Getenv("GIT_DIR")
	return ok
}
