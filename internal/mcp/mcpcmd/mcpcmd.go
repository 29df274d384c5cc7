// Package mcpcmd is the command line of the MCP firewall proxy: "run"
// (stdio) and "serve" (streamable HTTP). It is its own binary,
// airlock-mcp, which "airlock mcp run|serve" starts: the MCP SDK doubles
// the size of the program and adds to its start-up, and the airlock binary
// is on every tool call's hot path (DESIGN.md invariant 5), while the proxy
// starts once per agent session.
package mcpcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/mcp/pin"
	"github.com/airlock-dev/airlock/internal/mcp/proxied"
	"github.com/airlock-dev/airlock/internal/mcp/proxy"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Exit statuses, as airlock's.
const (
	exitOK    = 0
	exitUsage = clierror.ExitUsage
)

// Env is what the command may touch of the process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Getwd          func() (string, error)
	Executable     func() (string, error)
}

// OS is the process's own environment.
func OS() Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Getwd: os.Getwd, Executable: os.Executable}
}

// usageError is a mistake in how the command was called, with hints.
type usageError = clierror.Usage

func fail(w io.Writer, err error) int { return clierror.Print(w, err) }

// mainHelp is airlock-mcp's own help: it is started by "airlock mcp run"
// and "airlock mcp serve", whose flags each command's --help lists.
const mainHelp = `airlock-mcp: airlock's MCP firewall proxy, started by airlock (docs/MCP.md).

Usage:
  airlock mcp run [--config FILE] [--name NAME] -- CMD ARGS...
  airlock mcp serve --listen 127.0.0.1:PORT [--config FILE] [--name NAME] (--upstream URL | --upstream-cmd -- CMD ARGS...)

Run "airlock mcp run --help" or "airlock mcp serve --help" for their flags.
`

// Main runs "run" or "serve" with their arguments and returns the exit
// status.
func Main(args []string, e Env) int {
	if len(args) == 0 {
		return fail(e.Stderr, &usageError{Msg: "airlock-mcp needs run or serve", Hints: []string{"airlock mcp run -- CMD ARGS...", "airlock mcp -h"}})
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(e.Stdout, mainHelp)
		return exitOK
	case "run":
		return run(args[1:], e)
	case "serve":
		return serve(args[1:], e)
	}
	return fail(e.Stderr, &usageError{Msg: fmt.Sprintf("unknown mcp command %q", args[0]), Hints: []string{"airlock mcp run|serve|approve|pins"}})
}

func newFlags(e Env, name, synopsis, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.Stdout, "Usage:\n  %s\n\n%s\n\nFlags:\n", synopsis, strings.TrimSpace(help))
		printFlags(e.Stdout, fs)
	}
	return fs
}

// printFlags lists the flags as airlock's own help does, with the one
// spelling the commands document: --flag.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "  -h, --help\n        show this help")
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s", f.Name)
		if arg != "" {
			fmt.Fprintf(w, " %s", strings.ToUpper(arg))
		}
		fmt.Fprintf(w, "\n        %s", usage)
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default: %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

func parse(e Env, fs *flag.FlagSet, args []string) (int, bool) {
	// The flag package prints the usage on every parse error; help is
	// printed here, once, and only when asked for.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		usage()
		return exitOK, false
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg = "unknown flag -" + rest
	}
	return fail(e.Stderr, &usageError{Msg: msg, Hints: []string{fmt.Sprintf("run \"airlock %s --help\"", fs.Name())}}), false
}

const runHelp = `
Start the MCP server CMD ARGS... and speak MCP on standard input and output in
its place, enforcing airlock's policy on every call. Standard error carries
airlock's messages and the server's own.

Example (.mcp.json):
  {"mcpServers": {"texts": {"command": "airlock",
     "args": ["mcp", "run", "--name", "texts", "--", "texts-mcp-server"]}}}`

func run(args []string, e Env) int {
	fs := newFlags(e, "mcp run", "airlock mcp run [--config FILE] [--name NAME] -- CMD ARGS...", runHelp)
	config := fs.String("config", "", "use this policy `file` instead of the user's and project's (like AIRLOCK_POLICY)")
	name := fs.String("name", "", "the server's `name` in the policy's mcp: section, pins and journal (default: the name the server gives itself in initialize, else CMD's base name; pass it for every server your policy configures)")
	if st, ok := parse(e, fs, args); !ok {
		return st
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return fail(e.Stderr, &usageError{Msg: "mcp run needs the server's command after --", Hints: []string{"airlock mcp run --name texts -- texts-mcp-server --flag"}})
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	p, pol, code, ok := build(e, *config, *name, argv[0])
	if !ok {
		return code
	}
	cmd := upstreamCommand(ctx, argv)
	cmd.Stderr = e.Stderr
	if err := p.Connect(ctx, &sdk.CommandTransport{Command: cmd}); err != nil {
		return fail(e.Stderr, err)
	}
	defer p.Close()
	announce(e, p, *name, pol, fmt.Sprintf("%s in %s mode", pol.Table(pol.Mode).Unknown, pol.Mode))
	defer register(e, pol, p.Name(), *config)()
	in, out := proxy.StdioTransport(e.Stdin, e.Stdout, e.Stderr)
	err := p.Server().Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fail(e.Stderr, err)
	}
	return exitOK
}

// stopSignals end the proxy: the upstream is stopped, then the proxy
// exits (and "airlock mcp run|serve" forwards them here).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// upstreamGrace is how long the upstream has to exit after SIGTERM.
const upstreamGrace = 5 * time.Second

// upstreamCommand is the upstream server's process: when the proxy stops,
// it gets SIGTERM, then SIGKILL after upstreamGrace, and is waited for.
func upstreamCommand(ctx context.Context, argv []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = upstreamGrace
	return cmd
}

const serveHelp = `
Serve MCP over streamable HTTP at http://ADDR/ in front of an upstream MCP
server: a URL (streamable HTTP) or a command started with --upstream-cmd.
ADDR must be a loopback address (127.0.0.1, ::1, localhost). Browser
requests are accepted only from the proxy's own origin or --allow-origin.`

func serve(args []string, e Env) int {
	fs := newFlags(e, "mcp serve", "airlock mcp serve --listen 127.0.0.1:PORT [--config FILE] [--name NAME] (--upstream URL | --upstream-cmd -- CMD ARGS...)", serveHelp)
	config := fs.String("config", "", "use this policy `file` instead of the user's and project's")
	name := fs.String("name", "", "the server's `name` in the policy's mcp: section, pins and journal")
	listen := fs.String("listen", "127.0.0.1:0", "loopback `address` to listen on (port 0 picks one; the URL is printed)")
	upstream := fs.String("upstream", "", "the upstream server's streamable HTTP `URL`")
	upCmd := fs.Bool("upstream-cmd", false, "start the upstream server: the command after --")
	var origins stringsFlag
	fs.Var(&origins, "allow-origin", "also accept browser requests from this `origin` (repeatable)")
	ttl := fs.Duration("session-ttl", proxy.DefaultSessionTTL, "close a session after this `duration` without a request from its client")
	maxSessions := fs.Int("max-sessions", proxy.DefaultMaxSessions, "hold at most this `many` sessions at once; a client asking for one more is refused (HTTP 503)")
	if st, ok := parse(e, fs, args); !ok {
		return st
	}
	argv := fs.Args()
	switch {
	case (*upstream == "") == !*upCmd:
		return fail(e.Stderr, &usageError{Msg: "mcp serve needs exactly one of --upstream URL and --upstream-cmd -- CMD ARGS...", Hints: []string{"airlock mcp serve --listen 127.0.0.1:8931 --upstream-cmd -- texts-mcp-server"}})
	case *upCmd && len(argv) == 0:
		return fail(e.Stderr, &usageError{Msg: "--upstream-cmd needs the server's command after --"})
	case !*upCmd && len(argv) > 0:
		return fail(e.Stderr, &usageError{Msg: fmt.Sprintf("unexpected arguments %q (give the command with --upstream-cmd)", argv)})
	}
	if *ttl <= 0 || *maxSessions < 1 {
		return fail(e.Stderr, &usageError{Msg: fmt.Sprintf("--session-ttl must be positive and --max-sessions at least 1 (got %s and %d)", *ttl, *maxSessions),
			Hints: []string{fmt.Sprintf("the defaults: --session-ttl %s --max-sessions %d", proxy.DefaultSessionTTL, proxy.DefaultMaxSessions)}})
	}
	if err := proxy.CheckListen(*listen); err != nil {
		return fail(e.Stderr, &usageError{Msg: fmt.Sprintf("--listen %s: %v", *listen, err), Hints: []string{"airlock listens on loopback only: --listen 127.0.0.1:PORT"}})
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	var t sdk.Transport
	defaultName := "upstream"
	if *upCmd {
		cmd := upstreamCommand(ctx, argv)
		cmd.Stderr = e.Stderr
		t, defaultName = &sdk.CommandTransport{Command: cmd}, argv[0]
	} else {
		t = &sdk.StreamableClientTransport{Endpoint: *upstream}
		if h, _, err := net.SplitHostPort(hostPort(*upstream)); err == nil {
			defaultName = h
		}
	}
	p, pol, code, ok := build(e, *config, *name, defaultName)
	if !ok {
		return code
	}
	if err := p.Connect(ctx, t); err != nil {
		return fail(e.Stderr, err)
	}
	defer p.Close()
	// Not registered (package proxied): an HTTP client is no child of
	// the proxy, so nothing binds it to one agent; the hook decides too.
	announce(e, p, *name, pol, fmt.Sprintf("%s in %s mode", pol.Table(pol.Mode).Unknown, pol.Mode))
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail(e.Stderr, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	srv := &http.Server{Handler: p.Handler(port, origins, proxy.SessionLimits{IdleTTL: *ttl, Max: *maxSessions}), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.Stdout, "airlock: MCP proxy for %s listening on http://%s/\n", p.Name(), ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fail(e.Stderr, err)
	}
	return exitOK
}

// hostPort is the host:port of a URL, port 80 when absent.
func hostPort(raw string) string {
	s := raw
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if !strings.Contains(s, ":") {
		s += ":80"
	}
	return s
}

type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// register declares the proxy as the decider of its server's calls for
// the agent that started it, so that the agent's hook does not decide
// them a second time (package proxied). Without it the hook decides too,
// which is the stricter side.
func register(e Env, pol *policy.Policy, name, config string) (release func()) {
	if config != "" {
		if abs, err := filepath.Abs(config); err == nil {
			config = abs
		}
	}
	release, err := proxied.Register(pol.Paths.StateDir, name, config)
	if err != nil {
		fmt.Fprintf(e.Stderr, "airlock: mcp: %v; an agent hook will also decide %s's calls with its own policy\n", err, name)
		return func() {}
	}
	return release
}

// fallbackName is the name of a server that gives itself none: the
// command's base name without extension.
func fallbackName(cmd string) string {
	base := filepath.Base(cmd)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// announce tells the human which name the proxy goes by, when it was not
// given, and how the policy treats a server it does not list.
func announce(e Env, p *proxy.Proxy, given string, pol *policy.Policy, unknown string) {
	if given == "" {
		fmt.Fprintf(e.Stderr, "airlock: mcp: no --name, so this server is %q (the name it gives itself, else its command's); pass --name with the name your agent's MCP configuration gives it\n", p.Name())
	}
	// build loaded pol with the schema, so Of does not fail here.
	listed := false
	if m, err := mcpconfig.Of(pol); err == nil {
		_, listed = m.Servers[p.Name()]
	}
	if !listed {
		fmt.Fprintf(e.Stderr, "airlock: mcp: server %q is not in the policy's mcp: section, so its tools are decided by the table's \"unknown\" entry (%s)\n", p.Name(), unknown)
	}
}

// build makes a proxy on the policy in effect (or the one --config names),
// the journal and the pin store.
func build(e Env, config, given, cmd string) (*proxy.Proxy, *policy.Policy, int, bool) {
	getenv := e.Getenv
	if config != "" {
		abs, err := filepath.Abs(config)
		if err != nil {
			return nil, nil, fail(e.Stderr, err), false
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, nil, fail(e.Stderr, &usageError{Msg: fmt.Sprintf("--config: %v", err)}), false
		}
		getenv = func(k string) string {
			if k == "AIRLOCK_POLICY" {
				return abs
			}
			return e.Getenv(k)
		}
	}
	cwd, err := e.Getwd()
	if err != nil {
		return nil, nil, fail(e.Stderr, err), false
	}
	exe, _ := e.Executable()
	// With the schema of the "mcp:" section, a mistake there stops the
	// proxy before it serves a call.
	pol, err := policy.Load(policy.Options{Getenv: getenv, Cwd: cwd, ProjectDir: getenv("CLAUDE_PROJECT_DIR"), Executable: exe, MCP: mcpconfig.Schema})
	if err != nil {
		return nil, nil, fail(e.Stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock policy check"}}), false
	}
	m, err := mcpconfig.Of(pol)
	if err != nil {
		return nil, nil, fail(e.Stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock policy check"}}), false
	}
	for _, ig := range m.Ignored {
		fmt.Fprintf(e.Stderr, "airlock: mcp: ignored %s\n", ig)
	}
	state := pol.Paths.StateDir
	if state == "" {
		return nil, nil, fail(e.Stderr, &usageError{Msg: "no state directory for the pins and the journal", Hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}}), false
	}
	key, err := guard.LoadKey(state)
	if err != nil {
		return nil, nil, fail(e.Stderr, err), false
	}
	// The journal lives where airlock's own commands keep it.
	j, err := journal.Open(journal.DirIn(state))
	if err != nil {
		return nil, nil, fail(e.Stderr, fmt.Errorf("the journal: %w (airlock records every MCP call and does not run without it)", err)), false
	}
	var rec vocab.Recorder = j
	return proxy.New(proxy.Options{
		Server:   given,
		Fallback: fallbackName(cmd),
		Guard:    &guard.Guard{Policy: pol, History: guard.Journal{J: j}, Key: key},
		Recorder: rec,
		Pins:     pin.Open(filepath.Join(state, pin.File)),
		Log:      e.Stderr,
		Cwd:      cwd,
	}), pol, 0, true
}
