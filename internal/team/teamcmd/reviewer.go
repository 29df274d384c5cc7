package teamcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/serve"
	"github.com/airlock-dev/airlock/internal/team/teamclient"
	"github.com/airlock-dev/airlock/internal/team/teamview"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// The reviewer's server and token when the flags are not given: a token
// in argv is one every user of the machine can read in ps.
const (
	ServerEnv = "AIRLOCK_TEAM_SERVER"
	TokenEnv  = "AIRLOCK_TEAM_TOKEN"
)

// Limits of one exchange with the server.
const (
	requestTimeout = 30 * time.Second
	maxAnswer      = 32 << 20
)

type reviewerFlags struct {
	server, token, tokenFile string
	json                     bool
}

func addReviewerFlags(fs *flag.FlagSet, c *reviewerFlags) {
	fs.StringVar(&c.server, "server", "", "the team server's `URL` ("+ServerEnv+" when not given)")
	fs.StringVar(&c.token, "token", "", "your reviewer `TOKEN`, from airlock team add-reviewer ("+TokenEnv+" when not given); in argv it is in ps and the shell's history: prefer --token-file")
	fs.StringVar(&c.tokenFile, "token-file", "", "a `FILE` holding your reviewer token (- reads it from stdin): kept out of ps and the shell's history")
	fs.BoolVar(&c.json, "json", false, "print JSON")
}

// client is a reviewer's connection to a team server.
type client struct {
	url, token string // the server's base URL, and the reviewer's token
	api        *teamclient.Client
}

func (c *reviewerFlags) client(o Options, verb string) (*client, error) {
	server, token := c.server, c.token
	if server == "" {
		server = o.Getenv(ServerEnv)
	}
	if c.tokenFile != "" {
		if token != "" {
			return nil, &clierror.Usage{Msg: "give the reviewer token once: --token or --token-file, not both"}
		}
		t, err := readTokenFile(c.tokenFile, o.Stdin)
		if err != nil {
			return nil, &clierror.Usage{Msg: "--token-file: " + err.Error(), Hints: []string{"a file holding the token on its first line, or - to read it from stdin"}}
		}
		token = t
	}
	if token == "" {
		token = o.Getenv(TokenEnv)
	}
	hint := "airlock team " + verb + " --server https://team.example.com --token-file FILE (or set " + ServerEnv + " and " + TokenEnv + ")"
	if server == "" || token == "" {
		return nil, &clierror.Usage{Msg: "airlock team " + verb + " needs the team server and your reviewer token", Hints: []string{hint}}
	}
	u, err := url.Parse(server)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--server %q is not an http(s) URL", server), Hints: []string{hint}}
	}
	if u.Scheme == "http" && !serve.IsLoopback(u.Hostname()) {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--server %s is plain HTTP to another machine: your token and decisions would cross the network in clear", server),
			Hints: []string{"serve the team server over TLS (docs/TEAM.md) and use its https:// URL"}}
	}
	base := strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/")
	return &client{url: base, token: token, api: teamclient.New(base, token, &http.Client{Timeout: requestTimeout}, maxAnswer)}, nil
}

// do sends one request and decodes the answer into out; an error answer
// becomes an error with the server's words and hint, rendered.
func (c *client) do(method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	err := c.api.Do(ctx, method, path, in, out)
	var te *teamclient.TransportError
	var se *teamclient.ServerError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		var ne net.Error
		if errors.As(te.Err, &ne) || errors.Is(te.Err, context.DeadlineExceeded) {
			// Not a usage error (status 1), but with the hint.
			return &apiErr{Usage: &clierror.Usage{Msg: "the team server did not answer: " + te.Err.Error(), Hints: []string{"check --server, and that airlock team serve runs there"}}}
		}
		return te.Err
	case errors.As(err, &se):
		msg := fmt.Sprintf("team server: %d %s", se.Status, http.StatusText(se.Status))
		if se.Body.Error != "" {
			msg += ": " + render.Line(se.Body.Error, 1000)
		}
		u := &clierror.Usage{Msg: msg}
		if se.Body.Hint != "" {
			u.Hints = append(u.Hints, render.Line(se.Body.Hint, 500))
		}
		return &apiErr{Usage: u, status: se.Status}
	}
	return err
}

// apiErr is an error answer of the server: printed with its hint, and
// a usage error (status 2) only when the request was at fault (4xx).
type apiErr struct {
	*clierror.Usage
	status int
}

func (e *apiErr) Error() string { return e.Usage.Error() }

// printJSON prints v with every invisible rune escaped (render.JSON).
func printJSON(o Options, v any) int {
	if err := render.JSON(o.Stdout, v); err != nil {
		return fail(o, err)
	}
	return ExitOK
}

type listFlags struct {
	reviewerFlags
	machine, repo, minAge, status string
	limit                         int
}

var listVerb = &verb{path: "queue list",
	usage:   "airlock team queue list [--machine NAME] [--repo REPO] [--min-age AGE] [--status STATUS] [--limit N] [--json] --server URL --token R",
	summary: "list the team queue (open items unless --status says otherwise), newest first",
	flags: func(fs *flag.FlagSet) any {
		c := &listFlags{}
		addReviewerFlags(fs, &c.reviewerFlags)
		fs.StringVar(&c.machine, "machine", "", "only this machine's items (its `NAME`)")
		fs.StringVar(&c.repo, "repo", "", "only this repository's items (`REPO` as the machine names it)")
		fs.StringVar(&c.minAge, "min-age", "", "only items held at least this long ago (`AGE`: 90m, 2h, 3d)")
		fs.StringVar(&c.status, "status", "", "`STATUS`: pending, approved, rejected, used, ran, expired or all (default: open, pending or expired)")
		fs.IntVar(&c.limit, "limit", 50, "at most `N` items")
		return c
	},
	run: func(o Options, cv any, ops []string) int {
		c := cv.(*listFlags)
		if err := operands("queue list", ops); err != nil {
			return fail(o, err)
		}
		cl, err := c.client(o, "queue list")
		if err != nil {
			return fail(o, err)
		}
		q := url.Values{}
		for k, v := range map[string]string{"machine": c.machine, "repo": c.repo, "min_age": c.minAge, "status": c.status} {
			if v != "" {
				q.Set(k, v)
			}
		}
		q.Set("limit", strconv.Itoa(c.limit))
		var list wire.QueueList
		if err := cl.do("GET", "/queue?"+q.Encode(), nil, &list); err != nil {
			return fail(o, err)
		}
		if c.json {
			return printJSON(o, list)
		}
		if len(list.Items) == 0 {
			fmt.Fprintln(o.Stdout, "nothing in the team queue matches")
			return ExitOK
		}
		tw := tabwriter.NewWriter(o.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tSTATUS\tHELD\tMACHINE\tREPO\tEFFECT\tWHAT")
		now := time.Now()
		for _, it := range list.Items {
			r := teamview.RowOf(it)
			fmt.Fprintf(tw, "%s\t%s\t%s ago\t%s\t%s\t%s\t%s\n", r.Key, r.Status, teamview.Age(now.Sub(it.Item.Time)), r.Machine, r.Repo, r.Effect, r.What)
		}
		tw.Flush()
		return ExitOK
	}}

var showVerb = &verb{path: "queue show", usage: "airlock team queue show KEY [--json] --server URL --token R",
	summary: "show one item of the team queue in full, as its machine recorded it",
	flags:   func(fs *flag.FlagSet) any { c := &reviewerFlags{}; addReviewerFlags(fs, c); return c },
	run: func(o Options, cv any, ops []string) int {
		c := cv.(*reviewerFlags)
		if err := operands("queue show", ops, "KEY"); err != nil {
			return fail(o, err)
		}
		cl, err := c.client(o, "queue show")
		if err != nil {
			return fail(o, err)
		}
		var it wire.TeamItem
		if err := cl.do("GET", "/queue/"+url.PathEscape(ops[0]), nil, &it); err != nil {
			return fail(o, err)
		}
		if c.json {
			return printJSON(o, it)
		}
		fmt.Fprint(o.Stdout, teamview.Text(it, time.Now()))
		return ExitOK
	}}

type settleFlags struct {
	reviewerFlags
	note string
	ttl  time.Duration
}

func settleVerb(how string) *verb {
	v := &verb{path: "queue " + how}
	if how == "approve" {
		v.usage = "airlock team queue approve KEY [--for DURATION] [--note TEXT] [--json] --server URL --token R"
		v.summary = "approve an item: its machine lets the agent's verbatim retry run once, within --for, after its next sync"
	} else {
		v.usage = "airlock team queue reject KEY [--note TEXT] [--json] --server URL --token R"
		v.summary = "reject an item: its machine refuses the retry after its next sync"
	}
	v.flags = func(fs *flag.FlagSet) any {
		c := &settleFlags{}
		addReviewerFlags(fs, &c.reviewerFlags)
		fs.StringVar(&c.note, "note", "", "a `TEXT` kept with the decision")
		if how == "approve" {
			fs.DurationVar(&c.ttl, "for", time.Hour, "how long the approval lets the retry through (`DURATION`, at most 168h)")
		}
		return c
	}
	v.run = func(o Options, cv any, ops []string) int {
		c := cv.(*settleFlags)
		if err := operands(v.path, ops, "KEY"); err != nil {
			return fail(o, err)
		}
		if how == "approve" && (c.ttl <= 0 || c.ttl > 168*time.Hour) {
			return fail(o, &clierror.Usage{Msg: fmt.Sprintf("--for %s: an approval lasts more than 0 and at most 168h", c.ttl)})
		}
		cl, err := c.client(o, v.path)
		if err != nil {
			return fail(o, err)
		}
		var it wire.TeamItem
		in := wire.Verdict{Note: c.note, TTLSeconds: int64(c.ttl / time.Second)}
		if err := cl.do("POST", "/queue/"+url.PathEscape(ops[0])+"/"+how, in, &it); err != nil {
			return fail(o, err)
		}
		if c.json {
			return printJSON(o, it)
		}
		fmt.Fprintf(o.Stdout, "%s %s on machine %s", render.Line(it.Status, 40), render.Line(it.Key, 200), render.Line(it.Machine, 63))
		if it.Decision != nil {
			fmt.Fprintf(o.Stdout, " (decision %s, by %s)", render.Line(it.Decision.DecisionID, 64), render.Line(it.Decision.Reviewer, 63))
		}
		fmt.Fprintln(o.Stdout, "\nthe machine applies it at its next airlock team sync")
		return ExitOK
	}
	return v
}
