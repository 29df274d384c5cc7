package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file keeps airlock from assuming that a program it does not know
// runs nothing. A program without a spec is looked through: if any tail
// of its argument vector is a program airlock knows (strace -f git push,
// taskset -c 1 npm publish, with-lock /tmp/l npm publish), or an argument
// is shell text that starts with one (tmux new -d 'git push'), the run is
// rated as that command, through a wrapper. The only programs exempt are
// the inert ones: programs known never to run their arguments (echo, grep,
// ls), whose arguments are data.

// wrapperNames are the programs of wrapTable (wraptable.go): programs
// known to run the command in their arguments that package shell does
// not itself see through. Together with shell.Unwraps they are airlock's
// one table of wrappers, which the scanner asks through IsWrapper. A
// program missing here is still looked through (see lookThrough); the
// table names what is known.
var wrapperNames = firstuse.Table[map[string]bool]{Build: func() map[string]bool {
	out := map[string]bool{}
	for name := range wrapTable.Get() {
		out[name] = true
	}
	return out
}}

// runSubcommands are known programs whose subcommand runs the command
// after it (pipx run twine upload, conda run -n env cmd); the spec of the
// program itself does not rate what runs.
var runSubcommands = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"pipx": "run", "conda": "run", "mamba": "run", "micromamba": "run", "pdm": "run", "hatch": "run",
		"rye": "run", "pixi": "run", "mise": "exec", "asdf": "exec", "rbenv": "exec", "pyenv": "exec",
		"direnv": "exec", "aws-vault": "exec", "op": "run", "doppler": "run", "infisical": "run",
		"dotenvx": "run", "nix": "develop", "devbox": "run", "flox": "activate",
	}
}}

// runSubcommand rates the command a known program's run subcommand runs.
func (c *Classifier) runSubcommand(inv *shell.Invocation) Effect {
	sub, ok := runSubcommands.Get()[inv.Name()]
	if !ok || specFor(inv.Name()) == nil {
		return nothing
	}
	for i := 1; i < len(inv.Args); i++ {
		if inv.Args[i] == sub && !inv.IsDynamic(i) {
			t := *inv
			t.Args = append([]string{inv.Name()}, inv.Args[i+1:]...)
			t.Dynamic = nil
			if len(inv.Dynamic) > i {
				t.Dynamic = append([]bool{false}, inv.Dynamic[i+1:]...)
			}
			// The word right after the subcommand, when it is no option,
			// is the command: a program known to take its arguments as
			// data (pdm run pytest -n auto) is rated as itself, so a word
			// among its arguments is not taken for a program. Otherwise
			// the words are looked through as an unknown program's would
			// be (conda run -n env cmd).
			// A script file (pdm run x.py, pipx run x.py) is read as
			// python3 x.py is (runnerfiles.go).
			if se, ok := c.runnerScript(inv, i+1, "", ""); ok {
				return se
			}
			if len(t.Args) > 1 && !t.IsDynamic(1) && inertNames.Get()[t.Args[1]] {
				return c.nestedRun(inv, t.Text(1))
			}
			return c.lookThroughFrom(&t, inv, inv.Name()+" "+sub)
		}
		if !strings.HasPrefix(inv.Args[i], "-") {
			return nothing
		}
	}
	return nothing
}

// IsWrapper reports whether a program runs a command given in its
// arguments: the wrappers package shell unwraps and those classify looks
// through by name. The scanner uses it to find commands after a wrapper
// word in text.
func IsWrapper(name string) bool {
	return wrapperNames.Get()[name] || shell.Unwraps(name)
}

// LooksThrough reports whether classify rates a run of the program by the
// commands found among its arguments: a wrapper, or a program with no spec
// that is not known to treat its arguments as data. Self-protection checks
// those commands too (strace -f airlock queue approve ID). An agent with
// no airlock hook has a spec (nestedagents.go) and is still looked
// through, as it was before it had one.
func LooksThrough(name string) bool {
	_, hookless := hooklessAgents.Get()[name]
	return IsWrapper(name) || (specFor(name) == nil || hookless) && !inertNames.Get()[name]
}

// inertNames are programs known never to run their arguments as a
// command: their arguments are data, so a program name among them
// (echo git push, grep -r 'npm publish') is not a run.
var inertNames = firstuse.Table[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"echo": true, "printf": true, "cat": true, "tac": true, "ls": true, "dir": true, "grep": true, "egrep": true,
		"fgrep": true, "rg": true, "ag": true, "ack": true, "head": true, "tail": true, "wc": true, "sort": true,
		"uniq": true, "cut": true, "tr": true, "diff": true, "cmp": true, "comm": true, "file": true, "stat": true,
		"du": true, "df": true, "pwd": true, "cd": true, "pushd": true, "popd": true, "mkdir": true, "touch": true,
		"cp": true, "ln": true, "basename": true, "dirname": true, "realpath": true, "readlink": true,
		"which": true, "whereis": true, "type": true, "hash": true, "test": true, "[": true, "[[": true,
		"true": true, "false": true, ":": true, "sleep": true, "date": true, "jq": true, "yq": true, "less": true,
		"more": true, "man": true, "info": true, "tldr": true, "whatis": true, "apropos": true, "help": true,
		"tee": true, "column": true, "fold": true, "fmt": true, "nl": true, "paste": true, "join": true,
		"expand": true, "unexpand": true, "rev": true, "shuf": true, "seq": true, "yes": true, "od": true,
		"hexdump": true, "xxd": true, "strings": true, "base64": true, "base32": true, "md5sum": true,
		"sha1sum": true, "sha256sum": true, "sha512sum": true, "cksum": true, "b2sum": true, "gzip": true,
		"gunzip": true, "zcat": true, "bzip2": true, "xz": true, "unxz": true, "zstd": true, "zip": true,
		"unzip": true, "7z": true, "tree": true, "exa": true, "eza": true, "bat": true, "fd": true, "fzf": true,
		"ps": true, "pgrep": true, "top": true, "htop": true, "free": true, "uptime": true, "uname": true,
		"whoami": true, "id": true, "groups": true, "hostname": true, "tty": true, "locale": true,
		"printenv": true, "export": true, "unset": true, "set": true, "shift": true, "read": true,
		"local": true, "declare": true, "typeset": true, "readonly": true, "return": true, "exit": true,
		"break": true, "continue": true, "wait": true, "trap": true, "umask": true, "ulimit": true,
		"shopt": true, "getopts": true, "let": true, "history": true, "jobs": true, "fg": true, "bg": true,
		"disown": true, "mktemp": true, "tput": true, "clear": true, "reset": true, "stty": true, "wl-copy": true,
		"pbcopy": true, "xclip": true, "xsel": true, "notify-send": true, "say": true, "cowsay": true,
		"figlet": true, "lolcat": true, "rmdir": true, "chmod": true, "install": true, "mkfifo": true,
		"vim": true, "vi": true, "nvim": true, "nano": true, "emacs": true, "code": true, "gofmt": true,
		"goimports": true, "prettier": true, "eslint": true, "tsc": true, "black": true, "ruff": true,
		"isort": true, "mypy": true, "pylint": true, "flake8": true, "rustfmt": true, "clang-format": true,
		"shellcheck": true, "shfmt": true, "gcc": true, "g++": true, "cc": true, "c++": true, "clang": true,
		"clang++": true, "rustc": true, "javac": true, "java": true, "kotlinc": true, "swiftc": true,
		"ld": true, "ar": true, "nm": true, "objdump": true, "readelf": true, "strip": true, "pkg-config": true,
		"cmake": true, "ninja": true, "meson": true, "bazel": true, "pytest": true, "jest": true, "vitest": true,
		"mocha": true, "rspec": true, "phpunit": true, "tox": true, "nox": true, "ctest": true,
		"awk": true, "gawk": true, "mawk": true, "nawk": true, "sed": true, "gsed": true, "envsubst": true,
		"iconv": true, "dos2unix": true, "unix2dos": true, "patch": true, "csplit": true, "split": true,
		"numfmt": true, "factor": true, "expr": true, "bc": true, "dc": true, "cal": true, "look": true,
		"lsof": true, "netstat": true, "ss": true, "ifconfig": true, "lsblk": true, "blkid": true, "findmnt": true,
		"journalctl": true, "dmesg": true, "last": true, "w": true, "who": true,
		"airlock": true, "airlock-mcp": true, "go": true, "make": true, "just": true, "task": true, "rake": true, "tmux-ls": true,
	}
}}

// releaseVerbs are words that, as the verb of a program airlock does not
// know, say the program writes beyond the machine.
func releaseVerbs(name string) bool {
	switch name {
	case "publish", "push", "deploy", "release", "upload", "ship":
		return true
	}
	return false
}

// verbLike are program names that are also everyday verbs and nouns of
// other programs' command lines (ngrok http 3000, devtunnel host, foo
// init): among an unknown program's arguments they are not taken for a
// command.
func verbLike(name string) bool {
	switch name {
	case "http", "https", "host", "init", "service", "port", "r", "mail", "kill", "find", "halt", "mount",
		"security", "defaults", "run", "exec", "time", "command", "source", ".", "builtin":
		return true
	}
	return false
}

// runsCommand reports whether a word names a program airlock knows
// something about: a spec, a wrapper or a shell. Such a word among an
// unknown program's arguments starts the command it runs.
func runsCommand(word string) bool {
	if word == "" || strings.HasPrefix(word, "-") || strings.ContainsAny(word, " \t\n=:@") {
		return false
	}
	name := normWord(word)
	if verbLike(name) {
		return false
	}
	// A build tool runs the project's code (buildtools.go): mise exec --
	// zig build is zig build.
	_, build := buildTools.Get()[name]
	return specFor(name) != nil || IsWrapper(name) || build
}

// normWord is package shell's normalisation of a command word.
func normWord(w string) string {
	if i := strings.LastIndexAny(w, `/\`); i >= 0 && i < len(w)-1 {
		w = w[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(w), ".exe")
}

// lookThrough rates a program without a spec by what its arguments run.
// known says whether it is in the wrapper table, for the reason.
func (c *Classifier) lookThrough(inv *shell.Invocation) Effect {
	name := inv.Name()
	if e, ok := c.wrapped(inv); ok { // wraptable.go
		return e
	}
	if strings.Contains(inv.Args[0], "{}") && slices.ContainsFunc(inv.Via, func(v string) bool { return strings.HasPrefix(v, "find ") }) {
		return opaque("wrapper.found", inv.Via[len(inv.Via)-1]+" "+clip(inv.Args[0])+" runs each file find finds as a program: which files, and what they do, is known only at run time; run the files by name")
	}
	if inertNames.Get()[name] {
		return nothing
	}
	if lwpAlias(inv) {
		return classifyLWP(c, inv) // netchannels.go: GET, POST, PUT
	}
	what := "the program " + name + ", which airlock does not know,"
	if wrapperNames.Get()[name] {
		what = "the wrapper " + name
	}
	if name == "at" || name == "batch" {
		// They read the job they schedule from their input or -f FILE
		// (schedule.go).
		return c.atJob(inv)
	}
	e := c.lookThroughArgs(inv, what)
	if e.Reasons != nil {
		return e
	}
	if wrapperNames.Get()[name] {
		return nothing
	}
	if u := unknownUpload(inv); u.Reasons != nil {
		return u
	}
	for i, a := range inv.Args[1:] {
		if i >= 3 {
			break
		}
		if releaseVerbs(strings.ToLower(a)) && !inv.IsDynamic(i+1) {
			return opaque("unknown.publish-verb", "the program "+name+", which airlock does not know, is asked to "+strings.ToLower(a)+": what it sends, and where, cannot be known")
		}
	}
	return nothing
}

// through adds, to the effect of a command found inside another, the
// reason naming what it was found through. A local, plain command adds
// nothing, so the benign case stays quiet.
func (e Effect) through(rule, msg string) Effect {
	if e.Tier == Local && !e.Destructive && !e.Opaque && !e.NetworkRead {
		return nothing
	}
	e.Reasons = append([]Reason{{rule, msg}}, e.Reasons...)
	return e
}

// lookThroughArgs looks for a known command among the arguments of a run:
// the first tail that is one, or shell text given as an argument. what
// names the runner for the reason.
func (c *Classifier) lookThroughArgs(inv *shell.Invocation, what string) Effect {
	return c.lookThroughFrom(inv, inv, what)
}

// lookThroughFrom is lookThroughArgs of args, the words of the run runner
// of the command (conda run's words after run): the command found runs
// as a part of runner's command (nestedRun).
func (c *Classifier) lookThroughFrom(args, runner *shell.Invocation, what string) Effect {
	inv := args
	var e Effect
	for i := 1; i < len(inv.Args); i++ {
		if inv.IsDynamic(i) {
			continue
		}
		a := inv.Args[i]
		if runsCommand(a) {
			// The first tail that does something is the command; a tail
			// that does nothing may be an option's value (watchexec -e go
			// 'npm publish'), so the search goes on.
			tail := inv.Text(i)
			if t := c.nestedRun(runner, tail).through("wrapper.argv", what+" runs the command in its arguments: "+clip(tail)); t.Reasons != nil {
				e.Add(t)
				return e
			}
			continue
		}
		// A script of the project among the words is read as run by
		// the program (wraptable.go): taskset -c 0 ./x.sh.
		if t, ok := c.scriptOperand(inv, runner, i, what); ok {
			if t.Reasons != nil {
				e.Add(t)
				return e
			}
			continue
		}
		if first, _, ok := strings.Cut(strings.TrimLeft(a, " \t\n"), " "); ok && !strings.ContainsAny(first, `/\`) && runsCommand(first) {
			e.Add(c.nested(a).through("wrapper.text", what+" runs shell text given as an argument: "+clip(a)))
		}
	}
	return e
}

// beyondSpec lists programs whose rating takes more than their spec's
// Classify: task runners whose files are followed, programs that run
// commands hidden in their configuration, and programs that write files
// which run later.
func beyondSpec(name string) bool {
	switch name {
	case "npm", "yarn", "yarnpkg", "pnpm", "bun", "make", "gmake", "just", "task", "go-task", "rake",
		"ssh", "scp", "sftp", "sshfs", "autossh", "ssh-copy-id", "rsync", "tee", "cp", "mv", "install", "ln",
		"sed", "gsed", "perl", "crontab", "pipx", "conda", "mamba", "micromamba", "pdm", "hatch", "rye",
		"pixi", "mise", "asdf", "rbenv", "pyenv", "direnv", "aws-vault", "op", "doppler", "infisical",
		"dotenvx", "nix", "devbox", "flox", "cargo", "pre-commit", "tox", "nox", "npx", "bunx", "pnpx",
		"systemctl", "launchctl":
		return true
	}
	return false
}

// RatesAlone reports whether a program's spec alone rates a plain run of
// it (Spec.Classify, without the checks Command adds: followed files,
// hidden configuration, files that run later). The scanner's fast path
// uses only such programs.
func RatesAlone(name string) bool {
	_, run := runSubcommands.Get()[name]
	return specFor(name) != nil && !beyondSpec(name) && !run && !isShell(name)
}
