package classify

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the git settings whose program is not in their value
// (FINDINGS-9 P6): core.hooksPath names a directory whose hooks every
// later commit, checkout or push runs, the human's too; init.templateDir
// one whose hooks every new clone gets (and runs); include.path and
// includeIf.<cond>.path name a file of more settings (core.fsmonitor,
// core.pager, alias.x = !…) that every later git command reads. Writing
// either is held (the directory and the file are the project's, which the
// agent writes freely); what they hold now is read, so that a hook or an
// included setting naming airlock's verb is refused.

// gitHookNames are the hooks a hooks directory is read for.
var gitHookNames = []string{
	"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-push", "post-checkout",
	"post-merge", "pre-rebase", "post-rewrite", "pre-merge-commit", "pre-auto-gc", "reference-transaction",
}

// gitConfigLater classifies git config KEY VALUE for the keys that name a
// directory or a file git reads later; false for the other keys.
func (c *Classifier) gitConfigLater(inv *shell.Invocation, p argv.Parsed, key, value string, dyn bool) (Effect, bool) {
	k := strings.ToLower(key)
	switch {
	case k == "core.hookspath" && !dyn && path.Clean(unquoteValue(value)) == ".git/hooks":
		return nothing, true // git's own place for them, read at each run
	case k == "core.hookspath":
		e := opaque("git.hooks-path", "git config core.hooksPath "+clip(value)+" makes every later git command (the human's commits too) run the hooks in "+clip(value)+", which airlock does not read; use the project's .git/hooks through a tool the human installs").sharedTier()
		if dyn || c.FS == nil {
			return e, true
		}
		dir := gitConfigRelative(p, value)
		for _, h := range gitHookNames {
			f := path.Join(dir, h)
			if _, err := c.FS.Stat(fsName(f)); err != nil {
				continue
			}
			if he, ok := c.scriptFile(inv, f, false); ok {
				e.Add(he.through("git.hooks-path", "git runs "+f+" as its "+h+" hook"))
			}
		}
		return e, true
	case k == "core.worktree":
		// Every later git command of the repository reads, writes and
		// deletes its files in the directory named (FINDINGS-10 W1).
		return opaque("git.worktree", "git config core.worktree "+clip(value)+" moves the work tree of every later git command of this repository (checkout, clean, reset, stash) to "+clip(value)+", where airlock does not grade what they write or delete; use git worktree add or --work-tree for one command").sharedTier(), true
	case k == "init.templatedir":
		// git init and git clone copy the template's hooks into every new
		// repository (clone runs post-checkout at once), as --template
		// and GIT_TEMPLATE_DIR do.
		return opaque("git.template", "git config "+key+" "+clip(value)+" makes every later git init and git clone (the human's too) copy the hooks of "+clip(value)+" into the new repository and run them, and airlock does not read them").sharedTier(), true
	case k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path"):
		e := opaque("git.include", "git config "+key+" "+clip(value)+" makes every later git command (the human's too) read the settings of "+clip(value)+", which can name programs git runs (core.fsmonitor, core.pager, aliases); write the settings themselves with git config").sharedTier()
		if dyn || c.FS == nil {
			return e, true
		}
		f := gitConfigRelative(p, value)
		data, failed, ok := c.readConfig(inv, clientConfigFile{name: f, explicit: true})
		e.Add(failed)
		if ok {
			e.Add(c.gitConfigText(f, string(data)))
		}
		return e, true
	}
	return nothing, false
}

// gitConfigRelative resolves a path a git setting names the way git does:
// ~/ is the home, a relative path is relative to the configuration file
// being written (the repository's .git/config, ~/.gitconfig for
// --global, the --file).
func gitConfigRelative(p argv.Parsed, v string) string {
	v = unquoteValue(v)
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") {
		return v
	}
	base := ".git"
	switch {
	case p.Has("--global"):
		base = "~"
	case p.Has("--system"):
		base = "/etc"
	}
	for _, f := range append(p.Values("-f"), p.Values("--file")...) {
		base = path.Dir(f)
	}
	return path.Join(base, v)
}

// gitInclude reads the file an include.path or includeIf.*.path line of
// the configuration file p names, for the settings sub runs ("" for a
// write of p, which is held: the file can change after the write).
func (c *Classifier) gitInclude(p, v string, line int, sub string) Effect {
	v = strings.TrimSpace(v)
	var e Effect
	if sub == "" {
		e.Add(opaque("git.include", p+":"+itoa(line)+": an include of "+clip(v)+" makes every later git command read the settings there, which can name programs git runs; write the settings themselves").sharedTier())
	}
	if v == "" || strings.ContainsAny(v, "$`") || c.FS == nil {
		return e
	}
	f := v
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~/") {
		f = path.Join(path.Dir(p), v)
	}
	inner, ok := c.deeper()
	if !ok {
		e.Add(fileLimit(f))
		return e
	}
	data, err := c.readFile(f)
	switch {
	case err == nil:
		e.Add(inner.gitConfigFor(f, string(data), sub))
	case errors.Is(err, fs.ErrNotExist):
	default:
		e.Add(opaque("git.include", p+":"+itoa(line)+" includes "+f+", which cannot be read beforehand ("+err.Error()+"), and git runs the commands it names"))
	}
	return e
}
