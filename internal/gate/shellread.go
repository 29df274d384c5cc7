package gate

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/shell"
)

// shellFacts is what a shell command shows about the agent's
// investigation: whether it only reads, and the files it reads and the
// searches it runs when it does.
type shellFacts struct {
	readOnly bool
	reads    []string
	searches []Search
}

// Per-command bounds on what one command adds to the ledger.
const (
	maxReadsPerCommand    = 20
	maxSearchesPerCommand = 8
)

// readShell looks at a classified command. A command is read-only when
// every program run in it is one that only reads or reports (listed in
// readOnlyPrograms, or a read-only git subcommand), nothing is opaque,
// destructive or beyond the machine, and no redirection writes a file.
// Such commands never trigger the routine Bash gate, and their reads and
// searches are evidence.
func readShell(r *classify.Result, cwd string) shellFacts {
	var f shellFacts
	if r == nil || len(r.Invocations) == 0 || r.Opaque || r.Destructive || r.NetworkRead || r.Tier != classify.Local {
		return f
	}
	for i := range r.Invocations {
		inv := &r.Invocations[i].Invocation
		if inv.Opaque != "" || inv.Remote != "" || writesFile(inv) {
			return shellFacts{}
		}
		name := inv.Name()
		args := inv.Args[1:]
		switch {
		case name == "git":
			sub, rest, ok := classify.GitSubcommand(args)
			if !ok || !readOnlyGit(sub, rest) {
				return shellFacts{}
			}
			if spec, ok := classify.SearchesContent("git " + sub); ok {
				f.addSearch(inv, "git "+sub, rest, spec, cwd)
			}
		case isSearch(name):
			if name == "rg" && hasAny(args, "--pre", "--search-zip", "-z") {
				// --pre runs a program on every file.
				return shellFacts{}
			}
			spec, _ := classify.SearchesContent(name)
			f.addSearch(inv, name, args, spec, cwd)
		case name == "find":
			if !readOnlyFind(args) {
				return shellFacts{}
			}
		case name == "sed":
			files, ok := sedPrint(args)
			if !ok {
				return shellFacts{}
			}
			f.addReads(inv, files, cwd)
		case isReader(name):
			spec, _ := classify.ReadsFiles(name)
			f.addReads(inv, spec.Parse(args).Operands, cwd)
		case classify.OnlyLists(name):
			if name == "sort" && hasAny(args, "-o", "--output") || name == "fd" && hasAny(args, "-x", "-X", "--exec", "--exec-batch") {
				return shellFacts{}
			}
		default:
			return shellFacts{}
		}
	}
	f.readOnly = true
	return f
}

// writesFile reports whether a run redirects output into a file; writing
// to a descriptor or /dev/null does not count.
func writesFile(inv *shell.Invocation) bool {
	for _, rd := range inv.Redirects {
		if !rd.Writes() {
			continue
		}
		t := rd.Target
		if rd.Dynamic {
			return true
		}
		if t == "/dev/null" || t == "/dev/stdout" || t == "/dev/stderr" || t == "-" || isDigits(t) {
			continue
		}
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func hasAny(args []string, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") {
				return true
			}
		}
	}
	return false
}

// readOnlyGit reports whether a git subcommand only reads the repository.
func readOnlyGit(sub string, rest []string) bool {
	switch sub {
	case "status", "diff", "log", "show", "blame", "annotate", "ls-files", "ls-tree", "rev-parse",
		"describe", "shortlog", "grep", "cat-file", "rev-list", "merge-base", "whatchanged", "name-rev", "check-ignore":
		// --output writes the result to a file.
		return !hasAny(rest, "--output")
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
var sedPrintScript = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^((\d+|\$|/[^/]*/)(,(\d+|\$|/[^/]*/))?)?p$`)
})

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
		if !sedPrintScript().MatchString(strings.TrimSpace(s)) {
			return nil, false
		}
	}
	return files, true
}

// isReader and isSearch ask classify, which owns what programs read
// (classify.ReadsFiles, classify.SearchesContent), so the gate counts as
// evidence only what the classifier also rates as a plain read.
func isReader(name string) bool { _, ok := classify.ReadsFiles(name); return ok }

func isSearch(name string) bool { _, ok := classify.SearchesContent(name); return ok }

// addSearch records a content search: its patterns (-e values, or the
// first operand) and its paths (the other operands).
func (f *shellFacts) addSearch(inv *shell.Invocation, tool string, args []string, spec argv.Spec, cwd string) {
	if len(f.searches) >= maxSearchesPerCommand {
		return
	}
	p := spec.Parse(args)
	patterns := p.Values("-e", "--regexp")
	operands := p.Operands
	if len(patterns) == 0 && len(operands) > 0 {
		patterns, operands = operands[:1], operands[1:]
	}
	if len(patterns) == 0 {
		return
	}
	s := Search{Tool: tool, Pattern: strings.Join(patterns, " "), Content: true}
	for _, o := range operands {
		s.Paths = append(s.Paths, absUnder(o, cwd))
	}
	if len(s.Paths) == 0 && cwd != "" {
		s.Paths = []string{filepath.Clean(cwd)}
	}
	f.searches = append(f.searches, s)
}

func (f *shellFacts) addReads(inv *shell.Invocation, files []string, cwd string) {
	for _, name := range files {
		if len(f.reads) >= maxReadsPerCommand {
			return
		}
		if name == "-" || name == "" {
			continue
		}
		f.reads = append(f.reads, absUnder(name, cwd))
	}
}

// absUnder makes p absolute against cwd.
func absUnder(p, cwd string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}
