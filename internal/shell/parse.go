package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Limits bound the work done on one command. Hitting any of them yields an
// opaque invocation whose reason names the limit, never a silent allow.
type Limits struct {
	// MaxBytes is the largest command text analysed.
	MaxBytes int
	// MaxNesting is how deep shell text may nest inside shell text
	// (bash -c inside eval inside ssh ...), and how deep parentheses,
	// substitutions and braces may nest within one text.
	MaxNesting int
	// MaxInvocations is the most program runs reported for one command.
	MaxInvocations int
	// SourceText, when set, returns the text of a file the command
	// sources (source NAME, . NAME), as found from the directory the
	// shell is in (Invocation.Dir's form); ok is false when it cannot be
	// read. A sourced file that cannot change directory then leaves the
	// directory known (sourced.go). Nil: every sourced file may.
	SourceText func(dir, name string) (text string, ok bool)
	// DirOutput, when set, returns what pwd or git rev-parse
	// --show-toplevel (query "pwd", "pwd -P", "toplevel") prints when run
	// in dir (Invocation.Dir's form) at decision time: cd
	// "$(git rev-parse --show-toplevel)" names the project as surely as
	// its path does. ok is false when it cannot be told.
	DirOutput func(dir, query string) (text string, ok bool)
	// Command says the text is a whole command, whose shell ends with it:
	// a function it defines lasts no longer (names.go). Otherwise (a
	// sourced file) the definitions outlive the text.
	Command bool
}

// DefaultLimits are the limits used by Parse.
var DefaultLimits = Limits{MaxBytes: 128 << 10, MaxNesting: 16, MaxInvocations: 1000}

// Parse finds every program run in the shell text src using DefaultLimits.
func Parse(src string) []Invocation {
	return DefaultLimits.Parse(src)
}

// Parse finds every program run in the shell text src.
func (l Limits) Parse(src string) []Invocation {
	w := &walker{limits: l, funcs: map[string]*syntax.Stmt{}, aliases: map[string]string{}}
	w.seq = 1
	w.top = src
	w.text(src, frame{}, 0)
	if !l.Command {
		w.outputRead() // the functions may be used by the text's reader
	}
	for i := range w.out {
		if w.unordered {
			w.out[i].Seq = 0
		}
	}
	return w.out
}

// frame is the context a piece of shell text runs in.
type frame struct {
	via    []string
	remote string
	// line is the line, in the outermost text, of the command whose
	// nested text this frame walks (0 at the outermost level).
	line int
	// env holds NAME=value assignments in effect: prefixes of the command
	// and env's own, inherited by shell text nested inside it.
	env []string
	// vals is the state (variables, directory) of the shell that runs
	// the command (values.go); same says nested text runs in that same
	// shell (eval, an alias) rather than in a new one.
	vals *values
	same bool
	// feed is where the input values of GNU parallel's text come from,
	// for the runs given one as a word (parallel.go).
	feed *Feed
	// feedSource is the source of the parallel command itself: the
	// text left of its pipe is what feeds it.
	feedSource string
	// afterStartup says the new shell whose text this frame walks ran
	// a start-up file first (shellStartup): it starts knowing nothing.
	afterStartup bool
}

func (f frame) with(v string) frame {
	via := make([]string, len(f.via), len(f.via)+1)
	copy(via, f.via)
	f.via = append(via, v)
	f.same = false
	return f
}

// withEnv returns the frame with more assignments in effect.
func (f frame) withEnv(assigns []string) frame {
	if len(assigns) == 0 {
		return f
	}
	f.env = append(append([]string(nil), f.env...), assigns...)
	return f
}

type walker struct {
	limits Limits
	out    []Invocation
	funcs  map[string]*syntax.Stmt
	// inlined holds, for each function body walked, the environments
	// (funcEnv) it was walked with; active the bodies being walked.
	inlined map[*syntax.Stmt]map[string]bool
	active  map[*syntax.Stmt]bool
	// bodyOpts holds the options a function body turned on in any walk.
	bodyOpts map[*syntax.Stmt]*values
	aliases  map[string]string
	full     bool
	// top is the outermost text; pending holds the functions named like
	// a program whose output is read, defined where no output of theirs
	// is read yet (names.go).
	top     string
	pending map[string]pendingFunc
	// history holds the entries history -s added; histUnknown says
	// others may be there (history -r): fc runs them (names.go).
	history     []string
	histUnknown bool
	// exports is what the text has exported so far (export.go).
	exports exportState
	// seenWords are the words of arithmetic contexts already read for
	// evaluated subscripts (evaluate.go), so nested contexts read each once.
	seenWords map[*syntax.Word]bool
	// loopWalks counts the loop bodies walked once per value (values.go).
	loopWalks int
	// traps are trap actions waiting for their shell to end (flow.go).
	traps []pendingTrap
	// loopBytes is the loop body text walked per value so far.
	loopBytes int
	// bodyAssigns remembers what each function body may assign, while
	// bodyGen (the functions defined so far) is unchanged.
	bodyAssigns       map[*syntax.Stmt]*assignedSet
	bodyGen, funcDefs int
	// seq is the Seq of the runs emitted now; frozen counts the
	// constructs being walked whose runs share one Seq (a pipeline, a
	// loop, a substitution); unordered says the runs have no order
	// (Invocation.Seq).
	seq, frozen int
	unordered   bool
	// funcEnv holds the exported functions (BASH_FUNC_…) already walked
	// (startup.go).
	funcEnv map[string]bool
	// xtraceOn says set -x ran in the text: a later PS4 is expanded.
	xtraceOn bool
}

// step moves Seq on, between two parts of a text that run one after the
// other: the outermost text, or text nested in it that runs once, to its
// end, before what follows (bash -c, eval, source; not xargs sh -c, which
// may run it many times, side by side).
func (s *stmtWalker) step() {
	if s.w.frozen == 0 && (s.depth == 0 || RunsOnce(s.f.via)) {
		s.w.seq++
	}
}

// together walks code whose runs share one Seq.
func (s *stmtWalker) together(walk func()) {
	s.w.frozen++
	walk()
	s.w.frozen--
}

// emit appends an invocation unless the invocation limit was reached, in
// which case a single opaque invocation says so.
func (w *walker) emit(inv Invocation) {
	if w.full {
		return
	}
	if len(w.out) >= w.limits.MaxInvocations {
		w.full = true
		w.out = append(w.out, Invocation{
			Opaque: fmt.Sprintf("limit reached: more than %d program runs in one command", w.limits.MaxInvocations),
		})
		return
	}
	inv.Seq = w.seq
	if strings.Contains(inv.Source, parallelInputVar) || strings.Contains(inv.Opaque, parallelInputVar) {
		// Text GNU parallel makes shows its input value as {} to the
		// reader (its words and environment keep the run-time form).
		r := strings.NewReplacer(`"${`+parallelInputVar+`}"`, "{}", `${`+parallelInputVar+`}`, "{}")
		inv.Source, inv.Opaque = r.Replace(inv.Source), r.Replace(inv.Opaque)
	}
	w.out = append(w.out, inv)
}

func (w *walker) opaque(f frame, source, reason string) {
	w.emit(Invocation{Via: f.via, Remote: f.remote, Source: source, Opaque: reason})
}

// text parses and walks one piece of shell text at the given nesting depth.
func (w *walker) text(src string, f frame, depth int) {
	if len(src) > w.limits.MaxBytes {
		w.opaque(f, "", fmt.Sprintf("limit reached: command text is %d bytes, more than the %d analysed", len(src), w.limits.MaxBytes))
		return
	}
	if depth > w.limits.MaxNesting {
		w.opaque(f, clip(src), fmt.Sprintf("limit reached: shell text nested more than %d levels deep", w.limits.MaxNesting))
		return
	}
	if d := bracketDepth(src); d > w.limits.MaxNesting*4 {
		w.opaque(f, clip(src), fmt.Sprintf("limit reached: brackets or substitutions nested %d deep, more than %d", d, w.limits.MaxNesting*4))
		return
	}
	own := !f.same || f.vals == nil
	if own && depth > 0 && (len(f.via) == 0 || !strings.HasPrefix(f.via[len(f.via)-1], "exported function")) {
		defs, ok := importedFuncDefs(f.env)
		if !ok {
			w.opaque(f, clip(src), "a function is exported to the shell in the environment (BASH_FUNC_…) with a body only known at run time")
			return
		}
		src = defs + src
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.opaque(f, clip(src), "unparsable shell text: "+err.Error())
		return
	}
	if strings.Contains(src, "$'") {
		DecodeANSIC(file)
	}
	if own {
		f.vals = f.vals.child(&w.exports)
		f.vals.fromEnv(f.env)
		if f.afterStartup {
			f.vals.clear()
			f.vals.touched |= allTouched
			f.vals.cdable = true
		}
	}
	f.afterStartup = false
	f.same = false
	sw := &stmtWalker{w: w, src: src, f: f, depth: depth, stdin: map[*syntax.Stmt]stdinSource{}}
	n := len(w.traps)
	sw.stmts(file.Stmts)
	if own {
		w.runTraps(n, f.vals)
	}
}

// bracketDepth is a cheap upper bound on how deeply the text nests, taken
// before parsing so that adversarial input cannot make the parser recurse
// without bound.
func bracketDepth(src string) int {
	depth, max, inTick := 0, 0, false
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{':
			depth++
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case '`':
			inTick = !inTick
			if inTick {
				depth++
			} else if depth > 0 {
				depth--
			}
		}
		if depth > max {
			max = depth
		}
	}
	return max
}

func clip(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// importedFuncDefs is the text of the functions bash imports from its
// environment (FINDINGS-8 H3): a variable BASH_FUNC_NAME%% (or
// BASH_FUNC_NAME() in older bash) whose value starts with "() " defines
// NAME in every bash the command starts, before its text runs, so
// env 'BASH_FUNC_echo%%=() { printf airlock; }' bash -c '$(echo ls)' runs
// the function, not the builtin. ok is false for such a body known only at
// run time.
func importedFuncDefs(env []string) (defs string, ok bool) {
	for _, e := range env {
		name, val, _ := strings.Cut(e, "=")
		rest, found := strings.CutPrefix(name, "BASH_FUNC_")
		if !found {
			continue
		}
		fn, cut := strings.CutSuffix(rest, "%%")
		if !cut {
			if fn, cut = strings.CutSuffix(rest, "()"); !cut {
				continue
			}
		}
		body, isFunc := strings.CutPrefix(val, "() ")
		if fn == "" || strings.ContainsAny(fn, "$`\"'") || !isFunc && strings.ContainsAny(val, "$`") {
			return "", false // a name or a value only known at run time
		}
		if !isFunc {
			continue // bash imports only values that start with "() "
		}
		defs += "function " + fn + " () " + body + "\n"
	}
	return defs, true
}
