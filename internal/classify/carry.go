package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file says what a file written by the same command holds when a
// later run executes it and no literal text gives it whole (writtenText
// in follow.go does that for echo, printf and cat of a heredoc):
//
//   - a program whose output is made of its input's text (cat, cp, tee,
//     sort, sed, awk, m4, cpp and cc -E, dd, envsubst, …) carries that
//     text into the file: cc -E -P -o bb v.c; sh bb runs v.c's text, as
//     far as airlock's verbs and files go;
//   - a program built from source (cc -o y y.c; ./y, gcc y.c && ./a.out,
//     go run ., tcc -run y.c) runs its sources' code.
//
// Neither is followed as a script: the text is transformed on the way, or
// is a language airlock does not read. It goes to self-protection as the
// code the run executes (Result.Code), so text that names airlock's verbs
// or files refuses the run; the run stays opaque (script.written) or rated
// as a built program, as before. Text that cannot be read adds nothing.

// maxCarry bounds how many writers deep the text is traced (cat a > b;
// sort b > c; sh c).
const maxCarry = 3

// fileWrites returns the files a run writes that are not words of its own:
// dd's of=FILE, sed's w FILE and s///w FILE, awk's print > "FILE", and
// the program a compiler writes without -o (a.out).
func fileWrites(inv *shell.Invocation) []string {
	if inv.Opaque != "" || len(inv.Args) == 0 {
		return nil
	}
	var out []string
	switch inv.Name() {
	case "dd":
		for i, a := range inv.Args[1:] {
			if f, ok := strings.CutPrefix(a, "of="); ok && !inv.IsDynamic(i+1) {
				out = append(out, f)
			}
		}
	case "sed", "gsed":
		for _, s := range sedProgramsOf(inv) {
			files, _ := sedWrites(s)
			out = append(out, files...)
		}
	case "awk", "gawk", "mawk", "nawk":
		for _, prog := range awkProgramsOf(inv) {
			out = append(out, interp.Awk(prog).Writes...)
		}
	}
	if o, ok := compilerOutput(inv); ok {
		out = append(out, o)
	}
	return out
}

// sedProgramsOf returns the scripts a sed run is given on its command
// line (-e values, or the first operand).
func sedProgramsOf(inv *shell.Invocation) []string {
	p := argv.Spec{Short: "efl", Long: []string{"--expression", "--file", "--line-length"}}.Parse(inv.Args[1:])
	scripts := p.Values("-e", "--expression")
	if len(scripts) == 0 && !p.Has("-f", "--file") && len(p.Operands) > 0 && !inv.IsDynamic(1+p.OperandIndex[0]) {
		scripts = p.Operands[:1]
	}
	return scripts
}

// awkProgramsOf returns the programs an awk run is given on its command
// line (-e/--source values, or the first operand).
func awkProgramsOf(inv *shell.Invocation) []string {
	p := argv.Spec{Short: "Fvfei", Long: []string{"--field-separator", "--assign", "--file", "--source", "--include", "--load"}}.Parse(inv.Args[1:])
	progs := p.Values("-e", "--source")
	if len(progs) == 0 && !p.Has("-f", "--file") && len(p.Operands) > 0 && !inv.IsDynamic(1+p.OperandIndex[0]) {
		progs = p.Operands[:1]
	}
	return progs
}

// carriesText reports a program whose output is its input's text,
// reordered, filtered, copied or preprocessed: what it writes holds what
// it read (cc and cpp only with -E, whose output is text).
func carriesText(inv *shell.Invocation) bool {
	switch inv.Name() {
	case "cat", "tac", "cp", "install", "mv", "ln", "tee", "dd", "sort", "uniq", "head", "tail", "rev", "tr", "cut",
		"paste", "fold", "fmt", "expand", "unexpand", "nl", "column", "grep", "egrep", "fgrep", "sed", "gsed",
		"awk", "gawk", "mawk", "nawk", "m4", "cpp", "envsubst", "iconv", "dos2unix", "unix2dos", "strings", "xargs":
		return inv.Name() != "xargs" || len(inv.Args) == 1
	case "cc", "gcc", "clang", "c++", "g++", "clang++", "tcc":
		return slices.Contains(inv.Args[1:], "-E")
	}
	return false
}

// runIndex returns the index of a run in the command's runs, or -1.
func (cc *cmdContext) runIndex(inv *shell.Invocation) int {
	if cc == nil {
		return -1
	}
	for i := range cc.invs {
		o := &cc.invs[i]
		if o == inv || o.Source == inv.Source && o.Line == inv.Line && slices.Equal(o.Args, inv.Args) {
			return i
		}
	}
	return -1
}

// writers returns the runs of the command before runner (in the text)
// that may write name.
func (cc *cmdContext) writers(runner *shell.Invocation, name string) []*shell.Invocation {
	at := cc.runIndex(runner)
	if at < 0 {
		return nil
	}
	name = path.Clean(name)
	var out []*shell.Invocation
	for i := range cc.invs[:at] {
		o := &cc.invs[i]
		if !keepsContent(o) && mayWrite(o)[name] > 0 {
			out = append(out, o)
		}
	}
	return out
}

// fileText is the text of a file a run reads: the literal text an
// earlier run of the command writes it with, what that run carries, or
// the file on disk. ok is false when it cannot be known.
func (c *Classifier) fileText(inv *shell.Invocation, name string, depth int) (string, bool) {
	if c.cc.writtenElsewhere(inv, name) {
		if text, ok := c.cc.writtenText(inv, name); ok {
			return text, true
		}
		if depth >= maxCarry {
			return "", false
		}
		text := c.carriedText(inv, name, depth+1)
		return text, text != ""
	}
	if c.FS == nil {
		return "", false
	}
	data, err := c.readFile(name)
	if err != nil || binary(data) {
		return "", false
	}
	return string(data), true
}

// runInputs is the text a run reads: what feeds its standard input (a
// heredoc, a here-string, a file, the run before it in a pipe when that
// run carries text too) and the files it names to read (dd's if= among
// them), but skip, the file it writes.
func (c *Classifier) runInputs(inv *shell.Invocation, skip string, depth int) []string {
	var texts []string
	switch {
	case inv.StdinKnown:
		texts = append(texts, inv.StdinText)
	case inv.Stdin == "pipe" && depth < maxCarry:
		if i := c.cc.runIndex(inv); i > 0 {
			if p := &c.cc.invs[i-1]; p.Seq == inv.Seq && p.Opaque == "" && carriesText(p) {
				texts = append(texts, c.runInputs(p, "", depth+1)...)
			}
		}
	}
	for _, r := range inv.Redirects {
		if r.Op == "<" && !r.Dynamic && !strings.HasPrefix(r.Target, "&") {
			if t, ok := c.fileText(inv, r.Target, depth); ok {
				texts = append(texts, t)
			}
		}
	}
	for _, o := range Operands(inv) {
		if o.Dynamic || o.Arg < 0 || path.Clean(o.Word) == skip || o.Word == "-" {
			continue
		}
		switch o.Role {
		case RoleRead, RoleMoveFrom, RoleUnknown, RoleExec:
			if t, ok := c.fileText(inv, o.Word, depth); ok {
				texts = append(texts, t)
			}
		}
	}
	return texts
}

// carriedText is the text the runs of the command before runner put in
// name: the literal text of a writer that prints it (printf '…' >> y.c)
// and the inputs of each writer that carries its input's text ("" when
// none does, or none can be read).
func (c *Classifier) carriedText(runner *shell.Invocation, name string, depth int) string {
	if c.cc == nil || c.cc.changesDir() {
		return ""
	}
	var texts []string
	for _, w := range c.cc.writers(runner, name) {
		if w.Opaque != "" {
			continue
		}
		// Literal text written with > or >> (printf '…' > y.c), though
		// other runs may change it: what it holds is checked all the
		// same.
		if t, ok := literalOutput(w); ok && slices.ContainsFunc(w.Redirects, func(r shell.Redirect) bool {
			return r.Writes() && path.Clean(r.Target) == path.Clean(name)
		}) {
			texts = append(texts, t)
			continue
		}
		if carriesText(w) {
			texts = append(texts, c.runInputs(w, path.Clean(name), depth)...)
		}
	}
	return strings.Join(texts, "\n")
}

// keepCarried keeps, for self-protection, the text an earlier run of the
// command carries into the file runner executes (cc -E -P -o bb v.c; sh
// bb: v.c's text).
func (c *Classifier) keepCarried(runner *shell.Invocation, name string) {
	if c.code == nil {
		return
	}
	if text := c.carriedText(runner, name, 0); strings.TrimSpace(text) != "" {
		c.keepCode(runner.Name()+" "+name+" (written from other files by the same command)", name, []byte(text))
	}
}

// keepBuilt keeps, for self-protection, the sources of the program runner
// executes when a compiler of the same command builds it (cc -o y y.c;
// ./y), as far as they can be read.
func (c *Classifier) keepBuilt(runner *shell.Invocation, name string) {
	if c.code == nil {
		return
	}
	for _, w := range c.cc.writers(runner, name) {
		if out, ok := compilerOutput(w); !ok || path.Clean(out) != path.Clean(name) {
			continue
		}
		for _, text := range c.sourceTexts(w) {
			c.keepCode(runner.Name()+" (built by "+clip(w.Source)+")", name, []byte(text))
		}
	}
}

// sourceTexts is the text of a compiler run's sources: the source files
// it names (y.c, m.rs, main.go), its standard input for "-", and for go
// the .go files the same command writes in the packages it names.
func (c *Classifier) sourceTexts(inv *shell.Invocation) []string {
	var texts []string
	add := func(name string) {
		if t, ok := c.fileText(inv, name, 0); ok {
			texts = append(texts, t)
		}
	}
	for _, f := range c.sourceFiles(inv) {
		if f == "-" {
			if inv.StdinKnown {
				texts = append(texts, inv.StdinText)
			}
			continue
		}
		add(f)
	}
	return texts
}

// sourceFiles names a compiler run's sources (sourceTexts).
func (c *Classifier) sourceFiles(inv *shell.Invocation) []string {
	var files, dirs []string
	args := inv.Args
	isGo := inv.Name() == "go"
	if isGo {
		if len(args) < 2 {
			return nil
		}
		args = args[1:] // go build …, go run …
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if inv.IsDynamic(i) {
			continue
		}
		switch {
		case a == "-":
			files = append(files, a)
		case (a == "-o" || a == "-x" || a == "-I" || a == "-L" || a == "-MF" || a == "-include") && i+1 < len(args):
			if a == "-include" {
				files = append(files, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "-"):
		case sourceExt(a):
			files = append(files, a)
		case isGo:
			dirs = append(dirs, a)
		}
	}
	if isGo && len(files) == 0 {
		if len(dirs) == 0 {
			dirs = []string{"."}
		}
		// The .go files the same command writes in those packages; the
		// project's own, on disk, are its code as go run . is.
		inPkg := func(w string) bool {
			return strings.HasSuffix(w, ".go") && slices.ContainsFunc(dirs, func(d string) bool {
				return path.Clean(strings.TrimSuffix(d, "/...")) == path.Dir(w)
			})
		}
		for i := range c.cc.runIndex(inv) {
			for w := range mayWrite(&c.cc.invs[i]) {
				if inPkg(w) {
					files = append(files, w)
				}
			}
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// sourceExt reports a file name of source code a compiler reads.
func sourceExt(name string) bool {
	switch path.Ext(name) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".m", ".mm", ".h", ".hpp", ".rs", ".go", ".java", ".s", ".S", ".i", ".zig", ".d", ".f", ".f90", ".swift":
		return true
	}
	return false
}

// builtRunCode keeps, for self-protection, the sources of a run that
// builds a program and runs it at once: go run (its .go files, named or
// written by the same command in its package), tcc -run, java X.java.
func (c *Classifier) builtRunCode(inv *shell.Invocation) Effect {
	if c.code == nil || c.cc == nil {
		return nothing
	}
	switch inv.Name() {
	case "go":
		if len(inv.Args) < 2 || inv.Args[1] != "run" {
			return nothing
		}
	case "tcc":
		if !slices.Contains(inv.Args[1:], "-run") {
			return nothing
		}
	case "java":
		if !slices.ContainsFunc(inv.Args[1:], func(a string) bool { return strings.HasSuffix(a, ".java") }) {
			// javac Y.java && java Y: the classes an earlier javac of
			// the command compiles are its sources' code.
			for i := range c.cc.runIndex(inv) {
				if o := &c.cc.invs[i]; o.Name() == "javac" && o.Opaque == "" {
					for _, text := range c.sourceTexts(o) {
						c.keepCode(clip(inv.Source)+" (built by "+clip(o.Source)+")", "", []byte(text))
					}
				}
			}
			return nothing
		}
	default:
		return nothing
	}
	for _, text := range c.sourceTexts(inv) {
		c.keepCode(clip(inv.Source), "", []byte(text))
	}
	return nothing
}

// builtBy returns the compiler run of the command, before inv, that
// writes the program inv runs by a name computed at run time: the same
// word as its -o (go build -o "$out/p" . && "$out/p" -h), which no other
// run before inv names and no unreadable run could write.
func (cc *cmdContext) builtBy(inv *shell.Invocation) *shell.Invocation {
	if cc == nil || len(inv.Args) == 0 || !inv.IsDynamic(0) {
		return nil
	}
	word := unquoted(inv.Args[0]) // "$out/p" and $out/p alike (links.go)
	var by *shell.Invocation
	for i := range cc.runIndex(inv) {
		o := &cc.invs[i]
		if out, ok := compilerOut(o, true); ok && unquoted(out) == word {
			by = o
			continue
		}
		if o.Opaque != "" {
			return nil
		}
		for _, a := range o.Args {
			if strings.Contains(unquoted(a), word) {
				return nil
			}
		}
		for _, r := range o.Redirects {
			if strings.Contains(unquoted(r.Target), word) {
				return nil
			}
		}
	}
	return by
}

// builtName makes a run whose command name is computed at run time, which
// package shell leaves opaque, the program a compiler of the same command
// writes there (builtBy): it runs that program's code, rated as any
// program built by the command (follow.go).
func (c *Classifier) builtName(inv *shell.Invocation) {
	if inv.Opaque == "" || c.cc == nil || c.cc.builtBy(inv) == nil {
		return
	}
	inv.Opaque = ""
}

// builtRun rates a run of a program the command builds (builtName), and
// keeps its sources for self-protection.
func (c *Classifier) builtRun(inv *shell.Invocation) (Effect, bool) {
	by := c.cc.builtBy(inv)
	if by == nil {
		return opaque("shell.opaque", "the command name is computed at run time ("+inv.Args[0]+"), so what runs cannot be known"), true
	}
	if c.code != nil {
		for _, text := range c.sourceTexts(by) {
			c.keepCode(clip(inv.Source)+" (built by "+clip(by.Source)+")", inv.Args[0], []byte(text))
		}
	}
	return local("script.built", clip(inv.Source)+" runs the program "+clip(by.Source)+" builds"), true
}

// keepGoBuilt keeps, for self-protection, the sources of an earlier go
// build of the command with no -o, when runner executes a program of the
// current directory that is not there yet (go build && ./p: go names the
// program after the package, which airlock does not work out).
func (c *Classifier) keepGoBuilt(runner *shell.Invocation, name string) {
	if c.code == nil || path.Dir(path.Clean(name)) != "." {
		return
	}
	for i := range c.cc.runIndex(runner) {
		o := &c.cc.invs[i]
		if o.Name() != "go" || len(o.Args) < 2 || o.Args[1] != "build" || o.Opaque != "" || slices.ContainsFunc(o.Args, func(a string) bool {
			return a == "-o" || strings.HasPrefix(a, "-o=")
		}) {
			continue
		}
		for _, text := range c.sourceTexts(o) {
			c.keepCode(runner.Name()+" (built by "+clip(o.Source)+")", name, []byte(text))
		}
	}
}
