package interp

import (
	"regexp"
	"strings"
	"sync"
)

// ---------------------------------------------------------------- awk

// AwkProgram is what an awk program runs: the commands of its system()
// calls and of its pipes. It reports text, not effects: classify rates
// each command as shell text and decides what a pipe into a shell means.
type AwkProgram struct {
	// System are the system() calls given a string literal, in order.
	System []AwkCall
	// SystemDynamic is set when a system() call runs a command built at
	// run time (more calls than literal ones).
	SystemDynamic bool
	// Pipes are the commands of print | "cmd" and then of "cmd" | getline,
	// unescaped, in order.
	Pipes []string
	// PipeDynamic is set when a pipe runs a command only known at run
	// time (print | cmd, cmd | getline).
	PipeDynamic bool
	// Writes are the files print and printf write to with > "file" or
	// >> "file", unescaped, in order.
	Writes []string
}

// AwkCall is one system() call of a string literal.
type AwkCall struct {
	// Text is the shell text it runs, unescaped; Literal is the literal
	// as written, for messages.
	Text, Literal string
}

// The awk patterns are compiled on first use: every hook call links this
// package, few read an awk program.
var (
	awkSystemLit = lazyRegexp(`\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)`)
	awkSystem    = lazyRegexp(`\bsystem\s*\(`)
	awkPipeTo    = lazyRegexp(`\|&?\s*"((?:[^"\\]|\\.)*)"`)
	awkPipeFrom  = lazyRegexp(`"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline`)
	awkPipeVar   = lazyRegexp(`(\|&?\s*[A-Za-z_(]|[A-Za-z_)\]]\s*\|&?\s*getline)`)
	awkPrintTo   = lazyRegexp(`\bprintf?\b[^;{}\n|]*?>>?\s*"((?:[^"\\]|\\.)*)"`)
)

// Awk reads one awk program's commands.
func Awk(prog string) AwkProgram {
	var p AwkProgram
	for _, m := range awkSystemLit().FindAllStringSubmatch(prog, -1) {
		p.System = append(p.System, AwkCall{Text: awkUnescape(m[1]), Literal: m[1]})
	}
	p.SystemDynamic = len(awkSystem().FindAllString(prog, -1)) > len(p.System)
	for _, re := range []*regexp.Regexp{awkPipeTo(), awkPipeFrom()} {
		for _, m := range re.FindAllStringSubmatch(prog, -1) {
			p.Pipes = append(p.Pipes, awkUnescape(m[1]))
		}
	}
	rest := awkPipeFrom().ReplaceAllString(awkPipeTo().ReplaceAllString(prog, ""), "")
	p.PipeDynamic = awkPipeVar().MatchString(rest)
	for _, m := range awkPrintTo().FindAllStringSubmatch(prog, -1) {
		p.Writes = append(p.Writes, awkUnescape(m[1]))
	}
	return p
}

func awkUnescape(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t").Replace(s)
}

// lazyRegexp compiles expr on the first call of the function it returns,
// not at package initialisation, which every call of the airlock binary
// pays for whether it reads the pattern or not.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
