package teamcmd

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/notify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/team/teamnotify"
)

type notifyFlags struct {
	reviewerFlags
	config string
	once   bool
}

// notifyVerb is the phone channel pointed at the team: it runs the
// machine's watcher (internal/notify) over the team queue, as a reviewer
// (internal/team/teamnotify).
var notifyVerb = &verb{path: "notify",
	usage:   "airlock team notify --config FILE [--once] [--json] --server URL --token R",
	summary: "send every machine's held items to the team's phone topic, and settle the phone's Approve and Reject in the team queue as the token's reviewer",
	flags: func(fs *flag.FlagSet) any {
		c := &notifyFlags{}
		addReviewerFlags(fs, &c.reviewerFlags)
		fs.StringVar(&c.config, "config", "", "a YAML `FILE` with a notify: section, as in a user's policy file (docs/NOTIFY.md)")
		fs.BoolVar(&c.once, "once", false, "send what is new, apply the replies waiting, and exit")
		return c
	},
	run: runNotify,
}

func runNotify(o Options, cv any, ops []string) int {
	c := cv.(*notifyFlags)
	if err := operands("notify", ops); err != nil {
		return fail(o, err)
	}
	if c.config == "" {
		return fail(o, &clierror.Usage{Msg: "airlock team notify needs --config FILE, with the ntfy server (and topics) in a notify: section",
			Hints: []string{"write a file with a notify: section whose ntfy: names the server (server: https://ntfy.example.org) and pass it; docs/TEAM.md, \"Approvals from the phone\""}})
	}
	cl, err := c.client(o, "notify")
	if err != nil {
		return fail(o, err)
	}
	cfg, err := teamnotify.LoadConfig(c.config)
	if err != nil {
		return fail(o, err)
	}
	if cfg.Ntfy == nil && cfg.Webhook == nil {
		return fail(o, &clierror.Usage{Msg: c.config + ": the notify: section names no channel", Hints: []string{"add ntfy: (or webhook:)"}})
	}
	state := policy.PathsFrom(o.Getenv).StateDir
	if state == "" {
		return fail(o, &clierror.Usage{Msg: "no state directory for the watcher's reply key and state", Hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}})
	}
	report := func(ev notify.Event) {
		if c.json {
			b, _ := json.Marshal(ev)
			fmt.Fprintf(o.Stdout, "%s\n", render.EscapeJSON(b))
			return
		}
		// Messages and keys come rendered from the watcher.
		channel := ev.Channel
		if ev.Item != "" {
			channel += " " + ev.Item
		}
		switch ev.Kind {
		case "warning", "error":
			fmt.Fprintf(o.Stderr, "airlock team notify: %s: %s: %s\n", ev.Kind, channel, ev.Message)
		default:
			fmt.Fprintf(o.Stdout, "%s %s: %s\n", ev.Kind, channel, ev.Message)
		}
	}
	q := teamnotify.New(cl.server(), cl.token, nil)
	w, err := notify.NewQueue(cfg, q, notify.Options{StateDir: state, Name: teamnotify.Name, Report: report})
	if err != nil {
		return fail(o, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.Stop != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-o.Stop:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	if c.once {
		err = w.Once(ctx)
	} else {
		err = w.Run(ctx)
	}
	if err != nil {
		return fail(o, err)
	}
	return ExitOK
}

// server is the client's server URL, without the API's path.
func (c *client) server() string { return c.url }
