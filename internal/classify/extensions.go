package classify

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is the subcommands that are programs of their own: "git
// NAME" for a NAME git does not build in runs the program git-NAME, and
// "gh NAME" runs the extension gh-NAME, unless an alias of that name is
// configured. The run is classified as that program. Aliases live in
// files (git's configuration, gh's config.yml): without a filesystem to
// read them, or when they cannot be read, the subcommand stays opaque.

// extensionRun classifies args (Args[k:] of inv, the subcommand first) as
// a run of the program prefix-NAME.
func (c *Classifier) extensionRun(inv *shell.Invocation, k int, prefix string) Effect {
	sub := *inv
	sub.Args = append([]string{prefix + strings.ToLower(inv.Args[k])}, inv.Args[k+1:]...)
	sub.Dynamic = nil
	if len(inv.Dynamic) > k {
		sub.Dynamic = append([]bool{false}, inv.Dynamic[k+1:]...)
	}
	sub.Path = sub.Args[0]
	var e Effect
	if s := specFor(sub.Name()); s != nil {
		e = s.Classify(c, &sub)
	} else {
		e = c.lookThrough(&sub)
	}
	return e
}

// validExtension reports whether a subcommand can name a program.
func validExtension(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/\\=$`\"' \t") && !strings.HasPrefix(name, "-")
}

// gitExtension classifies "git NAME" where NAME is not built in: an alias
// configured in the repository's or the user's git configuration is
// expanded (a "!" alias is shell text, rated with the configuration); any
// other name runs git-NAME.
func (c *Classifier) gitExtension(inv *shell.Invocation, k int) (Effect, bool) {
	name := inv.Args[k]
	if c.FS == nil || !validExtension(name) {
		return nothing, false
	}
	g := gitGlobal.Parse(inv.Args[1:])
	// The repository's configuration is where every other git run finds
	// it (gitplace.go): -C, --git-dir, GIT_DIR, a .git file, commondir,
	// a bare repository. A place known only at run time may hold any
	// alias.
	pl := c.gitPlaceOf(inv, g)
	if pl.unknown != "" {
		return nothing, false
	}
	value, set := c.sameCommandAlias(name)
	if why := c.gitConfigMoves(inv); why != "" && !set {
		// The alias may be defined by the command itself: read files
		// would not hold it yet.
		return opaque("git.alias", "git "+name+" is not a git command, and "+why+", so it may be an alias of anything (git push included)"), true
	}
	files := []string{"~/.gitconfig", "~/.config/git/config"}
	files = append(files, pl.configs()...)
	if set {
		// Defined by git config in the same command, with a value
		// written in it: that is the alias.
		if text, shellAlias := strings.CutPrefix(strings.TrimSpace(value), "!"); shellAlias {
			return c.embedded("git config alias."+name, text, false), true
		}
		return applyAlias(inv, k, name, value), true
	}
	for _, f := range files {
		data, err := c.readFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nothing, false // cannot be read: may hold the alias
		}
		value, found, sure := gitAlias(string(data), name)
		if !sure {
			return nothing, false
		}
		if !found {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(value), "!") {
			// Shell text: gitRepoCommands rates it from the file.
			return nothing, true
		}
		return applyAlias(inv, k, name, value), true
	}
	return c.extensionRun(inv, k, "git-").through("git.extension", "git "+name+" runs the program git-"+name), true
}

// applyAlias rates git NAME ARGS as git VALUE ARGS, where VALUE is the
// alias's (not shell text).
func applyAlias(inv *shell.Invocation, k int, name, value string) Effect {
	x := *inv
	x.Args = append(append(append([]string(nil), inv.Args[:k]...), strings.Fields(value)...), inv.Args[k+1:]...)
	x.Dynamic = nil
	if len(inv.Dynamic) > 0 {
		x.Dynamic = make([]bool, len(x.Args))
		for i := range x.Args {
			if j := i - len(x.Args) + len(inv.Args); j > k && j < len(inv.Dynamic) {
				x.Dynamic[i] = inv.Dynamic[j]
			}
		}
	}
	fields := strings.Fields(value)
	if len(fields) == 0 || !gitBuiltin(fields[0]) {
		return opaque("git.alias", "git "+name+" is an alias of "+clip(value)+", which airlock does not follow further")
	}
	return classifyGitArgs(&x).through("git.alias", "git "+name+" is an alias of git "+clip(value))
}

// sameCommandAlias finds alias.NAME set by a git config run of the same
// command with a value written in it (git config alias.st status && git
// st). false when none, or when one sets it to a value known only at run
// time or sets it more than once.
func (c *Classifier) sameCommandAlias(name string) (string, bool) {
	if c.cc == nil {
		return "", false
	}
	value, found := "", 0
	for i := range c.cc.invs {
		run := &c.cc.invs[i]
		if run.Name() != "git" {
			continue
		}
		sub, rest, ok := GitSubcommand(run.Args[1:])
		if !ok || sub != "config" {
			continue
		}
		ops := rest[:0:0]
		for _, a := range rest {
			if a == "--global" || a == "--local" || a == "--system" || a == "--add" || a == "--replace-all" || a == "set" {
				continue
			}
			ops = append(ops, a)
		}
		if len(ops) == 2 && strings.EqualFold(ops[0], "alias."+name) {
			if run.AnyDynamic(1) {
				return "", false
			}
			value, found = ops[1], found+1
		}
	}
	return value, found == 1
}

// gitAlias finds alias.NAME in a git configuration file. sure is false
// when the file includes others, which airlock does not read here.
func gitAlias(content, name string) (value string, found, sure bool) {
	section := ""
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.HasPrefix(t, "[") {
			s := strings.ToLower(strings.Trim(t, "[] "))
			if strings.HasPrefix(s, "include") {
				return "", false, false
			}
			section = s
			if i := strings.IndexByte(section, ']'); i >= 0 {
				section = section[:i]
			}
			if rest, ok := strings.CutPrefix(t, "[alias]"); ok && strings.TrimSpace(rest) != "" {
				t = strings.TrimSpace(rest) // [alias] co = checkout on one line
			} else {
				continue
			}
		}
		if section != "alias" {
			continue
		}
		k, v, _ := strings.Cut(t, "=")
		if strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.Trim(strings.TrimSpace(v), `"`), true, true
		}
	}
	return "", false, true
}

// ghExtension classifies "gh NAME" where NAME is not built in: an alias
// in gh's config.yml stays opaque (its text is a gh command or "!" shell
// text airlock does not follow here); any other name runs gh-NAME.
func (c *Classifier) ghExtension(inv *shell.Invocation, k int) (Effect, bool) {
	name := inv.Args[k]
	if c.FS == nil || !validExtension(name) {
		return nothing, false
	}
	for _, e := range inv.Env {
		if strings.HasPrefix(e, "GH_CONFIG_DIR=") || strings.HasPrefix(e, "XDG_CONFIG_HOME=") {
			return nothing, false
		}
	}
	data, err := c.readFile("~/.config/gh/config.yml")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nothing, false
	}
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			in = strings.HasPrefix(l, "aliases:")
			continue
		}
		if in {
			key, _, _ := strings.Cut(strings.TrimSpace(l), ":")
			if strings.Trim(key, `"'`) == name {
				return nothing, false // an alias: opaque, as before
			}
		}
	}
	return c.extensionRun(inv, k, "gh-").through("gh.extension", "gh "+name+" runs the extension gh-"+name), true
}

// gitConfigMoves says why git's configuration for a run may not be what
// the files hold now: settings given through the environment, a moved
// configuration or home, or another run of the same command that writes
// a git configuration file (git config alias.x push && git x, printf
// '[alias]…' >> .git/config && git x). "" when none.
func (c *Classifier) gitConfigMoves(inv *shell.Invocation) string {
	for _, kv := range inv.Env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "GIT_CONFIG"), name == "GIT_DIR", name == "HOME", name == "XDG_CONFIG_HOME":
			return name + " changes the configuration git reads"
		}
	}
	given, _ := gitGivenSettings(inv, gitGlobal.Parse(inv.Args[1:]))
	for _, s := range given {
		if gitIncludeKey(s.key) {
			return s.where + " adds a configuration file"
		}
	}
	if c.cc == nil {
		return ""
	}
	for i := range c.cc.invs {
		run := &c.cc.invs[i]
		if run.Name() == "git" {
			if sub, rest, ok := GitSubcommand(run.Args[1:]); ok && sub == "config" && !gitConfigReadOnly(rest) {
				return "the same command runs git config"
			}
		}
		for _, o := range Operands(run) {
			if o.Role != RoleRead && gitConfigPath(o.Word) {
				return "the same command writes " + o.Word
			}
		}
	}
	return ""
}

// gitConfigReadOnly reports git config arguments that only read.
func gitConfigReadOnly(args []string) bool {
	for _, a := range args {
		switch a {
		case "get", "list", "--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--show-origin", "--show-scope", "get-color", "--get-color":
			return true
		}
	}
	return len(args) == 0
}

// gitConfigPath reports a path that is (or may be) a git configuration
// file: a repository's config, ~/.gitconfig, git/config, or a word only
// known at run time.
func gitConfigPath(p string) bool {
	if strings.ContainsAny(p, "$`*?[") {
		return true
	}
	base := path.Base(p)
	dir := path.Base(path.Dir(p))
	return base == ".gitconfig" || base == "config" && (dir == ".git" || dir == "git") || strings.Contains(p, ".git/") && base == "config"
}
