package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/internal/clierror"
)

// Exit statuses shared by every subcommand.
const (
	// ExitOK: the command succeeded (for check: allowed or warned).
	ExitOK = 0
	// ExitHeld: the command ran, and the action is held (ask, defer, deny).
	ExitHeld = 1
	// ExitUsage: bad usage or an internal error.
	ExitUsage = clierror.ExitUsage
)

// env is what a subcommand may touch of the process: its arguments,
// streams, environment, directory and binary. Subcommands take it instead
// of reaching for globals, so tests and the doctor's in-process self-test
// can hand them something else.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// getwd and executable are called only by the subcommands that need
	// them, keeping the hook's allow path free of work it does not use.
	getwd      func() (string, error)
	executable func() (string, error)
	// isTerminal overrides the terminal check of standard input; only Go
	// tests set it.
	isTerminal func(io.Reader) bool
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(e *env) int
}

// commands lists the subcommands; files add theirs in init functions.
var commands = map[string]*command{}

func addCommand(c *command) { commands[c.name] = c }

// Main runs airlock with the given arguments and streams and returns the
// process exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return ExitOK
	case "--version", "version":
		fmt.Fprintln(stdout, "airlock", Version)
		return ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		return fail(stderr, &usageError{
			Msg:   fmt.Sprintf("unknown command %q", args[0]),
			Hints: []string{"run \"airlock help\" to list the commands"},
		})
	}
	return c.run(&env{
		args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr,
		getenv: os.Getenv, getwd: os.Getwd, executable: os.Executable,
	})
}

// Version is the airlock version, set at build time with -ldflags.
var Version = "dev"

func usage(w io.Writer) {
	fmt.Fprint(w, "airlock: an output firewall for AI agents.\n\nLocal work flows; anything that reaches the outside world is held for a human.\n\nUsage:\n  airlock <command> [flags]\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, "\nRun \"airlock <command> -h\" for a command's flags.\n")
}

// usageError is a mistake in how airlock was called.
type usageError = clierror.Usage

// fail prints err as an "airlock: error:" line followed by its hints and
// returns ExitUsage.
func fail(stderr io.Writer, err error) int { return clierror.Print(stderr, err) }

// newFlags returns a flag set that reports errors through fail rather than
// exiting.
func newFlags(e *env, name, synopsis, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "Usage:\n  %s\n\n%s\n\nFlags:\n", synopsis, strings.TrimSpace(help))
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses args, printing help for -h and a usage error otherwise.
// It returns a status and false when the caller should stop.
func parseFlags(e *env, fs *flag.FlagSet, args []string) (int, bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return ExitOK, false
	default:
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{fmt.Sprintf("run \"airlock %s -h\" for its flags", fs.Name())}}), false
	}
}

// flagSet is a flag set with the flags several subcommands share.
type flagSet struct {
	*flag.FlagSet
	json *bool
	cwd  *string
}
