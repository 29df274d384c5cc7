package cli

import (
	"io"
	"os"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/pipeline"
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
	// cmd is the command being run and flags its parsed flags; args are
	// its operands (flags.Args()).
	cmd   *command
	flags *flagValues
	// caller is the hook process a hook invocation came from: the zero
	// value is this process; the decision service names its client
	// (hookdHandler).
	caller pipeline.Caller
	// contained is the entry point's fact that the hook's calls run in a
	// sandbox (pipeline.Pipeline.Contained): the decision service's view
	// of its client; nil: not contained.
	contained func(*pipeline.Request) bool
	// otherHomes are more homes of the same user whose protected paths
	// the policy guards (policy.Options.OtherHomes): the decision
	// service's own HOME when the request's differs (hookdHandler).
	otherHomes []string
}

// Main runs airlock with the given arguments and streams and returns the
// process exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		getenv: os.Getenv, getwd: os.Getwd, executable: os.Executable,
	}
	if len(args) > 0 && args[0] == "hook" {
		// The hot path: a running decision service of this same binary
		// answers, or the hook alone decides here, under the same root.
		status, stdin, ok := e.askService(args)
		if ok {
			return status
		}
		e.stdin = stdin
		return e.dispatch(hookRoot(), args)
	}
	if len(args) == 1 && args[0] == "statusline" {
		// The status line runs every few hundred milliseconds while an
		// agent works: it reads one small file and skips the command
		// table and flag parsing ("airlock statusline --help" goes
		// through them).
		return runStatusline(e)
	}
	return e.dispatch(commandTable(), args)
}

// Version is the airlock version, set at build time with -ldflags. The
// module version in the binary's build information wins when there is
// one (go install PKG@VERSION); see "airlock version".
var Version = "dev"

// usageError is a mistake in how airlock was called.
type usageError = clierror.Usage

// fail prints err as an "airlock: error:" line followed by its hints and
// returns ExitUsage.
func fail(stderr io.Writer, err error) int { return clierror.Print(stderr, err) }
