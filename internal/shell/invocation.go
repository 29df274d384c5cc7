package shell

import "strings"

// Invocation is one program run found in a command, after unwrapping.
type Invocation struct {
	// Args is the argument vector. Args[0] is the normalised program name
	// (base name, lower case, without ".exe"); the other words are as the
	// program would receive them when static, or their source text when not.
	Args []string
	// Path is the command word as written, before normalisation
	// ("./scripts/deploy.sh" where Args[0] is "deploy.sh"), so that a
	// script run by its path can be found and read.
	Path string
	// Line is the line of the text the run was parsed from (1-based) on
	// which the simple command starts; for a run found in nested shell
	// text it is the line of the outermost command.
	Line int
	// InLoop reports that the run is in the body of a for, while or until
	// loop, so it runs once per item.
	InLoop bool
	// Dynamic marks the words whose value is only known at run time (they
	// hold $var, $(...), <(...), $((...)) or similar). It is nil when every
	// word is static.
	Dynamic []bool
	// Via lists the wrappers and nested shells the run was found through,
	// outermost first, e.g. ["sudo", "bash -c"].
	Via []string
	// Remote is the host the program runs on when it came from ssh.
	Remote string
	// Env lists the NAME=value assignments made for this run (prefixes
	// such as PGHOST=db psql, env's own, and those of enclosing commands
	// whose nested shell text it came from). A value only known at run
	// time is kept as its source text.
	Env []string
	// Redirects lists the files the run writes or reads through redirections.
	Redirects []Redirect
	// Opaque is non-empty when the run cannot be known statically, and says
	// why. Args then holds what is known (possibly nothing).
	Opaque string
	// Group says the run stands for the redirections of a compound
	// command or a function call ({ …; } > f): it is shown as ":", but the
	// commands of its body write through those redirections.
	Group bool
	// Source is the shell text of the simple command the run came from.
	Source string
	// Stdin says what feeds standard input when it matters: "" (inherited),
	// "heredoc", "herestring" or "pipe".
	Stdin string
	// StdinText is the literal text fed on standard input by a heredoc,
	// here-string or a literal echo/printf in a pipeline, when known.
	StdinText string
	// StdinKnown reports whether StdinText holds the literal input.
	StdinKnown bool
	// StdinFile is the file a pipe from "cat FILE" feeds the run, as
	// Dir's form names paths; its text is what the run reads.
	StdinFile string
	// Dir is the directory the run happens in, as the text's cd, pushd
	// and popd left it: "" for the command's own directory, a path
	// relative to it, an absolute or ~ path, or DirUnknown when it is
	// only known at run time.
	Dir string
	// Feed says, for a run whose arguments xargs or parallel reads from
	// its input at run time, where that input comes from; nil otherwise.
	Feed *Feed
	// Seq orders the runs of the outermost text in time: a run whose Seq
	// is greater than another's starts after that one has ended (a; b,
	// a && b, a || b). Runs of one pipeline, one loop, one substitution
	// or one nested shell share a Seq. It is 0, and says nothing, for
	// every run of a text that starts a job in the background, a
	// coprocess, a process substitution or a trap, since their runs may
	// happen at any time.
	Seq int
}

// Feed is where xargs or parallel reads the arguments it adds to a run:
// a file (-a FILE, < FILE) or the simple command feeding it through a
// pipe. Package classify decides from it which paths those can be.
type Feed struct {
	// Via is "xargs" or "parallel".
	Via string
	// Sep is how the input is split into arguments: "blank" (xargs's
	// default: blanks and newlines, with quotes and backslashes), "line"
	// (one per line) or "nul" (-0, --null); "other" for any other
	// delimiter.
	Sep string
	// File is the file the input is read from, when it is one (static).
	File string
	// Producer is the argument vector of the simple command that writes
	// the input into the pipe, when every word of it is static and it
	// runs with no assignment, redirection or wrapper; nil otherwise.
	Producer []string
}

// Redirect is an input or output redirection of an invocation.
type Redirect struct {
	// Op is the operator as written, such as ">", ">>", "<" or "&>".
	Op string
	// Target is the file or descriptor, as its static value or source text.
	Target string
	// Dynamic reports whether Target is only known at run time.
	Dynamic bool
	// Fd is the descriptor number written before the operator ("3" of
	// 3< FILE, "0" of 0<&3), "" when none is written (the operator's
	// own: 0 for input, 1 for output).
	Fd string
}

// Writes reports whether the redirection writes to its target: every
// output operator, and <> (N<>FILE opens FILE for reading AND writing, so
// echo x 1<>FILE overwrites FILE's first bytes without truncating it).
func (r Redirect) Writes() bool {
	return r.Op == "<>" || strings.Contains(r.Op, ">") && !strings.HasPrefix(r.Op, "<")
}

// Reads reports whether the redirection reads its target: <, <> and the
// here-documents (whose target is their text, not a file).
func (r Redirect) Reads() bool {
	return strings.HasPrefix(r.Op, "<") && r.Op != "<&"
}

// Name returns the normalised program name, or "" for an opaque run with no
// known name.
func (inv *Invocation) Name() string {
	if len(inv.Args) == 0 {
		return ""
	}
	return inv.Args[0]
}

// Getenv returns the value last assigned to name for this run.
func (inv *Invocation) Getenv(name string) (string, bool) {
	for i := len(inv.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(inv.Env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// IsDynamic reports whether word i is only known at run time.
func (inv *Invocation) IsDynamic(i int) bool {
	return i < len(inv.Dynamic) && inv.Dynamic[i]
}

// AnyDynamic reports whether any word from index i on is dynamic.
func (inv *Invocation) AnyDynamic(from int) bool {
	for i := from; i < len(inv.Dynamic); i++ {
		if inv.Dynamic[i] {
			return true
		}
	}
	return false
}

// Text renders the words from index from on as shell text that parses
// back to them: static words quoted, dynamic words as their source text.
func (inv *Invocation) Text(from int) string {
	var b strings.Builder
	for i := from; i < len(inv.Args); i++ {
		if i > from {
			b.WriteByte(' ')
		}
		if inv.IsDynamic(i) {
			b.WriteString(inv.Args[i])
		} else {
			b.WriteString(Join(inv.Args[i : i+1]))
		}
	}
	return b.String()
}

// String renders the invocation as a short shell-like line for humans.
func (inv *Invocation) String() string {
	var b strings.Builder
	if inv.Remote != "" {
		b.WriteString("[on ")
		b.WriteString(inv.Remote)
		b.WriteString("] ")
	}
	for i, a := range inv.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if inv.IsDynamic(i) || a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>(){}*?#~") {
			b.WriteString(quoteForDisplay(a, inv.IsDynamic(i)))
		} else {
			b.WriteString(a)
		}
	}
	if len(inv.Args) == 0 && inv.Source != "" {
		b.WriteString(inv.Source)
	}
	return b.String()
}

func quoteForDisplay(s string, dynamic bool) string {
	if dynamic {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Via0 names the innermost wrapper the run came through, or "the shell"
// when it came through none.
func (inv *Invocation) Via0() string {
	if len(inv.Via) == 0 {
		return "the shell"
	}
	return inv.Via[len(inv.Via)-1]
}

// WaitedFor reports whether every wrapper a run goes through returns only
// when the run has ended (nice, timeout, xargs, bash -c), so that what
// the text puts after it starts after it. setsid, daemonize, systemd-run,
// at and any wrapper not listed may return while it still runs.
func WaitedFor(via []string) bool {
	for _, v := range via {
		w, _, _ := strings.Cut(v, " ")
		switch w {
		// Not parallel: --bg, and sem, return before the jobs end
		// (FINDINGS-8 H5).
		case "sudo", "doas", "nice", "ionice", "timeout", "time", "env", "nohup", "stdbuf", "command", "builtin", "exec",
			"xargs", "find", "eval", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "source", ".", "chrt", "taskset":
		default:
			return false
		}
	}
	return true
}

// RunsOnce reports whether text nested through these wrappers runs once,
// and ends before what follows it: WaitedFor, but not xargs, parallel or
// find, which run their command once per item (xargs -P, side by side).
func RunsOnce(via []string) bool {
	for _, v := range via {
		switch w, _, _ := strings.Cut(v, " "); w {
		case "xargs", "parallel", "find":
			return false
		}
	}
	return WaitedFor(via)
}
