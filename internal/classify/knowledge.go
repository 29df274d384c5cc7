package classify

import (
	"sort"
	"sync"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is what classify tells the other stages about programs,
// besides an effect: which programs wrap a command, which reach other
// running processes, which only read the files they name, and where git's
// subcommand is. The gate, self-protection and the scanner ask here
// instead of keeping lists of their own, so a program learnt once is
// known to every stage (a tracer added as a wrapper is also a tracer
// self-protection refuses to point at airlock). The tables are built on
// first use: the hook runs this package's initialisation on every call.

// Wrappers lists, sorted, every program airlock knows to run the command
// in its arguments: those package shell unwraps and those classify looks
// through by name (IsWrapper reports the same set).
func Wrappers() []string {
	out := shell.Unwrapped()
	for name := range wrapperNames() {
		if !shell.Unwraps(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// ProcessReach is how a program reaches running processes it did not
// start: what self-protection must read to know whether airlock's own
// processes are among them.
type ProcessReach uint8

// The ways a program reaches other processes.
const (
	// ReachNone: the program does not signal or attach to processes.
	ReachNone ProcessReach = iota
	// ReachPID signals the PIDs (or -PGIDs, or -1 for every process)
	// given as operands: kill.
	ReachPID
	// ReachPattern signals the processes whose name or command line
	// matches a pattern (or every process of a user, or the PIDs in a
	// file): pkill.
	ReachPattern
	// ReachName signals processes by name, or by a pattern with -r:
	// killall.
	ReachName
	// ReachAttach attaches a debugger or tracer to a process given with
	// -p, --pid, --attach-pid or --attach-name: it can read and rewrite
	// the process's memory.
	ReachAttach
	// ReachDump dumps the memory of the PIDs given as operands: gcore.
	ReachDump
)

// processReach is the table behind Reaches.
var processReach = sync.OnceValue(func() map[string]ProcessReach {
	return map[string]ProcessReach{
		"kill":    ReachPID,
		"pkill":   ReachPattern,
		"killall": ReachName,
		"gdb":     ReachAttach, "lldb": ReachAttach, "strace": ReachAttach, "ltrace": ReachAttach,
		"ltrace64": ReachAttach, "dtruss": ReachAttach,
		"gcore": ReachDump,
	}
})

// Reaches reports how a program reaches running processes it did not
// start.
func Reaches(name string) ProcessReach { return processReach()[name] }

// ProcessPrograms lists, sorted, every program Reaches knows.
func ProcessPrograms() []string {
	var out []string
	for name := range processReach() {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// GitSubcommand finds git's subcommand in git's arguments (without the
// program name), past git's own options, with the options that take a
// value known so that "git -C push status" is a status. ok is false when
// there is no subcommand.
func GitSubcommand(args []string) (sub string, rest []string, ok bool) {
	p := gitGlobal.Parse(args)
	if p.Rest >= len(args) {
		return "", nil, false
	}
	return args[p.Rest], args[p.Rest+1:], true
}

// gitHistory are git subcommands that change the repository's history,
// refs or configuration rather than the worktree's files.
var gitHistory = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"branch": true, "reflog": true, "gc": true, "prune": true, "update-ref": true,
		"filter-branch": true, "filter-repo": true, "tag": true, "replace": true, "worktree": true, "symbolic-ref": true,
		"notes": true, "rebase": true, "commit": true, "push": true, "stash": true, "checkout-index": true, "read-tree": true,
		"remote": true, "config": true, "lfs": true, "submodule": true, "rm": true, "mv": true,
		"merge": true, "cherry-pick": true, "revert": true, "commit-tree": true, "pull": true}
})

// GitChangesHistory reports whether a git subcommand changes the
// repository's history, refs or configuration: what it destroys is not
// brought back by a snapshot of the worktree's files. Every subcommand
// classify rates as changing history is one.
func GitChangesHistory(sub string) bool { return gitHistory()[sub] }

// fileReaders read the files named as operands and print to standard
// output; the spec says which options take a value.
var fileReaders = sync.OnceValue(func() map[string]*argv.Spec {
	return map[string]*argv.Spec{
		"cat": {}, "tac": {}, "nl": {Short: "bdfhilnsvw"}, "head": {Short: "nc"}, "tail": {Short: "ncs"},
		"less": {}, "more": {}, "bat": {Short: "lmrH", Long: []string{"--language", "--line-range", "--highlight-line", "--style", "--theme"}},
		"wc": {}, "file": {}, "stat": {Short: "c", Long: []string{"--format", "--printf"}}, "od": {Short: "AjNtw"},
		"hexdump": {Short: "eFns"}, "xxd": {Short: "cglosS"}, "strings": {Short: "nt"},
		"md5sum": {}, "sha1sum": {}, "sha256sum": {}, "sha512sum": {}, "cksum": {},
		"jq": {}, "diff": {}, "cmp": {}, "cut": {Short: "bcdf"}, "column": {}, "tr": {},
	}
})

// ReadsFiles reports whether a program only reads the files named as its
// operands and prints to standard output, with the spec of its options
// that take a value (so that the files are told from the values).
func ReadsFiles(name string) (argv.Spec, bool) {
	s, ok := fileReaders()[name]
	if !ok {
		return argv.Spec{}, false
	}
	return *s, true
}

// listers report on the system or the tree and read nothing that counts
// as evidence of what a file says.
var listers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ls": true, "pwd": true, "cd": true, "tree": true, "which": true, "type": true, "whereis": true,
		"whoami": true, "id": true, "date": true, "uname": true, "hostname": true, "printenv": true,
		"echo": true, "printf": true, "true": true, "false": true, "test": true, "[": true,
		"du": true, "df": true, "realpath": true, "readlink": true, "dirname": true, "basename": true,
		"sort": true, "comm": true, "fd": true, "locate": true,
	}
})

// OnlyLists reports whether a program only reports on the system or the
// tree (ls, pwd, which): it reads no file's contents. Options that write
// (sort -o, fd -x) are the caller's to refuse.
func OnlyLists(name string) bool { return listers()[name] }

// grepOptions is grep's options that take a value (git grep shares them).
var grepOptions = argv.Spec{Short: "efmABCdD", Long: []string{
	"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
	"--devices", "--directories", "--include", "--exclude", "--exclude-dir", "--label", "--threads",
}}

// searchers search file contents.
var searchers = sync.OnceValue(func() map[string]*argv.Spec {
	return map[string]*argv.Spec{
		"grep": &grepOptions, "egrep": &grepOptions, "fgrep": &grepOptions, "git grep": &grepOptions,
		"rg": {Short: "efgtTABCmMjEdr", Long: []string{
			"--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--after-context", "--before-context",
			"--context", "--max-count", "--max-columns", "--threads", "--encoding", "--max-depth", "--replace", "--type-add",
			"--max-filesize", "--path-separator", "--sort", "--sortr", "--color", "--colors", "--context-separator",
		}},
		"ag":  {Short: "ABCGgmp", Long: []string{"--after", "--before", "--context", "--file-search-regex", "--max-count", "--ignore", "--depth", "--path-to-ignore"}},
		"ack": {Short: "ABCmg", Long: []string{"--after-context", "--before-context", "--context", "--max-count", "--type", "--ignore-dir", "--ignore-file", "--match"}},
	}
})

// SearchesContent reports whether a program (or "git grep") searches file
// contents for a pattern, with the spec of its options that take a value,
// so that the pattern and the paths are told apart.
func SearchesContent(name string) (argv.Spec, bool) {
	s, ok := searchers()[name]
	if !ok {
		return argv.Spec{}, false
	}
	return *s, true
}
