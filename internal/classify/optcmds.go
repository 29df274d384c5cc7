package classify

import (
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is what airlock knows about the options and scripts through
// which programs that otherwise treat their arguments as data run a
// command or write a file: tar --to-command, sed's e command, vim -c
// '!…', man -P, split --filter, gcc -wrapper, go test -exec, fd -x. One
// table serves both readers: the classifier adds the effect of what such
// an option runs or writes (hiddenCommands), and the fact-forcing gate
// does not count a run with such an option as a read (OnlyReads).
//
// GNU getopt accepts any unambiguous prefix of a long option
// (--to-com=…, --in-pl), so a long option that abbreviates one listed
// here counts as it. For the programs marked strict, an option the table
// does not know makes the run opaque: a program that can run commands
// through options is only known safe by the options airlock has read.

// optionKind is what an option's value is to its program.
type optionKind int

const (
	// optShell: the value is shell text the program runs.
	optShell optionKind = iota + 1
	// optProgram: the value is a program with its arguments, split on
	// blanks (or commas for gcc -wrapper), which the program runs.
	optProgram
	// optCode: the value is code in another language (vim script, elisp,
	// make, ruby) or names a script or plugin file: airlock cannot read
	// what it runs.
	optCode
	// optWrite: the value is a file the program writes.
	optWrite
	// optRest: the words after the option, up to ";", are a command the
	// program runs (fd -x rm {}).
	optRest
	// optNotRead: the program rewrites its operands or runs helpers
	// through the option (sed -i, rg -z), which its spec already rates:
	// the classifier adds nothing, but the run is not only a read.
	optNotRead
)

// programOptions is one program's command- and file-valued options.
type programOptions struct {
	// spec lists the options that take a value, so that values are not
	// read as options.
	spec argv.Spec
	// opts maps an option (with its dashes) to what its value is: a list,
	// not a map, as verbList is (TestOptListsUnique).
	opts optList
	// known lists the other options of a strict program; nil means the
	// program is not strict.
	known []string
	// plain lists options whose own name is a prefix of a listed one
	// (git --text, --textconv): written in full, they are not an
	// abbreviation.
	plain []string
	// script reads what the program's script forms run or write (sed's
	// e command, dc's !); nil when it has none.
	script func(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect
}

// optList is a program's options and what their values are.
type optList []optPair

type optPair struct {
	opt  string
	kind optionKind
}

// get is the kind of option opt, if the list has it.
func (l optList) get(opt string) (optionKind, bool) {
	for _, p := range l {
		if p.opt == opt {
			return p.kind, true
		}
	}
	return 0, false
}

// optionRuns maps a program (git: "git SUB") to its options. It is set
// in the package's one init (specs.go): the scripts it names classify
// nested text, which reaches back to the table, and a package-level
// initialiser may not refer to itself.
var optionRuns func() map[string]*programOptions

// buildOptionTable builds optionRuns on first use.
func buildOptionTable() map[string]*programOptions {
	tar := &programOptions{
		spec: argv.Spec{Short: "bfFgIKLNTVCXH", Long: []string{
			"--file", "--to-command", "--use-compress-program", "--info-script", "--new-volume-script",
			"--rmt-command", "--rsh-command", "--checkpoint-action", "--index-file", "--directory",
			"--files-from", "--exclude-from", "--exclude", "--format", "--listed-incremental", "--blocking-factor",
			"--owner", "--group", "--mode", "--mtime", "--transform", "--xform", "--label", "--tape-length",
		}},
		opts: optList{
			{"--to-command", optShell}, {"-I", optShell}, {"--use-compress-program", optShell},
			{"-F", optShell}, {"--info-script", optShell}, {"--new-volume-script", optShell},
			{"--rmt-command", optProgram}, {"--rsh-command", optProgram}, {"--index-file", optWrite},
		},
		script: tarCheckpoint,
	}
	sed := &programOptions{
		spec:   argv.Spec{Short: "efl", Long: []string{"--expression", "--file", "--line-length"}},
		opts:   optList{{"-f", optCode}, {"--file", optCode}, {"-i", optNotRead}, {"--in-place", optNotRead}},
		script: sedScripts,
	}
	vim := &programOptions{
		spec: argv.Spec{Short: "cSuUTiwWqt", Long: []string{"--cmd", "--servername", "--remote-send", "--remote-expr", "--startuptime", "--listen"}},
		opts: optList{
			{"-S", optCode}, {"-W", optWrite}, {"-w", optWrite}, {"--remote-send", optCode}, {"--remote-expr", optCode},
			{"-u", optCode}, {"-U", optCode}, {"--startuptime", optWrite},
		},
		script: vimCommands,
	}
	emacs := &programOptions{
		spec: argv.Spec{Short: "lfLd", LongSingleDash: true, Long: []string{
			"--eval", "-eval", "--execute", "-execute", "--load", "-load", "--funcall", "-funcall", "--script", "-script",
			"--directory", "-directory", "--file", "-file", "--visit", "-visit", "--insert", "-insert", "-scriptload",
		}},
		opts: optList{
			{"--eval", optCode}, {"-eval", optCode}, {"--execute", optCode}, {"-execute", optCode}, {"-l", optCode},
			{"--load", optCode}, {"-load", optCode}, {"-f", optCode}, {"--funcall", optCode}, {"-funcall", optCode},
			{"--script", optCode}, {"-script", optCode}, {"-scriptload", optCode},
		},
	}
	gcc := &programOptions{script: gccOptions}
	goTool := &programOptions{
		// -C, -o and -p are two letters long: Short reads their
		// separate values (go -C DIR generate).
		spec: argv.Spec{Short: "Cop", LongSingleDash: true, Long: []string{
			"-exec", "-toolexec", "-vettool", "-o", "-C", "-p", "-tags", "-ldflags", "-gcflags", "-asmflags", "-run", "-bench",
			"-count", "-timeout", "-mod", "-modfile", "-overlay", "-pkgdir", "-coverprofile", "-cpuprofile", "-memprofile",
			"-covermode", "-coverpkg", "-parallel", "-skip", "-benchtime", "-cpu", "-outputdir", "-buildmode", "-compiler",
		}},
		opts:   optList{{"-exec", optProgram}, {"-toolexec", optProgram}, {"-vettool", optProgram}},
		script: goGenerate,
	}
	ed := &programOptions{spec: argv.Spec{Short: "p", Long: []string{"--prompt"}}, script: edStdin}
	dc := &programOptions{
		spec:   argv.Spec{Short: "ef", Long: []string{"--expression", "--file"}},
		opts:   optList{{"-f", optCode}, {"--file", optCode}},
		known:  []string{"-e", "--expression", "-h", "--help", "-V", "--version"},
		script: dcScripts,
	}
	m4 := &programOptions{
		spec: argv.Spec{Short: "DUIdlotFR", Long: []string{"--define", "--undefine", "--include", "--arglength", "--error-output", "--trace", "--freeze-state", "--reload-state", "--debugfile"}},
		opts: optList{
			{"-o", optWrite}, {"--error-output", optWrite}, {"--debugfile", optWrite}, {"-F", optWrite}, {"--freeze-state", optWrite},
			{"-R", optCode}, {"--reload-state", optCode},
		},
		script: m4Text,
	}
	tcl := &programOptions{spec: argv.Spec{Short: "cfD", Long: []string{"-encoding"}, LongSingleDash: true, StopAtOperand: true}, script: tclScripts}
	gdb := &programOptions{
		spec: argv.Spec{Short: "pcdsex", LongSingleDash: true, Long: []string{
			"-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command", "--init-eval-command",
			"-x", "--x", "-command", "--command", "-ix", "--ix", "-init-command", "--init-command", "-cd", "--cd",
			"-directory", "--directory", "-pid", "--pid", "-core", "--core", "-symbols", "--symbols", "-exec", "--exec",
			"-tty", "--tty", "-data-directory", "--data-directory", "-interpreter", "--interpreter",
		}},
		script: gdbCommands,
	}
	login := &programOptions{script: registryLogin}   // senders.go
	listen := &programOptions{script: listenerServes} // listeners.go
	return map[string]*programOptions{
		"tar": tar, "gtar": tar, "bsdtar": tar,
		"sed": sed, "gsed": sed,
		"vim": vim, "vi": vim, "nvim": vim, "ex": vim, "view": vim, "gvim": vim, "vimdiff": vim,
		"emacs": emacs,
		"gcc":   gcc, "g++": gcc, "cc": gcc, "c++": gcc, "clang": gcc, "clang++": gcc,
		"go":    goTool,
		"cargo": {script: cargoConfig},
		"ed":    ed, "red": ed,
		"dc": dc,
		"man": {
			spec: argv.Spec{Short: "PHCMLmSsep", Long: []string{"--pager", "--html", "--config-file", "--manpath", "--locale", "--systems", "--sections", "--extension", "--preprocessor"}},
			opts: optList{{"-P", optShell}, {"--pager", optShell}, {"-H", optShell}, {"--html", optShell}, {"-C", optCode}, {"--config-file", optCode}, {"-p", optCode}, {"--preprocessor", optCode}},
		},
		"bat": {
			// --config-file and --config-dir only print where bat's
			// configuration is (bat reads another one from
			// BAT_CONFIG_PATH): they take no value and run nothing.
			spec: argv.Spec{Short: "lmrH", Long: []string{"--language", "--line-range", "--highlight-line", "--style", "--theme", "--pager", "--paging", "--map-syntax", "--tabs", "--wrap", "--color", "--decorations"}},
			opts: optList{{"--pager", optShell}},
		},
		"less": {
			spec:   argv.Spec{Short: "bhjkoOpPtTxyz#", Long: []string{"--log-file", "--LOG-FILE", "--lesskey-file", "--tag", "--tag-file", "--pattern", "--prompt"}},
			opts:   optList{{"-o", optWrite}, {"-O", optWrite}, {"--log-file", optWrite}, {"--LOG-FILE", optWrite}, {"-k", optCode}, {"--lesskey-file", optCode}},
			script: lessCommands,
		},
		"split": {
			spec:  argv.Spec{Short: "abCdlnt", Long: []string{"--filter", "--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--numeric-suffixes", "--hex-suffixes"}},
			opts:  optList{{"--filter", optShell}},
			known: []string{"-a", "-b", "-C", "-d", "-x", "-e", "-l", "-n", "-t", "-u", "--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--numeric-suffixes", "--hex-suffixes", "--elide-empty-files", "--unbuffered", "--verbose", "--help", "--version"},
		},
		"sort": {
			spec: argv.Spec{Short: "koStT", Long: []string{"--key", "--output", "--buffer-size", "--field-separator", "--temporary-directory", "--compress-program", "--parallel", "--batch-size", "--files0-from", "--random-source", "--sort"}},
			opts: optList{{"--compress-program", optProgram}, {"-o", optWrite}, {"--output", optWrite}},
			known: []string{"-k", "-o", "-S", "-t", "-T", "-b", "-d", "-f", "-g", "-i", "-M", "-h", "-n", "-R", "-r", "-V", "-c", "-C", "-m", "-s", "-u", "-z",
				"--key", "--output", "--buffer-size", "--field-separator", "--temporary-directory", "--parallel", "--batch-size", "--files0-from",
				"--random-source", "--sort", "--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort",
				"--ignore-nonprinting", "--month-sort", "--human-numeric-sort", "--numeric-sort", "--random-sort", "--reverse",
				"--version-sort", "--check", "--merge", "--stable", "--unique", "--zero-terminated", "--debug", "--help", "--version"},
		},
		"zip": {
			spec:   argv.Spec{Short: "bnOtxiZPA", Long: []string{"--unzip-command", "--output-file", "--temp-path", "--suffixes", "--exclude", "--include", "--password", "--compression-method"}},
			opts:   optList{{"--unzip-command", optShell}, {"-O", optWrite}, {"--output-file", optWrite}},
			script: zipCommands,
		},
		"make": {
			spec:   argv.Spec{Short: "CEfIjlWo", Long: []string{"--eval", "--file", "--makefile", "--directory", "--include-dir", "--jobs", "--load-average", "--what-if", "--old-file"}},
			opts:   optList{{"--eval", optCode}, {"-E", optCode}},
			script: makeStdin,
		},
		"rake": {
			spec: argv.Spec{Short: "eprfICIRgj", Long: []string{"--execute", "--execute-print", "--execute-continue", "--require", "--rakefile", "--rakelibdir", "--libdir", "--jobs"}},
			opts: optList{{"-e", optCode}, {"--execute", optCode}, {"-p", optCode}, {"--execute-print", optCode}, {"-E", optCode}, {"--execute-continue", optCode}, {"-r", optCode}, {"--require", optCode}},
		},
		"cmake": {
			spec:   argv.Spec{Short: "PCDGSBUTAE", Long: []string{"--build", "--install", "--preset", "--target", "--config"}},
			opts:   optList{{"-P", optCode}, {"-C", optCode}},
			script: cmakeTool,
		},
		"fd": {
			spec: argv.Spec{Short: "xXeEtdjcSo", Long: []string{"--exec", "--exec-batch", "--extension", "--exclude", "--type", "--max-depth", "--min-depth", "--threads", "--color", "--size", "--changed-within", "--changed-before", "--owner", "--base-directory", "--path-separator", "--search-path", "--max-results", "--ignore-file"}},
			opts: optList{{"-x", optRest}, {"--exec", optRest}, {"-X", optRest}, {"--exec-batch", optRest}},
		},
		"rg": {
			spec: argv.Spec{Short: "efgtTABCmMjEdr", Long: []string{"--pre", "--hostname-bin", "--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--after-context", "--before-context", "--context", "--max-count", "--max-columns", "--threads", "--encoding", "--max-depth", "--replace", "--type-add", "--max-filesize", "--path-separator", "--sort", "--sortr", "--color", "--colors", "--context-separator", "--pre-glob"}},
			opts: optList{{"--pre", optProgram}, {"--hostname-bin", optProgram}, {"-z", optNotRead}, {"--search-zip", optNotRead}},
		},
		"tree": {
			spec: argv.Spec{Short: "LPIo", Long: []string{"--filelimit", "--timefmt", "--charset", "--sort", "--fromfile"}},
			opts: optList{{"-o", optWrite}},
		},
		"xxd":  {spec: argv.Spec{Short: "cglosS"}, script: secondOperandWritten},
		"uniq": {spec: argv.Spec{Short: "fsw", Long: []string{"--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated"}}, script: secondOperandWritten},
		"shuf": {
			spec: argv.Spec{Short: "inoe", Long: []string{"--input-range", "--head-count", "--output", "--random-source"}},
			opts: optList{{"-o", optWrite}, {"--output", optWrite}},
		},
		"patch": {
			spec: argv.Spec{Short: "BDdFiopVYzrg", Long: []string{"--output", "--input", "--directory", "--strip", "--reject-file", "--prefix", "--suffix", "--basename-prefix", "--backup-if-mismatch"}},
			opts: optList{{"-o", optWrite}, {"--output", optWrite}, {"-r", optWrite}, {"--reject-file", optWrite}},
		},
		"file": {spec: argv.Spec{Short: "mFfeP", Long: []string{"--magic-file", "--separator", "--files-from", "--exclude", "--parameter"}}, opts: optList{{"-C", optNotRead}, {"--compile", optNotRead}}},
		"fzf": {
			spec: argv.Spec{Long: []string{"--preview", "--bind", "--listen", "--with-shell", "--query", "--delimiter", "--nth", "--with-nth", "--height", "--prompt", "--header", "--preview-window", "--expect", "--filter"}},
			opts: optList{{"--preview", optShell}, {"--bind", optCode}, {"--listen", optCode}, {"--listen-unsafe", optCode}, {"--with-shell", optProgram}},
		},
		"ag": {
			spec: argv.Spec{Short: "ABCGgmp", Long: []string{"--after", "--before", "--context", "--file-search-regex", "--max-count", "--ignore", "--depth", "--path-to-ignore", "--pager"}},
			opts: optList{{"--pager", optShell}},
		},
		"ack": {
			spec: argv.Spec{Short: "ABCmg", Long: []string{"--after-context", "--before-context", "--context", "--max-count", "--type", "--ignore-dir", "--ignore-file", "--match", "--pager", "--output", "--ackrc"}},
			opts: optList{{"--pager", optShell}, {"--output", optCode}, {"--ackrc", optCode}},
		},
		"just": {
			spec: argv.Spec{Short: "cdf", Long: []string{"--command", "--shell", "--shell-arg", "--justfile", "--working-directory", "--set", "--dotenv-filename", "--dotenv-path"}},
			opts: optList{{"-c", optRest}, {"--command", optRest}, {"--shell", optProgram}, {"--shell-arg", optCode}},
		},
		"rustc": {spec: argv.Spec{Short: "CLlo", Long: []string{"--codegen", "--extern", "--emit", "--crate-type", "--crate-name", "--edition", "--target", "--cfg", "--out-dir"}}, script: rustcLinker},
		"pylint": {
			spec: argv.Spec{Long: []string{"--init-hook", "--load-plugins", "--rcfile", "--disable", "--enable", "--output-format", "--jobs"}},
			opts: optList{{"--init-hook", optCode}, {"--load-plugins", optCode}, {"--output", optWrite}},
		},
		"date": {spec: argv.Spec{Short: "dfrsI", Long: []string{"--date", "--file", "--reference", "--set"}}, opts: optList{{"-s", optNotRead}, {"--set", optNotRead}}},
		"git": {
			opts:  optList{{"--output", optWrite}, {"--ext-diff", optCode}, {"--textconv", optCode}},
			plain: []string{"--text"},
		},
		// Programs that run commands written in their own text
		// (textrunners.go).
		"tmux":   {script: tmuxCommands},
		"screen": {script: screenCommands},
		"m4":     m4, "gm4": m4,
		"tclsh": tcl, "tclsh8.6": tcl, "tclsh9.0": tcl, "wish": tcl, "expect": tcl,
		"gdb": gdb,
		"yq":  {script: yqLoads},
		"nc":  listen, "ncat": listen, "netcat": listen, "nc.openbsd": listen, "nc.traditional": listen, "socat": listen,
		"docker": login, "podman": login, "nerdctl": login, "buildah": login, "skopeo": login, "oras": login, "helm": login, "crane": login,
		"sqlite3":   {spec: argv.Spec{LongSingleDash: true, Long: []string{"-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs", "-maxsize", "-lookaside", "-pagecache", "-mmap", "-heap"}}, script: sqliteEdit},
		"cpp":       {spec: argv.Spec{Short: "DUIoAx", Long: []string{"--include", "-include", "-imacros", "-isystem", "-iquote", "-idirafter"}}, script: cppIncludes},
		"entr":      {spec: argv.Spec{StopAtOperand: true}, script: entrCommand},
		"run-parts": {spec: argv.Spec{Short: "au", Long: []string{"--arg", "--umask", "--regex"}}, script: runParts},
		"sudoedit":  {spec: argv.Spec{Short: "CDghprRtTu"}, script: sudoeditEditor},
		"git grep": {
			spec: grepOptions,
			opts: optList{{"-O", optShell}, {"--open-files-in-pager", optShell}, {"--ext-grep", optCode}},
		},
	}
}

// optionsFor returns the option knowledge for a run, or nil.
func optionsFor(inv *shell.Invocation) (*programOptions, []string) {
	name := inv.Name()
	if name == "git" {
		sub, rest, ok := GitSubcommand(inv.Args[1:])
		if !ok {
			return nil, nil
		}
		if po := optionRuns()["git "+sub]; po != nil {
			return po, rest
		}
		return optionRuns()["git"], rest
	}
	po := optionRuns()[name]
	if po == nil {
		return nil, nil
	}
	args := inv.Args[1:]
	if (name == "tar" || name == "gtar" || name == "bsdtar") && len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		// Old-style bundle (tar xzf f, tar cIf prog x.tar): the letters
		// are short options.
		args = append([]string{"-" + args[0]}, args[1:]...)
	}
	return po, args
}

// kindOf returns what a flag's value is to the program, matching a long
// option also by an abbreviation getopt would accept, and the full name.
func (po *programOptions) kindOf(name string) (optionKind, string) {
	if k, ok := po.opts.get(name); ok {
		return k, name
	}
	if !strings.HasPrefix(name, "--") || len(name) < 4 || contains(po.plain, name) || contains(po.known, name) {
		return 0, name
	}
	for _, p := range po.opts {
		if strings.HasPrefix(p.opt, name) {
			return p.kind, p.opt
		}
	}
	return 0, name
}

// knows reports whether a strict program's option is one airlock has read.
func (po *programOptions) knows(name string) bool {
	if po.known == nil {
		return true
	}
	if k, _ := po.kindOf(name); k != 0 {
		return true
	}
	for _, o := range po.known {
		if o == name || strings.HasPrefix(name, "--") && len(name) >= 4 && strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
}

// RunsThroughOptions reports whether a run has an option or script form
// that runs a command or writes a file (or one airlock cannot read), by
// the table the classifier uses: such a run is not only a read.
func RunsThroughOptions(inv *shell.Invocation) bool {
	var c Classifier
	c.Limits = shell.DefaultLimits
	e, found := c.optionCommands(inv)
	return found || e.Reasons != nil
}

// OptionTexts returns, as shell text, what a run's options and script
// forms run or write (tar --to-command's command; sed's w file as
// ": >> FILE"), so that self-protection checks them as it checks the run.
func OptionTexts(inv *shell.Invocation) []string {
	if optionRuns()[inv.Name()] == nil {
		return nil
	}
	var texts []string
	c := Classifier{Limits: shell.DefaultLimits, texts: &texts}
	c.optionCommands(inv)
	return texts
}

// optionCommands is the effect of what a run's options and script forms
// run or write; found says some option or script form runs or writes
// something, whatever its effect.
func (c *Classifier) optionCommands(inv *shell.Invocation) (e Effect, found bool) {
	po, args := optionsFor(inv)
	if po == nil {
		return nothing, false
	}
	name := inv.Name()
	offset := len(inv.Args) - len(args) // index in inv.Args of args[0]
	p := po.spec.Parse(args)
	for i, f := range p.Flags {
		kind, full := po.kindOf(f.Name)
		if kind == 0 {
			if !po.knows(f.Name) {
				e.Add(opaque("option.unknown", name+" runs with the option "+f.Name+", which airlock has not read; "+name+" can run commands through its options, so an unknown one is not taken as harmless"))
				found = true
			}
			continue
		}
		found = true
		dynamic := f.HasValue && inv.IsDynamic(offset+f.ValueIndex)
		what := name + " " + full
		switch {
		case kind == optNotRead:
		case kind == optCode && (full == "-u" || full == "-U") && (f.Value == "NONE" || f.Value == "NORC" || f.Value == "DEFAULTS"):
			// vim -u NONE: no startup file at all.
		case kind == optRest:
			words := restCommand(args, p, i)
			if len(words) == 0 {
				continue
			}
			e.Add(c.embedded(what, shell.Join(words), dynamic))
		case !f.HasValue:
			if kind == optWrite || kind == optShell && (full == "-O" || full == "--open-files-in-pager") {
				// A write to a file named elsewhere, or git grep -O's pager.
				e.Add(opaque("option.command", what+" runs or writes through a value airlock did not read"))
				continue
			}
			e.Add(opaque("option.command", what+" runs a command whose text airlock could not read"))
		case kind == optShell:
			e.Add(c.embedded(what, f.Value, dynamic))
		case kind == optProgram:
			v := f.Value
			if full == "-wrapper" {
				v = shell.Join(strings.Split(v, ","))
			}
			if w := strings.Fields(v); len(w) == 1 && isShell(normWord(w[0])) {
				// A bare shell reads its commands from the data the
				// program feeds it (sort --compress-program=sh).
				e.Add(opaque("option.command", what+" runs the shell "+w[0]+" on the data it feeds it"))
				continue
			}
			e.Add(c.embedded(what, v, dynamic))
		case kind == optCode:
			e.Add(opaque("option.code", what+" runs code airlock cannot read ("+clip(f.Value)+")"))
		case kind == optWrite:
			e.Add(c.optionWrite(what, f.Value, dynamic))
		}
	}
	if po.script != nil {
		if s := po.script(c, inv, p); s.Reasons != nil {
			e.Add(s)
			found = true
		}
	}
	return e, found
}

// optionWrite rates a file an option writes as the same write through a
// redirection would be, so the surfaces that run later (.git/hooks, rc
// files) rate it alike.
func (c *Classifier) optionWrite(what, file string, dynamic bool) Effect {
	if c.texts != nil {
		*c.texts = append(*c.texts, ": >> "+shell.Join([]string{file}))
	}
	if dynamic {
		return opaque("option.write", what+" writes a file only known at run time ("+clip(file)+")")
	}
	e := c.nested(": >> " + shell.Join([]string{file}))
	e.Reasons = append([]Reason{{"option.write", what + " writes the file " + clip(file)}}, e.Reasons...)
	return e
}

// restCommand is the command given by the words after flag i, up to ";"
// (fd -x rm {} \;): the value, then the following words.
func restCommand(args []string, p argv.Parsed, i int) []string {
	f := p.Flags[i]
	var words []string
	if f.HasValue {
		words = append(words, f.Value)
	}
	for _, a := range args[f.ValueIndex+1:] {
		if a == ";" || a == `\;` {
			break
		}
		words = append(words, a)
	}
	return words
}

// tarCheckpoint reads --checkpoint-action=exec=COMMAND.
func tarCheckpoint(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var e Effect
	for _, f := range p.Flags {
		if !strings.HasPrefix("--checkpoint-action", f.Name) || len(f.Name) < len("--checkpoint-") {
			continue
		}
		action, cmd, ok := strings.Cut(f.Value, "=")
		if !ok || action != "exec" {
			if !f.HasValue {
				e.Add(opaque("option.command", inv.Name()+" --checkpoint-action with a value airlock did not read"))
			}
			continue
		}
		e.Add(c.embedded(inv.Name()+" --checkpoint-action=exec", cmd, false))
	}
	return e
}

// sedScripts reads the scripts of a sed run: -e values, or the first
// operand.
func sedScripts(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	scripts := p.Values("-e", "--expression")
	if len(scripts) == 0 && !p.Has("-f", "--file") && len(p.Operands) > 0 {
		scripts = p.Operands[:1]
	}
	var e Effect
	for _, s := range scripts {
		e.Add(c.sedScript(inv.Name(), s))
	}
	return e
}

// sedScript reads one sed script for the commands that run shell text (e,
// s///e) and write files (w, W, s///w). A script it cannot read is opaque.
func (c *Classifier) sedScript(name, s string) Effect {
	return c.sedScriptWrites(name, s, nil)
}

// sedWrites returns the files a sed script writes with w, W and s///w,
// and whether the script could be read whole.
func sedWrites(s string) ([]string, bool) {
	var files []string
	e := (*Classifier)(nil).sedScriptWrites("sed", s, func(f string) { files = append(files, f) })
	return files, !e.Opaque
}

// sedScriptWrites is sedScript that also tells onWrite each file the
// script writes; on a nil Classifier it only reads the script.
func (c *Classifier) sedScriptWrites(name, s string, onWrite func(string)) Effect {
	var e Effect
	write := func(what, file string) {
		if onWrite != nil {
			onWrite(file)
		}
		if c != nil {
			e.Add(c.optionWrite(what, file, false))
		}
	}
	i := 0
	toEOL := func() string {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		v := s[i : i+j]
		i += j
		return strings.TrimLeft(v, " \t")
	}
	skipRe := func(d byte) bool {
		for i < len(s) {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case d:
				i++
				return true
			}
			i++
		}
		return false
	}
	cant := func(why string) Effect {
		e.Add(opaque("sed.script", name+" script "+clip(s)+" could not be read ("+why+"); sed can run commands (e) and write files (w)"))
		return e
	}
	for i < len(s) {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '}' || ch == '!' || ch == '{':
			i++
			continue
		case ch == '#':
			toEOL()
			continue
		case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '~' || ch == '+':
			i++
			continue
		case ch == '/' || ch == '\\':
			d := byte('/')
			if ch == '\\' {
				if i+1 >= len(s) {
					return cant("address")
				}
				d = s[i+1]
				i++
			}
			i++
			if !skipRe(d) {
				return cant("address")
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		}
		i++
		switch ch {
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			for i < len(s) && s[i] >= '0' && s[i] <= '9' || i < len(s) && s[i] == ' ' {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			for i < len(s) && s[i] != '\n' && s[i] != ';' && s[i] != '}' {
				i++
			}
		case 'a', 'i', 'c', 'r', 'R':
			for {
				line := toEOL()
				if !strings.HasSuffix(line, `\`) || i >= len(s) {
					break
				}
				i++
			}
		case 'w', 'W':
			write(name+" "+string(ch), toEOL())
		case 'e':
			cmd := toEOL()
			if strings.TrimSpace(cmd) == "" {
				e.Add(opaque("sed.exec", name+" e runs each line of its input as a command"))
				continue
			}
			if c != nil {
				e.Add(c.embedded(name+" e", cmd, false))
			}
		case 's', 'y':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return cant("substitution")
			}
			d := s[i]
			i++
			if !skipRe(d) || !skipRe(d) {
				return cant("substitution")
			}
			if ch == 'y' {
				continue
			}
			for i < len(s) && strings.IndexByte("gpiImMe0123456789w", s[i]) >= 0 {
				switch s[i] {
				case 'e':
					e.Add(opaque("sed.exec", name+" s///e runs the substituted line as a command ("+clip(s)+")"))
				case 'w':
					i++
					write(name+" s///w", toEOL())
					continue
				}
				i++
			}
		default:
			return cant("command " + string(ch))
		}
	}
	return e
}

// vimCommands reads -c and --cmd values, +cmd words and the EXINIT and
// VIMINIT variables (commands vim and ex run at start-up), each split at
// "|": ":!cmd" runs shell text; plain quitting, writing the edited file,
// settings, moves, substitutions without an expression (\=) and :g/pat/d
// are harmless; anything else is vim script airlock does not read.
func vimCommands(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	cmds := p.Values("-c", "--cmd")
	for _, o := range p.Operands {
		if strings.HasPrefix(o, "+") {
			cmds = append(cmds, o[1:])
		}
	}
	for _, name := range []string{"EXINIT", "VIMINIT"} {
		if v, ok := inv.Getenv(name); ok && strings.TrimSpace(v) != "" {
			cmds = append(cmds, unquoteValue(v))
		}
	}
	var e Effect
	if !slices.Contains(p.Operands, "-") {
		// Fed on its input, vim takes it as what is typed: ex commands
		// in Ex mode (ex, vim -e, -es), keystrokes otherwise.
		if in, fed, known := c.inputText(inv); fed {
			switch {
			case !known:
				e.Add(opaque("vim.stdin", inv.Name()+" runs editor commands read from its input, which airlock cannot read (vim commands can run programs)"))
			case vimExMode(inv):
				cmds = append(cmds, strings.Split(in, "\n")...)
			case strings.TrimSpace(in) != "":
				e.Add(opaque("vim.stdin", inv.Name()+" takes its input as typed keys, which airlock does not read (they can run programs)"))
			}
		}
	}
	for _, whole := range cmds {
		for _, cmd := range vimBar(whole) {
			t := strings.TrimLeft(cmd, ": \t")
			t = strings.TrimSpace(strings.TrimPrefix(t, "silent"))
			if strings.HasPrefix(t, "!") {
				e.Add(c.embedded(inv.Name()+" -c", strings.TrimSpace(t[1:]), false))
				continue
			}
			if !vimHarmless(strings.TrimLeft(t, "! \t")) {
				e.Add(opaque("vim.command", inv.Name()+" runs the editor command "+clip(cmd)+", which airlock does not read (vim commands can run programs)"))
			}
		}
	}
	return e
}

// vimExMode reports whether vim runs in Ex mode, taking lines as ex
// commands: ex itself, or -e, -E and clusters holding them (-es).
func vimExMode(inv *shell.Invocation) bool {
	if inv.Name() == "ex" {
		return true
	}
	for _, a := range inv.Args[1:] {
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && len(a) <= 3 && strings.ContainsAny(a[1:], "eE") {
			return true
		}
	}
	return false
}

// vimBar splits ex commands at "|" (not "\|"); a command that takes
// "|" as its argument (:! and :g, :normal) keeps the rest of the line.
func vimBar(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			head := strings.TrimLeft(s[start:i], ": \t")
			head = strings.TrimSpace(strings.TrimPrefix(head, "silent"))
			if strings.HasPrefix(head, "!") || strings.HasPrefix(head, "norm") || vimGlobal(head) {
				return append(out, s[start:])
			}
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// vimGlobal reports whether an ex command is :g or :v (whose command
// runs on every matching line).
func vimGlobal(t string) bool {
	t = strings.TrimLeft(t, "%")
	return strings.HasPrefix(t, "g/") || strings.HasPrefix(t, "g!/") || strings.HasPrefix(t, "v/") ||
		strings.HasPrefix(t, "global/") || strings.HasPrefix(t, "vglobal/") || strings.HasPrefix(t, "g!") || strings.HasPrefix(t, "g#")
}

// vimHarmless reports whether a vim command only moves, sets an option,
// writes the edited file, quits, substitutes without an expression, or
// deletes the lines :g or :v selects.
func vimHarmless(t string) bool {
	if t == "" || t == "$" || strings.HasPrefix(t, "/") {
		return true
	}
	if strings.Trim(t, "0123456789") == "" {
		return true
	}
	if rest, ok := vimRange(t); ok && rest != t {
		return vimRangeCommand(rest)
	}
	word, rest, _ := strings.Cut(t, " ")
	switch strings.TrimSuffix(word, "!") {
	case "q", "qa", "qall", "quit", "wq", "wqa", "x", "xa", "xit", "exit", "wall", "wa", "update", "up":
		return rest == ""
	case "w", "write":
		return rest == ""
	case "set", "se", "setlocal", "syntax", "filetype", "normal":
		return !strings.ContainsAny(rest, "!|")
	}
	return vimRangeCommand(t)
}

// vimRange strips a leading line range (%, 1,$, .,+3, 'a,'b) from an ex
// command.
func vimRange(t string) (string, bool) {
	i := 0
	for i < len(t) && strings.IndexByte("%0123456789.,$+-;' ", t[i]) >= 0 {
		if t[i] == '\'' {
			i++ // a mark's letter
		}
		i++
	}
	return t[min(i, len(t)):], true
}

// vimRangeCommand reports whether an ex command after its range only
// substitutes (with no \= expression), deletes, joins, moves or copies
// lines, or runs one of those on the lines :g or :v selects.
func vimRangeCommand(t string) bool {
	if vimGlobal(t) {
		body := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "vglobal"), "global"), "g"), "v")
		body = strings.TrimPrefix(body, "!")
		if body == "" {
			return false
		}
		d := body[0]
		end := vimSkipPattern(body[1:], d)
		if end < 0 {
			return false
		}
		cmd := strings.TrimSpace(body[1+end+1:])
		if cmd == "" {
			return true // :g/pat/ prints
		}
		for _, part := range vimBar(cmd) {
			part = strings.TrimLeft(part, ": \t")
			if strings.HasPrefix(part, "!") || vimGlobal(part) || !vimHarmless(part) {
				return false
			}
		}
		return true
	}
	word := t
	for i := 0; i < len(t); i++ {
		if !(t[i] >= 'a' && t[i] <= 'z') {
			word = t[:i]
			break
		}
	}
	rest := t[len(word):]
	switch word {
	case "s", "su", "substitute":
		if rest == "" {
			return true // repeats the last substitution
		}
		if strings.Contains(rest, `\=`) {
			return false // the replacement is a vim expression
		}
		d := rest[0]
		if d == ' ' || d == '"' || d == '|' || d == '\\' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' {
			return false
		}
		return true
	case "d", "de", "del", "delete", "j", "join", "m", "move", "t", "co", "copy", "p", "print", "nu", "number", "le", "left", "ri", "right", "ce", "center", "sort", "sor", ">", "<":
		return !strings.ContainsAny(rest, "!|")
	case "":
		return strings.TrimSpace(rest) == "" || strings.Trim(rest, "<> ") == ""
	}
	return false
}

// vimSkipPattern returns the index in s of the delimiter d that ends a
// pattern (a backslash escapes it), or -1.
func vimSkipPattern(s string, d byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == d {
			return i
		}
	}
	return -1
}

// lessCommands reads +cmd words: "!" runs shell text, "|" pipes to one.
func lessCommands(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var e Effect
	for _, o := range p.Operands {
		if !strings.HasPrefix(o, "+") {
			continue
		}
		if j := strings.IndexByte(o, '!'); j >= 0 {
			e.Add(c.embedded(inv.Name()+" +!", o[j+1:], false))
		} else if strings.Contains(o, "|") {
			e.Add(opaque("less.command", inv.Name()+" "+clip(o)+" pipes to a command airlock does not read"))
		}
	}
	return e
}

// dcScripts reads dc's "!" command, which runs the rest of the line.
func dcScripts(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	texts := p.Values("-e", "--expression")
	var e Effect
	if len(p.Operands) > 0 {
		e.Add(opaque("dc.file", "dc runs the script files "+clip(strings.Join(p.Operands, " "))+", which may run commands (!)"))
	}
	if len(texts) == 0 && len(p.Operands) == 0 {
		in, fed, known := c.inputText(inv)
		if fed && !known {
			return opaque("dc.stdin", "dc runs a script read from its input, which may run commands (!)")
		}
		texts = append(texts, in)
	}
	for _, t := range texts {
		for _, line := range strings.Split(t, "\n") {
			if j := strings.IndexByte(line, '!'); j >= 0 && !strings.ContainsAny(line[j+1:j+min(len(line)-j, 2)], "<=>") {
				e.Add(c.embedded("dc !", line[j+1:], false))
			}
		}
	}
	return e
}

// edStdin reads ed's commands from its input: "!cmd", and "r", "w", "e"
// with "!cmd", run shell text.
func edStdin(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	text := inv.StdinText
	if inv.Stdin == "" {
		// ed -s < e.ed: the script file is read as ed reads it (FINDINGS-9
		// P11), from its own redirection or one set up around it.
		f := c.stdinRedirect(inv)
		if !f.set {
			return nothing
		}
		if f.unknown != "" {
			return opaque("ed.stdin", inv.Name()+" runs editor commands read from "+f.unknown+", which may run shell commands (!)")
		}
		data, failed, read := c.readScript(inv, f.file, f.dynamic)
		if !read {
			return failed
		}
		c.keepCode(inv.Name()+" < "+f.file, f.file, data)
		text = string(data)
	} else if !inv.StdinKnown {
		return opaque("ed.stdin", inv.Name()+" runs editor commands read from its input, which may run shell commands (!)")
	}
	var e Effect
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimLeft(line, "0123456789,.$;+-' \t")
		t = strings.TrimLeft(t, "erwWE \t")
		if strings.HasPrefix(t, "!") {
			e.Add(c.embedded(inv.Name()+" !", t[1:], false))
		}
	}
	return e
}

// goGenerate rates go generate, which runs the //go:generate lines of the
// package's files: followed through the FS (taskrunners.go), opaque
// without one.
func goGenerate(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	if len(p.Operands) > 0 && p.Operands[0] == "generate" {
		// go -C DIR: the classifier reads from DIR already (rundir.go);
		// a DIR known only at run time is not read.
		if f, ok := p.Last("-C"); c.FS != nil && (!ok || !inv.IsDynamic(1+f.ValueIndex)) {
			return c.goGenerateFollow(inv, p)
		}
		return opaque("go.generate", "go generate runs the commands written in //go:generate lines, which airlock does not read")
	}
	return nothing
}

// cmakeTool reads cmake -E: env, time and chdir run the command after
// them; the removal commands delete.
func cmakeTool(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	args := inv.Args[1:]
	for i, a := range args {
		if a != "-E" || i+1 >= len(args) {
			continue
		}
		rest := args[i+2:]
		switch args[i+1] {
		case "env":
			return c.embedded("cmake -E env", shell.Join(append([]string{"env"}, rest...)), false)
		case "time":
			return c.embedded("cmake -E time", shell.Join(rest), false)
		case "chdir":
			if len(rest) > 1 {
				return c.embedded("cmake -E chdir", shell.Join(rest[1:]), false)
			}
		case "rm", "remove", "remove_directory", "rmdir":
			return c.embedded("cmake -E "+args[i+1], shell.Join(append([]string{"rm", "-r"}, rest...)), false)
		}
	}
	return nothing
}

// secondOperandWritten reads the second operand of xxd and uniq, the
// file they write.
func secondOperandWritten(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	if len(p.Operands) < 2 || p.Operands[1] == "-" {
		return nothing
	}
	return c.optionWrite(inv.Name(), p.Operands[1], inv.IsDynamic(1+p.OperandIndex[1]))
}

// rustcLinker reads rustc -C linker=PROG, the program rustc runs to link.
func rustcLinker(c *Classifier, inv *shell.Invocation, p argv.Parsed) Effect {
	var e Effect
	for _, v := range p.Values("-C", "--codegen") {
		if prog, ok := strings.CutPrefix(v, "linker="); ok {
			e.Add(c.embedded("rustc -C linker", prog, false))
		}
	}
	return e
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// zipCommands reads zip -TT (--unzip-command), the command zip -T runs to
// test the archive; -TT is one option of two letters.
func zipCommands(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	var e Effect
	args := inv.Args[1:]
	for i, a := range args {
		if a == "-TT" && i+1 < len(args) {
			e.Add(c.embedded("zip -TT", args[i+1], inv.IsDynamic(i+2)))
		} else if v, ok := strings.CutPrefix(a, "-TT="); ok {
			// zip reads -TT=CMD as -TT CMD (checked: zip 3.0 ran it).
			e.Add(c.embedded("zip -TT", v, inv.IsDynamic(i+1)))
		}
	}
	return e
}

// gccOptions reads the compiler options that run programs or load code:
// -wrapper (a program and its arguments, comma separated), -B (where the
// driver finds the programs it runs), -specs, -fplugin and --plugin.
func gccOptions(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	var e Effect
	args := inv.Args[1:]
	for i, a := range args {
		switch {
		case a == "-wrapper" && i+1 < len(args):
			e.Add(c.embedded(inv.Name()+" -wrapper", shell.Join(strings.Split(args[i+1], ",")), inv.IsDynamic(i+2)))
		case a == "-B" || strings.HasPrefix(a, "-B") || strings.HasPrefix(a, "-specs") || strings.HasPrefix(a, "--specs") ||
			strings.HasPrefix(a, "-fplugin") || strings.HasPrefix(a, "--plugin") || strings.HasPrefix(a, "-wrapper"):
			e.Add(opaque("option.code", inv.Name()+" "+clip(a)+" runs or loads programs airlock cannot read"))
		}
	}
	return e
}

// cargoConfig reads cargo's --config KEY=VALUE options: the keys whose
// value is a program cargo runs (a target's runner, the linker, rustc and
// its wrappers, a credential provider) are that program's command line;
// --config FILE names a TOML file airlock does not read.
func cargoConfig(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	var e Effect
	args := inv.Args
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		var v string
		vi := i
		switch {
		case a == "--config" && i+1 < len(args):
			i++
			v, vi = args[i], i
		case strings.HasPrefix(a, "--config="):
			v = strings.TrimPrefix(a, "--config=")
		default:
			continue
		}
		if inv.IsDynamic(vi) {
			e.Add(opaque("option.code", "cargo --config "+clip(v)+" is only known at run time, and cargo's configuration can name programs it runs"))
			continue
		}
		key, value, ok := strings.Cut(v, "=")
		if !ok {
			e.Add(opaque("option.code", "cargo --config "+clip(v)+" names a configuration file airlock does not read, which can name programs cargo runs"))
			continue
		}
		key = strings.TrimSpace(key)
		if !cargoCommandKey(key) {
			continue
		}
		e.Add(c.embedded("cargo --config "+key, tomlCommand(value), false))
	}
	return e
}

// cargoCommandKey reports a cargo configuration key whose value is a
// program cargo runs.
func cargoCommandKey(key string) bool {
	k := strings.ToLower(key)
	last := k
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		last = k[i+1:]
	}
	switch {
	case strings.HasPrefix(k, "target.") || strings.HasPrefix(k, "host."):
		return last == "runner" || last == "linker" || last == "ar"
	case strings.HasPrefix(k, "build."):
		return last == "rustc" || last == "rustc-wrapper" || last == "rustc-workspace-wrapper" || last == "rustdoc"
	case strings.HasPrefix(k, "registry.") || strings.HasPrefix(k, "registries."):
		return last == "credential-provider" || last == "global-credential-providers"
	case strings.HasPrefix(k, "credential-alias."):
		return true
	}
	return false
}

// tomlCommand turns a TOML value holding a command (a string, or an array
// of strings) into shell text.
func tomlCommand(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var words []string
		for _, w := range strings.Split(v[1:len(v)-1], ",") {
			words = append(words, unquoteValue(strings.TrimSpace(w)))
		}
		return shell.Join(words)
	}
	return unquoteValue(v)
}
