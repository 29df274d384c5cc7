package policy

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// This file is the phase of self-protection that knows airlock's files and
// resolves the paths a tool call names the way the kernel will: "~" and
// variables, "..", symlinks that exist now or that the same command makes,
// parent directories of protected paths, and globs.

// fileSystem is what self-protection asks of the file system: enough to
// follow symlinks and to read a start-up file before an edit. Tests hand
// it a temporary directory's view; the binary uses the real one.
type fileSystem interface {
	Lstat(name string) (fs.FileInfo, error)
	Readlink(name string) (string, error)
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

type osFS struct{}

// hideProc makes /proc look empty to osFS. The package's tests set it
// (TestMain), so that a decision which reads the processes running now
// (a signal's PIDs, a pattern that matches airlock's processes) does not
// depend on what else runs on the machine, such as end-to-end tests that
// start airlock beside node; a test that needs processes gives its own
// /proc (procFS). It is never set outside tests.
var hideProc bool

func procPath(name string) bool {
	return hideProc && (name == "/proc" || strings.HasPrefix(name, "/proc/"))
}

func (osFS) Lstat(name string) (fs.FileInfo, error) {
	if procPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	return os.Lstat(name)
}

func (osFS) Readlink(name string) (string, error) {
	if procPath(name) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrNotExist}
	}
	return os.Readlink(name)
}

func (osFS) ReadFile(name string) ([]byte, error) {
	if procPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.ReadFile(name)
}

func (osFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if procPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.ReadDir(name)
}

// targetKind says what a protected path is, for the reason and for what
// may be done to it.
type targetKind int8

const (
	// kindAirlock: airlock's policy, state, journal or binaries.
	kindAirlock targetKind = iota
	// kindHooks: an agent's settings that hold (or will hold) airlock's
	// hooks.
	kindHooks
	// kindStartup: a shell start-up file; a write is allowed only when its
	// lines are shown harmless.
	kindStartup
	// kindSecret: airlock's secrets; even reading is refused.
	kindSecret
	// kindAgentConfig: an agent's configuration that runs commands (MCP
	// servers, plugins), from the table in selfagentcfg.go.
	kindAgentConfig
	// kindRunsLater: a file that makes a later program run code
	// (selflater.go).
	kindRunsLater
	// kindPathProgram: a program on the human's PATH named like one the
	// human trusts (selflater.go).
	kindPathProgram
)

func (k targetKind) String() string {
	switch k {
	case kindHooks:
		return "an agent's hook settings, where airlock is installed"
	case kindStartup:
		return "a shell start-up file, which can set AIRLOCK_* or PATH for every later command"
	case kindSecret:
		return "airlock's secrets (the human-approval key and tokens)"
	case kindAgentConfig:
		return "an agent's configuration that makes it run commands (MCP servers, plugins, extensions)"
	case kindRunsLater:
		return "a file that makes a later program run code (a tool's start-up or configuration file, Python's site customisation)"
	case kindPathProgram:
		return "a program on the human's PATH named like airlock or a program the human trusts, which would run in its place"
	}
	return "airlock's own files (its policy, state, journal or binaries)"
}

// target is one protected path: a directory with everything inside it, or
// a single file.
type target struct {
	path string
	dir  bool
	kind targetKind
	// proj marks a path inside the project: naming one of its parents
	// counts only for programs that move whole trees.
	proj bool
	// ascii is set when path is known to be ASCII (markASCII), so that
	// within need not look again for every path of every call. Unset, the
	// path is looked at as before: a target built without it only costs
	// the check.
	ascii bool
}

// markASCII notes which targets' paths are ASCII (target.ascii).
func markASCII(ts []target) {
	for i := range ts {
		ts[i].ascii = isASCII(ts[i].path)
	}
}

// tail is a protected path relative to any directory: a project's
// .airlock/ or .claude/settings.json, wherever the project is.
type tail struct {
	parts []string
	dir   bool
	kind  targetKind
}

// projectTails are protected inside every directory.
var projectTails = []struct {
	rel  string
	dir  bool
	kind targetKind
}{
	{".airlock", true, kindAirlock},
	{".claude/settings.json", false, kindHooks},
	{".claude/settings.local.json", false, kindHooks},
	// Claude Code's own program where its installers put it: the local
	// install (its shell alias runs ~/.claude/local/claude) and the
	// native installer's versions (FINDINGS-8 H10). A program put there
	// runs as the agent, without its hooks, at the human's next claude.
	{".claude/local", true, kindHooks},
	{".local/share/claude", true, kindHooks},
	{".codex", true, kindHooks},
	{".gemini/settings.json", false, kindHooks},
	{".github/hooks", true, kindHooks},
	// OpenCode loads code from anything under .opencode (plugin/,
	// plugins/, tool/, its opencode.json) and reads the project's
	// opencode.json(c), whose "plugin" key loads packages.
	{".opencode", true, kindHooks},
	{"opencode.json", false, kindHooks},
	{"opencode.jsonc", false, kindHooks},
	// Gemini CLI loads extensions (with their own hooks) and policy
	// files that allow or deny tools.
	{".gemini/extensions", true, kindHooks},
	{".gemini/policies", true, kindHooks},
	{".cursor/hooks.json", false, kindHooks},
	{".factory/hooks.json", false, kindHooks},
	{".factory/hooks", true, kindHooks},
	{".factory/settings.json", false, kindHooks},
	{".qwen/settings.json", false, kindHooks},
	// Qwen Code loads extensions from the project too; an extension's
	// mcpServers are programs it starts (FINDINGS-5 L14).
	{".qwen/extensions", true, kindHooks},
	// Kiro keeps hooks in each agent file; Cline runs the scripts in its
	// hooks directory; Goose reads project hooks when the user allows.
	{".kiro/agents", true, kindHooks},
	{".clinerules/hooks", true, kindHooks},
	{".goose/settings.json", false, kindHooks},
	{".goose/hooks.json", false, kindHooks},
	{".kiro/settings/cli.json", false, kindHooks},
	// Pi loads every extension under .pi/extensions (airlock's among
	// them) and the extensions and packages its settings.json lists;
	// Auggie reads hooks from both its project settings files.
	{".pi/extensions", true, kindHooks},
	{".pi/settings.json", false, kindHooks},
	{".augment/settings.json", false, kindHooks},
	{".augment/settings.local.json", false, kindHooks},
	// Crush merges every crush.json, .crush.json, crushrc and .crushrc
	// from the working directory up to the repository's root, and the
	// workspace's .crush/crush.json: hooks and MCP servers.
	{"crush.json", false, kindHooks},
	{".crush.json", false, kindHooks},
	{"crushrc", false, kindHooks},
	{".crushrc", false, kindHooks},
	{".crush/crush.json", false, kindHooks},
	{".envrc", false, kindStartup},
}

// homeTargets are protected relative to the home directory; the agent
// configuration that runs commands comes from selfagentcfg.go's table
// (userAgentConfigs).
var homeTargets = []struct {
	rel  string
	dir  bool
	kind targetKind
}{
	{".claude/settings.json", false, kindHooks},
	{".claude/settings.local.json", false, kindHooks},
	// Claude Code's own program where its installers put it: the local
	// install (its shell alias runs ~/.claude/local/claude) and the
	// native installer's versions (FINDINGS-8 H10). A program put there
	// runs as the agent, without its hooks, at the human's next claude.
	{".claude/local", true, kindHooks},
	{".local/share/claude", true, kindHooks},
	{".codex/config.toml", false, kindHooks},
	{".codex/hooks.json", false, kindHooks},
	{".gemini/settings.json", false, kindHooks},
	{".gemini/extensions", true, kindHooks},
	{".gemini/policies", true, kindHooks},
	{".copilot/hooks", true, kindHooks},
	// Copilot's config.json holds its hooks and trusted folders; Kiro's
	// cli.json picks the default agent (whose file holds the hooks).
	{".copilot/config.json", false, kindHooks},
	{".kiro/settings/cli.json", false, kindHooks},
	{".config/opencode", true, kindHooks},
	{".cursor/hooks.json", false, kindHooks},
	{".factory", true, kindHooks},
	{".kiro/agents", true, kindHooks},
	{".qwen/settings.json", false, kindHooks},
	{".qwen/extensions", true, kindHooks},
	// Goose's hooks.json and the permission settings beside it; Cline's
	// user hook scripts.
	{".config/goose", true, kindHooks},
	{"Documents/Cline/Hooks", true, kindHooks},
	// Pi's user extensions (airlock's among them) and its settings.json,
	// whose extensions and packages lists load code; Auggie's user
	// settings hold its hooks.
	{".pi/agent/extensions", true, kindHooks},
	{".pi/agent/settings.json", false, kindHooks},
	{".augment/settings.json", false, kindHooks},
	// Claude Code's Bash tool sources a snapshot of the shell's
	// functions, aliases and options before every command it runs: a
	// line put there runs in each later call, unseen by the hook.
	{".claude/shell-snapshots", true, kindStartup},
	// Its session environment files, session-env/SESSION/*-hook-N.sh,
	// are sourced the same way before every later Bash call of the
	// session (FINDINGS-10 S10): written by Claude Code from its hooks'
	// CLAUDE_ENV_FILE, never by a tool call.
	{".claude/session-env", true, kindStartup},
	{".bashrc", false, kindStartup},
	{".bash_profile", false, kindStartup},
	{".bash_login", false, kindStartup},
	{".bash_logout", false, kindStartup},
	{".profile", false, kindStartup},
	{".zshrc", false, kindStartup},
	{".zshenv", false, kindStartup},
	{".zprofile", false, kindStartup},
	{".zlogin", false, kindStartup},
	{".kshrc", false, kindStartup},
	{".mkshrc", false, kindStartup},
	{".config/fish", true, kindStartup},
	{".config/environment.d", true, kindStartup},
	{".pam_environment", false, kindStartup},
	{".inputrc", false, kindStartup},
	// Files the stock start-up files source, and other shells' and
	// desktop sessions' start-up files.
	{".bash_aliases", false, kindStartup},
	{".bashrc.d", true, kindStartup},
	{".zshrc.local", false, kindStartup},
	{".zshrc.d", true, kindStartup},
	{".zlogout", false, kindStartup},
	{".oh-my-zsh/custom", true, kindStartup},
	{".profile.d", true, kindStartup},
	{".xprofile", false, kindStartup},
	{".xsessionrc", false, kindStartup},
	{".xinitrc", false, kindStartup},
	{".cshrc", false, kindStartup},
	{".tcshrc", false, kindStartup},
	{".login", false, kindStartup},
}

// systemTargets are protected wherever the user is.
var systemTargets = []target{
	{path: "/etc/claude-code", dir: true, kind: kindHooks},
	{path: "/Library/Application Support/ClaudeCode", dir: true, kind: kindHooks},
	{path: "/etc/gemini-cli", dir: true, kind: kindHooks},
	// Qwen Code's system settings override user and project settings.
	{path: "/etc/qwen-code", dir: true, kind: kindHooks},
	{path: "/Library/Application Support/QwenCode", dir: true, kind: kindHooks},
	{path: "/etc/cursor", dir: true, kind: kindHooks},
	{path: "/etc/codex", dir: true, kind: kindHooks},
	{path: "/etc/profile", dir: false, kind: kindStartup},
	{path: "/etc/profile.d", dir: true, kind: kindStartup},
	{path: "/etc/bash.bashrc", dir: false, kind: kindStartup},
	{path: "/etc/bashrc", dir: false, kind: kindStartup},
	{path: "/etc/environment", dir: false, kind: kindStartup},
	{path: "/etc/zsh", dir: true, kind: kindStartup},
	{path: "/etc/zshenv", dir: false, kind: kindStartup},
	{path: "/etc/zprofile", dir: false, kind: kindStartup},
	{path: "/etc/zshrc", dir: false, kind: kindStartup},
	{path: "/etc/fish", dir: true, kind: kindStartup},
}

// hit is a protected path a tool call reaches, and how.
type hit struct {
	target target
	// path is the path as resolved, for the reason.
	path string
	// ancestor is set when the call names a parent directory of the
	// target (moving, deleting or copying it takes the target along).
	ancestor bool
}

// fold compares paths without case: on macOS's default file system
// ~/.CLAUDE is ~/.claude, and refusing both on Linux costs nothing.
func fold(p string) string { return strings.ToLower(p) }

// sameFold is fold(a) == fold(b), compared in place when both are ASCII
// (the usual case): laterHit compares every path of a call with every
// directory on the PATH, and lowering copies of both cost the resident
// service an allocation per pair.
func sameFold(a, b string) bool { return foldEqual(a, isASCII(a), b, isASCII(b)) }

// foldEqual is sameFold for two paths whose ASCII-ness the caller knows:
// laterHit looks at each of its paths once, and at the PATH's directories
// once per PATH (cachedPathDirs), not once per pair.
func foldEqual(a string, aASCII bool, b string, bASCII bool) bool {
	if aASCII && bASCII {
		return asciiEqualFold(a, b)
	}
	return fold(a) == fold(b)
}

// within reports whether p is t or inside it (when t is a directory).
// It runs for every path of a call against every protected target, so
// the common case (both ASCII) compares in place instead of lowering
// copies of both; other paths fold with strings.ToLower as before.
func within(p string, t target) bool { return withinASCII(p, isASCII(p), t) }

// withinASCII is within for a path whose ASCII-ness (pASCII) the caller
// already knows: lexicalHit checks one path against every target.
func withinASCII(p string, pASCII bool, t target) bool {
	if pASCII && (t.ascii || isASCII(t.path)) {
		n := len(t.path)
		if len(p) == n {
			return asciiEqualFold(p, t.path)
		}
		return t.dir && len(p) > n && p[n] == '/' && asciiEqualFold(p[:n], t.path)
	}
	fp, ft := fold(p), fold(t.path)
	if fp == ft {
		return true
	}
	return t.dir && strings.HasPrefix(fp, ft+"/")
}

// isAncestor reports whether p is a strict parent directory of t.
func isAncestor(p string, t target) bool { return isAncestorASCII(p, isASCII(p), t) }

// isAncestorASCII is isAncestor for a path whose ASCII-ness is known.
func isAncestorASCII(p string, pASCII bool, t target) bool {
	if pASCII && (t.ascii || isASCII(t.path)) {
		if p == "/" {
			return t.path != "/"
		}
		n := len(p)
		return len(t.path) > n && t.path[n] == '/' && asciiEqualFold(t.path[:n], p)
	}
	fp, ft := fold(p), fold(t.path)
	if fp == "/" {
		return ft != "/"
	}
	return strings.HasPrefix(ft, fp+"/")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiEqualFold is strings.ToLower(a) == strings.ToLower(b) for ASCII.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// targetsAt instantiates the project tails in a directory.
func targetsAt(dir string) []target {
	out := make([]target, 0, len(projectTails))
	for _, t := range projectTails {
		out = append(out, target{path: filepath.Join(dir, t.rel), dir: t.dir, kind: t.kind, proj: true})
	}
	return out
}

// tailHit reports whether an absolute path is inside a protected tail
// wherever it is (any directory's .airlock/, .claude/settings.json), or is
// a parent such a tail starts in (a directory named .claude, .github).
func (g *guard) tailHit(p string) (hit, bool) {
	parts := strings.Split(fold(p), "/")
	for _, t := range g.tails {
		n := len(t.parts)
		for i := 0; i+n <= len(parts); i++ {
			match := true
			for j := 0; j < n; j++ {
				if parts[i+j] != t.parts[j] {
					match = false
					break
				}
			}
			if match && (t.dir || i+n == len(parts)) {
				base := "/" + filepath.Join(strings.Split(p, "/")[:i+n]...)
				return hit{target: target{path: base, dir: t.dir, kind: t.kind}, path: p}, true
			}
		}
		// p ends in the start of a tail: .../.claude is the parent of
		// .claude/settings.json.
		for k := 1; k < n; k++ {
			if len(parts) >= k && equalParts(parts[len(parts)-k:], t.parts[:k]) {
				return hit{target: target{path: filepath.Join(p, filepath.Join(t.parts[k:]...)), dir: t.dir, kind: t.kind}, path: p, ancestor: true}, true
			}
		}
	}
	return hit{}, false
}

func equalParts(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lexicalHit checks one absolute, cleaned path against every protected
// path. parents says whether naming a parent directory counts (it does for
// programs that write; projectParents whether parents of the project's
// own tails count (only for programs that move whole trees).
//
// present, when not nil, says whether a project path exists: for programs
// that only delete, a parent of a project file that is not there does not
// count ("find . -name '*.pyc' -delete" in a project without .claude/).
func (g *guard) lexicalHit(p string, parents, projectParents bool, project []target, present func(string) bool) (hit, bool) {
	// A process's memory: writing /proc/PID/mem rewrites a running
	// program (airlock's hookd, serve or notify among them); which
	// process the PID is when the write happens cannot be known here.
	if procMem(p) {
		return hit{target: target{path: p, kind: kindAirlock}, path: p}, true
	}
	pASCII := isASCII(p)
	for _, t := range g.targets {
		if withinASCII(p, pASCII, t) {
			return hit{target: t, path: p}, true
		}
		if parents && (!t.proj || projectParents) && isAncestorASCII(p, pASCII, t) && (!t.proj || present == nil || present(t.path)) {
			return hit{target: t, path: p, ancestor: true}, true
		}
	}
	if h, ok := g.tailHit(p); ok {
		if !h.ancestor || parents {
			return h, true
		}
	}
	if h, ok := g.laterHit(p, parents, present != nil); ok {
		return h, true
	}
	if projectParents {
		for _, t := range project {
			if isAncestorASCII(p, pASCII, t) && (present == nil || present(t.path)) {
				return hit{target: t, path: p, ancestor: true}, true
			}
		}
	}
	return hit{}, false
}

// secretHit reports whether reading p reads airlock's secrets: p is
// inside them, or is a directory above them (copying, archiving or
// searching it reads them too).
func (g *guard) secretHit(p string) (hit, bool) {
	if g.secrets.path != "" {
		if within(p, g.secrets) {
			return hit{target: g.secrets, path: p}, true
		}
		if isAncestor(p, g.secrets) {
			return hit{target: g.secrets, path: p, ancestor: true}, true
		}
	}
	for _, s := range g.otherSecrets {
		if within(p, s) {
			return hit{target: s, path: p}, true
		}
		if isAncestor(p, s) {
			return hit{target: s, path: p, ancestor: true}, true
		}
	}
	return hit{}, false
}

// resolver follows symlinks for one tool call, remembering what it
// resolved and the links the same command creates.
type resolver struct {
	fs fileSystem
	// links are symlinks the command itself makes, link path → target
	// ("" when the target is known only at run time).
	links map[string]string
	cache map[string]string
	// dirs are directories resolved ahead (the command's cwd), by their
	// spelling.
	dirs map[string]string
	// tainted are directories an earlier run of the command wrote in
	// from data airlock did not read (an archive, a checkout): any
	// entry below one may be a link made at run time (selfmadelinks.go).
	tainted []string
	// whys say, for a tainted directory, why what fills it could not be
	// read (a limit, a revision known only at run time), for the reason.
	whys map[string]string
}

// taint marks a directory whose entries may be links made at run time.
func (r *resolver) taint(dir string) {
	r.tainted = append(r.tainted, fold(dir))
	r.cache, r.dirs = nil, nil
}

// taintBecause taints a directory, saying why (named in the refusal).
func (r *resolver) taintBecause(dir, why string) {
	r.taint(dir)
	if r.whys == nil {
		r.whys = map[string]string{}
	}
	r.whys[fold(dir)] = why
}

// taintReason says why a path below a tainted directory is unknown, or
// "" when no reason was given.
func (r *resolver) taintReason(p string) string {
	f := fold(p)
	for _, d := range r.tainted {
		if why := r.whys[d]; why != "" && strings.HasPrefix(f, strings.TrimSuffix(d, "/")+"/") {
			return why
		}
	}
	return ""
}

// addLink records a link the command makes, with its target ("" when
// known only at run time).
func (r *resolver) addLink(link, target string) {
	if r.links == nil {
		r.links = map[string]string{}
	}
	r.links[fold(filepath.Clean(link))] = target
	r.cache, r.dirs = nil, nil
}

// underTaint reports whether p is strictly below a tainted directory.
func (r *resolver) underTaint(p string) bool {
	f := fold(p)
	for _, d := range r.tainted {
		if strings.HasPrefix(f, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

// resolveDir resolves a directory once and remembers it as a prefix.
func (r *resolver) resolveDir(dir string) {
	if _, ok := r.dirs[dir]; ok {
		return
	}
	real, unknown := r.resolve(dir)
	if unknown {
		return
	}
	if r.dirs == nil {
		r.dirs = map[string]string{}
	}
	r.dirs[dir] = real
}

// maxLinkHops bounds symlink chains as the kernel does (ELOOP).
const maxLinkHops = 40

// resolve returns where an absolute path (not cleaned: ".." must apply
// after symlinks, as the kernel applies it) leads. unknown is set when it
// passes through a link whose target is known only at run time, or
// through too many links.
func (r *resolver) resolve(raw string) (real string, unknown bool) {
	if v, ok := r.cache[raw]; ok {
		return v, v == ""
	}
	comps := strings.Split(raw, "/")
	cur := "/"
	// Start from the longest directory already resolved (the cwd, most
	// often): each operand then costs only its own components.
	if r.dirs != nil {
		for k := len(comps) - 1; k > 1; k-- {
			if real, ok := r.dirs[strings.Join(comps[:k], "/")]; ok {
				cur, comps = real, comps[k:]
				break
			}
		}
	}
	hops := 0
	missing := false
	for i := 0; i < len(comps); i++ {
		c := comps[i]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		target, isLink := "", false
		if len(r.tainted) > 0 && r.underTaint(next) {
			if _, ok := r.links[fold(next)]; !ok {
				r.remember(raw, "")
				return "", true
			}
		}
		if t, ok := r.links[fold(next)]; ok {
			if t == "" {
				r.remember(raw, "")
				return "", true
			}
			target, isLink = t, true
		} else if !missing {
			fi, err := r.fs.Lstat(next)
			switch {
			case err != nil:
				missing = true
			case fi.Mode()&fs.ModeSymlink != 0:
				t, err := r.fs.Readlink(next)
				if err != nil {
					r.remember(raw, "")
					return "", true
				}
				target, isLink = t, true
			}
		}
		if !isLink {
			cur = next
			continue
		}
		hops++
		if hops > maxLinkHops {
			r.remember(raw, "")
			return "", true
		}
		if !filepath.IsAbs(target) {
			target = cur + "/" + target
		}
		comps = append(strings.Split(target, "/"), comps[i+1:]...)
		i = -1
		cur = "/"
	}
	r.remember(raw, cur)
	return cur, false
}

func (r *resolver) remember(raw, real string) {
	if r.cache == nil {
		r.cache = map[string]string{}
	}
	r.cache[raw] = real
}

// rawAbs makes a path absolute without cleaning it: "~" and the guard's
// variables are expanded, a relative path is put under cwd.
func (g *guard) rawAbs(p, cwd string) string {
	p = g.expand(p)
	if p == "~" {
		return g.home
	}
	if strings.HasPrefix(p, "~/") && g.home != "" {
		p = g.home + p[1:]
	}
	if !strings.HasPrefix(p, "/") {
		p = cwd + "/" + p
	}
	return procLink(p, cwd)
}

// procLink reads /proc/self/cwd, /proc/thread-self/cwd and /proc/PID/cwd
// as the directory the command runs in, and /proc/.../root as "/", as the
// kernel will for the program that opens them; resolving them here would
// give airlock's own directory instead. (For another process's PID the
// command's directory is a guess; a write there is still checked against
// every protected path below it.)
func procLink(p, cwd string) string {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return p
	}
	who, rest, _ := strings.Cut(rest, "/")
	if who != "self" && who != "thread-self" && strings.Trim(who, "0123456789") != "" {
		return p
	}
	link, tail, _ := strings.Cut(rest, "/")
	switch link {
	case "cwd":
		return strings.TrimSuffix(cwd, "/") + "/" + tail
	case "root":
		return "/" + tail
	}
	return p
}

// expand replaces the guard's variables ($HOME, ${XDG_CONFIG_HOME}, …) in
// a word.
func (g *guard) expand(w string) string {
	if !strings.Contains(w, "$") {
		return w
	}
	for name, val := range g.vars {
		w = strings.ReplaceAll(w, "${"+name+"}", val)
		w = strings.ReplaceAll(w, "$"+name, val)
	}
	return w
}

// hasGlob reports whether a word holds shell glob characters.
func hasGlob(w string) bool { return strings.ContainsAny(w, "*?[") }

// globHit reports whether a glob, made absolute, could match a protected
// path or one of its parents, with the shell's matching rules (a "*" does
// not cross "/"; "**" is taken as crossing it, as with globstar).
func (g *guard) globHit(glob string, parents, dotglob bool, project []target) (hit, bool) {
	all := append(append([]target(nil), g.targets...), project...)
	if g.secrets.path != "" {
		all = append(all, g.secrets)
	}
	for _, t := range all {
		for p := t.path; ; p = filepath.Dir(p) {
			if globMatch(glob, p, dotglob) {
				return hit{target: t, path: glob, ancestor: p != t.path}, p == t.path || parents
			}
			// A glob naming something inside a protected directory.
			if t.dir && p == t.path && globWithin(glob, t.path, dotglob) {
				return hit{target: t, path: glob}, true
			}
			if p == "/" || !parents {
				break
			}
		}
	}
	if h, ok := g.tailGlobHit(glob, parents, dotglob); ok {
		return h, true
	}
	return hit{}, false
}

// globMatch matches case-insensitively, component by component, as the
// shell does: a "*" does not cross "/" and matches a leading "." only with
// dotglob. An unclosed "[" is literal, as in the shell; a pattern that is
// still malformed could match anything, so it matches.
func globMatch(glob, p string, dotglob bool) bool {
	glob, p = fold(glob), fold(p)
	if strings.Contains(glob, "**") {
		i := strings.Index(glob, "**")
		prefix := glob[:i]
		if j := strings.LastIndex(prefix, "/"); j >= 0 {
			prefix = prefix[:j+1]
		}
		// Whatever "**" crosses, what the glob matches starts with the
		// directories before it: a directory above them is not matched
		// (src/**/*.ts names nothing above src). A glob that names what is
		// inside a protected directory is caught by globWithin.
		if !strings.HasPrefix(p+"/", prefix) {
			return false
		}
		// "**" crosses no directory whose name starts with "." unless
		// dotglob is set (bash's globstar, and the glob libraries that
		// linters and formatters use).
		if !dotglob && !strings.HasPrefix(glob[i:], "**/.") {
			for _, c := range strings.Split(strings.TrimPrefix(p+"/", prefix), "/") {
				if strings.HasPrefix(c, ".") {
					return false
				}
			}
		}
		// Its last component, when "**" is not in it, is one component:
		// the last of what it matches (**/*.ts matches no settings.json).
		last := glob[strings.LastIndex(glob, "/")+1:]
		if strings.Contains(last, "**") || !strings.Contains(glob[i:], "/") {
			return true
		}
		base := p[strings.LastIndex(p, "/")+1:]
		return globMatch(last, base, dotglob)
	}
	gp, pp := strings.Split(glob, "/"), strings.Split(p, "/")
	if len(gp) != len(pp) {
		return false
	}
	for i := range gp {
		if strings.HasPrefix(pp[i], ".") && !strings.HasPrefix(gp[i], ".") && !dotglob {
			return false
		}
		// The shell negates a class with "!" as well as "^"; Go only
		// with "^".
		pat := strings.ReplaceAll(gp[i], "[!", "[^")
		ok, err := filepath.Match(pat, pp[i])
		if err != nil {
			// The shell reads a "[" that no "]" closes as itself.
			ok, err = filepath.Match(strings.ReplaceAll(pat, "[", `\[`), pp[i])
		}
		if err == nil && !ok {
			return false
		}
	}
	return true
}

// globWithin reports whether a glob's leading directories match a
// directory, so that it names files inside it.
func globWithin(glob, dir string, dotglob bool) bool {
	parts := strings.Split(glob, "/")
	dparts := strings.Split(dir, "/")
	if len(parts) <= len(dparts) {
		return false
	}
	return globMatch(strings.Join(parts[:len(dparts)], "/"), dir, dotglob)
}

// tailGlobHit matches a glob's last components against the project tails
// (.claude/settings.js?n anywhere).
func (g *guard) tailGlobHit(glob string, parents, dotglob bool) (hit, bool) {
	parts := strings.Split(glob, "/")
	for _, t := range g.tails {
		n := len(t.parts)
		for k := n; k >= 1; k-- {
			if k < n && !parents || len(parts) < k {
				continue
			}
			if globMatch(strings.Join(parts[len(parts)-k:], "/"), strings.Join(t.parts[:k], "/"), dotglob) {
				return hit{target: target{path: glob, dir: t.dir, kind: t.kind}, path: glob, ancestor: k < n}, true
			}
		}
		// A glob inside a protected tail directory: .airlock/*.
		if t.dir && len(parts) > n {
			for i := 0; i+n < len(parts); i++ {
				if globMatch(strings.Join(parts[i:i+n], "/"), strings.Join(t.parts, "/"), dotglob) {
					return hit{target: target{path: glob, dir: t.dir, kind: t.kind}, path: glob}, true
				}
			}
		}
	}
	return hit{}, false
}

// procMem reports whether p is a process's memory file,
// /proc/PID/mem or /proc/PID/task/TID/mem.
func procMem(p string) bool {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	return len(parts) >= 3 && parts[0] == "proc" && parts[len(parts)-1] == "mem" &&
		(len(parts) == 3 || len(parts) == 5 && parts[2] == "task")
}
