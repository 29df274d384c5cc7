package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// envRunner is a program whose run subcommand runs a command from the
// project's environment (uv run pytest, poetry run mypy): the operands of
// the run are those of the command it runs.
type envRunner struct {
	sub string
	// flags take no value; valued take the next word as theirs. An option
	// in neither list, or one that moves the command to another directory
	// (dirOpts), leaves every word's role unknown (fail closed).
	flags, valued map[string]bool
}

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// envRunners lists runners that run a program found in the project's
// environment, from their manuals. Runners that download the program
// they are given by name (npx, uvx, pipx run) are not listed: the package
// behind a name is not the program airlock knows by it.
var envRunners = firstuse.Table[map[string]envRunner]{Build: func() map[string]envRunner {
	return map[string]envRunner{
		"uv": {sub: "run",
			flags: wordSet("--no-sync", "--locked", "--frozen", "--quiet", "-q", "--verbose", "-v", "--all-extras",
				"--isolated", "--no-project", "--offline", "--active", "--no-dev", "--exact", "--all-packages",
				"--no-default-groups", "--all-groups", "--no-editable", "--no-cache", "-n"),
			valued: wordSet("--with", "--group", "--only-group", "--extra", "--python", "-p", "--package", "--env-file",
				"--index", "--no-group", "--with-editable", "--with-requirements")},
		"poetry": {sub: "run", flags: wordSet("--quiet", "-q", "--verbose", "-v", "--no-interaction", "-n", "--ansi", "--no-ansi")},
		"pdm":    {sub: "run", flags: wordSet("--quiet", "-q", "--verbose", "-v", "--site-packages", "-s")},
		"hatch":  {sub: "run"},
		"pipenv": {sub: "run"},
		"rye":    {sub: "run"},
	}
}}

// dirOpts move a runner's command to another directory or project; its
// relative operands then name other paths.
var dirOpts = firstuse.Table[map[string]bool]{Build: func() map[string]bool {
	return wordSet("--directory", "--project", "--cwd", "--chdir", "-C", "--dir", "--prefix", "--path")
}}

// byName are programs whose runs self-protection also checks by their
// name beside their roles (the links cp -s and ln make, git's pathspecs
// matching dot files, socat's addresses): run through a runner they keep
// unknown roles, so that nothing rests on a check the runner's name skips.
var byName = firstuse.Table[map[string]bool]{Build: func() map[string]bool {
	return wordSet("cp", "ln", "link", "install", "git", "socat")
}}

// runnerRoles gives the roles of the command an envRunner runs, shifted
// to their places in the runner's words. It reports false (roles left to
// the caller) when the run is not of that form or an option is not known.
func (b *roleBuilder) runnerRoles() bool {
	args := b.inv.Args
	r, ok := envRunners.Get()[args[0]]
	if !ok || len(args) < 3 || args[1] != r.sub || b.inv.IsDynamic(1) {
		return false
	}
	k := 2
	for ; k < len(args); k++ {
		a := args[k]
		if b.inv.IsDynamic(k) {
			return false
		}
		if a == "--" {
			k++
			break
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		name, _, attached := strings.Cut(a, "=")
		switch {
		case dirOpts.Get()[name]:
			return false
		case attached && r.valued[name]:
		case !attached && r.flags[name]:
		case !attached && r.valued[name]:
			k++
		default:
			return false
		}
	}
	if k >= len(args) || b.inv.IsDynamic(k) || byName.Get()[progName(args[k])] {
		return false
	}
	inner := *b.inv
	inner.Args = append([]string{progName(args[k])}, args[k+1:]...)
	inner.Path = args[k]
	inner.Redirects = nil
	inner.Dynamic = nil
	if len(b.inv.Dynamic) > k {
		inner.Dynamic = append([]bool(nil), b.inv.Dynamic[k:]...)
	}
	ib := roleBuilder{inv: &inner}
	ib.program()
	for _, o := range ib.ops {
		if o.Arg >= 0 {
			o.Arg += k
		}
		b.ops = append(b.ops, o)
	}
	return true
}

// twineRoles: twine check reads the distributions it names; any other
// command (upload, register) is left unknown.
func (b *roleBuilder) twineRoles() {
	args := b.inv.Args
	for i := 1; i < len(args); i++ {
		if strings.HasPrefix(args[i], "-") {
			continue
		}
		if args[i] != "check" || b.inv.IsDynamic(i) {
			break
		}
		for j := i + 1; j < len(args); j++ {
			if !strings.HasPrefix(args[j], "-") || b.inv.IsDynamic(j) {
				b.add(j, RoleRead, false)
			}
		}
		return
	}
	b.unknown()
}

// nameOptions are options whose value is a name (a crate, a test target,
// a feature, a profile), never a path: cargo test --test '*' names the
// test targets to build, not the files in the directory.
var nameOptions = firstuse.Table[map[string]map[string]bool]{Build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"cargo": wordSet("--test", "--bin", "--bench", "--example", "-p", "--package", "--features", "-F", "--exclude",
			"--target", "--profile", "--cargo-profile", "-j", "--jobs", "--color", "--message-format", "-Z"),
	}
}}

// nameValue reports whether Args[i] is the value of one of the program's
// nameOptions, given as the next word.
func nameValue(inv *shell.Invocation, i int) bool {
	opts := nameOptions.Get()[inv.Name()]
	return opts != nil && i > 1 && !inv.IsDynamic(i-1) && opts[inv.Args[i-1]]
}
