package teamcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/team/server"
	"github.com/airlock-dev/airlock/internal/team/store"
)

// DBEnv names the database when --db is not given: a URL with a password
// in argv is one every user of the machine can read in ps.
const DBEnv = "AIRLOCK_TEAM_DB"

// adminTimeout bounds an admin command against the database.
const adminTimeout = 30 * time.Second

type dbFlags struct{ db string }

func addDBFlag(fs *flag.FlagSet, c *dbFlags) {
	fs.StringVar(&c.db, "db", "", "the team database, a PostgreSQL `URL` (postgres://user@host/db); "+DBEnv+" when not given")
}

// dbURL is --db or the environment's, or a usage error.
func (c *dbFlags) url(o Options, verb string) (string, error) {
	if c.db != "" {
		return c.db, nil
	}
	if v := o.Getenv(DBEnv); v != "" {
		return v, nil
	}
	return "", &clierror.Usage{Msg: "airlock team " + verb + " needs the team database: --db URL",
		Hints: []string{"give --db postgres://airlock@localhost/airlock_team (or set " + DBEnv + ")",
			"a password is best kept in ~/.pgpass or PGPASSWORD rather than in the URL"}}
}

// dbError adds what to do to a database error.
func dbError(err error) error {
	switch {
	case errors.Is(err, store.ErrForeign):
		return &clierror.Usage{Msg: err.Error(), Hints: []string{"give the team server a database of its own: createdb airlock_team"}}
	case errors.Is(err, store.ErrNameTaken), errors.Is(err, server.ErrReserved):
		return &clierror.Usage{Msg: err.Error(), Hints: []string{"choose another name"}}
	case errors.Is(err, store.ErrNoSuchName):
		return &clierror.Usage{Msg: err.Error(), Hints: []string{"the names are those given to airlock team add-machine and add-reviewer"}}
	}
	return err
}

func addVerb(name, kind string) *verb {
	summary := "add a machine to the team and print its join token"
	usage := "airlock team add-machine NAME --db URL"
	if kind == "reviewer" {
		summary = "add a reviewer to the team and print the reviewer's token"
		usage = "airlock team add-reviewer NAME --db URL"
	}
	return &verb{path: name, usage: usage, summary: summary,
		flags: func(fs *flag.FlagSet) any { c := &dbFlags{}; addDBFlag(fs, c); return c },
		run: func(o Options, cv any, ops []string) int {
			c := cv.(*dbFlags)
			if err := operands(name, ops, "NAME"); err != nil {
				return fail(o, err)
			}
			url, err := c.url(o, name)
			if err != nil {
				return fail(o, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
			defer cancel()
			add := server.AddMachine
			if kind == "reviewer" {
				add = server.AddReviewer
			}
			tok, err := add(ctx, url, ops[0])
			if err != nil {
				return fail(o, dbError(err))
			}
			// The token alone on stdout, for a script to capture; what to
			// do with it on stderr. It is shown once: the database keeps
			// only its hash.
			fmt.Fprintln(o.Stdout, tok)
			if kind == "machine" {
				fmt.Fprintf(o.Stderr, "airlock team: machine %s added. On it, a human runs: airlock team join SERVER_URL --token TOKEN\n", ops[0])
			} else {
				fmt.Fprintf(o.Stderr, "airlock team: reviewer %s added. They review with: airlock team queue list --server SERVER_URL --token-file FILE (the token on its first line; - reads stdin), or log in at SERVER_URL/login with it\n", ops[0])
			}
			fmt.Fprintln(o.Stderr, "airlock team: the token is shown this once (the database keeps its SHA-256): hand it over privately")
			return ExitOK
		}}
}

var revokeVerb = &verb{path: "revoke", usage: "airlock team revoke NAME --db URL",
	summary: "revoke a machine's or a reviewer's token at once (what it did stays)",
	flags:   func(fs *flag.FlagSet) any { c := &dbFlags{}; addDBFlag(fs, c); return c },
	run: func(o Options, cv any, ops []string) int {
		c := cv.(*dbFlags)
		if err := operands("revoke", ops, "NAME"); err != nil {
			return fail(o, err)
		}
		url, err := c.url(o, "revoke")
		if err != nil {
			return fail(o, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
		defer cancel()
		kind, err := server.Revoke(ctx, url, ops[0])
		if err != nil {
			return fail(o, dbError(err))
		}
		fmt.Fprintf(o.Stdout, "revoked %s %s\n", kind, ops[0])
		return ExitOK
	}}
