package gate

import (
	"path/filepath"
	"strings"

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
// every program run in it is one that only reads or reports (what
// classify.OnlyReads says), nothing is opaque,
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
		// What a program reads is classify's knowledge.
		rd, ok := classify.OnlyReads(inv)
		if !ok {
			return shellFacts{}
		}
		for _, c := range rd.Searches {
			f.addSearch(c, cwd)
		}
		f.addReads(rd.Files, cwd)
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

// addSearch records a content search, its paths made absolute.
func (f *shellFacts) addSearch(c classify.ContentSearch, cwd string) {
	if len(f.searches) >= maxSearchesPerCommand {
		return
	}
	s := Search{Tool: c.Tool, Pattern: strings.Join(c.Patterns, " "), Content: true}
	for _, o := range c.Paths {
		s.Paths = append(s.Paths, absUnder(o, cwd))
	}
	if len(s.Paths) == 0 && cwd != "" {
		s.Paths = []string{filepath.Clean(cwd)}
	}
	f.searches = append(f.searches, s)
}

// addReads records files read, made absolute.
func (f *shellFacts) addReads(files []string, cwd string) {
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
