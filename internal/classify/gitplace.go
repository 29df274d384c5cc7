package classify

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is the one answer to "which git directory, common directory,
// configuration files, hooks directory and work tree will this git run
// use" (FINDINGS-10 G1, W1). git takes them from --git-dir, GIT_DIR,
// GIT_COMMON_DIR, --work-tree, GIT_WORK_TREE and -C, from a .git file's
// gitdir: line, from .git/commondir, from core.worktree in the
// configuration on disk, and from a bare repository (a directory holding
// HEAD, objects and refs) in the directory it runs in. Every reader that
// decides "this configuration runs a program" reads the files named here,
// and the commands that configuration runs are read from the work tree's
// top, where git runs them.

// gitPlace is where one git run finds its repository. Paths are in the
// classifier's FS's form (relative to the command's directory, or
// absolute).
type gitPlace struct {
	gitDir string // the git directory ("" when none is found)
	common string // the common directory: configuration and hooks
	// workTree is the top of the work tree ("" for a bare repository).
	workTree string
	// moved names the setting that put the work tree somewhere other
	// than the git directory's parent ("" when it did not).
	moved string
	// movedAnywhere says that setting's value is known only at run time:
	// the work tree may be anywhere.
	movedAnywhere bool
	// unknown says why where git looks is known only at run time.
	unknown string
}

// configs are the configuration files of the repository, in the order
// git reads them (after the system and global ones).
func (g gitPlace) configs() []string {
	if g.gitDir == "" {
		return nil
	}
	return []string{path.Join(g.common, "config"), path.Join(g.gitDir, "config.worktree")}
}

// hooks is the directory git runs hooks from unless core.hooksPath says
// otherwise (read by gitConfigFor as opaque).
func (g gitPlace) hooks() string { return path.Join(g.common, "hooks") }

// runsAt is the directory the commands of the configuration and the
// hooks run in: the work tree's top, or the git directory when bare.
func (g gitPlace) runsAt() string {
	if g.workTree != "" {
		return g.workTree
	}
	return g.gitDir
}

// gitPlaceOf resolves where the git run inv finds its repository.
func (c *Classifier) gitPlaceOf(inv *shell.Invocation, g argv.Parsed) gitPlace {
	var pl gitPlace
	run := ""
	var gitDirOpt, workOpt, workFrom string
	for _, f := range g.Flags {
		dyn := inv.IsDynamic(1 + f.ValueIndex)
		switch f.Name {
		case "-C":
			if dyn {
				pl.unknown = "git -C names a directory known only at run time"
				return pl
			}
			run = joinRel(run, f.Value)
		case "--git-dir":
			if dyn {
				pl.unknown = "git --git-dir names a git directory known only at run time"
				return pl
			}
			gitDirOpt = f.Value
		case "--work-tree":
			if dyn {
				pl.moved, pl.movedAnywhere = "git --work-tree "+clip(f.Value), true
				continue
			}
			workOpt, workFrom = f.Value, "--work-tree"
		}
	}
	env := func(name string) (string, bool) {
		src, ok := inv.Getenv(name)
		if !ok {
			return "", false
		}
		v, dyn := envValue(src)
		if dyn {
			pl.unknown = name + " is known only at run time (" + clip(v) + ")"
		}
		return v, v != ""
	}
	if gitDirOpt == "" {
		if v, ok := env("GIT_DIR"); ok {
			gitDirOpt = v
		}
	}
	if workOpt == "" && !pl.movedAnywhere {
		if src, ok := inv.Getenv("GIT_WORK_TREE"); ok {
			if v, dyn := envValue(src); dyn {
				pl.moved, pl.movedAnywhere = "GIT_WORK_TREE="+clip(v), true
			} else if v != "" {
				workOpt, workFrom = v, "GIT_WORK_TREE"
			}
		}
	}
	commonEnv, commonSet := env("GIT_COMMON_DIR")
	if pl.unknown != "" {
		return pl
	}
	natural := ""
	if gitDirOpt != "" {
		pl.gitDir = joinRel(run, gitDirOpt)
		if d, ok := c.gitFileTarget(pl.gitDir); ok {
			pl.gitDir = d
		}
		natural = run // git takes the directory it runs in as the top
	} else {
		d, top, ok := c.discoverGitDir(run)
		if !ok {
			return pl
		}
		pl.gitDir, natural = d, top
	}
	pl.common = pl.gitDir
	if commonSet {
		pl.common = joinRel(run, commonEnv)
	} else if b, err := c.readFile(path.Join(pl.gitDir, "commondir")); err == nil {
		if v := strings.TrimSpace(string(b)); v != "" {
			pl.common = joinRel(pl.gitDir, v)
		}
	}
	bare, coreWT := c.gitCoreSettings(pl.configs())
	coreFrom := "core.worktree in " + path.Join(pl.common, "config")
	// Settings given for the run (-c, --config-env, GIT_CONFIG_*) win over
	// the files.
	given, _ := gitGivenSettings(inv, g)
	for _, s := range given {
		if strings.EqualFold(s.key, "core.worktree") {
			if s.dynamic {
				pl.moved, pl.movedAnywhere = s.where, true
				continue
			}
			coreWT, coreFrom = s.value, s.where
		}
	}
	switch {
	case pl.movedAnywhere:
		pl.workTree = natural // where its commands run is not known either; read from here
		if pl.workTree == "" {
			pl.workTree = "."
		}
	case workOpt != "":
		pl.workTree, pl.moved = joinRel(run, workOpt), workFrom
	case coreWT != "":
		pl.workTree, pl.moved = joinRel(pl.gitDir, coreWT), coreFrom
	case natural == pl.gitDir || bare && gitDirOpt == "":
		pl.workTree = "" // a bare repository
	case natural == "":
		pl.workTree = "."
	default:
		pl.workTree = natural
	}
	return pl
}

// joinRel joins a path to a directory the way git does: an absolute or ~
// path stands alone.
func joinRel(dir, p string) string {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~/") || p == "~" || dir == "" {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// gitFileTarget reads a .git file's "gitdir: DIR" line (a linked work
// tree, a submodule, or a file an agent wrote): the directory it names.
func (c *Classifier) gitFileTarget(p string) (string, bool) {
	info, err := c.FS.Stat(fsName(p))
	if err != nil || info.IsDir() {
		return "", false
	}
	data, err := c.readFile(p)
	if err != nil {
		return "", false
	}
	g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", false
	}
	return joinRel(path.Dir(p), strings.TrimSpace(g)), true
}

// discoverGitDir walks up from dir as git does: at each level a .git
// directory or file, else the level itself when it is a git directory (a
// bare repository: HEAD, objects and refs). top is the level it was found
// at.
func (c *Classifier) discoverGitDir(dir string) (gitDir, top string, ok bool) {
	up := dir
	if o, ok := c.FS.(osFS); ok {
		// On the real filesystem, walk absolute paths up to the root.
		up = o.resolve(dir)
	}
	for range 16 {
		p := path.Join(up, ".git")
		info, err := c.FS.Stat(fsName(p))
		if err == nil {
			if info.IsDir() {
				return p, up, true
			}
			if g, ok := c.gitFileTarget(p); ok {
				return g, up, true
			}
			return "", "", false
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", false
		}
		if c.isGitDir(up) {
			d := path.Clean(up)
			if up == "" {
				d = "."
			}
			return d, d, true
		}
		if strings.HasPrefix(up, "/") {
			if up == "/" {
				break
			}
			up = path.Dir(up)
			continue
		}
		if up == "" || up == "." {
			up = ".."
		} else {
			up = path.Join(up, "..")
		}
		if strings.Count(up, "..") > 12 {
			break
		}
	}
	return "", "", false
}

// isGitDir reports a directory git takes for a repository by itself:
// HEAD, objects and refs in it.
func (c *Classifier) isGitDir(dir string) bool {
	if dir == "" {
		dir = "."
	}
	if info, err := c.FS.Stat(fsName(path.Join(dir, "HEAD"))); err != nil || info.IsDir() {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if info, err := c.FS.Stat(fsName(path.Join(dir, d))); err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}

// gitCoreSettings reads core.bare and core.worktree from configuration
// files (the last one set wins, as in git).
func (c *Classifier) gitCoreSettings(files []string) (bare bool, worktree string) {
	for _, f := range files {
		data, err := c.readFile(f)
		if err != nil {
			continue
		}
		section := ""
		for _, l := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(l)
			if t == "" || t[0] == '#' || t[0] == ';' {
				continue
			}
			if strings.HasPrefix(t, "[") {
				section = strings.ToLower(strings.Trim(t, "[] "))
				continue
			}
			if section != "core" {
				continue
			}
			k, v, _ := strings.Cut(t, "=")
			v = strings.Trim(strings.TrimSpace(v), `"`)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "bare":
				bare = strings.EqualFold(v, "true") || v == "1" || strings.EqualFold(v, "yes")
			case "worktree":
				worktree = v
			}
		}
	}
	return bare, worktree
}

// gitWritesWorkTree reports the subcommands that write or delete files of
// the work tree (checkout, clean, stash, reset --hard, …): where the work
// tree is decides what they reach.
func gitWritesWorkTree(sub string, rest []string) bool {
	switch sub {
	case "checkout", "switch", "restore", "clean", "stash", "merge", "pull", "rebase", "cherry-pick", "revert",
		"am", "read-tree", "checkout-index", "sparse-checkout", "submodule", "mv", "apply", "worktree":
		return !(sub == "apply" && hasAny(rest, "--cached", "--check", "--stat", "--numstat", "--summary"))
	case "rm":
		return !hasAny(rest, "--cached")
	case "reset":
		return hasAny(rest, "--hard", "--merge", "--keep")
	}
	return false
}

// gitMovedWorkTree holds a run that writes or deletes work-tree files
// when the work tree was moved by a setting to a directory that is not
// below the command's own: those writes land there, outside what airlock
// grades as the project (FINDINGS-10 W1).
func (c *Classifier) gitMovedWorkTree(pl gitPlace, sub string, rest []string) Effect {
	if pl.moved == "" || !gitWritesWorkTree(sub, rest) {
		return nothing
	}
	if pl.movedAnywhere {
		return opaque("git.worktree-moved", pl.moved+" names the work tree of git "+sub+" only at run time: its writes and deletions may happen anywhere, which airlock does not grade; name the directory literally")
	}
	wt := c.fromCommandDir(pl.workTree)
	if !strings.HasPrefix(wt, "/") && !strings.HasPrefix(wt, "~") && wt != ".." && !strings.HasPrefix(wt, "../") {
		return nothing // a directory below the command's: its writes are read there
	}
	return opaque("git.worktree-moved", pl.moved+" moves the work tree of git "+sub+" to "+clip(wt)+": its writes and deletions happen there, outside the project, where airlock does not grade them; run git without the setting (git config --unset core.worktree)")
}

// atGitTop returns a classifier that reads relative names from dir, the
// directory git runs its configuration's commands and its hooks in.
func (c *Classifier) atGitTop(dir string) *Classifier {
	at := *c
	if c.FS == nil || dir == "" || dir == "." {
		return &at
	}
	if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") && (dir == ".." || strings.HasPrefix(dir, "../")) {
		return &at // a relative name from there cannot be told: keep the command's directory
	}
	if o, ok := c.FS.(osFS); ok {
		// The real filesystem: names are made absolute from the
		// command's own directory (nameAt), so any form works.
		at.gitFrom = o.resolve(".")
		dir = o.resolve(dir)
	}
	at.FS = within(c.FS, dir)
	at.gitTop = dir
	return &at
}

// nameAt is name, in the classifier's original form, as seen from
// gitTop.
func (c *Classifier) nameAt(name string) string {
	if c.gitTop == "" || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "~") {
		return name
	}
	if c.gitFrom != "" {
		return path.Join(c.gitFrom, name)
	}
	if rel, ok := strings.CutPrefix(path.Clean(name), c.gitTop+"/"); ok {
		return rel
	}
	return path.Join(strings.Repeat("../", strings.Count(c.gitTop, "/")+1), name)
}

// fromCommandDir is p relative to the command's directory when the real
// filesystem can tell (an absolute p below it), else p cleaned.
func (c *Classifier) fromCommandDir(p string) string {
	p = path.Clean(p)
	if o, ok := c.FS.(osFS); ok && strings.HasPrefix(p, "/") {
		if rel, err := filepath.Rel(o.resolve("."), p); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return p
}

// gitTouchesSubmodules reports a run that clones, fetches or updates the
// submodules .gitmodules lists.
func gitTouchesSubmodules(sub string, rest []string) bool {
	switch sub {
	case "submodule":
		return true
	case "clone", "fetch", "pull", "checkout", "switch", "reset", "merge", "rebase":
		for _, a := range rest {
			if a == "--recursive" || a == "--recurse-submodules" || strings.HasPrefix(a, "--recurse-submodules=") && a != "--recurse-submodules=no" {
				return true
			}
		}
	}
	return false
}

// gitSubmoduleURLs reads the urls of .gitmodules (a file of the project)
// for a run that touches submodules: an ext:: url is a command git runs
// once the transport is allowed, and allowing it has many spellings (-c
// protocol.ext.allow=always, protocol.allow, GIT_ALLOW_PROTOCOL, any
// configuration file), so the command is read whatever allows it
// (FINDINGS-10 K3). A project that needs no ext:: transport has none.
func (c *Classifier) gitSubmoduleURLs(inv *shell.Invocation, pl gitPlace, sub string, rest []string) Effect {
	if !gitTouchesSubmodules(sub, rest) {
		return nothing
	}
	var files []string
	if pl.workTree != "" {
		files = append(files, path.Join(pl.workTree, ".gitmodules"))
	}
	if sub == "clone" {
		// A local source's .gitmodules is the new clone's.
		p := argv.Spec{Short: "obcjuC", Long: []string{"--origin", "--branch", "--config", "--depth", "--reference", "--separate-git-dir", "--template", "--upload-pack", "--jobs", "--filter", "--shallow-since", "--shallow-exclude", "--server-option", "--bundle-uri", "--ref-format"}}.Parse(rest)
		if len(p.Operands) > 0 && !strings.Contains(p.Operands[0], "://") && !strings.Contains(p.Operands[0], ":") {
			files = append(files, path.Join(p.Operands[0], ".gitmodules"))
		}
	}
	var e Effect
	for _, f := range files {
		data, failed, ok := c.readScript(inv, f, false)
		if !ok {
			e.Add(failed)
			continue
		}
		section := ""
		for n, l := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "[") {
				section = t
				continue
			}
			k, v, _ := strings.Cut(t, "=")
			if !strings.EqualFold(strings.TrimSpace(k), "url") {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), `"`)
			if cmd, ok := strings.CutPrefix(v, "ext::"); ok {
				e.Add(opaque("git.ext-url", f+":"+itoa(n+1)+": "+clip(section)+" names git's ext:: transport, a command git runs when the transport is allowed"))
				e.Add(c.shellFileAt(f, gitExtCommand(cmd), n+1))
			}
		}
	}
	return e
}

// gitValueRuns reads the settings whose command is not in a key
// gitCommandKey lists: a url of git's ext:: transport (remote.*.url,
// submodule.*.url, a url.<base>.insteadOf whose base is ext::), and a
// submodule's update = !command, which git honours from the
// repository's configuration. where names the setting for the reason.
func (c *Classifier) gitValueRuns(where, key, value string, dyn bool) (Effect, bool) {
	k := strings.ToLower(key)
	v := strings.TrimSpace(unquoteValue(value))
	switch {
	case strings.HasPrefix(k, "url.ext::") && (strings.HasSuffix(k, ".insteadof") || strings.HasSuffix(k, ".pushinsteadof")):
		base := key[len("url.ext::"):strings.LastIndexByte(key, '.')]
		return c.embedded(where+" (an ext:: rewrite of urls: git runs it as a command)", gitExtCommand(base), dyn), true
	case strings.HasPrefix(v, "ext::") && (strings.HasSuffix(k, "url") || strings.HasSuffix(k, ".pushurl")):
		return c.embedded(where+" (git's ext:: transport: git runs it as a command)", gitExtCommand(v[len("ext::"):]), dyn), true
	case strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update") && strings.HasPrefix(v, "!"):
		return c.embedded(where+" (git submodule update runs it)", v[1:], dyn), true
	}
	return nothing, false
}
