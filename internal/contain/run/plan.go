// Package run plans the Linux sandbox of "airlock run": which parts of the
// file system the agent's tools see, read-write, read-only or not at all,
// the network namespace with its one door, and the environment that points
// every client at that door. It builds bubblewrap's argument list and links
// no network code, so that the airlock binary (doctor, loop) can use it;
// the process that starts the sandbox, the door and the in-sandbox bridge
// live in package runner (the airlock-run binary).
package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/statusline"
)

// BridgePort is the loopback port the bridge listens on inside the
// sandbox. The sandbox's loopback is its own, so a fixed port cannot
// collide with anything on the host.
const BridgePort = 3128

// BridgeBinary runs inside the sandbox as its first process: it listens
// on the bridge port, relays each connection to the door's unix socket,
// and runs the command (internal/contain/bridge). It sits beside
// airlock-run.
const BridgeBinary = "airlock-bridge"

// DefaultWritable are the tool caches, relative to the home directory,
// that stay writable inside the sandbox when they exist, so that builds
// and installs work. rustup's toolchains are left out on purpose: a
// toolchain is code the human runs later outside the sandbox. A writable
// cache is a way for code written inside to run outside later (a build
// cache, a module cache); docs/CONTAIN.md says so.
//
// The agents' own state directories are writable too (sessions,
// transcripts, logs), with what in them changes a later session read-only
// on top: the settings self-protection lists, and agentCode below.
var DefaultWritable = []string{".cache", "go/pkg/mod", ".npm", ".cargo/registry", ".cargo/git", ".m2/repository", ".gradle/caches",
	".claude", ".codex", ".gemini"}

// agentCode are paths, relative to the home directory, inside the
// agents' writable state that load code or instructions into a later
// session, perhaps an uncontained one (plugins carry hooks and MCP
// servers): read-only inside, like the settings.
//
// The status line runs the script its settings name,
// usually beside them; Codex reads its rules files to decide what runs
// unasked (C4); Gemini loads its extensions' MCP servers and hooks.
var agentCode = []string{".claude/plugins", ".claude/hooks", ".claude/skills", ".claude/agents", ".claude/commands", ".claude/CLAUDE.md",
	".claude/statusline.sh", ".claude/statusline-command.sh", ".claude/local", ".local/share/claude",
	".codex/prompts", ".codex/skills", ".codex/AGENTS.md", ".codex/rules", ".gemini/commands", ".gemini/GEMINI.md", ".gemini/extensions"}

// The project's files that a tool runs or loads later, outside the
// sandbox, though self-protection does not list them, are the table in
// codefiles.go (CodeFiles): read-only inside (Fence), set aside after
// the run (Review), named after it (Watch).

// gitCode are the project's git files that run programs at the human's
// next git command outside (core.fsmonitor, core.pager, filters, hooks):
// airlock run binds them read-only, and each submodule repository's
// config, hooks and info under .git/modules.
var gitCode = []string{".git/config", ".git/hooks", ".git/info"}

// agentScratch are directories, relative to the home directory, that an
// agent both writes inside and runs later: Claude Code writes a shell
// snapshot when a session starts and sources it before every Bash call
// (FINDINGS-7 C1). Inside, each is an empty private directory, so a
// session there works and nothing written there reaches a session
// outside.
var agentScratch = []string{".claude/shell-snapshots"}

// keepWritable are directories of the project that stay writable though
// a protected path below them is fenced: the placeholder goes below them
// (.github/hooks, not .github, where CI workflows are ordinary work).
var keepWritable = []string{".github"}

// maskedDirs are replaced by an empty tmpfs inside: /tmp is private, and
// /run holds the host's daemon sockets (dbus, docker, the user's runtime
// directory with ssh-agent and gpg-agent), which a unix socket on a
// read-only mount would still reach.
var maskedDirs = []string{"/tmp", "/run"}

// Config is what one contained run needs.
type Config struct {
	// Getenv reads the caller's environment.
	Getenv func(string) string
	// Environ is the caller's environment ("KEY=value"); the sandbox's
	// environment is built from it.
	Environ []string
	// Cwd is where the command runs; the project is found from it.
	Cwd string
	// Executable is the airlock binary; it and the binaries beside it are
	// read-only inside. "" when unknown.
	Executable string
	// Door is the door's program (airlock-proxy), started outside while
	// the command runs: read-only inside wherever it lies, even in a
	// writable directory and without airlock beside it. "" when the door
	// is not a program of its own.
	Door string
	// Writable lists directories that stay writable; nil means
	// DefaultWritable under the home directory.
	Writable []string
	// RunDir is a directory outside that holds the door's socket and the
	// CA bundle; it is bound read-only at the same path.
	RunDir string
	// ProxySocket is the door's unix socket.
	ProxySocket string
	// CABundle is a file of certificates the clients inside trust (the
	// system's roots and airlock's CA); "" sets no CA variables.
	CABundle string
	// Bridge is the binary run inside as the bridge (airlock-bridge).
	Bridge string
	// HookSocket is the runner's relay to the hook service, bound where
	// the hook client inside looks for the service; "" binds nothing.
	HookSocket string
	// Expose lists files inside the hidden state directory that are
	// bound read-only at their place (airlock loop's settings file with
	// the hooks, under runs/). Never the secrets or the journal.
	Expose []string
	// StatusView is a directory outside holding only a copy of the
	// status line's state file, which the runner keeps current; it is
	// bound read-only at statusline.ViewDir in the hidden state
	// directory, so the status line inside shows the held counts without
	// any view of the journal. "" binds nothing.
	StatusView string
	// WaitForDoor makes the bridge wait for the runner's go (bridge.GoFD)
	// before it runs the command: the runner sets the door up while the
	// sandbox starts.
	WaitForDoor bool
	// Command is what to run, with its arguments.
	Command []string
}

// Plan is one sandbox, ready to start.
type Plan struct {
	// Project is the directory that is read-write.
	Project string
	// Args are bubblewrap's arguments (without the program name).
	Args []string
	// Env is the environment bubblewrap and everything inside get.
	Env []string
	// Unfenced are protected paths inside a writable directory that did
	// not exist when the plan was made and have no placeholder (a file at
	// the project's top: .mcp.json, .envrc): the runner checks them after
	// the run and says which appeared.
	Unfenced []string
	// Placeholders are protected paths that did not exist when the plan
	// was made: the runner makes each (an empty directory, or an empty
	// file outside the project) before the sandbox starts, the plan binds
	// it read-only, and the runner removes it after the run if it is still
	// as made. Nothing can then be created at that path inside.
	Placeholders []Placeholder
	// Hidden are the directories replaced by an empty one (airlock's
	// state directory).
	Hidden []string
	// Before is what the review after the run compares with (ReviewRun):
	// when the plan was made, and the reviewed files' bytes.
	Before *Before
	// GitModules are the submodule repositories under the project's
	// .git/modules when the plan was made (their config, hooks and info
	// are read-only inside); one made inside is reviewed after the run
	// (NewModuleFiles).
	GitModules []string
}

// Placeholder is one path the runner makes for the run and removes after.
type Placeholder struct {
	// Path is the placeholder, bound read-only inside.
	Path string
	// Dir: an empty directory; otherwise a file holding Content.
	Dir     bool
	Content string
	// Parents are directories made for it (they stay writable inside),
	// outermost first.
	Parents []string
}

// Refusal is a reason not to start: the command is never run
// uncontained. The CLI prints it as an error with hints and exits 2.
type Refusal = clierror.Usage

// ProjectRoot is the git top level above dir (the nearest directory with a
// .git entry), or dir itself. It is found without running git, which may
// not exist and would cost a process start.
func ProjectRoot(dir string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// resolver resolves symlinks in absolute paths, as filepath.EvalSymlinks
// does for a path that exists and, for one that does not, as far as it
// exists (the rest joined on). It remembers every directory it resolved:
// the plan resolves about a hundred paths under a few directories (the
// home, the project, the agents' state), and EvalSymlinks would lstat
// every component of each again (docs/BENCHMARKS.md, containment
// start-up). It also remembers what each lstat found, so that the plan's
// exists and isDir of a resolved path ask it instead of the file system
// again, and a path under one that is missing (or not a directory) is
// known missing without a system call: about 60 % of the runner's lstat
// calls were one of these (docs/BENCHMARKS.md, containment start-up,
// round 3).
type resolver struct {
	done map[string]string
	// seen is what an lstat of the path, exactly as written, gives (or
	// would give: below a missing path or a file, ENOENT or ENOTDIR).
	seen  map[string]pathKind
	links int
}

// pathKind is what an lstat found.
type pathKind uint8

const (
	kindMissing pathKind = iota + 1 // any error: nothing there to bind
	kindDir
	kindLink
	kindOther // a file, a socket, a device
)

// maxLinks bounds the symlinks followed in one plan, as the kernel's
// ELOOP bounds one lookup; past it paths are taken as they are written.
const maxLinks = 255

func (r *resolver) real(p string) string {
	if !filepath.IsAbs(p) {
		if e, err := filepath.EvalSymlinks(p); err == nil {
			return e
		}
		return p
	}
	p = filepath.Clean(p)
	if p == "/" {
		return p
	}
	if v, ok := r.done[p]; ok {
		return v
	}
	parent := r.real(filepath.Dir(p))
	out := filepath.Join(parent, filepath.Base(p))
	if k := r.seen[parent]; k == kindMissing || k == kindOther {
		// Nothing is below a path that is missing or not a directory.
		r.note(out, kindMissing)
	} else if k := r.lstat(out); k == kindLink && r.links < maxLinks {
		r.links++
		if t, err := os.Readlink(out); err == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Join(parent, t)
			}
			out = r.real(t)
		}
	}
	if r.done == nil {
		r.done = map[string]string{}
	}
	r.done[p] = out
	return out
}

// lstat records and returns what os.Lstat finds at p.
func (r *resolver) lstat(p string) pathKind {
	k := kindMissing
	if st, err := os.Lstat(p); err == nil {
		switch {
		case st.Mode()&os.ModeSymlink != 0:
			k = kindLink
		case st.IsDir():
			k = kindDir
		default:
			k = kindOther
		}
	}
	r.note(p, k)
	return k
}

func (r *resolver) note(p string, k pathKind) {
	if r.seen == nil {
		r.seen = map[string]pathKind{}
	}
	r.seen[p] = k
}

// exists reports whether os.Lstat(p) succeeds, from what the resolver
// saw when it did.
func (r *resolver) exists(p string) bool {
	k, ok := r.seen[p]
	if !ok {
		k = r.lstat(p)
	}
	return k != kindMissing
}

// isDir reports whether p is a directory, following a symlink, as
// os.Stat does.
func (r *resolver) isDir(p string) bool {
	switch r.seen[p] {
	case kindDir:
		return true
	case kindMissing, kindOther:
		return false
	}
	return isDir(p)
}

// NewPlan works out the sandbox for cfg, or refuses with the reason.
func NewPlan(cfg Config) (*Plan, error) {
	if len(cfg.Command) == 0 {
		return nil, &Refusal{Msg: "no command to run", Hints: []string{"airlock run -- COMMAND [ARG...]"}}
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if !filepath.IsAbs(cfg.Cwd) {
		return nil, &Refusal{Msg: fmt.Sprintf("the working directory %q is not absolute", cfg.Cwd)}
	}
	paths := policy.PathsFrom(getenv)
	res := &resolver{}
	real, exists, isDir := res.real, res.exists, res.isDir
	home := ""
	if paths.Home != "" && filepath.IsAbs(paths.Home) {
		home = real(filepath.Clean(paths.Home))
	}
	cwd := real(cfg.Cwd)
	project := ProjectRoot(cwd)
	state := ""
	if paths.StateDir != "" && filepath.IsAbs(paths.StateDir) {
		state = real(filepath.Clean(paths.StateDir))
	}
	if state == "" {
		return nil, &Refusal{Msg: "airlock's state directory is unknown, so it cannot be hidden from the command",
			Hints: []string{"set HOME (or XDG_STATE_HOME, AIRLOCK_HOME) to an absolute path"}}
	}
	config := ""
	if paths.ConfigDir != "" {
		config = real(paths.ConfigDir)
	}
	switch {
	case project == "/":
		return nil, &Refusal{Msg: "the project would be the whole file system (/), which cannot be fenced",
			Hints: []string{"cd into the project first (a git checkout or its own directory)"}}
	case home != "" && within(home, project):
		return nil, &Refusal{Msg: fmt.Sprintf("the project would be %s, which holds your home directory: everything in it (agent settings, shell start-up files, keys) would be writable", project),
			Hints: []string{"cd into the project first (a git checkout or its own directory), or git init one"}}
	case within(state, project) || within(project, state):
		return nil, &Refusal{Msg: fmt.Sprintf("the project %s and airlock's state directory %s overlap: the state must stay out of the sandbox", project, state),
			Hints: []string{"run from a project outside airlock's state directory, or set AIRLOCK_HOME elsewhere"}}
	case config != "" && (within(config, project) || within(project, config)):
		return nil, &Refusal{Msg: fmt.Sprintf("the project %s and airlock's config directory %s overlap: the policy must stay read-only", project, config),
			Hints: []string{"run from a project outside airlock's config directory"}}
	}

	p := &Plan{Project: project}
	a := []string{
		"--die-with-parent",
		"--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--disable-userns",
		// A new session: the command cannot push keystrokes into the
		// human's terminal with TIOCSTI (dev.tty.legacy_tiocsti is 1 on
		// many systems).
		"--new-session",
		"--cap-drop", "ALL",
		// The bridge is pid 1: it forwards signals to the command, reaps
		// orphans, and when it exits the kernel ends every process left.
		"--as-pid-1",
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
	}
	for _, d := range maskedDirs {
		if st, err := os.Lstat(d); err == nil && st.IsDir() {
			a = append(a, "--tmpfs", d)
		}
	}
	masked := func(x string) bool {
		for _, d := range maskedDirs {
			if within(x, d) {
				return true
			}
		}
		return false
	}
	// What must stay visible (read-only) though it lies under a masked
	// directory: the home directory, the bridge and airlock's binaries.
	var keep []string
	if home != "" && masked(home) {
		keep = append(keep, home)
	}
	for _, b := range []string{cfg.Bridge, cfg.Executable} {
		if b != "" && masked(real(b)) {
			keep = append(keep, filepath.Dir(real(b)))
		}
	}
	for _, k := range dedupe(keep) {
		if exists(k) {
			a = append(a, "--ro-bind", k, k)
		}
	}
	// Writable directories: the caches that exist, then the project.
	writable := cfg.Writable
	if writable == nil && home != "" {
		for _, w := range DefaultWritable {
			writable = append(writable, filepath.Join(home, w))
		}
	}
	var rw []string
	for _, w := range writable {
		w = real(w)
		if !filepath.IsAbs(w) || !isDir(w) {
			continue
		}
		// A cache inside the state directory is not offered (the state is
		// hidden); nor is the home directory or a parent of it.
		if within(w, state) || home != "" && within(home, w) {
			continue
		}
		rw = append(rw, w)
	}
	rw = append(rw, project)
	for _, w := range dedupe(rw) {
		a = append(a, "--bind", w, w)
	}
	writableAt := func(x string) bool {
		for _, w := range rw {
			if within(x, w) {
				return true
			}
		}
		return masked(x) && !slices.ContainsFunc(keep, func(k string) bool { return within(x, k) })
	}
	// Protected paths under a writable directory are bound read-only on
	// top of it (bubblewrap applies its arguments in order). A protected
	// path that is a symlink is fenced where it points.
	var exe string
	if cfg.Executable != "" {
		exe = real(cfg.Executable)
	}
	prot := policy.ProtectedPaths(paths, project, policy.Options{Getenv: getenv, Cwd: cwd, Executable: exe})
	if home != "" {
		for _, c := range agentCode {
			prot = append(prot, policy.ProtectedPath{Path: filepath.Join(home, c), Kind: "agent-settings"})
		}
	}
	for _, c := range fencedPaths() {
		prot = append(prot, policy.ProtectedPath{Path: filepath.Join(project, c), Kind: "agent-settings"})
	}
	if exe != "" {
		for _, b := range []string{"airlock-run", BridgeBinary, "airlock-proxy"} {
			prot = append(prot, policy.ProtectedPath{Path: filepath.Join(filepath.Dir(exe), b), Kind: "airlock"})
		}
	}
	if cfg.Door != "" {
		prot = append(prot, policy.ProtectedPath{Path: cfg.Door, Kind: "airlock"})
	}
	var ro []string
	for _, pp := range prot {
		if pp.State || pp.Secret {
			continue
		}
		r := real(pp.Path)
		if !writableAt(r) {
			continue
		}
		if exists(r) {
			// A protected file in a directory of the project's own
			// (.claude/settings.json, .airlock/policy.yaml) is fenced with
			// its directory: a bound file cannot be renamed, but its
			// directory could be moved aside (mv .claude .claude.bak),
			// and the agent's hooks would no longer be where it looks.
			if d := filepath.Dir(r); project != "" && d != project && within(d, project) && exists(d) {
				ro = append(ro, d)
			}
			ro = append(ro, r)
		} else if !masked(r) || slices.ContainsFunc(rw, func(w string) bool { return within(r, w) }) {
			p.Unfenced = append(p.Unfenced, r)
		}
	}
	// The project's git configuration, hooks and attributes run programs
	// at the human's next git command, outside the sandbox
	// (core.fsmonitor, core.pager, filters, .git/hooks/*): they are read
	// only inside. Objects, refs and the index stay writable, so commits
	// work; `git config` of the repository does not.
	var emptyRO []string
	if project != "" {
		gits := slices.Clone(gitCode)
		// A submodule's repository is under .git/modules/NAME (nested
		// for nested submodules): its configuration and hooks run at the
		// human's next git command in the submodule (FINDINGS-7 C2).
		p.GitModules = gitModules(filepath.Join(project, ".git", "modules"), 0)
		// The table's reviewed files are kept to be put back after the
		// run (one too large to keep is read-only instead); the files at
		// the top its one-name patterns match (*.code-workspace) are
		// read-only when they are fenced.
		var fenceToo []string
		p.Before, fenceToo = takeBefore(project, time.Now())
		p.Before.Writable = rw
		p.Before.Tracked = trackedAtPlan(project)
		p.Before.Git = TakeGit(project, home, p.GitModules)
		for _, c := range CodeFiles {
			if c.Handling == Fence && hasWild(c.Pattern) && !strings.Contains(c.Pattern, "/") {
				m, _ := filepath.Glob(filepath.Join(project, c.Pattern))
				fenceToo = append(fenceToo, m...)
			}
		}
		for _, f := range fenceToo {
			if r := real(f); writableAt(r) {
				ro = append(ro, r)
			}
		}
		for _, m := range p.GitModules {
			rel, _ := filepath.Rel(project, m)
			gits = append(gits, filepath.Join(rel, "config"), filepath.Join(rel, "hooks"), filepath.Join(rel, "info"))
		}
		for _, g := range gits {
			r := real(filepath.Join(project, g))
			switch {
			case exists(r) && writableAt(r):
				ro = append(ro, r)
			case filepath.Base(g) != "config" && isDir(filepath.Dir(filepath.Join(project, g))) && writableAt(filepath.Dir(r)):
				// A missing hooks or info directory would be made inside
				// and run outside: an empty read-only one stands there
				// (its mount point is left, empty, in the repository).
				emptyRO = append(emptyRO, r)
			}
		}
		ro = append(ro, gitFence(project, p.GitModules, real, exists, writableAt)...)
	}
	// What did not exist gets a placeholder where one does no harm.
	var unfenced []string
	for _, u := range dedupe(p.Unfenced) {
		ph, ok := placeholderFor(u, project, rw, exists)
		if !ok || slices.ContainsFunc(p.Placeholders, func(q Placeholder) bool { return within(u, q.Path) }) {
			if !ok {
				unfenced = append(unfenced, u)
			}
			continue
		}
		p.Placeholders = append(p.Placeholders, ph)
		ro = append(ro, ph.Path)
	}
	p.Unfenced = unfenced
	var scratch []string
	if home != "" {
		for _, c := range agentScratch {
			if r := real(filepath.Join(home, c)); isDir(r) && writableAt(r) {
				scratch = append(scratch, r)
			}
		}
	}
	// The directories above a fenced path stay where they are (anchor.go).
	var made []string
	for _, ph := range p.Placeholders {
		made = append(made, ph.Parents...)
	}
	ro = dedupe(ro)
	fenced := slices.Concat(ro, emptyRO, scratch, p.Unfenced)
	for _, d := range anchors(fenced, slices.Concat(ro, emptyRO, scratch), rw, made, exists) {
		a = append(a, "--bind", d, d)
	}
	for _, r := range ro {
		a = append(a, "--ro-bind", r, r)
		if p.Before != nil && within(r, project) {
			p.Before.ReadOnly = append(p.Before.ReadOnly, r)
		}
	}
	for _, r := range emptyRO {
		a = append(a, "--tmpfs", r, "--remount-ro", r)
	}
	for _, r := range scratch {
		a = append(a, "--tmpfs", r)
	}
	// airlock's state directory (journal, queue, trust, secrets) is not
	// there at all: an empty read-only directory stands in its place, with
	// the hook service's socket alone bound into it.
	if exists(state) && (!masked(state) || slices.ContainsFunc(keep, func(k string) bool { return within(state, k) })) {
		a = append(a, "--tmpfs", state)
		if sock := hookd.SocketPath(getenv); sock != "" && cfg.HookSocket != "" && filepath.Dir(real(sock)) == state {
			a = append(a, "--ro-bind", cfg.HookSocket, real(sock))
		}
		for _, f := range cfg.Expose {
			r := real(f)
			st, err := os.Stat(r)
			switch {
			case err != nil || !st.Mode().IsRegular():
				return nil, &Refusal{Msg: fmt.Sprintf("cannot expose %s: not a regular file", f)}
			case !within(r, filepath.Join(state, "runs")):
				return nil, &Refusal{Msg: fmt.Sprintf("cannot expose %s: only files under %s may be shown inside", f, filepath.Join(state, "runs"))}
			}
			a = append(a, "--ro-bind", r, r)
		}
		if cfg.StatusView != "" {
			a = append(a, "--ro-bind", cfg.StatusView, filepath.Join(state, statusline.ViewDir))
		}
		a = append(a, "--remount-ro", state)
		p.Hidden = append(p.Hidden, state)
	}
	if cfg.RunDir != "" {
		a = append(a, "--ro-bind", cfg.RunDir, cfg.RunDir)
	}
	// A door that already listens elsewhere (a long-running proxy): its
	// socket alone is bound in. Connecting to a unix socket on a
	// read-only mount works; nothing else of its directory is visible.
	if cfg.ProxySocket != "" && (cfg.RunDir == "" || !within(cfg.ProxySocket, cfg.RunDir)) {
		if !exists(cfg.ProxySocket) {
			return nil, &Refusal{Msg: "the proxy's socket " + cfg.ProxySocket + " does not exist", Hints: []string{"start the proxy first, or leave out --proxy-socket"}}
		}
		a = append(a, "--ro-bind", cfg.ProxySocket, cfg.ProxySocket)
	}
	a = append(a, "--chdir", cwd, "--")
	a = append(a, cfg.Bridge, "--port", strconv.Itoa(BridgePort), "--socket", cfg.ProxySocket)
	if cfg.WaitForDoor {
		a = append(a, "--wait")
	}
	a = append(a, "--")
	a = append(a, cfg.Command...)
	p.Args = a
	p.Env = Environment(cfg.Environ, cfg.CABundle)
	return p, nil
}

// proxyVars are set to the bridge; every spelling clients read.
var proxyVars = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy",
	"GRPC_PROXY", "grpc_proxy", "FTP_PROXY", "ftp_proxy", "RSYNC_PROXY",
	"DOCKER_HTTP_PROXY", "DOCKER_HTTPS_PROXY", "CLOUDSDK_PROXY_TYPE", "CLOUDSDK_PROXY_ADDRESS", "CLOUDSDK_PROXY_PORT",
}

// caVars point at the CA bundle.
var caVars = []string{"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "AWS_CA_BUNDLE", "PIP_CERT", "DENO_CERT"}

// NoSSH is the GIT_SSH_COMMAND inside: git's ssh transport has no way
// out, so it fails at once with the reason and the way to use HTTPS
// instead of hanging on a name that cannot be resolved. git appends the
// host and command ("$@"), which false ignores.
const NoSSH = `echo "airlock run: ssh is not available inside the sandbox (only HTTP and HTTPS through airlock's proxy): use an HTTPS remote, e.g. git remote set-url origin https://HOST/OWNER/REPO.git" >&2; false`

// Environment is the sandbox's environment: the caller's, with every
// proxy variable pointing at the bridge, NO_PROXY naming only the
// sandbox's own loopback, the CA variables at the bundle, and git's ssh
// refused with a message.
func Environment(environ []string, caBundle string) []string {
	drop := map[string]bool{"NO_PROXY": true, "no_proxy": true, "GIT_SSH": true, "GIT_SSH_COMMAND": true, "GIT_PROXY_COMMAND": true, "SSH_AUTH_SOCK": true}
	for _, v := range proxyVars {
		drop[v] = true
	}
	if caBundle != "" {
		for _, v := range caVars {
			drop[v] = true
		}
	}
	var out []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			out = append(out, kv)
		}
	}
	url := "http://127.0.0.1:" + strconv.Itoa(BridgePort)
	for _, v := range proxyVars {
		switch {
		case strings.HasPrefix(v, "CLOUDSDK_PROXY_TYPE"):
			out = append(out, v+"=http")
		case v == "CLOUDSDK_PROXY_ADDRESS":
			out = append(out, v+"=127.0.0.1")
		case v == "CLOUDSDK_PROXY_PORT":
			out = append(out, v+"="+strconv.Itoa(BridgePort))
		case v == "RSYNC_PROXY":
			out = append(out, v+"=127.0.0.1:"+strconv.Itoa(BridgePort))
		default:
			out = append(out, v+"="+url)
		}
	}
	out = append(out, "NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1")
	if caBundle != "" {
		for _, v := range caVars {
			out = append(out, v+"="+caBundle)
		}
	}
	out = append(out, "GIT_SSH_COMMAND="+NoSSH, "AIRLOCK_CONTAINED=run")
	return out
}

// placeholderFor is the placeholder that fences u, a protected path that
// does not exist under one of the writable directories rw: the topmost
// directory of u that is missing, made empty (a directory below it cannot
// then be created either), or u itself. A file at the project's top or in
// a directory that must stay writable gets none (ok false): an empty
// opencode.json or .envrc in the work tree would be seen, and committed,
// as the project's own; the runner warns about those after the run.
func placeholderFor(u, project string, rw []string, exists func(string) bool) (Placeholder, bool) {
	var w string
	for _, d := range rw {
		if within(u, d) && len(d) > len(w) {
			w = d
		}
	}
	if w == "" || u == w {
		return Placeholder{}, false
	}
	top := u
	for d := filepath.Dir(top); d != w && !exists(d); d = filepath.Dir(d) {
		top = d
	}
	var parents []string
	for top != u && within(top, project) && slices.Contains(keepWritable, relTo(project, top)) {
		parents = append(parents, top)
		rest, _ := filepath.Rel(top, u)
		top = filepath.Join(top, strings.Split(rest, string(filepath.Separator))[0])
	}
	if top != u || !looksLikeFile(u) {
		return Placeholder{Path: top, Dir: true, Parents: parents}, true
	}
	if within(u, project) {
		return Placeholder{}, false
	}
	content := ""
	if strings.HasSuffix(u, ".json") {
		// An agent reading its settings finds an empty object, not a
		// file it cannot parse.
		content = "{}\n"
	}
	return Placeholder{Path: u, Content: content, Parents: parents}, true
}

func relTo(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		return p
	}
	return r
}

// looksLikeFile tells the protected paths that are files (settings.json,
// CLAUDE.md, .envrc) from directories (hooks, commands, .codex): a name
// with an extension after its first character, or one of the dot files.
func looksLikeFile(p string) bool {
	b := filepath.Base(p)
	switch b {
	case ".envrc", ".npmrc", ".yarnrc", ".curlrc", ".wgetrc", ".zshrc", ".bashrc", ".profile", ".zshenv", ".gitattributes",
		".bash_profile", ".zprofile", ".zlogin", ".tool-versions", ".exrc", ".nvimrc", ".lvimrc", ".lfsconfig", "hgrc":
		return true
	}
	return strings.LastIndex(b, ".") > 0
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// dedupe keeps the first of each path.
func dedupe(in []string) []string {
	var out []string
	for _, x := range in {
		if x == "" || slices.Contains(out, x) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// ErrNoBwrap is returned when bubblewrap is not installed.
var ErrNoBwrap = errors.New("bubblewrap (bwrap) is not on PATH")

// maxGitModules bounds the submodule repositories fenced in one plan.
const maxGitModules = 64

// gitModules lists the repositories below a .git/modules directory: each
// directory holding a config file, and those nested in its own modules.
func gitModules(dir string, depth int) []string {
	ents, err := os.ReadDir(dir)
	if err != nil || depth > 4 {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() || len(out) >= maxGitModules {
			continue
		}
		d := filepath.Join(dir, e.Name())
		if _, err := os.Lstat(filepath.Join(d, "config")); err == nil {
			out = append(out, d)
			out = append(out, gitModules(filepath.Join(d, "modules"), depth+1)...)
			continue
		}
		// A submodule named with a slash (libs/x) nests a directory.
		out = append(out, gitModules(d, depth+1)...)
	}
	if len(out) > maxGitModules {
		out = out[:maxGitModules]
	}
	return out
}
