package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/airlock-dev/airlock/internal/notify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
)

const notifyHelp = `
Send each newly held action to your phone or a chat channel, as the
notify: section of your user policy says, and apply the decisions taken
on the phone:

  notify:
    ntfy:
      server: https://ntfy.example.org   # your ntfy server
      # topic and reply_topic: leave them out, and airlock makes secret ones
      token_file: /home/me/.local/state/airlock/secrets/ntfy-token   # optional
    webhook:
      url: https://hooks.example.com/...   # JSON POST, no approval over it
      headers: {Authorization: Bearer ...}

ntfy notifications carry Approve and Reject buttons; a press is signed by
a key only airlock holds, counts once, and expires. Each item is sent once
(what was sent is kept in the state directory). The watcher runs until
interrupted; --once sends what is new, applies the replies waiting, and
exits. It never runs on the hook's path. See docs/NOTIFY.md.

Agents cannot run this: airlock's self-protection denies it.

Exit status: 0 done, 2 usage error, no notify section, or a channel failed (--once).`

func runNotify(e *env) int {
	if n := len(e.flags.Args()); n != 0 {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("notify takes no operand, got %d", n), Hints: e.cmd.usage})
	}
	paths := policy.PathsFrom(e.getenv)
	// The notify section is read from the user's file only; a project's
	// file cannot carry one, so which directory this runs in is moot.
	p, err := policy.Load(policy.Options{Getenv: e.getenv, Cwd: string(os.PathSeparator)})
	if err != nil {
		return fail(e.stderr, err)
	}
	cfg, err := notify.Decode(p.Notify)
	if err != nil {
		return fail(e.stderr, err)
	}
	if cfg == nil {
		file := paths.UserFile
		if paths.Explicit != "" {
			file = paths.Explicit
		}
		return fail(e.stderr, &usageError{Msg: "there is no notify: section in " + file,
			Hints: []string{"add one (airlock help notify shows an example; docs/NOTIFY.md explains the setup)"}})
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	asJSON := *e.flags.Bool("json")
	report := func(ev notify.Event) {
		if asJSON {
			b, _ := json.Marshal(ev)
			fmt.Fprintf(e.stdout, "%s\n", render.EscapeJSON(b))
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
			fmt.Fprintf(e.stderr, "airlock: %s: %s: %s\n", ev.Kind, channel, ev.Message)
		default:
			fmt.Fprintf(e.stdout, "%s %s: %s\n", ev.Kind, channel, ev.Message)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := notify.New(cfg, j, notify.Options{StateDir: paths.StateDir, Report: report})
	if err != nil {
		return fail(e.stderr, err)
	}
	if *e.flags.Bool("once") {
		err = w.Once(ctx)
	} else {
		err = w.Run(ctx)
	}
	if err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}
