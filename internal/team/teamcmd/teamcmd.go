// Package teamcmd is the command line of airlock-team, the binary behind
// "airlock team" (airlock runs it from beside itself, like airlock-serve):
// the team server, its admin commands against the database, and the
// reviewer's commands against a server. It links pgx, an HTTP server and
// an HTTP client, which the airlock binary must not: that one answers
// every tool call of every agent, and pays for every package it links on
// each one.
//
// Every verb here acts as a human (it starts the server, makes or
// revokes identities, reads or settles the team's queue with a
// reviewer's token), so self-protection refuses each to an agent
// (policy.AirlockVerbs lists them; a test here checks the flags).
package teamcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/internal/clierror"
)

// Options are what a run of airlock-team is given.
type Options struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Stop, when set, stops a server as a signal would (tests).
	Stop <-chan struct{}
	// Ready, when set, is told a started server's admin URL (tests).
	Ready func(adminURL string)
}

// Exit statuses.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = clierror.ExitUsage
)

// verb is one command of airlock-team.
type verb struct {
	path    string // "queue approve"
	usage   string
	summary string
	flags   func(fs *flag.FlagSet) any
	run     func(o Options, c any, operands []string) int
}

// verbs are airlock-team's commands. ("team join" and "team sync", the
// machine's side, are internal/team/sync's, and join this table there.)
var verbs = map[string]*verb{}

func register(v *verb) { verbs[v.path] = v }

func init() {
	register(serveVerb)
	register(addVerb("add-machine", "machine"))
	register(addVerb("add-reviewer", "reviewer"))
	register(revokeVerb)
	register(notifyVerb)
	register(listVerb)
	register(showVerb)
	register(settleVerb("approve"))
	register(settleVerb("reject"))
}

// Usage lists the verbs.
func Usage() string {
	var paths []string
	for p := range verbs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("usage: airlock team VERB [flags]\n\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "  %-16s %s\n", p, verbs[p].summary)
	}
	b.WriteString("\nairlock team VERB --help says more. See docs/TEAM.md.\n")
	return b.String()
}

// Main runs one command and returns its exit status.
func Main(o Options) int {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	args := o.Args
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(o.Stdout, Usage())
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	v := verbs[args[0]]
	n := 1
	if v == nil && len(args) > 1 {
		v, n = verbs[args[0]+" "+args[1]], 2
	}
	if v == nil {
		what := args[0]
		if args[0] == "queue" && len(args) > 1 {
			what += " " + args[1]
		}
		return clierror.Print(o.Stderr, &clierror.Usage{Msg: fmt.Sprintf("airlock team has no command %q", what), Hints: []string{"airlock team --help"}})
	}
	fs := flag.NewFlagSet("airlock team "+v.path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := v.flags(fs)
	if err := fs.Parse(interspersed(fs, args[n:])); errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(o.Stdout, help(v, fs))
		return ExitOK
	} else if err != nil {
		return clierror.Print(o.Stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{"airlock team " + v.path + " --help"}})
	}
	return v.run(o, c, fs.Args())
}

// interspersed moves the operands after the flags, so that "approve KEY
// --note x" reads like "approve --note x KEY" (Go's flag package stops
// at the first operand). A word after "--" stays an operand.
func interspersed(fs *flag.FlagSet, args []string) []string {
	var flags, ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			ops = append(ops, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return append(append(flags, "--"), ops...)
}

// help is a verb's --help: its usage, summary and flags.
func help(v *verb, fs *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s\n\n%s\n\nFlags:\n", v.usage, v.summary)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		arg := ""
		if name != "" {
			arg = " " + name
		}
		fmt.Fprintf(&b, "  --%s%s\n      %s", f.Name, arg, usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			fmt.Fprintf(&b, " (default %s)", f.DefValue)
		}
		b.WriteString("\n")
	})
	b.WriteString("\nSee docs/TEAM.md.\n")
	return b.String()
}

// fail prints err as airlock does and returns its status: 2 for a usage
// error, 1 for the rest.
func fail(o Options, err error) int {
	var ae *apiErr
	if errors.As(err, &ae) {
		clierror.Print(o.Stderr, ae.Usage)
		if ae.status/100 == 4 {
			return ExitUsage
		}
		return ExitError
	}
	clierror.Print(o.Stderr, err)
	var u *clierror.Usage
	if errors.As(err, &u) {
		return ExitUsage
	}
	return ExitError
}

// operands checks a verb got exactly the operands it names.
func operands(v string, got []string, names ...string) error {
	if len(got) != len(names) {
		return &clierror.Usage{Msg: fmt.Sprintf("airlock team %s takes %s, got %d operand(s)", v, strings.Join(names, " "), len(got)),
			Hints: []string{"airlock team " + v + " --help"}}
	}
	return nil
}
