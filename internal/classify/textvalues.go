package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// gitMessageSubs are the git subcommands whose -m (--message) value is
// text that goes into the local repository only: a commit, tag, merge or
// note message. Nothing is sent anywhere until a push, which is rated on
// its own.
func gitMessageSubs(name string) bool {
	switch name {
	case "commit", "tag", "merge", "notes", "stash", "commit-tree":
		return true
	}
	return false
}

// gitMessage reports whether Args[i] of a git run is the value of a
// message option of a subcommand in gitMessageSubs (git commit -m "see
// https://x/$(git rev-parse HEAD)"): text recorded in history, not a URL
// that is fetched.
func gitMessage(inv *shell.Invocation, i int) bool {
	if inv.Name() != "git" || i <= 1 || i >= len(inv.Args) {
		return false
	}
	sub, rest, ok := GitSubcommand(inv.Args[1:])
	if !ok || !gitMessageSubs(sub) {
		return false
	}
	first := len(inv.Args) - len(rest) // index of rest[0] in Args
	if i < first {
		return false
	}
	for k := first; k < i; k++ {
		if inv.Args[k] == "--" {
			return false // after "--" words are paths
		}
	}
	a, prev := inv.Args[i], inv.Args[i-1]
	switch {
	case i-1 >= first && (prev == "-m" || prev == "-am" || prev == "--message") && !inv.IsDynamic(i-1):
		return true
	case strings.HasPrefix(a, "--message="):
		return true
	case strings.HasPrefix(a, "-m") && !strings.HasPrefix(a, "--"):
		return true
	}
	return false
}

// cpuCounts are command substitutions that print the machine's number of
// processors, and nothing else: make -j"$(nproc)" runs the targets it
// names, however many at once.
func cpuCounts(name string) bool {
	switch name {
	case "nproc", "nproc --all", "getconf _NPROCESSORS_ONLN", "getconf NPROCESSORS_ONLN",
		"sysctl -n hw.ncpu", "sysctl -n hw.logicalcpu", "sysctl -n hw.physicalcpu":
		return true
	}
	return false
}

// cpuCount reports whether a word is one command substitution from
// cpuCounts, quoted or not ("$(nproc)", $(nproc), `nproc`).
func cpuCount(w string) bool {
	if len(w) >= 2 && w[0] == '"' && w[len(w)-1] == '"' {
		w = w[1 : len(w)-1]
	}
	switch {
	case strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")"):
		w = w[2 : len(w)-1]
	case len(w) >= 2 && w[0] == '`' && w[len(w)-1] == '`':
		w = w[1 : len(w)-1]
	default:
		return false
	}
	return cpuCounts(strings.Join(strings.Fields(w), " "))
}

// makeDynamic reports whether a make run is given a word computed at run
// time that can change which targets or makefiles run. The number of
// jobs or the load limit (-j"$(nproc)", -l $(nproc)) cannot, when it is a
// processor count from cpuCounts.
func makeDynamic(inv *shell.Invocation) bool {
	for i := 1; i < len(inv.Args); i++ {
		if !inv.IsDynamic(i) {
			continue
		}
		a := inv.Args[i]
		if makeVariable(a) && !makeControlVariable(a) {
			// NAME=$HOME/.local: a variable's value, which make gets
			// from the shell and its recipes read (makeArgs).
			continue
		}
		if v, ok := cutAny(a, "-j", "-l", "--jobs=", "--load-average="); ok && cpuCount(v) {
			continue
		}
		if p := inv.Args[i-1]; !inv.IsDynamic(i-1) && (p == "-j" || p == "-l" || p == "--jobs" || p == "--load-average") && cpuCount(a) {
			continue
		}
		return true
	}
	return false
}

// makeControlVariable reports a variable word whose value changes which
// targets or makefiles make runs, or its options (.DEFAULT_GOAL=$X,
// MAKEFLAGS=$X): computed at run time, the run is unknown.
func makeControlVariable(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch strings.TrimRight(name, ":+?!") {
	case ".DEFAULT_GOAL", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKECMDGOALS", "MAKEFILES", "MAKEFILE_LIST", "VPATH", ".INCLUDE_DIRS":
		return true
	}
	return false
}

// cutAny cuts the first of the prefixes that w starts with.
func cutAny(w string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if strings.HasPrefix(w, p) {
			return w[len(p):], true
		}
	}
	return "", false
}
