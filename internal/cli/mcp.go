package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/pin"
	"github.com/airlock-dev/airlock/internal/mcp/proxy"
	"github.com/airlock-dev/airlock/internal/policy"
)

func init() {
	addCommand(&command{name: "mcp", summary: "run an MCP server behind airlock's firewall; approve pinned tools", run: runMCP})
}

const mcpHelp = `
  run [flags] -- CMD ARGS...   proxy a stdio MCP server: put this in the agent's
                               MCP configuration in place of the server's command
  serve --listen ADDR [flags] (--upstream URL | --upstream-cmd -- CMD ARGS...)
                               proxy over streamable HTTP on a loopback address
  approve SERVER [TOOL...]     accept new or changed tool descriptions of SERVER
                               (all its pending ones when no TOOL is named)
  pins [SERVER] [--json]       show pinned and pending tools

The proxy enforces the mcp: section of the policy: tool classes (source,
sink, private, neutral), the contact book, rates, dedup, the quarantine after
untrusted content, and confirmation by MCP elicitation or airlock's queue.
Tools not classed there are decided by the table's "unknown" entry. See
docs/MCP.md.`

func runMCP(e *env) int {
	if len(e.args) == 0 || e.args[0] == "-h" || e.args[0] == "--help" {
		fmt.Fprintf(e.stdout, "Usage:\n  airlock mcp run|serve|approve|pins [flags]\n%s\n", mcpHelp)
		if len(e.args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	sub := &env{}
	*sub = *e
	sub.args = e.args[1:]
	switch e.args[0] {
	case "run":
		return mcpRun(sub)
	case "serve":
		return mcpServe(sub)
	case "approve":
		return mcpApprove(sub)
	case "pins":
		return mcpPins(sub)
	}
	return fail(e.stderr, &usageError{msg: fmt.Sprintf("unknown mcp command %q", e.args[0]), hints: []string{"airlock mcp run|serve|approve|pins"}})
}

const mcpRunHelp = `
Start the MCP server CMD ARGS... and speak MCP on standard input and output in
its place, enforcing airlock's policy on every call. Standard error carries
airlock's messages and the server's own.

Example (.mcp.json):
  {"mcpServers": {"texts": {"command": "airlock",
     "args": ["mcp", "run", "--name", "texts", "--", "texts-mcp-server"]}}}`

func mcpRun(e *env) int {
	fs := newFlags(e, "mcp run", "airlock mcp run [--config FILE] [--name NAME] -- CMD ARGS...", mcpRunHelp)
	config := fs.String("config", "", "use this policy `file` instead of the user's and project's (like AIRLOCK_POLICY)")
	name := fs.String("name", "", "the server's `name` in the policy's mcp: section, pins and journal (default: the only configured server, else CMD's base name)")
	if st, ok := parseFlags(e, fs, e.args); !ok {
		return st
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return fail(e.stderr, &usageError{msg: "mcp run needs the server's command after --", hints: []string{"airlock mcp run --name texts -- texts-mcp-server --flag"}})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = e.stderr
	p, code, ok := mcpProxy(e, *config, *name, argv[0])
	if !ok {
		return code
	}
	if err := p.Connect(ctx, &sdk.CommandTransport{Command: cmd}); err != nil {
		return fail(e.stderr, err)
	}
	defer p.Close()
	err := p.Server().Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fail(e.stderr, err)
	}
	return ExitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

const mcpServeHelp = `
Serve MCP over streamable HTTP at http://ADDR/ in front of an upstream MCP
server: a URL (streamable HTTP) or a command started with --upstream-cmd.
ADDR must be a loopback address (127.0.0.1, ::1, localhost). Browser
requests are accepted only from the proxy's own origin or --allow-origin.`

func mcpServe(e *env) int {
	fs := newFlags(e, "mcp serve", "airlock mcp serve --listen 127.0.0.1:PORT [--config FILE] [--name NAME] (--upstream URL | --upstream-cmd -- CMD ARGS...)", mcpServeHelp)
	config := fs.String("config", "", "use this policy `file` instead of the user's and project's")
	name := fs.String("name", "", "the server's `name` in the policy's mcp: section, pins and journal")
	listen := fs.String("listen", "127.0.0.1:0", "loopback `address` to listen on (port 0 picks one; the URL is printed)")
	upstream := fs.String("upstream", "", "the upstream server's streamable HTTP `URL`")
	upCmd := fs.Bool("upstream-cmd", false, "start the upstream server: the command after --")
	var origins stringsFlag
	fs.Var(&origins, "allow-origin", "also accept browser requests from this `origin` (repeatable)")
	if st, ok := parseFlags(e, fs, e.args); !ok {
		return st
	}
	argv := fs.Args()
	switch {
	case (*upstream == "") == !*upCmd:
		return fail(e.stderr, &usageError{msg: "mcp serve needs exactly one of --upstream URL and --upstream-cmd -- CMD ARGS...", hints: []string{"airlock mcp serve --listen 127.0.0.1:8931 --upstream-cmd -- texts-mcp-server"}})
	case *upCmd && len(argv) == 0:
		return fail(e.stderr, &usageError{msg: "--upstream-cmd needs the server's command after --"})
	case !*upCmd && len(argv) > 0:
		return fail(e.stderr, &usageError{msg: fmt.Sprintf("unexpected arguments %q (give the command with --upstream-cmd)", argv)})
	}
	if err := proxy.CheckListen(*listen); err != nil {
		return fail(e.stderr, &usageError{msg: fmt.Sprintf("--listen %s: %v", *listen, err), hints: []string{"airlock listens on loopback only: --listen 127.0.0.1:PORT"}})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var t sdk.Transport
	defaultName := "upstream"
	if *upCmd {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stderr = e.stderr
		t, defaultName = &sdk.CommandTransport{Command: cmd}, argv[0]
	} else {
		t = &sdk.StreamableClientTransport{Endpoint: *upstream}
		if h, _, err := net.SplitHostPort(hostOf(*upstream)); err == nil {
			defaultName = h
		}
	}
	p, code, ok := mcpProxy(e, *config, *name, defaultName)
	if !ok {
		return code
	}
	if err := p.Connect(ctx, t); err != nil {
		return fail(e.stderr, err)
	}
	defer p.Close()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail(e.stderr, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	srv := &http.Server{Handler: p.Handler(port, origins), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stdout, "airlock: MCP proxy for %s listening on http://%s/\n", p.Name(), ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fail(e.stderr, err)
	}
	return ExitOK
}

func hostOf(raw string) string {
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

// serverName is the name given, else the only server the policy
// configures, else the command's base name without extension.
func serverName(given, cmd string, m *policy.MCP) string {
	if given != "" {
		return given
	}
	if len(m.Servers) == 1 {
		return m.ServerNames()[0]
	}
	base := filepath.Base(cmd)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// mcpProxy builds a proxy on the policy in effect (or the one --config
// names), the journal and the pin store.
func mcpProxy(e *env, config, given, cmd string) (*proxy.Proxy, int, bool) {
	pe := e
	if config != "" {
		abs, err := filepath.Abs(config)
		if err != nil {
			return nil, fail(e.stderr, err), false
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fail(e.stderr, &usageError{msg: fmt.Sprintf("--config: %v", err)}), false
		}
		pe = &env{}
		*pe = *e
		pe.getenv = func(k string) string {
			if k == "AIRLOCK_POLICY" {
				return abs
			}
			return e.getenv(k)
		}
	}
	cwd, err := e.getwd()
	if err != nil {
		return nil, fail(e.stderr, err), false
	}
	pol, err := loadPolicy(pe, cwd)
	if err != nil {
		return nil, fail(e.stderr, &usageError{msg: err.Error(), hints: []string{"airlock policy check"}}), false
	}
	name := serverName(given, cmd, &pol.MCP)
	if _, listed := pol.MCP.Servers[name]; !listed {
		fmt.Fprintf(e.stderr, "airlock: mcp: server %q is not in the policy's mcp: section, so its tools are decided by the table's \"unknown\" entry (%s in %s mode)\n",
			name, pol.Table(pol.Mode).Unknown, pol.Mode)
	}
	for _, ig := range pol.MCP.Ignored {
		fmt.Fprintf(e.stderr, "airlock: mcp: ignored %s\n", ig)
	}
	state := policy.PathsFrom(e.getenv).StateDir
	key, err := guard.LoadKey(state)
	if err != nil {
		return nil, fail(e.stderr, err), false
	}
	rec, err := e.recorder()
	if err != nil {
		return nil, fail(e.stderr, fmt.Errorf("the journal: %w (airlock records every MCP call and does not run without it)", err)), false
	}
	var hist guard.History = &guard.Memory{}
	if j, ok := rec.(*journal.Journal); ok {
		hist = guard.Journal{J: j}
	}
	var pins *pin.Store
	if state != "" {
		pins = pin.Open(filepath.Join(state, pin.File))
	} else {
		return nil, fail(e.stderr, &usageError{msg: "no state directory for the pins and the journal", hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}}), false
	}
	return proxy.New(proxy.Options{
		Server:   name,
		Guard:    &guard.Guard{Policy: pol, History: hist, Key: key},
		Recorder: recorderOrDiscard(rec),
		Pins:     pins,
		Log:      e.stderr,
		Cwd:      cwd,
	}), 0, true
}

func recorderOrDiscard(r agent.Recorder) agent.Recorder {
	if r == nil {
		return agent.Discard{}
	}
	return r
}

const mcpApproveHelp = `
Accept the pending (new or changed) tool descriptions of SERVER, after you
have read them ("airlock mcp pins SERVER" shows them). A running proxy picks
the approval up at the agent's next tools/list. An agent cannot run this:
airlock's self-protection denies it.`

func mcpApprove(e *env) int {
	fs := newFlags(e, "mcp approve", "airlock mcp approve SERVER [TOOL...]", mcpApproveHelp)
	if st, ok := parseFlags(e, fs, e.args); !ok {
		return st
	}
	if fs.NArg() == 0 {
		return fail(e.stderr, &usageError{msg: "mcp approve needs the server's name", hints: []string{"airlock mcp pins", "airlock mcp approve texts send_message"}})
	}
	store, code, ok := pinStore(e)
	if !ok {
		return code
	}
	done, err := store.Approve(fs.Arg(0), fs.Args()[1:])
	if err != nil {
		return fail(e.stderr, &usageError{msg: err.Error(), hints: []string{"airlock mcp pins " + fs.Arg(0)}})
	}
	for _, t := range done {
		fmt.Fprintf(e.stdout, "approved %s %s\n", fs.Arg(0), t)
	}
	return ExitOK
}

func pinStore(e *env) (*pin.Store, int, bool) {
	state := policy.PathsFrom(e.getenv).StateDir
	if state == "" {
		return nil, fail(e.stderr, &usageError{msg: "no state directory", hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}}), false
	}
	return pin.Open(filepath.Join(state, pin.File)), 0, true
}

// pinOutput is one tool in mcp pins --json.
type pinOutput struct {
	Server  string    `json:"server"`
	Tool    string    `json:"tool"`
	Status  string    `json:"status"`
	By      string    `json:"by"`
	Since   time.Time `json:"since"`
	Hash    string    `json:"hash"`
	Def     pin.Def   `json:"def"`
	Current *pin.Def  `json:"pinned,omitempty"`
}

func mcpPins(e *env) int {
	fs := newFlags(e, "mcp pins", "airlock mcp pins [SERVER] [--json]", "Show the pinned tool descriptions per server, and the pending (new or changed) ones a human has to approve.")
	asJSON := fs.Bool("json", false, "print JSON")
	if st, ok := parseFlags(e, fs, e.args); !ok {
		return st
	}
	store, code, ok := pinStore(e)
	if !ok {
		return code
	}
	servers, err := store.Servers()
	if err != nil {
		return fail(e.stderr, err)
	}
	var out []pinOutput
	names := make([]string, 0, len(servers))
	for n := range servers {
		if fs.NArg() == 0 || fs.Arg(0) == n {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		s := servers[n]
		for _, t := range sortedKeys(s.Pending) {
			p := s.Pending[t]
			o := pinOutput{Server: n, Tool: t, Status: "pending-" + p.By, By: p.By, Since: p.Since, Hash: p.Hash, Def: p.Def}
			if cur, ok := s.Tools[t]; ok {
				def := cur.Def
				o.Current = &def
			}
			out = append(out, o)
		}
		for _, t := range sortedKeys(s.Tools) {
			p := s.Tools[t]
			out = append(out, pinOutput{Server: n, Tool: t, Status: "pinned", By: p.By, Since: p.Since, Hash: p.Hash, Def: p.Def})
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if out == nil {
			out = []pinOutput{}
		}
		if err := enc.Encode(out); err != nil {
			return fail(e.stderr, err)
		}
		return ExitOK
	}
	if len(out) == 0 {
		fmt.Fprintln(e.stdout, "no MCP server has been seen yet")
		return ExitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tTOOL\tSTATUS\tSINCE\tDESCRIPTION")
	for _, o := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", o.Server, o.Tool, o.Status, o.Since.UTC().Format("2006-01-02 15:04"), oneLineClip(o.Def.Description, 70))
	}
	tw.Flush()
	for _, o := range out {
		if o.Current != nil {
			fmt.Fprintf(e.stdout, "\n%s %s changed:\n  pinned:  %s\n  now:     %s\n", o.Server, o.Tool, oneLineClip(o.Current.Description, 300), oneLineClip(o.Def.Description, 300))
			if string(o.Current.InputSchema) != string(o.Def.InputSchema) {
				fmt.Fprintf(e.stdout, "  input schema now: %s\n", oneLineClip(string(o.Def.InputSchema), 300))
			}
		}
	}
	return ExitOK
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func oneLineClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
