package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"sort"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is what classify tells the other stages about programs,
// besides an effect: which programs wrap a command, which reach other
// running processes, where git's subcommand is and which subcommands
// change history; reads.go adds what a run that only reads reads. The
// gate, self-protection and the scanner ask here instead of keeping lists
// of their own, so a program learnt once is known to every stage (a
// tracer added as a wrapper is also a tracer self-protection refuses to
// point at airlock). The tables are built on first use: the hook runs
// this package's initialisation on every call.

// Wrappers lists, sorted, every program airlock knows to run the command
// in its arguments: those package shell unwraps and those classify looks
// through by name (IsWrapper reports the same set).
func Wrappers() []string {
	out := shell.Unwrapped()
	for name := range wrapperNames.Get() {
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
var processReach = firstuse.Table[map[string]ProcessReach]{Build: func() map[string]ProcessReach {
	return map[string]ProcessReach{
		"kill":    ReachPID,
		"pkill":   ReachPattern,
		"killall": ReachName,
		// skill selects by command name (skill -STOP airlock); killall5
		// signals every process but its own session's: with no name, it
		// is held as a signal to every process.
		"skill": ReachName, "killall5": ReachName,
		"gdb": ReachAttach, "lldb": ReachAttach, "strace": ReachAttach, "ltrace": ReachAttach,
		"ltrace64": ReachAttach, "dtruss": ReachAttach,
		"gcore": ReachDump,
	}
}}

// Reaches reports how a program reaches running processes it did not
// start.
func Reaches(name string) ProcessReach { return processReach.Get()[name] }

// ProcessPrograms lists, sorted, every program Reaches knows.
func ProcessPrograms() []string {
	var out []string
	for name := range processReach.Get() {
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
func gitHistory(name string) bool {
	switch name {
	case "branch", "reflog", "gc", "prune", "update-ref", "filter-branch", "filter-repo", "tag", "replace",
		"worktree", "symbolic-ref", "notes", "rebase", "commit", "push", "stash", "checkout-index",
		"read-tree", "remote", "config", "lfs", "submodule", "rm", "mv", "merge", "cherry-pick", "revert",
		"commit-tree", "pull", "fast-import", "replay", "refs", "receive-pack", "archimport", "quiltimport",
		"cvsimport", "merge-ours", "merge-recursive", "merge-resolve", "merge-octopus", "merge-subtree",
		"pack-refs", "repack", "prune-packed", "update-index":
		return true
	}
	return false
}

// GitChangesHistory reports whether a git subcommand changes the
// repository's history, refs or configuration: what it destroys is not
// brought back by a snapshot of the worktree's files. Every subcommand
// classify rates as changing history is one.
func GitChangesHistory(sub string) bool { return gitHistory(sub) }
