package classify

import (
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// Invocation is one program run with what it does.
type Invocation struct {
	shell.Invocation
	Effect Effect
	// Operands are the paths the run names and what it does to each
	// (roles.go): the one reading of its words that self-protection,
	// destruction grading and snapshots rely on.
	Operands []Operand
	// From is, for a run in Result.Followed, the index in
	// Result.Invocations of the run that led to it (make clean for the
	// rm of its recipe).
	From int
}

// Result is the classification of a whole command: the combined effect and
// each program run.
type Result struct {
	Effect
	Invocations []Invocation
	// Followed holds the runs read from the shell scripts the command
	// runs (bash x.sh, ./x.sh, source x.sh), as the classifier followed
	// them through its FS, in the order found: self-protection checks
	// them as it checks the runs typed inline.
	Followed []Invocation
	// Code holds the program text of the interpreter scripts the command
	// runs (python3 a.py, ./x.js with a #! line), as the classifier read
	// it: from disk, or from an earlier run of the same command that
	// writes the file from literal text. Self-protection checks it as it
	// checks a one-liner's code.
	Code []Code
	// Mounts holds the host paths the compose files of the command's
	// compose runs mount (compose.go), as the classifier read the files:
	// from disk, or from the literal text the same command writes them
	// with. A relative Source is relative to the command's directory.
	Mounts []Mount
	// Read is every file the classification looked at on the real
	// filesystem (CommandIn with DirFS and its kin), and what it found
	// there (readlog.go): what an approval of the command binds.
	Read []FileState
}

// Code is the text of a script an interpreter runs.
type Code struct {
	// Run is who runs it ("python3 a.py"), File the file as named.
	Run, File string
	Text      string
}

// Classifier classifies shell text within limits.
type Classifier struct {
	// Limits bound the shell parsing, including text found inside
	// interpreter one-liners.
	Limits shell.Limits
	// FS, when set, lets the classifier read what a command would run
	// (scripts, package.json, Makefiles) and see which files exist. Nil
	// means nothing is read: scripts are not followed.
	FS     FS
	depth  int
	follow int         // how many files deep this classification is
	cc     *cmdContext // the command being classified, for following
	// gitRead says git's configuration and hooks are being read, so a git
	// run inside them does not read them again.
	gitRead bool
	// followed collects the runs of followed shell scripts for the
	// top-level Result; inner classifiers share it.
	followed *[]Invocation
	// code collects the interpreter scripts followed, for the top-level
	// Result; inner classifiers share it.
	code *[]Code
	// linked holds the files the run being rated names through a link an
	// earlier run of the command made (links.go): a write empties them
	// whether or not they exist now.
	linked []string
	// mounts collects the compose files' mounts, for the top-level
	// Result.
	mounts *[]Mount
	// texts, when set, collects the command text and files found in
	// programs' options (OptionTexts), for self-protection.
	texts *[]string
	// dirUnknown says the run being rated, or the one whose files are
	// being followed, happens in a directory known only at run time
	// (shell.DirUnknown), so a relative file it names may not be the
	// one FS finds.
	dirUnknown bool
	// runOuter and runOuterInv are the command and the runner's run that
	// the next Command's text comes from (nestedRun).
	runOuter    *cmdContext
	runOuterInv *shell.Invocation
	// gitTop is the directory FS was moved to for the commands git's
	// configuration and hooks run (gitplace.go), "" when not moved.
	gitTop string
	// gitFrom is the command's own directory, absolute, when FS is the
	// real filesystem and was moved to gitTop.
	gitFrom string
}

// Command classifies text with the default limits, reading no files.
func Command(text string) Result {
	c := Classifier{Limits: shell.DefaultLimits}
	return c.Command(text)
}

// CommandIn classifies text with the default limits, following the
// scripts it runs through fsys (DirFS of the command's directory).
func CommandIn(text string, fsys FS) Result {
	fsys, log := recording(fsys)
	c := Classifier{Limits: shell.DefaultLimits, FS: fsys}
	r := c.Command(text)
	r.Read = log.list()
	return r
}

// Command classifies one piece of shell text.
func (c *Classifier) Command(text string) Result {
	var r Result
	if strings.TrimSpace(text) == "" {
		return r
	}
	lim := c.Limits
	lim.Command = true // functions the command defines end with it
	if c.FS != nil && lim.SourceText == nil {
		lim.SourceText = c.sourceText
	}
	if d, ok := c.FS.(dirOutputFS); ok && lim.DirOutput == nil && !c.dirUnknown {
		lim.DirOutput = d.DirOutput
	}
	invs := lim.Parse(text)
	c.cc = &cmdContext{invs: invs, outer: c.runOuter, outerRun: c.runOuterInv} // built when a file is followed
	c.runOuter, c.runOuterInv = nil, nil
	if c.followed == nil {
		c.followed = &r.Followed
		defer func() { c.followed = nil }()
	}
	if c.code == nil {
		c.code = &r.Code
		defer func() { c.code = nil }()
	}
	if c.mounts == nil {
		c.mounts = &r.Mounts
		defer func() { c.mounts = nil }()
	}
	for i, inv := range invs {
		before := len(*c.followed)
		c.builtName(&inv)                                 // carry.go: go build -o "$out/p" && "$out/p"
		c.throughLinks(&inv, invs[:i])                    // links.go: ln SRC "$t/h"; : > "$t/h"
		e, ok := c.execDirRun(&inv, execDirFind(invs, i)) // execdir.go
		if !ok {
			e = c.invocation(&inv)
		}
		ops := Operands(&inv)
		if ce, cops, ok := c.clientConfig(&inv); ok { // clientconfig.go
			e.Add(ce)
			ops = append(ops, cops...)
		}
		r.Effect.Add(e)
		r.Invocations = append(r.Invocations, Invocation{Invocation: inv, Effect: e, Operands: append(append(ops, c.listedFiles(&inv)...), servedOperands(&inv)...)})
		if c.followed == &r.Followed {
			for k := before; k < len(r.Followed); k++ {
				r.Followed[k].From = i
			}
		}
	}
	placeholders(r.Invocations)
	placeholders(r.Followed)
	installPrefixes(r.Invocations) // prefixroles.go
	c.feeds(r.Invocations)
	c.feeds(r.Followed)
	carried(text, &r)    // carried.go: run-time data in a request
	carriedEnv(text, &r) // carriedenv.go: the same in a URL of the environment
	if !strings.Contains(text, "IFS") {
		// An IFS set anywhere in the text (IFS=/; rm -rf $(find …))
		// changes how a substitution's output is split: not read then.
		c.substitutions(r.Invocations)
		c.substitutions(r.Followed)
	}
	return r
}

// nested classifies shell text found inside an invocation (an interpreter's
// system() argument), one level deeper.
func (c *Classifier) nested(text string) Effect {
	return c.nestedIn(nil, text)
}

// nestedRun classifies the command line a runner runs (uv run python
// x.py, poetry run …, npx node x.js) as a part of the command inv comes
// from: a file an earlier run of it writes (printf … > x.py; uv run
// python x.py) is read from that write, as it is for python3 x.py.
func (c *Classifier) nestedRun(inv *shell.Invocation, text string) Effect {
	return c.nestedIn(inv, text)
}

func (c *Classifier) nestedIn(runner *shell.Invocation, text string) Effect {
	if c.depth >= c.Limits.MaxNesting {
		return opaque("limit.nesting", "limit reached: shell text inside interpreter code nested too deep")
	}
	inner := *c
	inner.depth++
	inner.cc = nil
	if runner != nil && c.cc != nil {
		inner.runOuter, inner.runOuterInv = c.cc, runner
	}
	return inner.Command(text).Effect
}

// invocation rates one program run.
func (c *Classifier) invocation(inv *shell.Invocation) Effect {
	if inv.Opaque != "" {
		return opaque("shell.opaque", inv.Opaque)
	}
	// The files the run names are read from where it runs: after a
	// literal cd, FS is seen from that directory; after one known only at
	// run time, relative names are flagged (readScript).
	if inv.Dir == shell.DirUnknown && !c.dirUnknown {
		c.dirUnknown = true
		defer func() { c.dirUnknown = false }()
	} else if inv.Dir != "" && inv.Dir != shell.DirUnknown && c.FS != nil {
		saved := c.FS
		c.FS = within(c.FS, inv.Dir)
		defer func() { c.FS = saved }()
	}
	// npm --prefix D, go -C D: the run's own option moves it (rundir.go).
	restore, moved := c.enterRunDir(inv)
	defer restore()
	var e Effect
	// A program found through the PATH the command sets (pathlookup.go):
	// its file's text, beside its name's rating.
	viaPath, _ := c.pathRun(inv)
	if f, ok := c.followRun(inv); ok {
		e = f
	} else if s := specFor(inv.Name()); s != nil {
		e = s.Classify(c, inv)
		// A script run by its path under a known program's name
		// (bin/git, tools/npm) is whatever its text says as well.
		e.Add(c.namesakeScript(inv))
	} else {
		e = c.lookThrough(inv)
	}
	e.Add(viaPath)
	e.Add(c.stdinProgram(inv)) // stdinprogs.go: irb < x.rb, tcsh x.sh
	e.Add(moved)
	e.Add(c.runner(inv))
	e.Add(c.classRules(inv))
	e.Add(c.runSubcommand(inv))
	e.Add(c.startupEnv(inv))
	if h := c.hiddenCommands(inv); h.Reasons != nil {
		e.Add(h)
		if h.Tier == External {
			// A run whose hidden command writes beyond the machine is not
			// a pure read (git fetch with an sshCommand that posts).
			e.NetworkRead = false
		}
	}
	if x := exfiltration(inv); x.Reasons != nil {
		e.Add(x)
		// A request that carries data out is not a pure read.
		e.NetworkRead = false
	}
	if x := secretCarry(inv, e); x.Reasons != nil {
		// A credential carried out as data (secretcarry.go).
		e.Add(x)
		e.NetworkRead = false
	}
	e.Add(redirections(inv))
	e.Add(c.emptying(inv))
	e.Add(c.surfaceWrites(inv))
	return e
}

// writesNothing reports whether a run prints nothing, so that its
// truncating redirection only empties the file (: > f, true > f,
// cat /dev/null > f).
func writesNothing(inv *shell.Invocation) bool {
	if inv.Group {
		return false // its body writes through the redirection
	}
	switch inv.Name() {
	case ":", "true", "false":
		return true
	case "cat":
		for i, a := range inv.Args[1:] {
			if a != "/dev/null" || inv.IsDynamic(i+1) {
				return false
			}
		}
		return len(inv.Args) > 1
	case "echo":
		// echo "" and echo -n write at most a newline: the file's
		// contents are gone all the same. A bare echo > f is left out:
		// it is the common way to create a new empty file.
		if len(inv.Args) == 1 {
			return false
		}
		for i, a := range inv.Args[1:] {
			if inv.IsDynamic(i+1) || strings.TrimSpace(a) != "" && a != "-n" && a != "-e" && a != "-E" {
				return false
			}
		}
		return true
	case "printf":
		return len(inv.Args) == 2 && inv.Args[1] == ""
	}
	return false
}

// emptying flags a truncating redirection of a run that writes nothing:
// it empties the file. Writing content over a file is an edit, as with
// the Write tool. With a filesystem, a file that does not exist yet loses
// nothing; temporary files are scratch space.
func (c *Classifier) emptying(inv *shell.Invocation) Effect {
	if e := c.teeEmptying(inv); e.Reasons != nil {
		return e
	}
	if !writesNothing(inv) {
		return nothing
	}
	for _, r := range inv.Redirects {
		if r.Op != ">" && r.Op != ">|" && r.Op != "&>" || r.Dynamic {
			continue
		}
		t := r.Target
		if strings.HasPrefix(t, "/dev/") || filesIsTemp(inv, t, false) {
			continue
		}
		if exists, known := c.exists(t); known && !exists && !slices.Contains(c.linked, t) {
			continue
		}
		return local("file.empty", "the redirection "+r.Op+" "+t+" with no output empties "+t+", losing its contents").destroys()
	}
	return nothing
}

// teeEmptying flags tee fed nothing (< /dev/null): without -a it empties
// every file it names.
func (c *Classifier) teeEmptying(inv *shell.Invocation) Effect {
	if inv.Name() != "tee" || inv.Group {
		return nothing
	}
	fromNull := false
	for _, r := range inv.Redirects {
		if r.Op == "<" && !r.Dynamic && r.Target == "/dev/null" {
			fromNull = true
		}
	}
	if !fromNull || hasAny(inv.Args[1:], "-a", "--append") {
		return nothing
	}
	for i, a := range inv.Args[1:] {
		if strings.HasPrefix(a, "-") || inv.IsDynamic(i+1) || strings.HasPrefix(a, "/dev/") || filesIsTemp(inv, a, false) {
			continue
		}
		if exists, known := c.exists(a); known && !exists {
			continue
		}
		return local("file.empty", "tee with no input (< /dev/null) empties "+a+", losing its contents").destroys()
	}
	return nothing
}

// exfiltration flags a URL whose text is computed at run time: the shape of
// sending local data out inside a request, whatever the program.
func exfiltration(inv *shell.Invocation) Effect {
	for i, a := range inv.Args {
		if !inv.IsDynamic(i) {
			continue
		}
		computed := strings.Contains(a, "$(") || strings.Contains(a, "`")
		if computed && strings.Contains(a, "://") && !gitMessage(inv, i) {
			return external("exfil.url", "a URL built from command output ("+clip(a)+") sends local data out")
		}
		if q := strings.IndexByte(a, '?'); q >= 0 && strings.Contains(a, "://") && secretVar(a[q:]) && httpClients(inv.Name()) {
			return external("exfil.query", "the URL's query carries a secret-looking variable ("+clip(a)+") to the server")
		}
		if computed && httpClients(inv.Name()) && !localFileValue(inv.Args, i) {
			// Any word of a request (a URL without its scheme, a header,
			// credentials, a user agent) built from command output carries
			// local data to the server.
			return external("exfil.request", inv.Name()+" sends a request with a word built from command output ("+clip(a)+"), which carries local data to the server")
		}
	}
	return nothing
}

// httpClients are the programs whose every argument can end up in a
// request to a server.
func httpClients(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "http", "https", "xh", "xhs", "httpie", "aria2c", "curlie":
		return true
	}
	return false
}

// localFileValue reports whether argument i of an HTTP client names a
// local file it writes (curl -o, wget -O, a cookie jar, a log): a name
// built from command output (out-$(date).json) sends nothing.
func localFileValue(args []string, i int) bool {
	outs := map[string]bool{"-o": true, "--output": true, "-O": true, "--output-document": true, "-P": true,
		"--directory-prefix": true, "-D": true, "--dump-header": true, "--cookie-jar": true,
		"--append-output": true, "--trace": true, "--trace-ascii": true, "--stderr": true}
	if i > 1 && outs[args[i-1]] {
		return true
	}
	if name, _, ok := strings.Cut(args[i], "="); ok && strings.HasPrefix(name, "--") && outs[name] {
		return true
	}
	return false
}

// redirections flags bash's network pseudo-files and writes to block
// devices.
func redirections(inv *shell.Invocation) Effect {
	for _, r := range inv.Redirects {
		if strings.HasPrefix(r.Target, "/dev/tcp/") || strings.HasPrefix(r.Target, "/dev/udp/") {
			if r.Writes() || r.Op == "<>" {
				return external("redirect.network", "redirection to "+r.Target+" sends data to a network host")
			}
			return netRead("redirect.network", "redirection from "+r.Target+" reads from a network host")
		}
		if r.Writes() && isBlockDevice(r.Target) {
			return local("redirect.device", "output redirected onto the device "+r.Target+" overwrites it").destroys()
		}
	}
	return nothing
}

// isBlockDevice reports whether a path names a disk rather than a
// harmless pseudo-device.
func isBlockDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	switch strings.TrimPrefix(p, "/dev/") {
	case "null", "zero", "stdout", "stderr", "stdin", "tty", "random", "urandom", "full", "ptmx":
		return false
	}
	return !strings.HasPrefix(p, "/dev/fd/") && !strings.HasPrefix(p, "/dev/pts/")
}

func clip(s string) string { return interp.Clip(s) }
