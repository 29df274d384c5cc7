// Package notifycmd is the command line of airlock-notify, the watcher
// that "airlock notify" starts: it reads the user's notify: section, opens
// the journal and runs internal/notify until interrupted, or once.
package notifycmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/notify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
)

// help is airlock-notify's own help ("airlock notify --help" prints the
// same command's help from airlock's table).
const help = `airlock-notify: the watcher "airlock notify" starts (docs/NOTIFY.md).

Usage:
  airlock notify [--once] [--json]

It sends each held action to the ntfy topic or webhook of your policy's
notify: section, and applies the phone's Approve and Reject.

Flags:
  --once   send what is new, apply the replies waiting, and exit
  --json   print one JSON object a line for scripts
`

// Main runs airlock-notify with its arguments (--once, --json) and returns
// the exit status: 0 done, 2 a usage error, no notify section, or (with
// --once) a channel that failed.
func Main(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("airlock notify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	once := fs.Bool("once", false, "send what is new, apply the replies waiting, and exit")
	asJSON := fs.Bool("json", false, "print one JSON object a line for scripts")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, help)
			return 0
		}
		return clierror.Print(stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{"airlock notify [--once] [--json]"}})
	}
	if fs.NArg() != 0 {
		return clierror.Print(stderr, &clierror.Usage{Msg: fmt.Sprintf("notify takes no operand, got %d", fs.NArg()), Hints: []string{"airlock notify [--once] [--json]"}})
	}
	paths := policy.PathsFrom(getenv)
	// The notify section is read from the user's file only; a project's
	// file cannot carry one, so which directory this runs in is moot.
	// The whole file is checked as the hook checks it (the "mcp:" section
	// with its schema): the watcher does not start on a file the hook
	// refuses to decide with.
	p, err := policy.Load(policy.Options{Getenv: getenv, Cwd: string(os.PathSeparator), MCP: mcpconfig.Schema})
	if err != nil {
		return clierror.Print(stderr, err)
	}
	cfg, err := notify.Decode(p.Notify)
	if err != nil {
		return clierror.Print(stderr, err)
	}
	if cfg == nil {
		file := paths.UserFile
		if paths.Explicit != "" {
			file = paths.Explicit
		}
		return clierror.Print(stderr, &clierror.Usage{Msg: "there is no notify: section in " + file,
			Hints: []string{"add one (airlock help notify shows an example; docs/NOTIFY.md explains the setup)"}})
	}
	j, err := journal.Open(journal.DirIn(paths.StateDir))
	if err != nil {
		return clierror.Print(stderr, err)
	}
	report := func(ev notify.Event) {
		if *asJSON {
			b, _ := json.Marshal(ev)
			fmt.Fprintf(stdout, "%s\n", render.EscapeJSON(b))
			return
		}
		// Messages and ids come rendered from the watcher (with their
		// redaction markers, which rendering again would escape).
		channel := ev.Channel
		if ev.Item != "" {
			channel += " " + ev.Item
		}
		switch ev.Kind {
		case "warning", "error":
			fmt.Fprintf(stderr, "airlock: %s: %s: %s\n", ev.Kind, channel, ev.Message)
		default:
			fmt.Fprintf(stdout, "%s %s: %s\n", ev.Kind, channel, ev.Message)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := notify.New(cfg, j, notify.Options{StateDir: paths.StateDir, Report: report})
	if err != nil {
		return clierror.Print(stderr, err)
	}
	if *once {
		err = w.Once(ctx)
	} else {
		err = w.Run(ctx)
	}
	if err != nil {
		return clierror.Print(stderr, err)
	}
	return 0
}
