package cli

const runCmdHelp = `
Run COMMAND (an agent, or any program) contained, on Linux with
bubblewrap:

Inside
  - the project (the git top level of the current directory, or the
    directory itself) is read-write; /tmp is private and empty;
  - the tool caches that exist are writable: ~/.cache, ~/go/pkg/mod,
    ~/.npm, ~/.cargo/registry, ~/.cargo/git, ~/.m2/repository,
    ~/.gradle/caches (--writable DIR adds one);
  - everything else is read-only, and so are, even inside a writable
    directory, airlock's binaries and policy, every agent's settings and
    configuration, and shell start-up files;
  - the network is loopback only: HTTP and HTTPS go through airlock's
    egress proxy (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and their kin point at
    a bridge on 127.0.0.1:3128; NO_PROXY names only the sandbox's own
    loopback), which decides each request like any other action;
  - the hook service's socket, so the agent's hooks still reach airlock.

Outside (not there at all)
  - airlock's state directory: the journal, the queue, trust and the
    secrets that sign human approvals;
  - the host's loopback (the dashboard), its /run (daemon sockets, the
    ssh and gpg agents), every process outside (nothing can be signalled);
  - ssh, raw TCP, UDP and DNS: a git remote over ssh fails with how to use
    HTTPS instead.

COMMAND's exit status is returned; SIGINT, SIGTERM and SIGHUP are passed
to it; nothing it starts outlives it. When containment cannot start (no
bwrap, no user namespaces, a mount that fails) airlock run refuses with
exit status 2 and says why: it never runs the command uncontained.
airlock doctor shows whether containment works here.

It is the airlock-run binary, installed next to airlock. See docs/CONTAIN.md.

Examples:
  airlock run -- claude
  airlock run -- go test ./...
  airlock run --writable ~/.local/share/pnpm -- pnpm install

Exit status: COMMAND's, or 2 when it could not be contained.`

// RunBinary is the runner's own binary (cmd/airlock-run): it and the
// sandbox's door (EgressBinary, which it starts at the first connection)
// link the network stack, which the airlock binary, answering every tool
// call, must not.
const RunBinary = "airlock-run"

// runRun hands everything after "run" to airlock-run beside airlock.
func runRun(e *env) int {
	if len(e.args) > 0 && (e.args[0] == "--help" || e.args[0] == "-h") {
		printHelp(e.stdout, e.cmd)
		return ExitOK
	}
	if len(e.args) == 0 {
		return fail(e.stderr, &usageError{Msg: "no command to run", Hints: []string{"airlock run [--writable DIR]... [--] COMMAND [ARG...]"}})
	}
	execCompanion(e, RunBinary, e.args)
	return runCompanion(e, "airlock run", RunBinary, e.args)
}

// runCommand is "airlock run" in the command table.
func runCommand() *command {
	return &command{name: "run", summary: "run a command contained: project writable, airlock's state absent, network only through airlock",
		usage: []string{"airlock run [--writable DIR]... [--] COMMAND [ARG...]"},
		help:  runCmdHelp, operands: "COMMAND [ARG...]", passthrough: true, run: runRun}
}
