package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"regexp"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is what a program run reads, for the fact-forcing gate: a run
// that only reads or reports shows which files the agent looked at and
// what it searched for, and that is evidence of its investigation. What a
// program reads is program knowledge, so it is kept here, next to what
// the program does, and the gate asks OnlyReads.

// Reading is what one program run that only reads shows: the files it
// reads and the searches of file contents it makes, as written (relative
// paths stay relative to where it runs).
type Reading struct {
	Files    []string
	Searches []ContentSearch
}

// ContentSearch is one search of file contents.
type ContentSearch struct {
	// Tool is the program ("grep", "rg", "git grep").
	Tool string
	// Patterns are what it searches for.
	Patterns []string
	// Paths are where it searches; none means where it runs.
	Paths []string
}

// OnlyReads reports whether a program run only reads files or reports on
// the system or the tree, by its program and arguments (it runs nothing
// and writes no file through its options), and what it reads. The run's
// redirections and the effect of the whole command are the caller's to
// check.
func OnlyReads(inv *shell.Invocation) (Reading, bool) {
	var r Reading
	name := inv.Name()
	args := inv.Args[1:]
	if len(inv.Env) > 0 || RunsThroughOptions(inv) {
		// A variable set for the run may name a pager, a config file or
		// a command (GIT_PAGER, LESSOPEN, RIPGREP_CONFIG_PATH); an option
		// may run a program or write a file (optcmds.go).
		return Reading{}, false
	}
	switch {
	case name == "git":
		sub, rest, ok := GitSubcommand(args)
		if !ok || !readOnlyGit(sub, rest) || gitRunsConfig(args[:len(args)-len(rest)]) {
			return Reading{}, false
		}
		if spec, ok := searchers.Get()["git "+sub]; ok {
			r.search("git "+sub, rest, *spec)
		}
	case searchers.Get()[name] != nil:
		r.search(name, args, *searchers.Get()[name])
	case name == "find":
		if !readOnlyFind(args) {
			return Reading{}, false
		}
	case name == "sed":
		files, ok := sedPrint(args)
		if !ok {
			return Reading{}, false
		}
		r.Files = files
	case fileReaders.Get()[name] != nil:
		r.Files = fileReaders.Get()[name].Parse(args).Operands
	case listers.Get()[name]:
		if name == "hostname" && len(argv.Spec{Short: "F"}.Parse(args).Operands) > 0 {
			// hostname NAME sets the name.
			return Reading{}, false
		}
	default:
		return Reading{}, false
	}
	return r, true
}

// search records a content search: its patterns (-e values, or the first
// operand) and its paths (the other operands). A run with no pattern
// searches nothing.
func (r *Reading) search(tool string, args []string, spec argv.Spec) {
	p := spec.Parse(args)
	patterns := p.Values("-e", "--regexp")
	operands := p.Operands
	if len(patterns) == 0 && len(operands) > 0 {
		patterns, operands = operands[:1], operands[1:]
	}
	if len(patterns) == 0 {
		return
	}
	r.Searches = append(r.Searches, ContentSearch{Tool: tool, Patterns: patterns, Paths: operands})
}

// readOnlyGit reports whether a git subcommand only reads the repository.
func readOnlyGit(sub string, rest []string) bool {
	switch sub {
	case "status", "diff", "log", "show", "blame", "annotate", "ls-files", "ls-tree", "rev-parse",
		"describe", "shortlog", "grep", "cat-file", "rev-list", "merge-base", "whatchanged", "name-rev", "check-ignore":
		// Options that write (--output) or run (--ext-diff) are read
		// from optcmds.go by OnlyReads.
		return true
	case "branch", "tag":
		// Listing only: no operand, and only listing options.
		for _, a := range rest {
			switch {
			case a == "-a" || a == "-r" || a == "-v" || a == "-vv" || a == "--all" || a == "--remotes" || a == "-l" || a == "--list" ||
				a == "--show-current" || a == "--verbose" || a == "-n" || strings.HasPrefix(a, "--sort") || strings.HasPrefix(a, "--format") ||
				strings.HasPrefix(a, "--merged") || strings.HasPrefix(a, "--no-merged") || strings.HasPrefix(a, "--contains") || strings.HasPrefix(a, "--points-at"):
			default:
				return false
			}
		}
		return true
	case "remote":
		return len(rest) == 0 || len(rest) == 1 && rest[0] == "-v" || len(rest) >= 1 && (rest[0] == "show" || rest[0] == "get-url")
	case "config":
		return len(rest) > 0 && (rest[0] == "--get" || rest[0] == "--get-all" || rest[0] == "--list" || rest[0] == "-l" || rest[0] == "--get-regexp")
	case "stash", "worktree":
		return len(rest) > 0 && rest[0] == "list"
	case "reflog":
		return len(rest) == 0 || rest[0] == "show"
	}
	return false
}

// gitRunsConfig reports whether git's global options (before the
// subcommand) set configuration or where git finds its programs: -c,
// --config-env and --exec-path can make any subcommand run a program
// (core.pager, core.fsmonitor, diff.external).
func gitRunsConfig(global []string) bool {
	for _, a := range global {
		if a == "-c" || strings.HasPrefix(a, "-c") && len(a) > 2 && a[2] != '-' || hasOption([]string{a}, "--config-env", "--exec-path") {
			return true
		}
	}
	return false
}

// readOnlyFind reports whether a find only lists: no action that runs a
// program, deletes or writes a file.
func readOnlyFind(args []string) bool {
	for _, a := range args {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
			return false
		}
	}
	return true
}

// sedPrintScript is a sed script that only prints lines: "p", "5p",
// "1,20p", "$p", "/re/p". Compiled on first use: the hook runs this
// package's initialisation on every call, and the gate is off by default.
var sedPrintScript = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^((\d+|\$|/[^/]*/)(,(\d+|\$|/[^/]*/))?)?p$`)
}}

// sedPrint reports whether a sed run only prints lines of files (sed -n
// 'a,bp' file), returning the files.
func sedPrint(args []string) ([]string, bool) {
	p := argv.Spec{Short: "ef", Long: []string{"--expression", "--file"}}.Parse(args)
	if !p.Has("-n", "--quiet", "--silent") || p.Has("-i", "--in-place", "-f", "--file") {
		return nil, false
	}
	scripts := p.Values("-e", "--expression")
	files := p.Operands
	if len(scripts) == 0 {
		if len(files) == 0 {
			return nil, false
		}
		scripts, files = files[:1], files[1:]
	}
	for _, s := range scripts {
		if !sedPrintScript.Get().MatchString(strings.TrimSpace(s)) {
			return nil, false
		}
	}
	return files, true
}

// hasOption reports whether args hold one of the options, alone or with
// an attached value (--output=FILE).
func hasOption(args []string, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") {
				return true
			}
		}
	}
	return false
}

// fileReaders read the files named as operands and print to standard
// output; the spec says which options take a value.
var fileReaders = firstuse.Table[map[string]*argv.Spec]{Build: func() map[string]*argv.Spec {
	return map[string]*argv.Spec{
		"cat": {}, "tac": {}, "nl": {Short: "bdfhilnsvw"}, "head": {Short: "nc"}, "tail": {Short: "ncs"},
		"less": {}, "more": {}, "bat": {Short: "lmrH", Long: []string{"--language", "--line-range", "--highlight-line", "--style", "--theme"}},
		"wc": {}, "file": {}, "stat": {Short: "c", Long: []string{"--format", "--printf"}}, "od": {Short: "AjNtw"},
		"hexdump": {Short: "eFns"}, "xxd": {Short: "cglosS"}, "strings": {Short: "nt"},
		"md5sum": {}, "sha1sum": {}, "sha256sum": {}, "sha512sum": {}, "cksum": {},
		"jq": {}, "diff": {}, "cmp": {}, "cut": {Short: "bcdf"}, "column": {}, "tr": {},
	}
}}

// listers report on the system or the tree and read nothing that counts
// as evidence of what a file says.
var listers = firstuse.Table[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"ls": true, "pwd": true, "cd": true, "tree": true, "which": true, "type": true, "whereis": true,
		"whoami": true, "id": true, "date": true, "uname": true, "hostname": true, "printenv": true,
		"echo": true, "printf": true, "true": true, "false": true, "test": true, "[": true,
		"du": true, "df": true, "realpath": true, "readlink": true, "dirname": true, "basename": true,
		"sort": true, "comm": true, "fd": true, "locate": true,
	}
}}

// grepOptions is grep's options that take a value (git grep shares them).
var grepOptions = argv.Spec{Short: "efmABCdD", Long: []string{
	"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
	"--devices", "--directories", "--include", "--exclude", "--exclude-dir", "--label", "--threads",
}}

// searchers search file contents.
var searchers = firstuse.Table[map[string]*argv.Spec]{Build: func() map[string]*argv.Spec {
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
}}
