package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file is the phase of the decision that grades destruction by where
// it lands: inside the current project's worktree (reversible once a
// snapshot is taken), outside it (home, /, other repositories, the
// system), or in the repository's own history (.git, forced branch
// deletion, reflog expiry, gc --prune). Paths are resolved the way the
// kernel will (symlinks, "..", cd, globs, "~"), with self-protection's
// resolver. Whatever airlock cannot place is outside: only a target known
// to be inside can be snapshotted.

// SnapshotPlan is what the entry point must snapshot before it lets a
// destructive command run.
type SnapshotPlan struct {
	// Root is the project's root, resolved (no symlinks).
	Root string `json:"root"`
	// Git says Root is a git worktree: its repository says which files a
	// whole-worktree command loses. The snapshot itself goes to airlock's
	// private store, never to that repository.
	Git bool `json:"git"`
	// Paths are what the command destroys, relative to Root; "." is the
	// whole worktree.
	Paths []string `json:"paths"`
	// Ignored says files git ignores under Paths are taken too: named
	// targets (rm -rf build) and git clean -x lose them.
	Ignored bool `json:"ignored,omitempty"`
	// For the whole worktree ("."): Changes takes tracked files with
	// changes, staged or not (what reset --hard and checkout lose);
	// Untracked takes untracked files (what clean loses).
	Changes   bool `json:"changes,omitempty"`
	Untracked bool `json:"untracked,omitempty"`
}

// place is where a destructive run lands.
type place int8

const (
	placeUnknown place = iota
	placeInside
	placeOutside
	placeHistory
)

// grade is where one destructive run lands, and why.
type grade struct {
	place              place
	why                string
	paths              []string
	ignored            bool
	changes, untracked bool
	// relinked says the place is unknown because another program of the
	// command may change what the paths lead to before the deletion.
	relinked bool
	// scratch says everything the run destroys is in scratch space
	// (/tmp, not the project): nothing to snapshot, nothing to hold.
	scratch bool
}

// The rules named in reasons about where destruction lands.
const (
	// RuleSnapshot is the rule of a verdict that allows destruction inside
	// the project after a snapshot.
	RuleSnapshot      = "destructive.snapshot"
	ruleInsideRow     = "table.inside_project"
	ruleOutside       = "destructive.outside"
	ruleHistory       = "destructive.history"
	ruleUnknownTarget = "destructive.unknown-target"
)

// destruction grades every destructive run of a command.
type destruction struct {
	root   string
	git    bool
	home   string
	res    resolver
	grades []grade
}

// gradeDestruction returns the grade of each run of r (nil when nothing in
// it destroys). Runs that delete without being rated destructive (rm
// FILE, unlink, chmod 000) become destruction where they land outside
// the project (deletes.go).
func gradeDestruction(r *classify.Result, cwd, home string, fsys fileSystem) []grade {
	markEmptyingThroughLinks(r, cwd, home, fsys)
	g := gradeRuns(r, cwd, home, fsys)
	promoteDeletions(r, g, cwd, home, fsys)
	return g
}

func gradeRuns(r *classify.Result, cwd, home string, fsys fileSystem) []grade {
	destroys := false
	for i := range r.Invocations {
		destroys = destroys || r.Invocations[i].Effect.Destructive || deletes(&r.Invocations[i]) || followedDeletes(r, i)
	}
	if !destroys {
		return nil
	}
	d := &destruction{home: home, res: resolver{fs: fsys}, grades: make([]grade, len(r.Invocations))}
	all := func(p place, why string) []grade {
		for i := range d.grades {
			d.grades[i] = grade{place: p, why: why}
		}
		return d.grades
	}
	if !filepath.IsAbs(cwd) {
		return all(placeUnknown, "the directory the command runs in is not known")
	}
	realCwd, unknown := d.res.resolve(cwd)
	if unknown {
		return all(placeUnknown, "the directory the command runs in cannot be resolved")
	}
	d.root, d.git = d.projectRoot(realCwd)
	if d.root == "" {
		return all(placeOutside, "the command does not run inside a project (its directory is your home, /, a directory above them or a system directory)")
	}
	// Another program of the same command runs between the decision and
	// the deletion, or beside it in a pipeline: if it can make a link or
	// move a directory, a path inside now may lead outside then. One that
	// starts only after every deletion has ended (rm -rf build && mkdir
	// build && cd build && cmake ..) cannot: the text orders them
	// (Invocation.Seq), unless a background job, a trap or a process
	// substitution makes any run happen at any time (Seq 0).
	lastDeletion, ordered := 0, true
	for i := range r.Invocations {
		if inv := &r.Invocations[i]; inv.Effect.Destructive || deletes(inv) {
			ordered = ordered && inv.Seq > 0 && shellparse.WaitedFor(inv.Via)
			lastDeletion = max(lastDeletion, inv.Seq)
		}
	}
	relinkWhy := ""
	at := make([][]string, len(r.Invocations)) // the directories each run may run in
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if ordered && inv.Seq > lastDeletion {
			continue // it starts after the last deletion has ended
		}
		if mayChangeLayout(r, i, inv) {
			relinkWhy = inv.Name() + " runs in the same command and could change what its paths lead to; run the deletion as a command of its own to have it snapshotted"
			if movesFromElsewhere(inv) {
				relinkWhy = inv.Name() + " removes what it reads once written elsewhere (it moves files), so the deletion may take what it moved; run the deletion as a command of its own to have it snapshotted"
			}
			if inv.Name() == "" {
				relinkWhy = "an unreadable program runs in the same command; run the deletion as a command of its own to have it snapshotted"
			}
			break
		}
	}
	if relinkWhy != "" {
		// What another program may relink is only what looks inside
		// now: a deletion that lands outside the project (or in its
		// history) as the paths lead today stays there (FINDINGS-9 K1:
		// python3 -V; rm ~/thesis.tex was graded "unknown", and a
		// single rm of an unknown place is not held).
		// A deletion placed inside is unknown only when a run may link
		// or move into what it reaches (relinks.go, FINDINGS-9 B6: cp -r
		// build /tmp/b && rm -rf build copies out of it); any other
		// grade keeps the rule that any such run makes it unknown.
		defer func() {
			for i := range d.grades {
				switch g := &d.grades[i]; g.place {
				case placeOutside, placeHistory:
				case placeInside:
					if why := d.relinkedInto(r, i, g, at, ordered); why != "" {
						*g = grade{place: placeUnknown, why: why, relinked: true}
					}
				default:
					*g = grade{place: placeUnknown, why: relinkWhy, relinked: true}
				}
			}
		}()
	}
	dirs := []string{realCwd}
	var find *classify.Invocation
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		at[i] = dirs
		switch inv.Name() {
		case "cd", "pushd":
			dirs = d.changeDir(inv, dirs)
			continue
		case "popd":
			dirs = nil
			continue
		}
		if inv.Name() == "find" && len(inv.Via) == 0 {
			find = inv
		}
		if inv.Effect.Destructive || deletes(inv) || followedDeletes(r, i) {
			at := dirs
			if inv.Dir == shellparse.DirUnknown {
				// The shell knows the run's directory only at run time
				// (a cd with CDPATH set, cd -): relative paths cannot
				// be placed.
				at = nil
			} else if one, ok := d.shellDir(inv.Dir, realCwd); ok && len(dirs) > 1 {
				// The shell follows cd through && chains, subshells
				// and branches (cd src && rm -f ../build/old runs rm in
				// src only): its directory is the one, where the
				// union of every cd's is only a bound.
				at = []string{one}
			}
			d.grades[i] = d.grade(inv, at, find)
			if d.grades[i].place == placeUnknown && followedBy(r, i) {
				d.grades[i] = d.gradeFollowed(r, i, inv, dirs)
			}
		}
	}
	return d.grades
}

// projectRoot finds the project a directory belongs to: the git worktree
// holding it, or the directory itself when it is in none. Home, "/", the
// directories above home and the system's directories are no project: a
// git repository there (a dotfiles repository in home) would make
// everything in home "inside".
func (d *destruction) projectRoot(dir string) (string, bool) {
	notProject := func(p string) bool {
		if p == "/" || d.home != "" && (p == d.home || strings.HasPrefix(d.home, p+"/")) || sensitiveDir(p, d.home) {
			return true
		}
		if p == "/tmp" || p == "/var/tmp" || p == filepath.Clean(os.TempDir()) {
			return true // everyone's scratch space, not one project
		}
		if strings.HasPrefix(p, "/tmp/") || d.home != "" && strings.HasPrefix(p, d.home+"/") {
			return false
		}
		return systemPlace(p)
	}
	for p := dir; ; p = filepath.Dir(p) {
		if notProject(p) {
			break
		}
		if _, err := d.res.fs.Lstat(filepath.Join(p, ".git")); err == nil {
			return p, true
		}
		if p == "/" {
			break
		}
	}
	if notProject(dir) {
		return "", false
	}
	return dir, false
}

// systemPlace reports whether a directory belongs to the system rather
// than to a project. The system's top-level directories are, except
// where checkouts live below them: another user's projects
// (/home/USER/PROJ, /Users/USER/PROJ), root's and /opt's (/root/PROJ,
// /opt/APP), and the usual places of a container's or a server's code
// (/usr/src/APP, /usr/local/src/APP, /var/www/SITE). Without those, a
// project in /usr/src/app, a common working directory in containers, had
// every clean-up refused (FINDINGS-4 R5).
func systemPlace(p string) bool {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	if !systemTops(parts[0]) {
		return false
	}
	n := len(parts)
	switch parts[0] {
	case "home", "Users":
		return n < 3
	case "root", "opt":
		return n < 2
	case "usr":
		return !(n >= 3 && parts[1] == "src" || n >= 4 && parts[1] == "local" && parts[2] == "src")
	case "var":
		return !(n >= 3 && parts[1] == "www")
	}
	return true
}

// systemTops are top-level directories that hold the system, not a
// project (see systemPlace for the places below them that do).
func systemTops(name string) bool {
	switch name {
	case "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "proc", "run", "sbin", "sys", "usr", "var",
		"opt", "System", "Library", "Applications", "Users", "home", "root":
		return true
	}
	return false
}

// layoutSafe reports whether a run that destroys nothing cannot change
// what a path leads to: it makes no link, moves nothing and runs nothing
// unknown.
func layoutSafe(inv *classify.Invocation) bool {
	inv = withoutSameDir(inv)
	if inv.Opaque != "" || inv.Effect.Opaque || inv.Remote != "" || len(inv.Via) > 0 || writesFiles(inv) {
		return false
	}
	switch inv.Name() {
	case "cd", "pushd", "popd", "echo", "printf", "true", "false", ":", "test", "[", "ls", "pwd", "mkdir", "touch", "cat", "wc", "du", "stat", "exit", "return",
		// time -o and script write their own log file, and make no link.
		"time", "script":
		return true
	case "sleep", "whoami", "hostname", "uname", "printenv", "which", "type", "seq", "expr", "tty", "logname", "arch",
		"getconf", "locale", "tput", "clear", "wait", "groups", "users", "env":
		// They print or wait; with no redirection (writesFiles above) and
		// no command to run (env COMMAND is a wrapper: its run is the
		// command's), they link and move nothing (FINDINGS-9 B6:
		// sleep 1; rm -rf dist).
		return inv.Name() != "env" || len(inv.Args) == 1
	case "date", "nproc", "id", "uuidgen", "mktemp":
		// mktemp makes a new name: it links and moves nothing.
		// The programs of known-alphabet run-time parts (selfslashfree.go:
		// build/$(date +%s)); date -s sets the clock, which moves no path.
		return true
	case "git":
		sub, _, _ := classify.GitSubcommand(inv.Args[1:])
		return sub == "status" || sub == "diff" || sub == "log" || sub == "show" || sub == "ls-files" || sub == "ls-tree" || sub == "rev-parse" || sub == "rev-list" || sub == "describe"
	case "command":
		// command -v NAME only looks NAME up (a Makefile's
		// $(shell command -v golangci-lint)).
		return len(inv.Args) > 1 && (inv.Args[1] == "-v" || inv.Args[1] == "-V")
	case "find":
		// find itself links and moves nothing; the runs of its -exec are
		// runs of their own, judged on their own.
		return true
	}
	// A program that only reads (grep, head, sort without -o) changes
	// nothing a path leads to.
	return classify.ReadsOnlyRun(inv.Args)
}

// makesNoLinks reports a build program that writes its outputs and makes
// no link, moves nothing and runs none of the project's code (FINDINGS-9
// B2: npm run build, whose script is tsc, before rm -rf dist/tmp): tsc,
// go build, vet and fmt without -toolexec, -exec, -overlay, -vettool or
// an external linker (-extld, -linkmode), gofmt.
func makesNoLinks(inv *classify.Invocation) bool {
	if inv.Opaque != "" || inv.Effect.Opaque || inv.Remote != "" || len(inv.Via) > 0 || writesFiles(inv) || len(inv.Env) > 0 {
		return false
	}
	switch inv.Name() {
	case "tsc", "gofmt":
		return true
	case "go":
		if len(inv.Args) < 2 {
			return false
		}
		switch inv.Args[1] {
		case "build", "vet", "fmt", "version", "list":
		default:
			return false
		}
		for i, a := range inv.Args[2:] {
			if inv.IsDynamic(i+2) || strings.Contains(a, "toolexec") || strings.Contains(a, "-exec") || strings.Contains(a, "overlay") || strings.Contains(a, "vettool") || strings.Contains(a, "extld") || strings.Contains(a, "linkmode") || strings.Contains(a, "compiler") {
				return false
			}
		}
		return true
	}
	return false
}

// runsOnlyLayoutSafe reports a task runner (npm run build, make) whose
// every run airlock followed from it (Result.Followed, From i) leaves the
// layout alone or is a build program that makes no link, and that runs
// them where it is started: make's echo, npm's tsc.
func runsOnlyLayoutSafe(r *classify.Result, i int, inv *classify.Invocation) bool {
	if inv.Opaque != "" || inv.Effect.Opaque || inv.Remote != "" || len(inv.Via) > 0 || writesFiles(inv) || runnerElsewhere(inv) != "" {
		return false
	}
	any := false
	for k := range r.Followed {
		f := &r.Followed[k]
		if f.From != i {
			continue
		}
		any = true
		if f.Effect.Destructive || deletes(f) || !layoutSafe(f) && !makesNoLinks(f) {
			return false
		}
	}
	return any
}

// writesFiles reports a redirection that writes somewhere other than
// /dev/null or a descriptor.
func writesFiles(inv *classify.Invocation) bool {
	for _, r := range inv.Redirects {
		if r.Writes() && r.Target != "/dev/null" && !strings.HasPrefix(r.Op, ">&") && !strings.HasSuffix(r.Op, ">&") {
			return true
		}
	}
	return false
}

// shellDir is the directory the shell says a run happens in (Dir),
// made absolute from cwd and resolved; ok is false when it cannot be.
func (d *destruction) shellDir(dir, cwd string) (string, bool) {
	var abs string
	switch {
	case dir == "":
		return cwd, true
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		if d.home == "" {
			return "", false
		}
		abs = d.home + dir[1:]
	case strings.HasPrefix(dir, "~"):
		return "", false
	case strings.HasPrefix(dir, "/"):
		abs = dir
	default:
		abs = filepath.Join(cwd, dir)
	}
	real, unknown := d.res.resolve(filepath.Clean(abs))
	if unknown {
		return "", false
	}
	return real, true
}

// changeDir follows cd: relative paths after it are placed from every
// directory the command may be in (a subshell's cd does not last), and
// from none when the new directory is not known.
func (d *destruction) changeDir(inv *classify.Invocation, dirs []string) []string {
	var args []string
	for i := 1; i < len(inv.Args); i++ {
		if inv.IsDynamic(i) {
			return nil
		}
		if a := inv.Args[i]; a != "-L" && a != "-P" && a != "--" {
			args = append(args, a)
		}
	}
	if len(args) != 1 || args[0] == "-" {
		return nil // cd alone goes home; cd - and pushd's stack are not followed
	}
	out := append([]string(nil), dirs...)
	for _, abs := range d.absolute(args[0], dirs) {
		if abs == "" {
			return nil
		}
		real, unknown := d.res.resolve(abs)
		if unknown {
			return nil
		}
		out = append(out, real)
	}
	return out
}

// absolute makes a word absolute from each possible directory; "" stands
// for a word that cannot be placed.
func (d *destruction) absolute(w string, dirs []string) []string {
	if strings.HasPrefix(w, "~") {
		if w != "~" && !strings.HasPrefix(w, "~/") || d.home == "" {
			return []string{""} // ~user: someone else's home
		}
		return []string{d.home + w[1:]}
	}
	if strings.HasPrefix(w, "/") {
		return []string{w}
	}
	if len(dirs) == 0 {
		return []string{""}
	}
	out := make([]string, len(dirs))
	for i, dir := range dirs {
		out[i] = strings.TrimSuffix(dir, "/") + "/" + w
	}
	return out
}

// grade places one destructive run by the roles of its operands
// (classify's roles.go): what it deletes, writes or moves must all be
// inside the project. find, the runs of its -exec and the runs a task
// runner's recipe makes are placed the same way.
func (d *destruction) grade(inv *classify.Invocation, dirs []string, find *classify.Invocation) grade {
	inv = withoutSameDir(inv)
	name := inv.Name()
	if len(inv.Via) > 0 && multiCall(inv.Via[len(inv.Via)-1]) {
		// busybox rm is rm: a multi-call binary runs the applet it names.
		flat := *inv
		flat.Via = inv.Via[:len(inv.Via)-1]
		inv = &flat
	}
	viaFind := len(inv.Via) == 1 && (inv.Via[0] == "find -exec" || inv.Via[0] == "find -execdir") && find != nil
	if fed(inv) {
		// xargs and parallel add words to the run: placed like any other
		// once classify has bounded them (feeds.go); a word still known
		// only at run time is not placed below.
		for _, o := range inv.Operands {
			if o.Arg > 0 && !o.Dynamic && strings.ContainsAny(o.Word, `'"\`) {
				return grade{place: placeUnknown, why: inv.Via[0] + " reads quotes and backslashes in " + o.Word + " itself"}
			}
		}
		viaFind = true
		find = nil
	}
	if words, ok := emptiedTargets(inv); ok && len(inv.Via) == 0 && inv.Remote == "" {
		return d.gradeWords(inv, words, dirs) // : > F empties F, like truncate
	}
	switch {
	case inv.Opaque != "" || inv.Effect.Opaque:
		return grade{place: placeUnknown, why: "what it runs cannot be read"}
	case len(inv.Via) > 0 && !viaFind:
		return grade{place: placeUnknown, why: name + " runs through " + strings.Join(inv.Via, ", ") + ", whose effect airlock does not place"}
	case inv.Remote != "":
		return grade{place: placeOutside, why: name + " runs on " + inv.Remote}
	case writesFiles(inv):
		return grade{place: placeUnknown, why: name + " also writes through a redirection"}
	}
	if name == "git" {
		return d.gitGrade(inv, dirs)
	}
	if name == "find" || viaFind && find != nil {
		f := inv
		if viaFind && find != nil {
			f = find // a run of find -exec: the find around it
		}
		for _, a := range f.Args[1:] {
			if a == "-L" || a == "-H" || a == "-follow" {
				return grade{place: placeUnknown, why: "find " + a + " follows symbolic links out of the directories it is given"}
			}
		}
	}
	if name == "rm" && slices.Contains(inv.Args, "--no-preserve-root") {
		return grade{place: placeOutside, why: "rm --no-preserve-root is written to delete /"}
	}
	if _, ok := deletionOperands(inv); ok && name == "mv" {
		// mv X /tmp/d: X is graded as deleted, not the scratch it
		// lands in (scratchmoves.go).
		g := d.gradeDeletion(inv, dirs)
		if g.place != placeInside && g.why != "" {
			g.why = "mv moves it into scratch space, where deleting it later is not held (copy it with cp -r instead, or ask the human); " + g.why
		}
		return g
	}
	g := grade{place: placeInside, ignored: true}
	// scratch: an operand is in scratch space; elsewhere: one is not.
	placed, scratch, elsewhere := false, false, false
	for _, o := range inv.Operands {
		switch o.Role {
		case classify.RoleRead, classify.RoleExec:
			continue
		case classify.RoleUnknown:
			if _, ok := deletionOperands(inv); ok {
				return d.gradeDeletion(inv, dirs) // deletes.go knows what it deletes
			}
			return grade{place: placeUnknown, why: "airlock cannot tell what " + name + " does to " + o.Word}
		}
		if o.Arg < 0 && isRedirectTarget(inv, o.Word) {
			continue
		}
		placed = true
		if o.Dynamic && deletesByName(name) && o.Pattern == "" && d.scratchRuntime(inv, o.Word, dirs) {
			scratch = true // rm -f /tmp/lock.$$: a name in scratch space
			continue
		}
		if o.Dynamic {
			elsewhere = true
			one := d.placeRuntime(inv, o, dirs)
			if one.place != placeInside {
				return one
			}
			g.paths = append(g.paths, one.paths...)
			continue
		}
		if (deletesByName(name) || rsyncDeletesInDest(inv) && o.Role == classify.RoleWrite) && o.Pattern == "" && d.scratch(inv, o.Word, dirs) {
			// rm -rf /tmp/x build: the scratch file is not held, as
			// alone; rsync --delete src/ /tmp/mirror/ deletes only in
			// scratch space.
			scratch = true
			continue
		}
		elsewhere = true
		var one grade
		if o.Pattern != "" && o.Recursive {
			one = d.placeFind(o, dirs)
		} else {
			one = d.place(inv, o.Word, dirs, true)
		}
		if one.place != placeInside {
			return one
		}
		g.paths = append(g.paths, one.paths...)
		g.changes = g.changes || one.changes
		g.untracked = g.untracked || one.untracked
	}
	if scratch && !elsewhere {
		return grade{place: placeInside, scratch: true}
	}
	if !placed && !deletesByName(name) {
		return d.gradeDeletion(inv, dirs) // deletes.go, or "cannot tell"
	}
	return g
}

// rsyncDeletesInDest reports an rsync whose only deletion is in its
// destination (--delete and its variants), not of its sources
// (--remove-source-files).
func rsyncDeletesInDest(inv *classify.Invocation) bool {
	if inv.Name() != "rsync" {
		return false
	}
	for _, a := range inv.Args[1:] {
		if strings.HasPrefix(a, "--remove-s") {
			return false
		}
	}
	return true
}

// multiCall reports the multi-call binaries that run the applet named
// by their first argument, as that program.
func multiCall(via string) bool { return via == "busybox" || via == "toybox" }

// sameDir reports a wrapper that runs its command as the same user, in
// the same directory and on the same file system as the shell itself: a
// nested POSIX shell's -c text, eval, and the wrappers that only change
// scheduling, buffering or the environment. Not sudo, su or doas (another
// user), chroot or env --chdir (another root or directory), ssh (another
// machine), watch (again and again), fish (its own syntax), nor a script
// file (followed by its own reader). A cd in nested text is a run of its
// own, which the grading loop reads like any other.
func sameDir(via string) bool {
	switch via {
	case "sh -c", "bash -c", "dash -c", "zsh -c", "ksh -c", "mksh -c", "ash -c", "yash -c", "rbash -c",
		"eval", "nice", "ionice", "nohup", "time", "timeout", "stdbuf", "setsid", "chronic", "unbuffer",
		"flock", "flock -c", "builtin", "command", "exec", "env":
		return true
	}
	// The programs that run commands written in their own text
	// (classify's textrunners.go) whose command runs where they do.
	setting, ok := strings.CutPrefix(via, classify.SettingVia)
	return ok && classify.SameDirSetting(setting)
}

// withoutSameDir returns the run with its sameDir wrappers dropped from
// Via, so that bash -c 'rm -rf build' and parallel bash -c 'rm -rf {}'
// ::: build are placed like rm -rf build and parallel rm -rf {} ::: build.
func withoutSameDir(inv *classify.Invocation) *classify.Invocation {
	if !slices.ContainsFunc(inv.Via, sameDir) {
		return inv
	}
	flat := *inv
	flat.Via = slices.DeleteFunc(slices.Clone(inv.Via), sameDir)
	return &flat
}

// fed reports a run that xargs or parallel starts, directly: its words
// are the template's and those it reads (a literal list, or what
// classify bounded them to).
func fed(inv *classify.Invocation) bool {
	return len(inv.Via) == 1 && (inv.Via[0] == "xargs" || inv.Via[0] == "parallel")
}

// scratch reports whether a path leads, from every directory the
// command may be in, into a temporary directory (/tmp, /var/tmp) and not
// into the project or above it: deleting there is not held (classify's
// rm.temp), even beside a deletion in the project.
func (d *destruction) scratch(inv *classify.Invocation, w string, dirs []string) bool {
	if !belowTempDir(filepath.Clean(w)) {
		return false // written as a temporary path, as classify's rm.temp reads it
	}
	for _, abs := range d.absolute(w, dirs) {
		if abs == "" || hasGlob(abs) {
			return false
		}
		// rm -rf /tmp/l removes the link itself; rm -rf /tmp/l/ and
		// shred /tmp/l go where it leads (FINDINGS-9 T4).
		real, unknown := removedName(inv, w, filepath.Clean(abs), d.res.fs)
		if unknown || real == d.root || strings.HasPrefix(real, d.root+"/") || strings.HasPrefix(d.root, real+"/") {
			return false
		}
		if !belowTempDir(real) || !nameInScratch(inv, w, filepath.Clean(abs), d.home, d.res.fs) {
			return false
		}
	}
	return true
}

// belowTempDir reports a path below a temporary directory (/tmp,
// /var/tmp, $TMPDIR), as written.
func belowTempDir(p string) bool {
	tmp := filepath.Clean(os.TempDir())
	return strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/var/tmp/") || strings.HasPrefix(p, tmp+"/")
}

// scratchRuntime reports whether a word known only at run time stays in
// scratch space whatever its run-time parts are: each of its globs
// (runtimeGlobs: every run-time part within one name) is a scratch path,
// or a name directly in a temporary directory that no run-time part can
// make "." or "..".
func (d *destruction) scratchRuntime(inv *classify.Invocation, w string, dirs []string) bool {
	if !belowTempDir(strings.TrimLeft(w, `"'`)) {
		return false // written as a temporary path, as for a static word (scratch)
	}
	tmp := filepath.Clean(os.TempDir())
	globs, ok := d.runtimeGlobs(w)
	if !ok || len(globs) == 0 {
		return false
	}
	for _, g := range globs {
		if !hasGlob(g) {
			if !d.scratch(inv, g, dirs) {
				return false
			}
			continue
		}
		dir, base := filepath.Split(g)
		if hasGlob(dir) || base == "" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "[") {
			return false
		}
		if c := filepath.Clean(dir); c != "/tmp" && c != "/var/tmp" && c != tmp && !d.scratch(nil, c, dirs) {
			return false
		}
	}
	return true
}

// deletesByName reports the programs that delete only what they are
// given: with no operand they delete nothing.
func deletesByName(name string) bool {
	switch name {
	case "rm", "unlink", "rmdir", "find", "shred", "srm", "trash", "trash-put", "rimraf":
		return true
	}
	return false
}

// place places one path word, from every directory the command may be in.
func (d *destruction) place(inv *classify.Invocation, w string, dirs []string, ignored bool) grade {
	g := grade{place: placeInside, ignored: ignored}
	for _, abs := range d.absolute(w, dirs) {
		if abs == "" {
			return grade{place: placeUnknown, why: w + " cannot be placed (its directory or whose home it names is not known)"}
		}
		var one grade
		if hasGlob(abs) {
			one = d.placeGlob(w, abs)
		} else {
			one = d.placeReal(w, abs, false)
		}
		if one.place != placeInside {
			return one
		}
		g.paths = append(g.paths, one.paths...)
	}
	return g
}

// placeReal places a path that holds no glob, resolved through every
// symlink, its last component included: a link inside the project that
// leads outside is outside.
func (d *destruction) placeReal(w, abs string, rootOK bool) grade {
	real, unknown := d.res.resolve(abs)
	if unknown {
		return grade{place: placeUnknown, why: w + " passes through a link airlock cannot follow"}
	}
	if real == d.root && rootOK {
		return grade{place: placeInside}
	}
	if real == d.root || real == "/" || strings.HasPrefix(d.root, real+"/") {
		if d.git {
			return grade{place: placeHistory, why: w + " is the project or a directory above it, which holds the repository's history (.git)"}
		}
		return grade{place: placeOutside, why: w + " is the project or a directory above it"}
	}
	rel, ok := strings.CutPrefix(real, d.root+"/")
	if !ok {
		return grade{place: placeOutside, why: w + " leads to " + real + ", outside the project (" + d.root + ")"}
	}
	for _, c := range strings.Split(rel, "/") {
		if strings.EqualFold(c, ".git") {
			return grade{place: placeHistory, why: w + " is in .git, the repository's history"}
		}
	}
	return grade{place: placeInside, paths: []string{rel}}
}

// placeGlob places a glob: the directory it starts from must be in the
// project, and so must everything it matches now. (What it matches when
// the command runs may differ: that is the time-of-check gap
// docs/THREAT-MODEL.md describes.)
func (d *destruction) placeGlob(w, abs string) grade {
	comps := strings.Split(abs, "/")
	k := 0
	for k < len(comps) && !hasGlob(comps[k]) {
		k++
	}
	prefix := strings.Join(comps[:k], "/")
	if prefix == "" {
		prefix = "/"
	}
	if g := d.placeReal(w, prefix, true); g.place != placeInside {
		return g
	}
	matches, err := filepath.Glob(abs)
	if err != nil {
		return grade{place: placeUnknown, why: w + " is not a glob airlock can read"}
	}
	g := grade{place: placeInside}
	for _, m := range matches {
		one := d.placeReal(w+" (matching "+m+")", m, false)
		if one.place != placeInside {
			return one
		}
		g.paths = append(g.paths, one.paths...)
	}
	return g
}

// gitGrade places a destructive git run.
func (d *destruction) gitGrade(inv *classify.Invocation, dirs []string) grade {
	for _, e := range inv.Env {
		if strings.HasPrefix(e, "GIT_") {
			return grade{place: placeUnknown, why: "git runs with " + strings.SplitN(e, "=", 2)[0] + " set, which can point it at another repository"}
		}
	}
	i := 1
	for ; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if inv.IsDynamic(i) {
			return grade{place: placeUnknown, why: a + " is only known when the command runs"}
		}
		if a == "-C" && i+1 < len(inv.Args) && !inv.IsDynamic(i+1) {
			var next []string
			for _, abs := range d.absolute(inv.Args[i+1], dirs) {
				if abs == "" {
					return grade{place: placeUnknown, why: "git -C " + inv.Args[i+1] + " cannot be placed"}
				}
				next = append(next, abs)
			}
			dirs = next
			i++
			continue
		}
		if a == "--no-pager" || a == "-P" || a == "--no-optional-locks" || a == "--literal-pathspecs" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			return grade{place: placeUnknown, why: "git " + a + " can point git at another repository or change what it runs"}
		}
		break
	}
	if i >= len(inv.Args) {
		return grade{place: placeUnknown, why: "git with no subcommand"}
	}
	sub, rest := inv.Args[i], inv.Args[i+1:]
	if !d.git {
		return grade{place: placeUnknown, why: "git runs outside a git worktree"}
	}
	for _, dir := range dirs {
		real, unknown := d.res.resolve(dir)
		if unknown {
			return grade{place: placeUnknown, why: "the directory git runs in cannot be resolved"}
		}
		if root, isGit := d.projectRoot(real); root != d.root || !isGit {
			return grade{place: placeOutside, why: "git runs in " + real + ", another repository than the project's (" + d.root + ")"}
		}
	}
	if len(dirs) == 0 {
		return grade{place: placeUnknown, why: "the directory git runs in is not known"}
	}
	whole := grade{place: placeInside, paths: []string{"."}, changes: true}
	switch sub {
	case "reset":
		for _, a := range rest {
			if a == "--recurse-submodules" || !strings.HasPrefix(a, "-") && a != "HEAD" {
				return grade{place: placeHistory, why: "git reset " + a + " moves the branch or reaches into submodules, which is the repository's history"}
			}
		}
		return whole
	case "checkout", "switch":
		for _, a := range rest {
			if a == "-B" || a == "-C" || a == "--orphan" || a == "--recurse-submodules" {
				return grade{place: placeHistory, why: "git " + sub + " " + a + " resets or replaces a branch, which is the repository's history"}
			}
		}
		return whole
	case "restore":
		return whole
	case "clean":
		whole.changes, whole.untracked = false, true
		for _, a := range rest {
			if a == "--" {
				break
			}
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "xX") {
				whole.ignored = true
			}
		}
		return whole
	}
	if classify.GitChangesHistory(sub) {
		return grade{place: placeHistory, why: "git " + sub + " changes the repository's history, which a snapshot of the worktree does not bring back"}
	}
	return grade{place: placeUnknown, why: "airlock cannot tell what git " + sub + " deletes"}
}

// gradeReason is the reason shown for destruction not graded inside.
func (g *grade) reason() classify.Reason {
	switch g.place {
	case placeHistory:
		return classify.Reason{Rule: ruleHistory, Message: "not reversible by airlock: " + g.why}
	case placeOutside:
		return classify.Reason{Rule: ruleOutside, Message: "outside the project: " + g.why}
	}
	return classify.Reason{Rule: ruleUnknownTarget, Message: "treated as outside the project: " + g.why}
}

// gradeFS is the file system destruction is graded against.
var gradeFS fileSystem = osFS{}

// decideGraded applies the table to one run's effect, with its
// destruction graded: inside the project it takes the inside_project row,
// where "snapshot" (Warn) holds only when the entry point takes snapshots
// and otherwise falls back to the destructive row. snapshot reports that
// the run is allowed on condition of one.
func (t Table) decideGraded(e classify.Effect, g *grade, snapshots bool) (v Verdict, snapshot bool) {
	if !e.Destructive || g == nil || g.place != placeInside {
		return t.Decide(e), false
	}
	if g.scratch && len(g.paths) == 0 {
		e.Destructive = false
		return t.Decide(e), false
	}
	if t.Inside == t.Destructive || t.Inside == Warn && t.Destructive <= Warn {
		// Where it lands changes nothing (or a snapshot would loosen
		// nothing): the destructive row decides, under its own name.
		return t.Decide(e), false
	}
	e.Destructive = false
	v = t.Decide(e)
	d, rule := t.Inside, ruleInsideRow
	if d == Warn {
		if snapshots {
			rule, snapshot = RuleSnapshot, true
		} else {
			d, rule = t.Destructive, "table.destructive"
		}
	}
	if d >= v.Decision {
		v.Decision, v.Rule = d, rule
	}
	return v, snapshot
}

// add merges one run's paths into the plan.
func (p *SnapshotPlan) add(g *grade) {
	for _, path := range g.paths {
		if !containsString(p.Paths, path) {
			p.Paths = append(p.Paths, path)
		}
	}
	p.Ignored = p.Ignored || g.ignored
	p.Changes = p.Changes || g.changes
	p.Untracked = p.Untracked || g.untracked
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gradedRoot is the project root destruction was graded against.
func (p *Policy) gradedRoot(cwd string) string { return rootOf(cwd, p.home, gradeFS) }

// isGitRoot reports whether a project root is a git worktree.
func isGitRoot(root string) bool {
	_, err := gradeFS.Lstat(filepath.Join(root, ".git"))
	return root != "" && err == nil
}
