package classify

import (
	"errors"
	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"path"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads, at decision time, what a git run would execute from
// the repository itself: command-valued settings in .git/config and
// ~/.gitconfig (core.sshCommand, core.pager, ! aliases, filters), and the
// hooks in .git/hooks that the subcommand fires (pre-commit for commit,
// pre-push for push). A file the agent wrote earlier is thus read when it
// would run, whoever wrote it.

// gitHooks lists the hooks each subcommand runs.
var gitHooks = firstuse.Table[map[string][]string]{Build: func() map[string][]string {
	// reference-transaction runs on every ref update, and
	// post-index-change on every index write.
	const ref, idx = "reference-transaction", "post-index-change"
	return map[string][]string{
		"commit":      {"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", ref, idx},
		"push":        {"pre-push", ref},
		"merge":       {"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", ref, idx},
		"pull":        {"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "post-checkout", ref, idx},
		"fetch":       {ref},
		"checkout":    {"post-checkout", ref, idx},
		"switch":      {"post-checkout", ref, idx},
		"clone":       {},
		"rebase":      {"pre-rebase", "post-rewrite", "post-checkout", ref, idx},
		"am":          {"applypatch-msg", "pre-applypatch", "post-applypatch", ref, idx},
		"cherry-pick": {"prepare-commit-msg", "commit-msg", "post-commit", ref, idx},
		"revert":      {"prepare-commit-msg", "commit-msg", "post-commit", ref, idx},
		"gc":          {"pre-auto-gc"},
		"worktree":    {"post-checkout", ref},
		"branch":      {ref},
		"tag":         {ref},
		"update-ref":  {ref},
		"stash":       {ref, idx},
		"reset":       {ref, idx},
		"restore":     {idx},
		"add":         {idx},
		"rm":          {idx},
		"mv":          {idx},
	}
}}

// noVerifySkips are the hooks --no-verify (or -n) turns off for a
// subcommand; the others (post-commit, prepare-commit-msg, …) still run.
var noVerifySkips = firstuse.Table[map[string][]string]{Build: func() map[string][]string {
	return map[string][]string{
		"commit": {"pre-commit", "commit-msg"},
		"push":   {"pre-push"},
		"merge":  {"pre-merge-commit", "commit-msg"},
	}
}}

// gitRepoCommands rates what a git run executes from the repository's
// configuration and hooks. It reads nothing without a filesystem.
func (c *Classifier) gitRepoCommands(inv *shell.Invocation) Effect {
	if c.FS == nil || len(inv.Args) < 2 || c.gitRead {
		return nothing // a git run inside git's own commands: already read
	}
	if e, ok := c.gitDirGlob(inv); ok { // gitdirglob.go
		return e
	}
	g := gitGlobal.Parse(inv.Args[1:])
	dir := ""
	for _, f := range g.Flags {
		if f.Name == "-C" {
			if inv.IsDynamic(1 + f.ValueIndex) {
				return nothing // the directory is rated elsewhere as unknown
			}
			dir = path.Join(dir, f.Value)
		}
	}
	i := 1 + g.Rest
	if i >= len(inv.Args) || inv.IsDynamic(i) {
		return nothing
	}
	sub := inv.Args[i]
	if hasAny(inv.Args[i+1:], "--help", "-h") {
		return nothing
	}
	// Where git finds its repository, configuration, hooks and work tree
	// (gitplace.go): the options, the environment and the files on disk.
	pl := c.gitPlaceOf(inv, g)
	if pl.unknown != "" {
		return opaque("git.place", pl.unknown+": which configuration and hooks git runs cannot be known")
	}
	gitDir, ok := pl.gitDir, pl.gitDir != ""
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit("git's configuration")
	}
	inner.gitRead = true
	var e Effect
	e.Add(c.gitMovedWorkTree(pl, sub, inv.Args[i+1:]))
	e.Add(c.gitSubmoduleURLs(inv, pl, sub, inv.Args[i+1:]))
	// Configuration the command moves or adds (GIT_CONFIG_GLOBAL=F,
	// HOME=D, git -c include.path=F) is read like the usual files: a
	// core.fsmonitor there runs on git status.
	extra, why := gitExtraConfigs(inv, g)
	if why != "" {
		e.Add(opaque("git.config", why))
	}
	// The commands the configuration names run at the work tree's top.
	at := inner.atGitTop(pl.runsAt())
	for _, cfg := range extra {
		data, failed, read := c.readScript(inv, cfg, false)
		switch {
		case read:
			e.Add(at.gitConfigFor(cfg, string(data), sub))
		case failed.Reasons != nil:
			e.Add(failed)
		}
	}
	// The worktree's own configuration (extensions.worktreeConfig makes
	// git read it; read whether or not it is on, FINDINGS-7 G4), written
	// by the same command or on disk.
	if ok {
		wt := path.Join(gitDir, "config.worktree")
		mentioned := c.cc.mentions("config.worktree")
		if rel := path.Join(dir, ".git", "config.worktree"); mentioned && path.Dir(wt) != path.Join(dir, ".git") && c.cc.writtenElsewhere(inv, rel) {
			wt = rel // the command writes it under the name it types
		}
		var data []byte
		var failed Effect
		read := false
		if mentioned {
			data, failed, read = c.readScript(inv, wt, false)
		} else if b, err := c.readFile(wt); err == nil {
			data, read = b, true
		}
		switch {
		case read:
			e.Add(at.gitConfigFor(wt, string(data), sub))
		case failed.Reasons != nil:
			e.Add(failed)
		}
	}
	repoConfig := ""
	if ok {
		repoConfig = path.Join(pl.common, "config")
	}
	for _, cfg := range []string{repoConfig, "~/.gitconfig", "~/.config/git/config"} {
		if cfg == "" {
			continue
		}
		data, err := c.readFile(cfg)
		switch {
		case err == nil:
			e.Add(at.gitConfigFor(cfg, string(data), sub))
		case errors.Is(err, ErrTooLarge):
			e.Add(opaque("git.config", cfg+" is larger than airlock reads, and git runs commands it names"))
		}
	}
	if c.dirUnknown && dir == "" && !gitDirOptGiven(inv, g) {
		// Where git runs is known only when it runs: any repository
		// below this directory (gitanywhere.go).
		var skip []string
		if hasAny(inv.Args[i+1:], "--no-verify", "-n") {
			skip = noVerifySkips.Get()[sub]
		}
		e.Add(c.gitAnywhere(inv, sub, skip))
	}
	if !ok {
		return e
	}
	var skip []string
	if hasAny(inv.Args[i+1:], "--no-verify", "-n") {
		skip = noVerifySkips.Get()[sub]
	}
	e.Add(c.gitHookRuns(inv, at, pl, sub, skip))
	return e
}

// gitHookRuns reads the hooks of pl that git sub runs (those --no-verify
// leaves out are in skip), each as a script run from the work tree's top:
// a hook is found by the command's own names (c), and read by at, the
// classifier atGitTop placed there.
func (c *Classifier) gitHookRuns(inv *shell.Invocation, at *Classifier, pl gitPlace, sub string, skip []string) Effect {
	var e Effect
	for _, h := range gitHooks.Get()[sub] {
		if slices.Contains(skip, h) {
			continue
		}
		name := path.Join(pl.hooks(), h)
		if _, err := c.FS.Stat(fsName(name)); err != nil {
			continue
		}
		f, _ := at.scriptFileSameDepth(inv, at.nameAt(name))
		e.Add(f)
	}
	return e
}

// scriptFileSameDepth follows a file from a classifier that is already
// one file deeper.
func (c *Classifier) scriptFileSameDepth(inv *shell.Invocation, name string) (Effect, bool) {
	outer := *c
	outer.follow--
	return outer.scriptFile(inv, name, false)
}

// gitExtraConfigs returns the configuration files a git run reads beyond
// the repository's and the home's: those its environment names
// (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG, a HOME or
// XDG_CONFIG_HOME of its own) and those an include.path given for the run
// names (git -c, --config-env, GIT_CONFIG_KEY_n, GIT_CONFIG_PARAMETERS).
// why says why what it reads cannot be known (a value known only at run
// time).
func gitExtraConfigs(inv *shell.Invocation, g argv.Parsed) (files []string, why string) {
	add := func(from, f string) {
		switch {
		case f == "" || f == "/dev/null":
		case strings.ContainsAny(f, "$`"):
			why = from + " names git configuration known only at run time (" + clip(f) + "), which can name commands git runs"
		default:
			files = append(files, f)
		}
	}
	for _, kv := range inv.Env {
		name, v, _ := strings.Cut(kv, "=")
		v = unquoteValue(v)
		switch name {
		case "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG":
			add(name, v)
		case "HOME":
			if v != "" && !strings.ContainsAny(v, "$`") {
				add(name, strings.TrimSuffix(v, "/")+"/.gitconfig")
				add(name, strings.TrimSuffix(v, "/")+"/.config/git/config")
			} else {
				add(name, v)
			}
		case "XDG_CONFIG_HOME":
			if v != "" && !strings.ContainsAny(v, "$`") {
				add(name, strings.TrimSuffix(v, "/")+"/git/config")
			} else {
				add(name, v)
			}
		}
	}
	// include.path given by -c, --config-env or the environment
	// (gitgiven.go): each spelling names the same file of settings.
	given, _ := gitGivenSettings(inv, g)
	for _, s := range given {
		if !gitIncludeKey(s.key) {
			continue
		}
		if s.dynamic {
			why = s.where + " names git configuration known only at run time (" + clip(s.value) + "), which can name commands git runs"
			continue
		}
		add(s.where, s.value)
	}
	return files, why
}
