// Package synccmd is the command line of airlock-teamsync, the machine's
// side of team mode: "airlock team join" and "airlock team sync" start it.
// It is a binary of its own so that the HTTP client and TLS stack stay out
// of the airlock binary, which answers every tool call of every agent,
// and so that a machine links no database driver: the team server
// (PostgreSQL) is another binary.
package synccmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	teamsync "github.com/airlock-dev/airlock/internal/team/sync"
)

const help = `airlock-teamsync: the machine's side of team mode (docs/TEAM.md).

Usage:
  airlock team join SERVER_URL --token TOKEN [--pin SHA256:...]
  airlock team sync [--once] [--interval DURATION] [--json]

join asks the team server who the token says this machine is, checks the
protocol version, pins the server's signing key (it prints the key's
fingerprint; with --pin, a server whose key is another is refused) and
keeps the server, the machine's name, the token and the key in airlock's
secrets directory.

sync ships the machine's held items and what became of them to the
server, and applies the team's decisions to the machine's journal as human
acts, each only if the server's signature verifies with the pinned key.
It runs until interrupted, a round every --interval; --once runs one round
and exits.

Agents cannot run either: airlock's self-protection denies them.
`

// Exit statuses.
const (
	exitOK = 0
	// exitFailed: a round (--once) or a join that did not succeed.
	exitFailed = 1
)

// Main runs airlock-teamsync: args[0] is "join" or "sync".
func Main(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, help)
		return exitOK
	}
	switch args[0] {
	case "join":
		return join(args[1:], stdout, stderr, getenv)
	case "sync":
		return sync(args[1:], stdout, stderr, getenv)
	}
	return clierror.Print(stderr, &clierror.Usage{Msg: fmt.Sprintf("unknown command %q", args[0]),
		Hints: []string{"airlock team join SERVER_URL --token TOKEN [--pin SHA256:...]", "airlock team sync [--once] [--interval DURATION] [--json]"}})
}

// parse parses flags that may come before or after the operands.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if rest[0] == "--" {
			return append(operands, rest[1:]...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

func join(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	usage := "airlock team join SERVER_URL --token TOKEN [--pin SHA256:...]"
	fs := flag.NewFlagSet("airlock team join", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	token := fs.String("token", "", "the machine token airlock team add-machine printed")
	pin := fs.String("pin", "", "the server key's fingerprint, as airlock team serve printed it")
	operands, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, help)
		return exitOK
	}
	if err != nil {
		return clierror.Print(stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{usage}})
	}
	if len(operands) != 1 || *token == "" {
		return clierror.Print(stderr, &clierror.Usage{Msg: "join takes the server's URL and --token", Hints: []string{usage}})
	}
	paths := policy.PathsFrom(getenv)
	if paths.StateDir == "" {
		return clierror.Print(stderr, errors.New("no state directory (set AIRLOCK_HOME, XDG_STATE_HOME or HOME)"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := teamsync.Join(ctx, teamsync.JoinOptions{StateDir: paths.StateDir, Server: operands[0], Token: *token, Pin: *pin})
	if err != nil {
		clierror.Print(stderr, joinHint(err))
		return exitFailed
	}
	fmt.Fprintf(stdout, "joined %s as machine %s\n", render.Line(c.Server, 500), render.Line(c.Machine, 100))
	if *pin != "" {
		fmt.Fprintf(stdout, "server key %s (matches --pin)\n", c.Fingerprint)
	} else {
		fmt.Fprintf(stdout, "server key %s: compare it with the fingerprint airlock team serve printed; decisions count only when signed by this key\n", c.Fingerprint)
	}
	fmt.Fprintf(stdout, "kept in %s (mode 0600); run airlock team sync beside the service\n", render.Line(teamsync.ConfigPath(paths.StateDir), 500))
	if plainRemote(c.Server) {
		fmt.Fprintln(stderr, "airlock: warning: the server is plain HTTP on another host: the machine's token crosses the network in clear (decisions stay signed, so they still cannot be forged); serve it behind TLS")
	}
	return exitOK
}

// plainRemote reports whether server is plain HTTP to a host other than
// this machine's loopback.
func plainRemote(server string) bool {
	u, err := url.Parse(server)
	if err != nil || u.Scheme != "http" {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return false
	}
	ip := net.ParseIP(h)
	return ip == nil || !ip.IsLoopback()
}

func joinHint(err error) error {
	switch {
	case errors.Is(err, teamsync.ErrPinMismatch):
		return &clierror.Usage{Msg: err.Error(), Hints: []string{"compare the fingerprint with what airlock team serve printed on the server; a mismatch can be a server in between"}}
	}
	return err
}

func sync(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	usage := "airlock team sync [--once] [--interval DURATION] [--json]"
	fs := flag.NewFlagSet("airlock team sync", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	once := fs.Bool("once", false, "run one round and exit")
	interval := fs.Duration("interval", 10*time.Second, "time between rounds")
	asJSON := fs.Bool("json", false, "print one JSON object a line")
	operands, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, help)
		return exitOK
	}
	if err != nil {
		return clierror.Print(stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{usage}})
	}
	if len(operands) != 0 {
		return clierror.Print(stderr, &clierror.Usage{Msg: "sync takes no operand", Hints: []string{usage}})
	}
	if *interval < time.Second {
		return clierror.Print(stderr, &clierror.Usage{Msg: fmt.Sprintf("--interval %s is shorter than a second", *interval), Hints: []string{usage}})
	}
	paths := policy.PathsFrom(getenv)
	j, err := journal.Open(journal.DirIn(paths.StateDir))
	if err != nil {
		return clierror.Print(stderr, err)
	}
	report := func(ev teamsync.Event) {
		if *asJSON {
			b, _ := json.Marshal(ev)
			fmt.Fprintf(stdout, "%s\n", render.EscapeJSON(b))
			return
		}
		// The reviewer's name, the item and the reasons came over the
		// network: rendered before a human reads them.
		what := ev.Kind
		if ev.Item != "" {
			what += " " + render.Line(ev.Item, 40)
		}
		if ev.Decision != "" {
			what += " (decision " + render.Line(ev.Decision, 80) + ")"
		}
		w := stdout
		if ev.Kind == "error" || ev.Kind == "warning" || ev.Kind == "refused" || ev.Kind == "not-shipped" {
			w = stderr
		}
		fmt.Fprintf(w, "%s: %s\n", what, render.Line(ev.Message, 1000))
	}
	s, err := teamsync.New(teamsync.Options{StateDir: paths.StateDir, Journal: j, Report: report})
	if err != nil {
		if errors.Is(err, teamsync.ErrNotJoined) {
			return clierror.Print(stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{"airlock team join SERVER_URL --token TOKEN (the token airlock team add-machine printed)"}})
		}
		return clierror.Print(stderr, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *once {
		r, err := s.Once(ctx)
		if err != nil {
			clierror.Print(stderr, err)
			return exitFailed
		}
		if *asJSON {
			b, _ := json.Marshal(r)
			fmt.Fprintf(stdout, "%s\n", b)
		} else {
			fmt.Fprintf(stdout, "shipped %d held items and %d settlements (%d new); applied %d team decisions, refused %d, %d applied before\n",
				r.Items, r.Settlements, r.New, r.Applied, r.Refused, r.Skipped)
			if len(r.NotShipped) > 0 {
				fmt.Fprintf(stdout, "not shipped: %d held items the server refused as too large (they stay held here; airlock queue shows them)\n", len(r.NotShipped))
			}
		}
		return exitOK
	}
	if err := s.Run(ctx, *interval); err != nil {
		return clierror.Print(stderr, err)
	}
	return exitOK
}
