package classify

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file follows scripts at decision time: what a command runs from a
// file (bash deploy.sh, ./deploy.sh, source env.sh, python3 x.py, npm run
// release, make deploy, just publish, task deploy) is read through the
// classifier's FS and classified, and each finding names the file and
// line (deploy.sh:4: git push origin main).
//
// Reading is bounded: files over MaxScriptBytes are opaque, following
// stops maxFollow files deep, and a file that exists but cannot be read
// is opaque. A file is looked up in the directory the run happens in,
// as the text's cd and pushd left it (cd src && python3 m.py reads
// src/m.py). A file that does not exist runs nothing, unless the same
// command writes it first, or the run's directory is known only at run
// time or is missing, which makes it opaque. A
// compiled program is not read: it is rated by its arguments, as any
// program airlock does not know.

// maxFollow bounds how many files deep following goes (a script that runs
// a script that runs make ...).
const maxFollow = 4

// cmdContext is what following needs to know about the whole command a
// run came from.
type cmdContext struct {
	invs  []shell.Invocation
	built bool
	// dirChanged says a run of the command changes directory, so a
	// relative file may be another one than airlock would read.
	dirChanged bool
	// words holds every word of the command's runs after the program's
	// name, and every redirection's target, NUL-separated (mentions).
	words      string
	wordsBuilt bool
	// outer is the command a runner's command line came from (uv run
	// python x.py, poetry run …: nestedRun), and outerRun the runner's
	// run in it: a file an earlier run of the outer command writes is
	// written for the inner command too.
	outer    *cmdContext
	outerRun *shell.Invocation
}

func newCmdContext(invs []shell.Invocation) *cmdContext {
	cc := &cmdContext{invs: invs}
	cc.build()
	return cc
}

// build looks at the runs of the command once.
func (cc *cmdContext) build() {
	if cc.built {
		return
	}
	cc.built = true
	for i := range cc.invs {
		switch cc.invs[i].Name() {
		case "cd", "pushd", "popd":
			cc.dirChanged = true
		}
	}
}

// mayWrite counts the static words of a run that may change the file
// they name: a word the run only reads or runs ([ -f Makefile ], cat
// x.sh, bash x.sh) does not; every other word may (roles.go).
func mayWrite(inv *shell.Invocation) map[string]int {
	reads := map[int]bool{}
	for _, o := range Operands(inv) {
		if o.Arg > 0 && (o.Role == RoleRead || o.Role == RoleExec) {
			reads[o.Arg] = true
		}
	}
	out := map[string]int{}
	complete := len(inv.Args) > 0 && RolesComplete(progName(inv.Args[0]))
	for j, a := range inv.Args {
		if j > 0 && !inv.IsDynamic(j) && !reads[j] && !complete {
			out[path.Clean(a)]++
		}
	}
	if complete {
		// find's expression words are tests (-name package.json), not
		// files: only the operands with a role that writes count
		// (FINDINGS-10 B11).
		for _, o := range Operands(inv) {
			if o.Arg > 0 && o.Role != RoleRead && o.Role != RoleExec && !o.Dynamic {
				out[path.Clean(o.Word)]++
			}
		}
	}
	for _, f := range fileWrites(inv) { // dd of=, sed w, awk > "f", a.out
		out[path.Clean(f)]++
	}
	for _, r := range inv.Redirects {
		if !r.Dynamic && r.Op != "<" {
			out[path.Clean(r.Target)]++
		}
	}
	return out
}

// changesDir reports whether a run of the command changes directory.
func (cc *cmdContext) changesDir() bool {
	if cc == nil {
		return false
	}
	cc.build()
	return cc.dirChanged
}

// writtenElsewhere reports whether name is a word of another run of the
// command than inv (echo … > x.sh && bash x.sh).
//
// A run that starts only after inv has ended (./x.sh && echo > x.sh: the
// order is the text's, shell.Invocation.Seq) cannot change what inv runs,
// and neither can a run that changes only a file's mode, owner or times
// (chmod +x x.sh && ./x.sh: the text run is the one on disk).
func (cc *cmdContext) writtenElsewhere(inv *shell.Invocation, name string) bool {
	if cc == nil {
		return false
	}
	return cc.writesHere(inv, name) || cc.outer.writtenElsewhere(cc.outerRun, name)
}

// writesHere is writtenElsewhere within this command alone.
func (cc *cmdContext) writesHere(inv *shell.Invocation, name string) bool {
	name = path.Clean(name)
	n := 0
	for i := range cc.invs {
		o := &cc.invs[i]
		if inv.Seq > 0 && o.Seq > inv.Seq && shell.WaitedFor(inv.Via) || keepsContent(o) {
			continue
		}
		n += mayWrite(o)[name] + extraWrites(o, name)
	}
	return n > mayWrite(inv)[name]+extraWrites(inv, name)
}

// compiledOnly reports whether every other run of the command that may
// write name is a compiler writing its output there (go build -o name,
// cc -o name): the file is a built program, not text the command wrote.
func (cc *cmdContext) compiledOnly(inv *shell.Invocation, name string) bool {
	if cc == nil {
		return false
	}
	name = path.Clean(name)
	any := false
	for i := range cc.invs {
		o := &cc.invs[i]
		if inv.Seq > 0 && o.Seq > inv.Seq && shell.WaitedFor(inv.Via) || keepsContent(o) || mayWrite(o)[name] == 0 && extraWrites(o, name) == 0 {
			continue
		}
		if o.Source == inv.Source && o.Line == inv.Line && slices.Equal(o.Args, inv.Args) {
			continue // the run itself
		}
		out, ok := compilerOutput(o)
		if !ok || path.Clean(out) != name {
			return false
		}
		any = true
	}
	return any
}

// compilerOutput returns the file a compiler run writes its program to
// with -o, when the run is one of a compiler (go build, cc, gcc, clang,
// rustc) with no redirection, run directly or through a wrapper that
// waits for it (bash -c, sudo).
func compilerOutput(inv *shell.Invocation) (string, bool) {
	return compilerOut(inv, false)
}

// compilerOut is compilerOutput; with dynamicOut, the -o value may be a
// word known only at run time (go build -o "$out/p"), returned as its
// source text.
func compilerOut(inv *shell.Invocation, dynamicOut bool) (string, bool) {
	if !shell.WaitedFor(inv.Via) || inv.Opaque != "" || len(inv.Redirects) > 0 {
		return "", false
	}
	args := inv.Args
	switch inv.Name() {
	case "go":
		if len(args) < 2 || args[1] != "build" {
			return "", false
		}
		args = args[1:]
	case "cc", "gcc", "g++", "c++", "clang", "clang++", "rustc":
		for _, a := range args[1:] {
			switch a {
			case "-E", "-S", "-M", "-MM", "-dM", "--emit=asm", "--emit=llvm-ir", "--emit=mir", "-fsyntax-only",
				"--preprocess", "--assemble", "--dependencies", "--user-dependencies", "--print-missing-file-dependencies":
				return "", false // text, not a program (FINDINGS-8 H6, FINDINGS-9 P1)
			}
			if strings.HasPrefix(a, "@") || compilerTextAbbrev(a) {
				return "", false // options from a response file airlock does not read, or an abbreviated text flag (FINDINGS-9 P1)
			}
			if strings.HasPrefix(a, "--emit") && !strings.Contains(a, "link") {
				return "", false
			}
		}
	default:
		return "", false
	}
	out, first, objects := "", "", false
	shift := len(inv.Args) - len(args) // go build: args is one word on
	for i := 1; i < len(args); i++ {
		if inv.IsDynamic(i + shift) {
			return "", false
		}
		a := args[i]
		switch {
		case a == "-o" && i+1 < len(args):
			if inv.IsDynamic(i+1+shift) && !dynamicOut {
				return "", false
			}
			out = args[i+1]
			i++
		case strings.HasPrefix(a, "-o="):
			out = a[3:]
		case a == "--output" && inv.Name() != "go" && i+1 < len(args):
			if inv.IsDynamic(i+1+shift) && !dynamicOut {
				return "", false
			}
			out = args[i+1]
			i++
		case strings.HasPrefix(a, "--output=") && inv.Name() != "go":
			out = a[len("--output="):]
		case strings.HasPrefix(a, "-o") && inv.Name() != "go" && len(a) > 2:
			out = a[2:]
		case a == "-c" || a == "--crate-type" || strings.HasPrefix(a, "--crate-type="):
			objects = true // objects or a library, not a program to run
		case first == "" && sourceExt(a):
			first = a
		}
	}
	if out == "" && first != "" && !objects {
		// The program a compiler writes when no -o names it: a.out, or
		// for rustc the crate's name (rustc m.rs writes m).
		switch inv.Name() {
		case "go":
		case "rustc":
			out = strings.TrimSuffix(path.Base(first), ".rs")
		default:
			out = "a.out"
		}
	}
	return out, out != ""
}

// keepsContent reports a run that changes no file's content: only its
// mode, owner, attributes or times (touch makes an empty file where there
// was none, which runs nothing). A redirection writes all the same.
func keepsContent(inv *shell.Invocation) bool {
	switch inv.Name() {
	case "chmod", "chown", "chgrp", "touch":
		for _, r := range inv.Redirects {
			if r.Op != "<" {
				return false
			}
		}
		return inv.Opaque == "" // through a wrapper too: sudo chmod +x x.sh changes a mode
	}
	return false
}

// writtenText returns the text an earlier run of the command writes to
// name, when it is all known: one run writes the file whole with > from
// literal text (cat with a heredoc, echo or printf of static words), the
// run that executes it comes later, and no other run but chmod names the
// file (a sed -i or a second write in between would change it).
func (cc *cmdContext) writtenText(runner *shell.Invocation, name string) (string, bool) {
	if cc != nil && cc.outer != nil && !cc.writesHere(runner, name) {
		// Written by the command the runner's line came from.
		return cc.outer.writtenText(cc.outerRun, name)
	}
	name = path.Clean(name)
	if cc.changesDir() {
		return "", false
	}
	base := path.Base(name)
	at, writer := -1, -1
	for i := range cc.invs {
		inv := &cc.invs[i]
		if at < 0 && inv.Source == runner.Source && inv.Line == runner.Line && slices.Equal(inv.Args, runner.Args) {
			at = i
			continue
		}
		if inv.Opaque != "" {
			return "", false
		}
		for _, r := range inv.Redirects {
			switch {
			case r.Dynamic:
				return "", false // it could name the file
			case path.Clean(r.Target) == name:
				if writer >= 0 || r.Op != ">" && r.Op != ">|" || inv.InLoop {
					return "", false
				}
				writer = i
			case r.Writes() && strings.Contains(r.Target, base):
				return "", false // another spelling of the file
			}
		}
		if inv.Name() == "chmod" || i == writer {
			continue
		}
		// Any other word that could name the file (of=x.sh,
		// --output=x.sh, open('x.sh', 'w'), a computed word) may change it.
		for j, a := range inv.Args {
			if j > 0 && (strings.Contains(a, base) || inv.IsDynamic(j)) {
				return "", false
			}
		}
	}
	if writer < 0 || at < 0 || writer > at {
		return "", false
	}
	return literalOutput(&cc.invs[writer])
}

// literalOutput is what a run prints when it is all literal: cat of a
// heredoc, echo of static words, printf of a static format with no
// conversions.
func literalOutput(inv *shell.Invocation) (string, bool) {
	if inv.Dynamic != nil {
		return "", false
	}
	args := inv.Args[1:]
	switch inv.Name() {
	case "cat":
		if len(args) == 0 && inv.StdinKnown {
			return inv.StdinText, true
		}
	case "echo", "printf":
		// As the shell prints it: printf '\154' is "l", and what shells
		// print differently is unknown (shell printf.go, FINDINGS-8 H2).
		return shell.Output(inv)
	}
	return "", false
}

// deeper returns a classifier one file deeper, or false at the limit.
func (c *Classifier) deeper() (*Classifier, bool) {
	if c.follow >= maxFollow {
		return nil, false
	}
	inner := *c
	inner.follow++
	inner.cc = nil
	return &inner, true
}

// fileLimit is the effect of a file that could not be followed.
func fileLimit(name string) Effect {
	return opaque("script.depth", "limit reached: "+name+" is more than "+strconv.Itoa(maxFollow)+" files deep in scripts that run scripts")
}

// readScript reads a file a run would execute. ok false with a zero
// effect means there is nothing to follow (no FS, or the file does not
// exist and nothing else could make it); otherwise a non-nil error effect
// says why it cannot be read.
func (c *Classifier) readScript(inv *shell.Invocation, name string, dynamic bool) (data []byte, failed Effect, ok bool) {
	// A file the same command writes is not on disk yet, with a
	// filesystem or without one: what it runs is only known at run time.
	// When an earlier run of the command writes the whole file from
	// literal text, and nothing else names it, that text is what runs.
	if !dynamic && c.cc.writtenElsewhere(inv, name) {
		if text, ok := c.cc.writtenText(inv, name); ok {
			return []byte(text), Effect{}, true
		}
		// go build -o app ./src && ./app: a program built by a compiler
		// is run like any built program (running built code is what
		// containment fences; docs/THREAT-MODEL.md). What is on disk now
		// is still read: it runs if the build fails before writing.
		if !c.cc.compiledOnly(inv, name) || path.Base(inv.Path) != path.Base(name) {
			// Only the built program run as itself: sh app reads it as
			// text (cc -E -o app writes text: FINDINGS-8 H6). The text
			// the writers carry from their inputs is checked (carry.go).
			c.keepCarried(inv, name)
			return nil, opaque("script.written", name+" is written by the same command that runs it, so what it runs cannot be read beforehand"), false
		}
		// Its sources are its code (carry.go).
		c.keepBuilt(inv, name)
	}
	if c.FS == nil {
		return nil, Effect{}, false
	}
	if dynamic {
		return nil, opaque("script.dynamic", inv.Name()+" runs a file named at run time ("+clip(name)+")"), false
	}
	if path.Clean(name) == "/dev/null" {
		return []byte{}, Effect{}, true // make -f /dev/null -p: nothing to run
	}
	if processFile(name) || c.linksToProcessFile(name) {
		// make -f /dev/fd/3 3< y.mk, bash /proc/self/fd/4: what the
		// name holds is what the shell connects to it when the command
		// runs, not what this process would read there.
		return nil, opaque("script.descriptor", inv.Name()+" reads "+clip(name)+", a descriptor, device or process file whose text is only known at run time"), false
	}
	data, err := c.readFile(name)
	switch {
	case err == nil:
		return data, Effect{}, true
	case errors.Is(err, ErrTooLarge):
		// A large compiled program is not a script too large to read.
		if head, herr := c.readHead(name); herr == nil && binary(head) {
			return head, Effect{}, true
		}
	case errors.Is(err, fs.ErrNotExist):
		// Not where the run happens: nothing to run, the command fails.
		// Unless a cd of the text sent the run to a directory known only
		// at run time, or to one that is not there (cd gone; ./x.sh runs
		// x.sh where the command started).
		// (A command whose own directory is not there, as in a transcript
		// scanned on another machine, has nothing to run.)
		if _, derr := c.FS.Stat("."); c.dirUnknown && c.cc.changesDir() || derr != nil && inv.Dir != "" {
			return nil, opaque("script.cwd", "the command changes directory before running "+name+", so which file runs cannot be known"), false
		}
		// go build && ./p: go names the program after the package, which
		// an earlier go build of the command may write here (carry.go).
		c.keepGoBuilt(inv, name)
		return nil, Effect{}, false // nothing to run: the command fails
	}
	return nil, opaque("script.unreadable", name+" cannot be read ("+err.Error()+"), so what it runs cannot be known"), false
}

// plain reports whether an effect is local with no flag: nothing worth a
// line in a reason.
func plain(e Effect) bool {
	return e.Tier == Local && !e.Destructive && !e.Opaque && !e.NetworkRead
}

// shellFile classifies shell text read from a file, each finding with
// the file and line it comes from. firstLine is the line of the file the
// text starts on.
func (c *Classifier) shellFile(file, text string, firstLine int) Effect {
	inner, ok := c.deeper()
	if !ok {
		return fileLimit(file)
	}
	invs := inner.Limits.Parse(text)
	inner.cc = newCmdContext(invs)
	var e Effect
	for i := range invs {
		inv := &invs[i]
		ie := inner.invocation(inv)
		ops := Operands(inv)
		if ce, cops, ok := inner.clientConfig(inv); ok { // clientconfig.go
			ie.Add(ce)
			ops = append(ops, cops...)
		}
		if inner.followed != nil {
			*inner.followed = append(*inner.followed, Invocation{Invocation: *inv, Effect: ie, Operands: ops})
		}
		if plain(ie) {
			continue
		}
		line := inv.Line
		if line < 1 {
			line = 1
		}
		what := inv.String()
		if what == "" {
			what = inv.Source
		}
		msg := file + ":" + strconv.Itoa(firstLine+line-1) + ": " + clip(what)
		ie.Reasons = append([]Reason{{"script.line", msg}}, ie.Reasons...)
		e.Add(ie)
	}
	return e
}

// scriptFile follows a file a run executes directly or through a shell:
// shell text, or code for an interpreter named by its #! line.
func (c *Classifier) scriptFile(inv *shell.Invocation, name string, dynamic bool) (Effect, bool) {
	data, failed, ok := c.readScript(inv, name, dynamic)
	if !ok {
		return failed, failed.Reasons != nil
	}
	if binary(data) {
		return nothing, false // a compiled program: rated by its arguments
	}
	if len(data) > MaxScriptBytes {
		return opaque("script.unreadable", name+" is larger than airlock reads"), true
	}
	text := string(data)
	if interp, ok := shebang(text); ok {
		if lang, who, ok := interpLang(interp); ok {
			inner, ok := c.deeper()
			if !ok {
				return fileLimit(name), true
			}
			c.keepCode(who+" "+name, name, data)
			return interpAnalyse(inner, who+" "+name, lang, text).through("script.interp", name+" is a "+who+" program"), true
		}
		if !isShell(interp) {
			return opaque("script.interpreter", name+" runs with "+interp+", which airlock does not read"), true
		}
	}
	return c.shellFile(name, text, 1), true
}

// binary reports whether a file is a compiled program or other data
// rather than text.
func binary(data []byte) bool {
	head := data
	if len(head) > 512 {
		head = head[:512]
	}
	for _, magic := range [][]byte{[]byte("\x7fELF"), {0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}, []byte("MZ")} {
		if bytes.HasPrefix(data, magic) {
			return true
		}
	}
	return bytes.IndexByte(head, 0) >= 0
}

// shebang returns the interpreter named on a #! line: the base name, or
// the program after env (and its -S).
func shebang(text string) (string, bool) {
	line, ok := strings.CutPrefix(text, "#!")
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", false
	}
	prog := normWord(f[0])
	if prog == "env" {
		for _, w := range f[1:] {
			if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
				return normWord(w), true
			}
		}
		return "", false
	}
	return prog, true
}

// interpLang maps an interpreter name to the language the code reader
// knows.
func interpLang(name string) (lang, who string, ok bool) {
	switch {
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return interp.Python, name, true
	case name == "node" || name == "nodejs" || name == "deno" || name == "bun" || name == "tsx" || name == "ts-node":
		return interp.JavaScript, name, true
	case strings.HasPrefix(name, "ruby"):
		return interp.Ruby, name, true
	case strings.HasPrefix(name, "perl"):
		return interp.Perl, name, true
	case strings.HasPrefix(name, "php"):
		return interp.PHP, name, true
	case strings.HasPrefix(name, "lua"):
		return interp.Lua, name, true
	case name == "rscript":
		return interp.R, name, true
	}
	return "", "", false
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "rbash", "busybox":
		return true
	}
	return false
}

// keepCode records the text of an interpreter script the command runs,
// for self-protection (Result.Code).
func (c *Classifier) keepCode(run, name string, data []byte) {
	// No bound of its own: each file is bounded by MaxScriptBytes and the
	// runs by the parser's limits, and one left out would go unchecked.
	if c.code != nil {
		*c.code = append(*c.code, Code{Run: run, File: name, Text: string(data)})
	}
}

// interpScript follows a script file given to an interpreter (python3
// x.py): its code gets the analysis one-liners get.
func (c *Classifier) interpScript(inv *shell.Invocation, who, lang, name string, dynamic bool) Effect {
	data, failed, ok := c.readScript(inv, name, dynamic)
	if !ok {
		return failed
	}
	inner, ok := c.deeper()
	if !ok {
		return fileLimit(name)
	}
	c.keepCode(who+" "+name, name, data)
	e := interpAnalyse(inner, who+" "+name, lang, string(data))
	out := e.through("script.interp", who+" runs "+name)
	if out.Reasons == nil {
		// Local code that moves files, makes links or runs shell text
		// keeps saying so: a deletion later in the command is graded by
		// it (policy relinks.go, FINDINGS-9 B6).
		for _, x := range e.Reasons {
			if x.Rule == "interp.relink" || strings.HasPrefix(x.Rule, "interp.spawn") {
				out.Reasons = append(out.Reasons, x)
			}
		}
	}
	return out
}

// followRun rates what a run executes from files, if it is one that runs
// a file: a shell with a script operand, source and ., a program run by
// its path, or a task runner. handled false means the run is rated as
// before (by its spec, or by looking through its arguments).
func (c *Classifier) followRun(inv *shell.Invocation) (Effect, bool) {
	name := inv.Name()
	switch {
	case isShell(name) && name != "busybox":
		return c.shellRun(inv)
	case name == "source" || name == ".":
		if len(inv.Args) < 2 {
			return nothing, false
		}
		return c.scriptFile(inv, inv.Args[1], inv.IsDynamic(1))
	case inv.IsDynamic(0):
		return c.builtRun(inv) // carry.go
	case strings.ContainsAny(inv.Path, `/\`) && specFor(name) == nil && !shell.Unwraps(name):
		return c.scriptFile(inv, inv.Path, false)
	}
	return nothing, false
}

// namesakeScript follows a text script run by its path whose name is a
// known program's (FINDINGS-4 K8: bin/git, a shell script that runs
// airlock queue approve, was rated as git). A compiled program, a file
// that cannot be read, or one in a system directory is rated by the
// program's spec alone, as before; a script adds what its text does to
// that rating, it never lowers it.
func (c *Classifier) namesakeScript(inv *shell.Invocation) Effect {
	p := inv.Path
	if !strings.ContainsAny(p, `/\`) || systemBinDir(p) {
		return nothing
	}
	data, _, ok := c.readScript(inv, p, false)
	if !ok || binary(data) || !bytes.HasPrefix(data, []byte("#!")) {
		return nothing
	}
	e, _ := c.scriptFile(inv, p, false)
	return e
}

// systemBinDir: the directories a system's own programs live in, which
// the agent cannot write; a path there is the program its name says.
func systemBinDir(p string) bool {
	for _, d := range []string{"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/", "/opt/homebrew/bin/", "/usr/libexec/"} {
		if strings.HasPrefix(p, d) && !strings.Contains(p[len(d):], "/") {
			return true
		}
	}
	return false
}

// shellRun rates the files a shell runs besides -c text: its script
// operand, a file fed on standard input (sh < deploy.sh, bash -s <
// deploy.sh) and the start-up file named by --rcfile/--init-file. A script name the shell expands from a glob is one
// airlock cannot pick, so it is opaque.
func (c *Classifier) shellRun(inv *shell.Invocation) (Effect, bool) {
	var e Effect
	found := false
	add := func(file string, dynamic bool) {
		if strings.ContainsAny(file, "*?[") {
			dynamic = true
		}
		if f, ok := c.scriptFile(inv, file, dynamic); ok {
			e.Add(f)
			found = true
		}
	}
	for i := 1; i+1 < len(inv.Args); i++ {
		if a := inv.Args[i]; a == "--rcfile" || a == "--init-file" {
			add(inv.Args[i+1], inv.IsDynamic(i+1))
		}
	}
	if i := shellScriptOperand(inv.Args); i >= 0 {
		add(inv.Args[i], inv.IsDynamic(i))
	} else if !hasFlagLetter(inv.Args, 'c') && inv.Stdin == "" {
		// Its commands come from its input: the file the redirections
		// give it, its own or set up around it (stdinfeed.go).
		switch f := c.stdinRedirect(inv); {
		case !f.set:
		case f.unknown != "":
			e.Add(opaque("shell.stdin", inv.Name()+" runs commands read from "+f.unknown+", which airlock cannot read"))
			found = true
		case !strings.HasPrefix(f.file, "&"):
			add(f.file, f.dynamic)
		}
	}
	return e, found
}

// hasFlagLetter reports whether a short option cluster before the first
// operand holds the letter (bash -c, sh -ec).
func hasFlagLetter(args []string, l byte) bool {
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			if a == "--" || !strings.HasPrefix(a, "-") {
				return false
			}
			continue
		}
		if strings.IndexByte(a[1:], l) >= 0 {
			return true
		}
	}
	return false
}

// shellScriptOperand finds the script a shell runs: the first operand
// after its options, or -1 (bash -c and bash reading its input are
// handled by package shell).
func shellScriptOperand(args []string) int {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		case a == "--rcfile" || a == "--init-file" || a == "-o" || a == "-O" || a == "+O" || a == "+o":
			i++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			if strings.ContainsAny(a[1:], "csn") && !strings.HasPrefix(a, "--") && a[0] == '-' {
				return -1 // -c text, -s stdin, -n only checks syntax
			}
		default:
			return i
		}
	}
	return -1
}

// releaseName reports whether a script or target name says it releases:
// one of its parts (split at : - _ .) is a release verb.
func releaseName(name string) bool {
	for _, part := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return r == ':' || r == '-' || r == '_' || r == '.' || r == '/'
	}) {
		if releaseVerbs(part) {
			return true
		}
	}
	return false
}

// unreadRelease is the effect of a task named after a release whose file
// airlock does not read.
func unreadRelease(tool, target string) Effect {
	return opaque("script.release-name", tool+" "+target+" is named after a release, and airlock cannot read what it runs")
}

// startupEnv rates the start-up file that BASH_ENV or ENV names for a
// run: every non-interactive bash (or POSIX sh) the run starts, at any
// depth, sources it first.
func (c *Classifier) startupEnv(inv *shell.Invocation) Effect {
	var e Effect
	for _, v := range []string{"BASH_ENV", "ENV"} {
		if f, set := inv.Getenv(v); set && f != "" {
			if r, ok := c.scriptFile(inv, f, strings.ContainsAny(f, "$`")); ok {
				e.Add(r)
			}
		}
	}
	return e
}

// processFile reports a name under /dev (but /dev/null) or /proc: a
// descriptor, a device or a process's file, whose text depends on the
// process that opens it.
func processFile(name string) bool {
	if !path.IsAbs(name) {
		return false
	}
	p := path.Clean(name)
	return strings.HasPrefix(p, "/dev/") && p != "/dev/null" || strings.HasPrefix(p, "/proc/")
}

// realPather is an FS that can tell where a name's symbolic links lead.
type realPather interface {
	RealPath(name string) (string, bool)
}

// linksToProcessFile reports a name whose symbolic links lead to a
// processFile (y.mk -> /dev/fd/3): this process would read its own
// descriptor there.
func (c *Classifier) linksToProcessFile(name string) bool {
	rp, ok := c.FS.(realPather)
	if !ok {
		return false
	}
	real, ok := rp.RealPath(fsName(name))
	return ok && processFile(real)
}
