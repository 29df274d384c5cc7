package policy

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// guard is self-protection (DESIGN.md invariant 2): the agent must not
// loosen its own firewall. A tool call is refused unless airlock can show
// it does none of these: change airlock's files (policy layers, state and
// journal, both binaries, the hook settings of every agent airlock
// installs into, shell start-up lines that set AIRLOCK_* or PATH), read
// airlock's secrets, run a mutating airlock verb, or start an agent with
// its guard off. No policy file can relax it.
//
// The phases live in their own files: selfpaths.go (what is protected,
// and resolving paths as the kernel will), selfargv.go (airlock's own
// command line), selftext.go (text airlock cannot parse: interpreter code,
// opaque commands, start-up file edits).
type guard struct {
	home string
	// vars are the environment variables a command may spell a protected
	// path with, and their values here, so "$XDG_CONFIG_HOME/airlock" is
	// seen for what it is.
	vars map[string]string
	// targets are the protected absolute paths.
	targets []target
	// tails are protected inside any directory (.airlock/, .claude/…).
	tails []tail
	// secrets is <state>/secrets: not even read.
	secrets target
	// otherSecrets are the secrets of airlock's default state directory
	// under another home of the same user (otherhomes.go).
	otherSecrets []target
	// project is where the project's own tails are, for the parents of a
	// project ("" when unknown: the action's cwd is used).
	project string
	// exeName is the base name of the airlock binary, when renamed.
	exeName string
	// mentions are the spellings of protected things looked for in text
	// airlock cannot parse, built on first use (most commands hold none).
	mentions *[]string
	fs       fileSystem
	// values are airlock's secret values, loaded on first use
	// (selfsecrets.go).
	values *secretValues
	// pathDirs are the directories a human's shell looks programs up in
	// (selflater.go).
	pathDirs []string
	// pathDirsASCII says every one of pathDirs is ASCII.
	pathDirsASCII bool
	// steerSet are airlock's own variables set in the environment the
	// hook runs in (the human's choice for the session).
	steerSet map[string]bool
	// env reads the environment the decision runs in, for where an
	// agent's installer looks (selfhookless.go).
	env func(string) string
}

// Self-protection rule names.
const (
	// RuleProtectedPath fires on a change to airlock's own files, an
	// agent's hook settings or a shell start-up file, or on a read of
	// airlock's secrets.
	RuleProtectedPath = "self.protected-path"
	// RuleAirlockCommand fires on an agent running a mutating airlock
	// subcommand.
	RuleAirlockCommand = "self.airlock-command"
	// RuleAgentGuardOff fires on an agent starting another agent with its
	// guard (hooks, approvals) turned off.
	RuleAgentGuardOff = "self.agent-guard-off"
)

// instead is what every refusal tells the agent to do.
const instead = " Leave airlock's files and settings alone and go on with your task; if this change is really needed, ask the human to make it."

func newGuard(paths Paths, projectRoot string, o Options, getenv func(string) string) guard {
	g := guard{home: paths.Home, vars: map[string]string{}, project: projectRoot, fs: osFS{}, env: getenv}
	// Room for every target below, so the list is allocated once: the
	// resident service builds it for every request.
	g.targets = make([]target, 0, 24+len(airlockBinaries)+len(o.Protect)+len(homeTargets)+len(agentConfigs)+len(systemTargets))
	add := func(p string, dir bool, kind targetKind) {
		if p == "" {
			return
		}
		g.targets = append(g.targets, target{path: absPath(p, o.Cwd, paths.Home), dir: dir, kind: kind})
	}
	add(paths.ConfigDir, true, kindAirlock)
	add(paths.StateDir, true, kindAirlock)
	add(paths.Explicit, false, kindAirlock)
	if paths.StateDir != "" {
		g.secrets = target{path: filepath.Join(absPath(paths.StateDir, o.Cwd, paths.Home), "secrets"), dir: true, kind: kindSecret}
	}
	if projectRoot != "" {
		add(filepath.Join(projectRoot, ".airlock"), true, kindAirlock)
	}
	if o.Executable != "" {
		add(o.Executable, false, kindAirlock)
		dir := filepath.Dir(o.Executable)
		for _, b := range airlockBinaries {
			add(filepath.Join(dir, b), false, kindAirlock)
		}
		if b := strings.ToLower(filepath.Base(o.Executable)); !slices.Contains(airlockBinaries, b) {
			g.exeName = strings.TrimSuffix(b, ".exe")
		}
	}
	for _, f := range o.Protect {
		add(f, false, kindHooks)
	}
	// The project's own protected files: their parents (the project root
	// and above) count only for programs that move whole trees, or "git
	// add ." would be refused.
	for _, base := range []string{projectRoot, o.Cwd} {
		if base == "" {
			continue
		}
		b := filepath.Clean(base) + "/"
		for i := range g.targets {
			if strings.HasPrefix(g.targets[i].path, b) {
				g.targets[i].proj = true
			}
		}
	}
	// cached are the targets that come marked from homeGuardTargets.
	cachedFrom, cachedTo := 0, 0
	switch {
	case paths.Home != "" && filepath.IsAbs(paths.Home) && filepath.Clean(paths.Home) == paths.Home:
		// The usual case: the same home on every call, its targets built
		// once per process (homeGuardTargets).
		cachedFrom = len(g.targets)
		g.targets = append(g.targets, homeGuardTargets(paths.Home)...)
		cachedTo = len(g.targets)
	case paths.Home != "":
		eachHomeTarget(paths.Home, add)
	}
	g.pathDirs, g.pathDirsASCII = cachedPathDirs(getenv("PATH"), paths.Home)
	for _, k := range airlockOnly {
		if getenv(k) != "" {
			if g.steerSet == nil {
				g.steerSet = map[string]bool{}
			}
			g.steerSet[k] = true
		}
	}
	for _, v := range []struct{ env, rel string }{
		{"CLAUDE_CONFIG_DIR", "settings.json"}, {"CLAUDE_CONFIG_DIR", "settings.local.json"},
		{"CODEX_HOME", "config.toml"}, {"CODEX_HOME", "hooks.json"},
		{"COPILOT_HOME", "config.json"},
		{"ZDOTDIR", ".zshrc"}, {"ZDOTDIR", ".zshenv"}, {"ZDOTDIR", ".zprofile"}, {"ZDOTDIR", ".zlogin"},
	} {
		if d := getenv(v.env); d != "" {
			kind := kindHooks
			if v.env == "ZDOTDIR" {
				kind = kindStartup
			}
			add(filepath.Join(d, v.rel), false, kind)
		}
	}
	if d := getenv("COPILOT_HOME"); d != "" {
		add(filepath.Join(d, "hooks"), true, kindHooks)
	}
	// PI_CODING_AGENT_DIR moves Pi's ~/.pi/agent, extensions and all.
	if d := getenv("PI_CODING_AGENT_DIR"); filepath.IsAbs(d) {
		add(filepath.Join(d, "extensions"), true, kindHooks)
		add(filepath.Join(d, "settings.json"), false, kindHooks)
	}
	if xdg := getenv("XDG_CONFIG_HOME"); xdg != "" {
		add(filepath.Join(xdg, "opencode"), true, kindHooks)
		add(filepath.Join(xdg, "goose"), true, kindHooks)
		add(filepath.Join(xdg, "crush"), true, kindHooks)
		add(filepath.Join(xdg, "fish"), true, kindStartup)
	}
	// Crush's user and data configuration, where its variables move them.
	if d := getenv("CRUSH_GLOBAL_CONFIG"); d != "" {
		add(d, true, kindHooks)
	}
	if d := getenv("CRUSH_GLOBAL_DATA"); d != "" {
		add(filepath.Join(d, "crush.json"), false, kindAgentConfig)
	}
	if d := getenv("XDG_DATA_HOME"); d != "" {
		add(filepath.Join(d, "crush", "crush.json"), false, kindAgentConfig)
	}
	for _, f := range []string{"BASH_ENV", "ENV"} {
		add(getenv(f), false, kindStartup)
	}
	g.targets = append(g.targets, systemTargets...)
	markASCII(g.targets[:cachedFrom])
	markASCII(g.targets[cachedTo:])
	g.tails = tails
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "AIRLOCK_HOME", "AIRLOCK_POLICY", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "ZDOTDIR", "PI_CODING_AGENT_DIR"} {
		if val := getenv(v); val != "" {
			g.vars[v] = val
		}
	}
	return g
}

// refusal is one self-protection verdict.
type refusal struct {
	rule, msg string
}

// check returns the self-protection verdict for an action, if any fires.
func (g *guard) check(a *Action, r *classify.Result, mode Mode) (rule, msg string, fired bool) {
	c := g.newCall(a.Cwd)
	c.mode = mode
	// Secret values first: another refusal's reason quotes the command,
	// which would print the value.
	ref := g.secretValueRefusal(a, r)
	switch {
	case ref != nil:
	case a.Kind == Write:
		ref = c.writeAction(a)
	case a.Kind == Read:
		ref = c.readAction(a)
	case a.Kind == Shell:
		c.text = a.Command
		ref = c.shell(r)
	}
	if ref == nil {
		return "", "", false
	}
	return ref.rule, ref.msg, true
}

// call is the state of one check: the directories relative paths may be
// relative to, the symlinks the command makes, and resolved paths.
type call struct {
	g    *guard
	cwds []string
	res  resolver
	// dotglob is set when the command turns on matching of dot files by
	// globs.
	dotglob bool
	// deletesOnly is set while checking an operand whose role is delete
	// (rm, rmdir, find -delete): what is not there cannot be lost.
	deletesOnly bool
	// mode is the mode deciding now: a nested agent may not be given a
	// weaker one.
	mode Mode
	// unset are airlock's variables an earlier run of the command unset.
	unset []string
	// changers counts the runs of the command that may create, change or
	// delete files (selfglobnow.go).
	changers int
	// inv is the run whose operands are being checked (selfarchive.go
	// reads the archive an extraction names).
	inv *classify.Invocation
	// listed says how the command prints paths that may be airlock's
	// secrets (selfproduced.go), or "".
	listed string
	// result is the command being checked (its outermost text), for
	// phases that look at other runs of it (selfsignalpids.go).
	result *classify.Result
	// text is the shell command being checked, as the agent wrote it
	// (selfruntime.go finds what a pipe feeds a run from it).
	text string
	// strictSource is set while the source of a word read at run time
	// is judged: a source airlock cannot bound fails closed
	// (selfruntime.go); for other words only one that reaches the
	// secrets does.
	strictSource bool
	// clones are the local clones the command makes, directory →
	// the repository cloned (selfgitlinks.go).
	clones map[string]string
}

// present returns the existence check for project paths when the program
// being checked only deletes, else nil (every project path counts: a
// program that writes can create one).
func (c *call) present() func(string) bool {
	if !c.deletesOnly {
		return nil
	}
	return func(p string) bool {
		_, err := c.g.fs.Lstat(p)
		return err == nil
	}
}

func (g *guard) newCall(cwd string) *call {
	if cwd == "" {
		cwd = "/"
	}
	return &call{g: g, cwds: []string{cwd}, res: resolver{fs: g.fs}}
}

// tails are the project tails split into components, once.
var tails = func() []tail {
	out := make([]tail, len(projectTails))
	for i, t := range projectTails {
		out[i] = tail{strings.Split(t.rel, "/"), t.dir, t.kind}
	}
	return out
}()

// project returns the protected tails of the project: at the project root
// and at each directory the command runs in.
func (c *call) project() []target {
	var out []target
	if c.g.project != "" {
		out = append(out, targetsAt(c.g.project)...)
	}
	for _, d := range c.cwds {
		out = append(out, targetsAt(filepath.Clean(d))...)
	}
	return out
}

// writeAction checks a file tool that writes (Write, Edit, MultiEdit,
// NotebookEdit).
func (c *call) writeAction(a *Action) *refusal {
	for _, p := range a.Paths {
		h, ok := c.pathHit(p, c.cwds[0], false, false)
		if !ok {
			continue
		}
		if h.target.kind == kindStartup && !h.ancestor {
			if isEnvrc(h.target.path) && envrcWhole(a) {
				continue // a direnv file whose lines are shown harmless (selfenvrc.go)
			}
			if why, bad := c.g.startupEdit(c.g.rawAbs(p, c.cwds[0]), a); bad {
				return &refusal{RuleProtectedPath, a.Tool + " of " + h.path + ", " + kindStartup.String() + ": " + why + "." + instead}
			}
			continue
		}
		return c.pathRefusal(a.Tool, h)
	}
	return c.writtenRuns(a) // selfwritten.go
}

// readAction checks a file tool that reads (Read, Grep): only airlock's
// secrets are refused.
func (c *call) readAction(a *Action) *refusal {
	for _, p := range a.Paths {
		if h, ok := c.secretPath(p, c.cwds[0]); ok {
			return c.secretRefusal(a.Tool, h)
		}
	}
	return nil
}

func (c *call) pathRefusal(who string, h hit) *refusal {
	how := who + " would change " + h.path
	if h.ancestor {
		how = who + " on " + h.path + ", a parent directory of " + h.target.path + ", would move, replace or delete it"
	}
	owner := "; it belongs to airlock, as "
	if h.target.kind == kindRunsLater || h.target.kind == kindPathProgram {
		owner = "; it is "
	}
	what := h.target.kind.String()
	if h.target.kind == kindRunsLater {
		if why := c.g.laterWhy(h.target.path); why != "" {
			what += ": " + why
		}
	}
	return &refusal{RuleProtectedPath, how + owner + what + ". The agent may not change it." + instead}
}

func (c *call) secretRefusal(who string, h hit) *refusal {
	how := who + " would read " + h.path
	if h.ancestor {
		how = who + " on " + h.path + " would read " + h.target.path + " inside it"
	}
	return &refusal{RuleProtectedPath, how + ", which holds " + kindSecret.String() + "; the agent may not read them." + instead}
}

// pathHit checks one path word as a write: lexically first (cheap, no
// system call), then resolved through symlinks.
func (c *call) pathHit(w, cwd string, parents, projectParents bool) (hit, bool) {
	raw := c.g.rawAbs(w, cwd)
	if hasGlob(w) {
		dir, rest := splitGlob(raw)
		if real, unknown := c.res.resolve(dir); !unknown {
			dir = real
		}
		glob := filepath.Clean(dir + "/" + rest)
		if h, ok := c.g.globHit(glob, parents, c.dotglob, c.projectFor(projectParents)); ok {
			return h, true
		}
		return hit{}, false
	}
	clean := filepath.Clean(raw)
	// Naming the directory the command runs in, or one above it, is
	// routine ("git -C .", "go build .", in a home directory too): it
	// counts as naming a parent only for programs that move whole trees.
	parents = parents && (projectParents || !c.aboveCwd(clean))
	if h, ok := c.g.lexicalHit(clean, parents, projectParents, c.projectFor(projectParents), c.present()); ok {
		return h, true
	}
	if h, ok := c.g.secretHit(clean); ok && (!h.ancestor || parents) {
		return h, true
	}
	if strings.HasPrefix(raw, cwd+"/") {
		c.res.resolveDir(cwd)
	}
	real, unknown := c.res.resolve(raw)
	if unknown {
		return hit{target: target{path: clean, dir: false, kind: kindAirlock}, path: clean + " (through a symlink whose target is known only when it runs" + c.taintNote(raw) + ")"}, true
	}
	if real == clean {
		return hit{}, false
	}
	if h, ok := c.g.lexicalHit(real, parents, projectParents, c.projectFor(projectParents), c.present()); ok {
		h.path = clean + " (which resolves to " + real + ")"
		return h, true
	}
	if h, ok := c.g.secretHit(real); ok && (!h.ancestor || parents) {
		h.path = clean + " (which resolves to " + real + ")"
		return h, true
	}
	return hit{}, false
}

// aboveCwd reports whether p is a directory the command runs in, or one
// of its parents.
func (c *call) aboveCwd(p string) bool {
	for _, d := range c.cwds {
		if d = filepath.Clean(d); p == d || p == "/" || strings.HasPrefix(d, p+"/") {
			return true
		}
	}
	return false
}

func (c *call) projectFor(on bool) []target {
	if !on {
		return nil
	}
	return c.project()
}

// secretPath checks one path word as a read of airlock's secrets.
func (c *call) secretPath(w, cwd string) (hit, bool) {
	raw := c.g.rawAbs(w, cwd)
	if hasGlob(w) {
		dir, rest := splitGlob(raw)
		if real, unknown := c.res.resolve(dir); !unknown {
			dir = real
		}
		glob := filepath.Clean(dir + "/" + rest)
		for p := c.g.secrets.path; p != "" && p != "/"; p = filepath.Dir(p) {
			if globMatch(glob, p, c.dotglob) || globWithin(glob, c.g.secrets.path, c.dotglob) {
				return hit{target: c.g.secrets, path: glob, ancestor: p != c.g.secrets.path}, true
			}
		}
		return hit{}, false
	}
	clean := filepath.Clean(raw)
	if h, ok := c.g.secretHit(clean); ok {
		return h, true
	}
	real, unknown := c.res.resolve(raw)
	if unknown && c.g.secrets.path != "" {
		// A directory this command fills from data airlock cannot read
		// (an archive from a pipe, a checkout of a revision known only
		// when it runs): the path may lead anywhere through a link.
		return hit{target: c.g.secrets, path: clean + " (through a link the command may make there, whose target is known only when it runs" + c.taintNote(raw) + ")"}, true
	}
	if unknown || real == clean {
		return hit{}, false
	}
	if h, ok := c.g.secretHit(real); ok {
		h.path = clean + " (which resolves to " + real + ")"
		return h, true
	}
	return hit{}, false
}

// taintNote is why a path below a directory the command fills from
// unread data is unknown, as a clause of the reason ("" when none).
func (c *call) taintNote(p string) string {
	if why := c.res.taintReason(p); why != "" {
		return ": " + why
	}
	return ""
}

// splitGlob splits an absolute path at the last "/" before its first glob
// character: the directory part is literal and may be resolved.
func splitGlob(p string) (dir, rest string) {
	i := strings.IndexAny(p, "*?[")
	j := strings.LastIndex(p[:i], "/")
	if j <= 0 {
		return "/", p[j+1:]
	}
	return p[:j], p[j+1:]
}

// shell checks every program run of a shell command, in order, keeping
// track of the directories it changes into and the links it makes.
func (c *call) shell(r *classify.Result) *refusal {
	c.changers = countChangers(r)
	if c.result == nil {
		c.result = r
	}
	if l := c.listedSecrets(r); l != "" {
		c.listed = l
	}
	for _, inv := range append(r.Invocations[:len(r.Invocations):len(r.Invocations)], r.Followed...) {
		src := inv.Source
		if strings.Contains(src, "dotglob") || strings.Contains(src, "globdots") || strings.Contains(src, "GLOB_DOTS") || strings.Contains(src, "GLOBIGNORE") {
			c.dotglob = true
		}
	}
	for i := range r.Invocations {
		if ref := c.invocation(&r.Invocations[i]); ref != nil {
			return ref
		}
	}
	// The lines of the scripts the command runs, as classify followed
	// them, are held as if typed inline: a script is only a second step.
	for i := range r.Followed {
		if ref := c.invocation(&r.Followed[i]); ref != nil {
			if classify.FromImport(&r.Followed[i]) {
				ref.msg = clipText(strings.TrimPrefix(r.Followed[i].Via[0], classify.ImportVia)) + " is an agent's memory file: its @ import is read into the agent's next session, with no tool call (" + clipText(r.Followed[i].Source) + "): " + ref.msg
				return ref
			}
			through := ""
			if via := r.Followed[i].Via; len(via) > 0 {
				through = " (through " + clipText(strings.TrimPrefix(via[0], classify.SettingVia)) + ")"
			}
			ref.msg = "a script or setting this command runs has the line " + clipText(r.Followed[i].Source) + through + ": " + ref.msg
			return ref
		}
	}
	if ref := c.composeMounts(r); ref != nil {
		return ref
	}
	if ref := c.heldLocks(r); ref != nil { // selflock.go
		return ref
	}
	// The interpreter scripts the command runs, read from disk or from
	// the literal text an earlier run of the same command writes them
	// with (printf '…' > a.py; python3 a.py): their code is checked as a
	// one-liner's mentions are (the path literals of a whole program are
	// not: "~" or "/" in a project's script is no write of either).
	for _, code := range r.Code {
		if m := c.g.mentionedInCode(code.Text); m != "" {
			return &refusal{RuleAirlockCommand, code.Run + " runs code that mentions " + m + "; airlock cannot show it leaves its own files and verbs alone, so the agent may not run it." + instead}
		}
	}
	// Code the command runs may load other files the same command writes
	// (python3 a.py importing b.py written beside it): when it runs code,
	// no file it writes from literal text may mention airlock's verbs or
	// files either.
	if runsCode(r) {
		for i := range r.Invocations {
			if text, ok := literalWrite(&r.Invocations[i]); ok {
				if m := c.g.mentionedInCode(text); m != "" {
					return &refusal{RuleAirlockCommand, "the command writes a file whose text mentions " + m + " (" + clipText(r.Invocations[i].Source) + ") and runs code that may load it; airlock cannot show the code leaves its own files and verbs alone, so the agent may not run it." + instead}
				}
			}
		}
	}
	// A file written by the command in a way airlock cannot read (tee,
	// printf with arguments, a copy) and then run: its code comes from
	// the command's own text or from outside. The first may not mention
	// airlock's verbs or files; the second is held by the table.
	if writtenAndRun(r) {
		var text strings.Builder
		for i := range r.Invocations {
			text.WriteString(r.Invocations[i].Source)
			text.WriteString("\n")
			text.WriteString(r.Invocations[i].StdinText)
			text.WriteString("\n")
		}
		if m := c.g.mentionedInCode(text.String()); m != "" {
			return &refusal{RuleAirlockCommand, "the command writes a file and runs it, and its text mentions " + m + "; airlock cannot read what the file will hold, so the agent may not run it." + instead}
		}
	}
	return nil
}

// runsCode reports whether a command runs code airlock reads only in
// part: an interpreter, a shell, a script it followed.
func runsCode(r *classify.Result) bool {
	if len(r.Code) > 0 {
		return true
	}
	for i := range r.Followed {
		if !classify.FromImport(&r.Followed[i]) {
			return true // a memory file's import is a read, not a run
		}
	}
	for i := range r.Invocations {
		switch n := r.Invocations[i].Name(); {
		case classify.RunsCode(n), n == "sh", n == "bash", n == "zsh", n == "dash", n == "ksh", n == "source", n == ".":
			return true
		}
	}
	return false
}

// literalWrite returns the text a run writes to a file, when it is a
// writer of literal text (echo, printf, cat or tee of a heredoc or
// here-string) with an output that is a file.
func literalWrite(inv *classify.Invocation) (string, bool) {
	toFile := inv.Name() == "tee" && len(inv.Args) > 1
	for _, rd := range inv.Redirects {
		if rd.Writes() && !strings.HasPrefix(rd.Target, "&") && !strings.HasPrefix(rd.Target, "/dev/") {
			toFile = true
		}
	}
	if !toFile {
		return "", false
	}
	switch inv.Name() {
	case "echo", "printf":
		return strings.Join(inv.Args[1:], " "), true
	case "cat", "tee":
		if inv.StdinKnown {
			return inv.StdinText, true
		}
	}
	return "", false
}

// writtenAndRun reports whether a run of the command executes a file the
// same command writes, whose text airlock could not read beforehand.
func writtenAndRun(r *classify.Result) bool {
	for i := range r.Invocations {
		for _, why := range r.Invocations[i].Effect.Reasons {
			if why.Rule == "script.written" {
				return true
			}
		}
	}
	return false
}

// redirects checks a run's redirections: a write to a protected path, a
// read of a secret. An opaque run's own redirections are as static as
// any other's (eval "$CMD" > FILE writes FILE whatever $CMD is).
func (c *call) redirects(inv *classify.Invocation) *refusal {
	for _, rd := range inv.Redirects {
		tgt := rd.Target
		if strings.HasPrefix(tgt, "&") || isFD(tgt) {
			continue
		}
		if rd.Dynamic {
			known, ok := c.known(tgt)
			if !ok {
				if c.listed != "" {
					return c.listedRefusal("a redirection ("+rd.Op+")", tgt)
				}
				if ref := c.dynamicPath("a redirection ("+rd.Op+")", tgt, known, redirectMode(rd)); ref != nil {
					return ref
				}
				continue
			}
			tgt = known
		}
		if ref := c.unknownDir(inv, "a redirection ("+rd.Op+")", tgt, redirectMode(rd)); ref != nil {
			return ref
		}
		for _, d := range c.cwds {
			if rd.Writes() {
				if h, ok := c.pathHit(tgt, d, false, false); ok {
					if h.target.kind == kindStartup && !h.ancestor && isEnvrc(h.target.path) && rd.Op != "<>" {
						// A direnv file written with lines shown
						// harmless (selfenvrc.go).
						if envrcWritten(inv) {
							continue
						}
					}
					return c.pathRefusal("a redirection ("+rd.Op+")", h)
				}
			}
			if !rd.Writes() || rd.Reads() {
				// <> both reads and writes.
				if h, ok := c.secretPath(tgt, d); ok {
					return c.secretRefusal("a redirection ("+rd.Op+")", h)
				}
			}
		}
	}
	return nil
}

func (c *call) invocation(inv *classify.Invocation) *refusal {
	g := c.g
	// Text airlock cannot read: a computed command, interpreter code.
	if inv.Opaque != "" {
		if m := g.mentioned(inv.Source + "\n" + strings.Join(inv.Args, " ")); m != "" {
			return &refusal{RuleAirlockCommand, "a command computed at run time mentions " + m + " (" + clipText(inv.Source) + "); airlock cannot check what it does to its own files or verbs, so the agent may not run it." + instead}
		}
		return c.redirects(inv)
	}
	saved := c.inv
	c.inv = inv
	defer func() { c.inv = saved }()
	name := inv.Name()
	if g.airlockProgram(name) {
		if what, ok := airlockArgv(inv); !ok {
			return &refusal{RuleAirlockCommand, what + " changes what airlock allows or does with held actions (or cannot be shown not to); only a human may run it. To see what is held, run \"airlock queue list\"; ask the human to approve."}
		}
	}
	if ref := c.signals(inv); ref != nil {
		return ref
	}
	if ref := c.units(inv); ref != nil {
		return ref
	}
	if ref := c.hostPIDContainer(inv); ref != nil {
		return ref
	}
	if what, off := classify.AgentGuardOff(&inv.Invocation); off {
		return &refusal{RuleAgentGuardOff, name + " started with its guard off: " + what + ". A nested agent without airlock's hooks escapes every check. Run it without that flag (its hooks then apply), or ask the human."}
	}
	if name == "unset" {
		for _, a := range inv.Args[1:] {
			if slices.Contains(airlockOnly, a) {
				c.unset = append(c.unset, a)
			}
		}
	}
	if ref := c.steeredAirlock(inv, g.airlockProgram(name)); ref != nil {
		return ref
	}
	if ref := configSet(inv); ref != nil {
		return ref
	}
	if ref := c.containerMounts(inv); ref != nil {
		return ref
	}
	if ref := c.atFileReads(inv); ref != nil {
		return ref
	}
	if ref := c.scriptFile(inv); ref != nil {
		return ref
	}
	if classify.LooksThrough(name) {
		if ref := c.tails(inv); ref != nil {
			return ref
		}
	}
	if (name == "tar" || name == "gtar" || name == "bsdtar") && tarAbsoluteExtract(inv.Args) {
		return &refusal{RuleProtectedPath, name + " extracting with absolute names (-P) writes wherever the archive says, airlock's own files and hook settings included, and the archive cannot be read in advance." + instead}
	}
	if name == "git" {
		// Configuration given on the command line may hold commands
		// (an alias "!…", core.sshCommand, a filter): they may not
		// mention airlock's verbs or files.
		for i := 1; i+1 < len(inv.Args); i++ {
			if inv.Args[i] != "-c" && inv.Args[i] != "--config-env" {
				continue
			}
			if m := g.mentionedInCode(inv.Args[i+1]); m != "" {
				return &refusal{RuleAirlockCommand, "git configuration on the command line that runs text mentioning " + m + " (" + clipText(inv.Args[i+1]) + "); airlock cannot show it leaves its own files and verbs alone, so the agent may not run it." + instead}
			}
		}
		// "git config KEY VALUE" stores a value that later git commands
		// run (an alias "!…", core.fsmonitor, core.pager, a filter):
		// the value may not mention airlock's verbs or files either,
		// in this command or a later one.
		if sub, rest, ok := classify.GitSubcommand(inv.Args[1:]); ok && sub == "config" {
			for _, w := range rest {
				if strings.HasPrefix(w, "-") {
					continue
				}
				if m := g.mentionedInCode(w); m != "" {
					return &refusal{RuleAirlockCommand, "git config stores a value mentioning " + m + " (" + clipText(w) + ") that git commands may run later; airlock cannot show it leaves its own files and verbs alone, so the agent may not store it." + instead}
				}
			}
		}
	}
	// Commands and files given in a program's options (tar
	// --to-command, sed's w, sort -o) may not mention airlock's verbs or
	// files either.
	// The text is first checked as the shell text it is (a file an
	// option writes comes as ": >> FILE"), so the refusal names the path
	// or verb precisely; any other mention is refused after.
	for _, t := range classify.OptionTexts(&inv.Invocation) {
		nested := classify.Command(t)
		if ref := c.shell(&nested); ref != nil {
			return ref
		}
		if m := g.mentionedInCode(t); m != "" {
			return &refusal{RuleAirlockCommand, name + " runs or writes, through an option, text mentioning " + m + " (" + clipText(t) + "); airlock cannot show it leaves its own files and verbs alone, so the agent may not run it." + instead}
		}
	}
	c.runDir(inv)
	cwd := c.cwds[len(c.cwds)-1]
	if name == "cd" || name == "pushd" {
		c.changeDir(inv, cwd)
		return nil
	}
	reads := classify.ReadsOnlyRun(inv.Args) || g.airlockProgram(name)
	// Whether a run only deletes is a role now (selfroles.go): the words
	// checked below have none, and count as writes.
	c.deletesOnly = false
	meta := classify.MetadataOnly(name)
	moves := classify.MovesTrees(name)
	if name == "ln" || name == "link" || name == "cp" {
		// The links this run makes lead later runs elsewhere; its own
		// operands are checked as they are before it runs (FINDINGS-10
		// B7: ln -sf "$PWD/scripts/gen.sh" build/gen writes build/gen,
		// not what the link it makes will lead to).
		defer c.links(inv, cwd)
	}
	if ref := c.redirects(inv); ref != nil {
		return ref
	}
	// What this run extracts, patches or checks out may be links that
	// later runs go through; its own paths are checked first, below.
	defer c.madeLinks(inv, cwd)
	if ref := c.followedLinks(inv, cwd); ref != nil {
		return ref
	}
	if r := classify.Reaches(name); r == classify.ReachPID || r == classify.ReachPattern || r == classify.ReachName {
		// kill's operands are PIDs and signals, pkill's and killall's
		// patterns and names, never paths: they were read by signals
		// (kill $! and pkill -P $$ name no file).
		return nil
	}
	// Each operand is judged by its role to the program (classify's
	// roles.go): a read is checked only against airlock's secrets, a
	// write, creation, deletion or move against every protected path,
	// parents included when it reaches everything below. A word with no
	// known role, of a program that may write, counts as a write to
	// everything under it (fail closed).
	roles := c.knownRoles(inv)
	if ref := c.derivedOperands(inv); ref != nil {
		return ref
	}
	for i := 1; i < len(inv.Args); i++ {
		arg := inv.Args[i]
		if ops := roles[i]; len(ops) > 0 {
			if ref := c.operandsAt(inv, ops); ref != nil {
				return ref
			}
			continue
		}
		if inv.IsDynamic(i) && isPlaceholder(arg) && reads && !meta {
			if ref := c.runtimeRead(name, arg, true); ref != nil {
				return ref
			}
		}
		if inv.IsDynamic(i) {
			known, ok := c.known(arg)
			if !ok {
				if c.listed != "" && !(reads && meta) {
					return c.listedRefusal(name, arg)
				}
				if !reads || !meta {
					if ref := c.dynamicPath(name, arg, known, dynamicMode(inv, i, reads, false)); ref != nil {
						return ref
					}
				}
				continue
			}
			arg = known
		}
		if ref := c.unknownDir(inv, name, arg, dynamicMode(inv, i, reads, false)); ref != nil && !(reads && meta) {
			return ref
		}
		if name == "socat" {
			// socat names files in its own address syntax
			// (OPEN:path,creat; UNIX-CONNECT:path; PTY,link=path).
			writes, readsOnly := classify.SocatPaths(inv.Args, i, arg)
			for _, d := range c.cwds {
				for _, w := range writes {
					if h, ok := c.pathHit(w, d, true, false); ok {
						return c.pathRefusal(name, h)
					}
				}
				for _, w := range readsOnly {
					if h, ok := c.secretPath(w, d); ok {
						return c.secretRefusal(name, h)
					}
				}
			}
		}
		for _, w := range pathWords(arg) {
			for _, d := range c.cwds {
				if !reads && hasGlob(w) {
					// gzip dist/*: what the glob matches now, each by
					// its own name, when nothing else in the command can
					// change it (selfglobnow.go).
					if named, ok := c.globNow(classify.Operand{Word: w, Role: classify.RoleUnknown, Arg: i}, w, d); ok {
						for _, n := range named {
							if h, hit := c.pathHit(n, d, true, moves); hit {
								return c.pathRefusal(name, h)
							}
						}
						continue
					}
				}
				if !reads {
					if h, ok := c.pathHit(w, d, true, moves); ok {
						return c.pathRefusal(name, h)
					}
				} else if !meta {
					if h, ok := c.secretPath(w, d); ok {
						return c.secretRefusal(name, h)
					}
				}
			}
		}
	}
	if op, ok := classify.OutputPrefixes(inv.Args); ok {
		if ref := c.outputPrefix(inv, op); ref != nil {
			return ref
		}
	}
	if classify.RunsCode(name) {
		words, read := codeWords(inv)
		text := withoutWords(codeSource(inv), read) + "\n" + strings.Join(words, "\n")
		if name == "make" || name == "gmake" {
			// make's code is its makefile, followed and checked as
			// recipes, and what --eval gives it; the other words are
			// targets and variables (make install PREFIX=~/.local).
			text = makeEvalText(inv)
		}
		if inv.StdinKnown {
			text += "\n" + inv.StdinText
		}
		if ref := c.code(name, inv.Source, text, cwd); ref != nil {
			return ref
		}
	}
	return nil
}

// code checks program text a run executes (a one-liner, a heredoc fed
// to an interpreter, a script file followed): a path literal in it is
// checked as a write, and a mention of airlock's verbs or files is
// refused, since airlock cannot tell what the code does with it.
func (c *call) code(name, source, text, cwd string) *refusal {
	for _, lit := range pathLiterals(text) {
		if h, ok := c.pathHit(lit, cwd, true, false); ok {
			return c.pathRefusal(name+" code naming "+lit, h)
		}
	}
	if m := c.g.mentionedInCode(text); m != "" {
		rule := RuleProtectedPath
		if strings.HasPrefix(m, "airlock") {
			rule = RuleAirlockCommand
		}
		return &refusal{rule, name + " code that mentions " + m + " (" + clipText(source) + "); airlock cannot tell what the code does to it, so the agent may not run it." + instead}
	}
	return nil
}

// tails checks what a program airlock looks through may run: from any
// argument that names airlock or an agent on, the words are checked as a
// run of it (strace -f airlock queue approve ID, taskset -c 1 claude
// --dangerously-skip-permissions), and an argument that is shell text
// (tmux new -d 'airlock queue approve ID') may not mention airlock's
// verbs or files.
func (c *call) tails(inv *classify.Invocation) *refusal {
	for i := 1; i < len(inv.Args); i++ {
		if inv.IsDynamic(i) {
			continue
		}
		arg := inv.Args[i]
		if strings.ContainsAny(arg, " \t\n;&|") {
			if m := c.g.mentioned(arg); m != "" {
				return &refusal{RuleAirlockCommand, inv.Name() + " runs shell text that mentions " + m + " (" + clipText(arg) + "); airlock cannot show it leaves its own files and verbs alone, so the agent may not run it." + instead}
			}
			continue
		}
		base := filepath.Base(arg)
		if !c.g.airlockProgram(base) && !classify.IsAgent(base) {
			continue
		}
		sub := *inv
		sub.Args = append([]string{base}, inv.Args[i+1:]...)
		sub.Dynamic = nil
		if len(inv.Dynamic) > i {
			sub.Dynamic = append([]bool{false}, inv.Dynamic[i+1:]...)
		}
		sub.Redirects = nil
		if ref := c.invocation(&sub); ref != nil {
			ref.msg = "through " + inv.Name() + ": " + ref.msg
			return ref
		}
	}
	return nil
}

// pathLiterals returns the quoted strings in code that look like paths
// (they hold a "/" or start with "~"), so that a path the code opens is
// resolved like one on a command line, symlinks included.
func pathLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := strings.IndexByte(code[i+1:], q)
		if j < 0 {
			break
		}
		lit := code[i+1 : i+1+j]
		i += j + 1
		if len(lit) > 4096 {
			continue
		}
		// A literal may be a path with an open mode (">path" in Perl) or
		// shell text handed to system(): each field is looked at.
		for _, fld := range strings.Fields(lit) {
			fld = strings.TrimRight(strings.TrimLeft(fld, "<>|&+=(\"'`"), ";,)\"'`")
			if strings.Trim(fld, "/.") == "" {
				continue
			}
			if strings.Contains(fld, "/") || strings.HasPrefix(fld, "~") {
				out = append(out, fld)
			}
		}
		if len(out) >= 64 {
			break
		}
	}
	return out
}

// known expands the guard's variables in a word known only at run time;
// ok is set when nothing unknown is left.
func (g *guard) known(w string) (string, bool) {
	x := strings.NewReplacer(`"`, "", `'`, "").Replace(g.expand(w))
	// The value xargs or parallel puts in a longer word is known only at
	// run time too (ls | parallel 'echo x > ~/.claude/{}'); the whole
	// word is its feed's (classify feeds.go bounds it).
	fed := (strings.Contains(x, "{parallel input}") || strings.Contains(x, "{xargs input}")) && !isPlaceholder(x)
	return x, !fed && !strings.ContainsAny(x, "$`\\")
}

// dynamicWord checks an argument of a writing program whose value is
// known only at run time: it may not mention a protected path, and the
// directory its known beginning names may not hold one ("~/$X").
func (c *call) dynamicWord(name, src, known string) *refusal {
	if m := c.g.mentioned(known); m != "" {
		return &refusal{RuleProtectedPath, name + " on " + clipText(src) + ", a path built at run time that mentions " + m + "; airlock cannot rule out that it is its own file." + instead}
	}
	i := strings.IndexAny(known, "$`\\")
	if i < 0 {
		i = len(known)
	}
	prefix := known[:i]
	j := strings.LastIndex(prefix, "/")
	if j < 0 && !strings.HasPrefix(prefix, "~") {
		return nil
	}
	dir := prefix
	if j >= 0 {
		dir = prefix[:j+1]
	}
	d := filepath.Clean(c.g.rawAbs(dir, c.cwds[len(c.cwds)-1]))
	for _, t := range append(append([]target(nil), c.g.targets...), c.g.secrets) {
		if t.path != "" && (within(t.path, target{path: d, dir: true, kind: kindAirlock})) {
			return &refusal{RuleProtectedPath, name + " on " + clipText(src) + ", a path built at run time inside " + d + ", which holds " + t.path + " (" + t.kind.String() + "); airlock cannot rule out that it names it." + instead}
		}
	}
	return nil
}

// pathWords are the spellings of a path one argument may hold: the word,
// and the value of --opt=value or key=value (dd of=FILE).
func pathWords(w string) []string {
	if rest, ok := cutFold(w, "file://"); ok {
		// file:///path and file://host/path name a local file.
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			return []string{rest[i:]}
		}
		return nil
	}
	if w == "" || strings.Contains(w, "://") {
		return nil
	}
	if strings.HasPrefix(w, "-") {
		if _, v, ok := strings.Cut(w, "="); ok && v != "" {
			return []string{v}
		}
		// A short option's value may be attached (curl -oFILE, wget
		// -OFILE, tar -cfFILE, socat -LFILE): every tail after a run of
		// option letters may be the path. A tail that names nothing
		// protected costs nothing; missing one is a bypass.
		var tails []string
		if len(w) > 2 && w[1] != '-' {
			for k := 2; k < len(w); k++ {
				b := w[k-1]
				if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9') {
					break
				}
				tails = append(tails, w[k:])
			}
		}
		return tails
	}
	if k, v, ok := strings.Cut(w, "="); ok && v != "" && isIdent(k) {
		return []string{v, w}
	}
	return []string{w}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || i > 0 && b >= '0' && b <= '9') {
			return false
		}
	}
	return true
}

func isFD(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return s == "-"
		}
	}
	return s != ""
}

// changeDir follows cd: later relative paths are checked against every
// directory the command may be in, since a subshell's cd does not last.
func (c *call) changeDir(inv *classify.Invocation, cwd string) {
	var dest string
	for i := 1; i < len(inv.Args); i++ {
		if strings.HasPrefix(inv.Args[i], "-") && inv.Args[i] != "-" {
			continue
		}
		if inv.IsDynamic(i) {
			// cd "$(mktemp -d)": a new directory under the temporary
			// one, which holds nothing of airlock's.
			if _, _, dyn := c.g.literalEnds(inv.Args[i]); !dyn {
				p, _, _ := c.g.literalEnds(inv.Args[i])
				c.cwds = append(c.cwds, filepath.Clean(p))
			}
			return // unknown: keep checking against the directories known
		}
		if inv.Args[i] == "-" {
			return
		}
		dest = inv.Args[i]
		break
	}
	if dest == "" {
		dest = c.g.home
	}
	raw := c.g.rawAbs(dest, cwd)
	if real, unknown := c.res.resolve(raw); !unknown {
		raw = real
	}
	c.cwds = append(c.cwds, filepath.Clean(raw))
}

// links records the symlinks and hard links an ln or cp -s/-l run makes,
// so that a later path through them in the same command is resolved.
// The link's own operands are checked as writes by the caller: linking to
// a protected path is refused outright.
func (c *call) links(inv *classify.Invocation, cwd string) {
	name := inv.Name()
	symbolic := name != "link" && name != "cp"
	if name == "cp" {
		on := false
		for _, a := range inv.Args[1:] {
			if a == "-s" || a == "--symbolic-link" || a == "-l" || a == "--link" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "sl") {
				on = true
			}
		}
		if !on {
			return
		}
	}
	var ops []int
	targetDir := ""
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case a == "-t" || a == "--target-directory":
			if i+1 < len(inv.Args) {
				targetDir = inv.Args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--target-directory="):
			targetDir = strings.TrimPrefix(a, "--target-directory=")
		case a == "-S" || a == "--suffix":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops = append(ops, i)
		}
	}
	if c.res.links == nil {
		c.res.links = map[string]string{}
	}
	record := func(link string, srcIdx int) {
		src := ""
		if !inv.IsDynamic(srcIdx) {
			src = inv.Args[srcIdx]
			if !symbolic || strings.HasPrefix(src, "~") || strings.HasPrefix(src, "$") {
				src = c.g.rawAbs(src, cwd)
			}
		}
		l := filepath.Clean(c.g.rawAbs(link, cwd))
		if src != "" && !filepath.IsAbs(src) {
			src = filepath.Dir(l) + "/" + src
		}
		c.res.links[fold(l)] = src
	}
	switch {
	case targetDir != "":
		for _, i := range ops {
			record(filepath.Join(targetDir, filepath.Base(inv.Args[i])), i)
		}
	case len(ops) == 1:
		record(filepath.Base(inv.Args[ops[0]]), ops[0])
	case len(ops) >= 2:
		last := inv.Args[ops[len(ops)-1]]
		for _, i := range ops[:len(ops)-1] {
			// The last operand is the link, or a directory the links go in.
			record(filepath.Join(last, filepath.Base(inv.Args[i])), i)
			if len(ops) == 2 {
				record(last, i)
			}
		}
	}
}

func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// cutFold is strings.CutPrefix without regard to case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// secretMention returns how a text names airlock's secrets directory, or
// "": its path, its path from the home directory, or the key file's name.
func (g *guard) secretMention(text string) string {
	if g.secrets.path == "" {
		return ""
	}
	t := fold(text)
	cands := []string{fold(g.secrets.path), "airlock/secrets", "human.key"}
	if g.home != "" {
		if rel, ok := strings.CutPrefix(g.secrets.path, filepath.Clean(g.home)+"/"); ok {
			cands = append(cands, fold(rel))
		}
	}
	for _, c := range cands {
		if strings.Contains(t, c) {
			return c
		}
	}
	return ""
}

// tarAbsoluteExtract reports whether a tar run extracts and keeps
// absolute member names (-P, --absolute-names), in the dashed, long or
// old-style ("xPf") spelling of its options.
func tarAbsoluteExtract(args []string) bool {
	abs, extract := false, false
	for i, a := range args[1:] {
		switch {
		case a == "--":
			return abs && extract
		case a == "--absolute-names":
			abs = true
		case a == "--extract" || a == "--get":
			extract = true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || i == 0 && a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "":
			abs = abs || strings.Contains(a, "P")
			extract = extract || strings.Contains(a, "x")
		}
	}
	return abs && extract
}

// makeEvalText is the make code a run's words give: the values of
// --eval and -E.
func makeEvalText(inv *classify.Invocation) string {
	var b strings.Builder
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case (a == "-E" || a == "--eval") && i+1 < len(inv.Args):
			b.WriteString(inv.Args[i+1] + "\n")
			i++
		case strings.HasPrefix(a, "--eval="):
			b.WriteString(strings.TrimPrefix(a, "--eval=") + "\n")
		case strings.HasPrefix(a, "-E") && len(a) > 2:
			b.WriteString(a[2:] + "\n")
		}
	}
	return b.String()
}
