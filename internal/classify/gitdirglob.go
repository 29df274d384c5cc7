package classify

import (
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// `for d in */; do git -C "$d" status; done` runs git in each directory
// the glob matches (FINDINGS-10 B10). Each one's repository
// configuration can name programs git runs (core.fsmonitor on git
// status), so git -C GLOB is read as one run in each match, found now;
// a glob whose matches cannot be listed, or too many, is opaque. The
// directory itself is only where git runs: for the subcommands that read
// (roles.go gitRoles), it is read (gitDirRoles).

// maxGitDirMatches bounds the directories a git -C glob is followed in.
const maxGitDirMatches = 64

// gitDirGlob rates git -C GLOB as a run in each directory the glob
// matches; handled is false when no -C value is a glob.
func (c *Classifier) gitDirGlob(inv *shell.Invocation) (e Effect, handled bool) {
	g := gitGlobal.Parse(inv.Args[1:])
	at := -1
	for _, f := range g.Flags {
		if f.Name == "-C" && f.HasValue && !inv.IsDynamic(1+f.ValueIndex) && strings.ContainsAny(f.Value, "*?[") {
			if at >= 0 {
				return opaque("git.dir", "git runs in directories only known when it runs ("+clip(f.Value)+")"), true
			}
			at = 1 + f.ValueIndex
		}
	}
	if at < 0 {
		return nothing, false
	}
	glob := strings.TrimSuffix(inv.Args[at], "/")
	dir, pat := path.Split(glob)
	if dir == "" {
		dir = "."
	}
	entries, err := c.readDir(strings.TrimSuffix(dir, "/"))
	if err != nil || strings.ContainsAny(dir, "*?[") || pat == "" {
		return opaque("git.dir", "git runs in the directories "+clip(inv.Args[at])+" matches, which airlock cannot list"), true
	}
	n := 0
	for _, en := range entries {
		name := en.Name()
		if ok, err := path.Match(pat, name); err != nil || !ok || strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
			continue
		}
		if n++; n > maxGitDirMatches {
			return opaque("git.dir", "git runs in more directories than airlock follows ("+clip(inv.Args[at])+")"), true
		}
		one := *inv
		one.Args = append([]string(nil), inv.Args...)
		one.Args[at] = path.Join(dir, name)
		e.Add(c.gitRepoCommands(&one))
	}
	return e, true
}

// gitReadSubcommands are the git subcommands that only read the
// directory -C names (and write at most git's own index there).
func gitReadSubcommand(sub string) bool {
	switch sub {
	case "status", "log", "diff", "show", "blame", "annotate", "ls-files", "grep", "shortlog", "whatchanged",
		"describe", "rev-parse", "rev-list", "cat-file", "ls-tree":
		return true
	}
	return false
}

// gitDirRoles gives the directories of git -C the role read when the
// subcommand only reads.
func (b *roleBuilder) gitDirRoles(sub string) {
	if !gitReadSubcommand(sub) {
		return
	}
	g := gitGlobal.Parse(b.inv.Args[1:])
	for _, f := range g.Flags {
		if f.Name == "-C" {
			b.value(f, 1, RoleRead)
		}
	}
}

// gitRestoreStagedOnly reports whether git restore's options choose the
// index alone: --staged (-S) without --worktree (-W).
func gitRestoreStagedOnly(args []string) bool {
	staged, worktree := false, false
	for _, a := range args {
		switch {
		case a == "--":
			return staged && !worktree
		case a == "--staged":
			staged = true
		case a == "--worktree":
			worktree = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			// -S, -W, -SW; -s takes the source as its value.
			for _, c := range a[1:] {
				if c == 's' {
					break
				}
				staged = staged || c == 'S'
				worktree = worktree || c == 'W'
			}
		}
	}
	return staged && !worktree
}
