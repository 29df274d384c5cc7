package policy

import (
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// guard is self-protection (DESIGN.md invariant 2): the agent must not
// loosen its own firewall. It denies writes to airlock's configuration,
// state and binary, and the agent's use of airlock's mutating subcommands.
// No policy file can relax it.
type guard struct {
	dirs  []string // protected directories, with everything inside
	files []string // protected single files
	home  string
	// vars are the environment variables a command may spell a protected
	// path with, and their values here, so "$XDG_CONFIG_HOME/airlock" is
	// seen for what it is.
	vars map[string]string
}

// Self-protection rule names.
const (
	// RuleProtectedPath fires on a change to airlock's own files.
	RuleProtectedPath = "self.protected-path"
	// RuleAirlockCommand fires on an agent running a mutating airlock
	// subcommand.
	RuleAirlockCommand = "self.airlock-command"
)

func newGuard(paths Paths, projectRoot string, o Options, getenv func(string) string) guard {
	g := guard{home: paths.Home, vars: map[string]string{}}
	addDir := func(d string) {
		if d != "" {
			g.dirs = append(g.dirs, filepath.Clean(d))
		}
	}
	addFile := func(f string) {
		if f != "" {
			g.files = append(g.files, absPath(f, o.Cwd, paths.Home))
		}
	}
	addDir(paths.ConfigDir)
	addDir(paths.StateDir)
	if projectRoot != "" {
		addDir(filepath.Join(projectRoot, ".airlock"))
	}
	addFile(paths.Explicit)
	addFile(o.Executable)
	for _, f := range o.Protect {
		addFile(f)
	}
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "AIRLOCK_HOME", "AIRLOCK_POLICY", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR"} {
		if val := getenv(v); val != "" {
			g.vars[v] = val
		}
	}
	return g
}

// protected reports whether an absolute path is airlock's own: inside a
// protected directory, a protected file, or inside any directory named
// .airlock (a project policy, wherever the project is).
func (g *guard) protected(p string) bool {
	for _, d := range g.dirs {
		if p == d || strings.HasPrefix(p, d+string(filepath.Separator)) {
			return true
		}
	}
	for _, f := range g.files {
		if p == f {
			return true
		}
	}
	for _, part := range strings.Split(p, string(filepath.Separator)) {
		if part == ".airlock" {
			return true
		}
	}
	return false
}

// word resolves one word of a command to a path as best it can: "~" and
// the variables in g.vars are expanded, and the result is made absolute.
func (g *guard) word(w, cwd string) string {
	if isOption(w) {
		if _, v, ok := strings.Cut(w, "="); ok {
			w = v
		}
	}
	w = strings.Trim(w, `"'`)
	if strings.Contains(w, "$") {
		for name, val := range g.vars {
			w = strings.ReplaceAll(w, "${"+name+"}", val)
			w = strings.ReplaceAll(w, "$"+name, val)
		}
	}
	return absPath(w, cwd, g.home)
}

// check returns the self-protection verdict for an action, if any fires.
func (g *guard) check(a *Action, r *classify.Result) (rule, msg string, fired bool) {
	switch a.Kind {
	case Write:
		for _, p := range a.Paths {
			if abs := absPath(p, a.Cwd, g.home); g.protected(abs) {
				return RuleProtectedPath, abs + " belongs to airlock (its policy, state or binary); the agent may not change it", true
			}
		}
	case Shell:
		for i := range r.Invocations {
			if rule, msg, ok := g.invocation(&r.Invocations[i], a.Cwd); ok {
				return rule, msg, true
			}
		}
	}
	return "", "", false
}

func (g *guard) invocation(inv *classify.Invocation, cwd string) (rule, msg string, fired bool) {
	if inv.Opaque != "" && strings.Contains(inv.Source, "airlock") {
		return RuleAirlockCommand, "a computed command that mentions airlock (" + clipText(inv.Source) + ") cannot be checked, so the agent may not run it", true
	}
	if inv.Name() == "airlock" {
		if sub, ok := readOnlyAirlock(inv); !ok {
			return RuleAirlockCommand, "airlock " + sub + " changes what airlock allows or does with held actions; only a human may run it", true
		}
	}
	for _, rd := range inv.Redirects {
		if rd.Writes() {
			if abs := g.word(rd.Target, cwd); g.protected(abs) {
				return RuleProtectedPath, "the command writes to " + abs + ", which belongs to airlock; the agent may not change it", true
			}
		}
	}
	if readers[inv.Name()] {
		return "", "", false
	}
	for i := 1; i < len(inv.Args); i++ {
		if abs := g.word(inv.Args[i], cwd); g.protected(abs) {
			return RuleProtectedPath, inv.Name() + " on " + abs + ", which belongs to airlock (its policy, state or binary); the agent may not change it", true
		}
	}
	return "", "", false
}

// readers are programs that only read the files they are given, so naming
// airlock's files to them is harmless. Anything else that names one is
// assumed to change it.
var readers = map[string]bool{
	"cat": true, "head": true, "tail": true, "less": true, "more": true, "ls": true, "stat": true,
	"wc": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "diff": true, "cmp": true,
	"file": true, "sha256sum": true, "sha1sum": true, "md5sum": true, "b2sum": true, "cksum": true,
	"bat": true, "jq": true, "realpath": true, "readlink": true, "test": true, "[": true, "du": true,
	"tree": true, "echo": true, "printf": true, "airlock": true,
}

// readOnlyAirlock reports whether an airlock invocation only reads, and
// names its subcommand. Unknown and future subcommands count as mutating:
// the list of safe ones is explicit.
func readOnlyAirlock(inv *classify.Invocation) (string, bool) {
	var words []string
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if inv.IsDynamic(i) {
			return strings.Join(append(words, a), " "), false
		}
		switch {
		case a == "--":
			// Operands from here on, even "-h": "airlock trust -- -h"
			// trusts a file named -h.
			words = append(words, inv.Args[i+1:]...)
			i = len(inv.Args)
			continue
		case a == "-h" || a == "--help" || a == "-help" || a == "--version":
			return strings.Join(words, " "), true
		case isOption(a):
			continue
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return "", true
	}
	sub := strings.Join(words[:min(2, len(words))], " ")
	switch words[0] {
	case "check", "report", "doctor", "prompt", "help", "version":
		return words[0], true
	case "policy":
		return sub, len(words) == 1 || words[1] == "show" || words[1] == "check" || words[1] == "test"
	case "queue":
		return sub, len(words) == 1 || words[1] == "list" || words[1] == "show"
	case "audit":
		return sub, len(words) > 1 && words[1] == "verify"
	}
	return words[0], false
}

func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
