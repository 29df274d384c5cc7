package teamcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/serve"
	"github.com/airlock-dev/airlock/internal/team/server"
)

// KeyFile is the signing key's default place, under the state directory's
// secrets/, which self-protection keeps every agent tool call away from.
const KeyFile = "secrets/team-server.key"

// retentionEvery is how often the server archives settled items.
const retentionEvery = time.Hour

type serveFlags struct {
	dbFlags
	listen, key, cert, tlsKey, noTLS, public string
	retention                                int
}

var serveVerb = &verb{path: "serve",
	usage:   "airlock team serve --db URL [--listen 127.0.0.1:7780] [--key FILE] [--retention DAYS] [--tls-cert FILE --tls-key FILE | --no-tls REASON] [--public-url URL]",
	summary: "run the team server: the API machines and reviewers use, and the team dashboard (the first line printed is its admin URL)",
	flags: func(fs *flag.FlagSet) any {
		c := &serveFlags{}
		addDBFlag(fs, &c.dbFlags)
		fs.StringVar(&c.listen, "listen", "127.0.0.1:7780", "the `HOST:PORT` to listen on")
		fs.StringVar(&c.key, "key", "", "the signing key's `FILE` (PEM, mode 0600), created on first start (default: the state directory's "+KeyFile+")")
		fs.IntVar(&c.retention, "retention", 90, "archive items settled more than `DAYS` days ago (0 keeps them)")
		fs.StringVar(&c.cert, "tls-cert", "", "serve HTTPS with this certificate `FILE` (PEM)")
		fs.StringVar(&c.tlsKey, "tls-key", "", "the certificate's private key `FILE` (PEM)")
		fs.StringVar(&c.noTLS, "no-tls", "", "serve plain HTTP on a non-loopback address, and the `REASON`")
		fs.StringVar(&c.public, "public-url", "", "the `URL` people reach the server at through a reverse proxy (https://team.example.com)")
		return c
	},
	run: runServe,
}

func runServe(o Options, cv any, ops []string) int {
	c := cv.(*serveFlags)
	if len(ops) > 0 {
		return fail(o, &clierror.Usage{Msg: fmt.Sprintf("airlock team serve takes no operands, got %q", ops), Hints: []string{"airlock team serve --help"}})
	}
	dbURL, err := c.url(o, "serve")
	if err != nil {
		return fail(o, err)
	}
	host, _, err := net.SplitHostPort(c.listen)
	if err != nil {
		return fail(o, &clierror.Usage{Msg: fmt.Sprintf("--listen %q is not HOST:PORT", c.listen), Hints: []string{"airlock team serve --listen 127.0.0.1:7780"}})
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return fail(o, &clierror.Usage{Msg: fmt.Sprintf("--listen %q names no single address; the dashboard answers only to the address it listens on", c.listen),
			Hints: []string{"give one address of this machine, e.g. --listen 10.0.0.5:7780 --tls-cert FILE --tls-key FILE", "behind a reverse proxy: --listen 127.0.0.1:7780 --public-url https://team.example.com"}})
	}
	if (c.cert == "") != (c.tlsKey == "") {
		return fail(o, &clierror.Usage{Msg: "--tls-cert and --tls-key go together"})
	}
	tls := c.cert != ""
	if !serve.IsLoopback(host) && !tls && c.noTLS == "" {
		return fail(o, &clierror.Usage{Msg: fmt.Sprintf("--listen %s is not a loopback address, and tokens and decisions would cross the network in clear", c.listen),
			Hints: []string{"add --tls-cert FILE --tls-key FILE", "or listen on loopback behind a TLS reverse proxy: --listen 127.0.0.1:7780 --public-url https://team.example.com",
				`or say why not: --no-tls "a network I trust"`}})
	}
	if c.retention < 0 || c.retention > 36500 {
		return fail(o, &clierror.Usage{Msg: fmt.Sprintf("--retention %d: give a number of days from 0 (keep) to 36500", c.retention)})
	}
	keyPath := c.key
	if keyPath == "" {
		state := policy.PathsFrom(o.Getenv).StateDir
		if state == "" {
			return fail(o, &clierror.Usage{Msg: "no state directory for the signing key", Hints: []string{"give --key FILE, or set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}})
		}
		keyPath = filepath.Join(state, filepath.FromSlash(KeyFile))
	}

	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return fail(o, &clierror.Usage{Msg: err.Error(), Hints: []string{"pick another port: --listen 127.0.0.1:PORT"}})
	}
	defer ln.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	openCtx, cancel := context.WithTimeout(ctx, time.Minute)
	srv, err := server.Open(openCtx, dbURL, server.Options{KeyFile: keyPath, Addr: ln.Addr().String(), TLS: tls, PublicURL: c.public,
		Retention: time.Duration(c.retention) * 24 * time.Hour})
	cancel()
	if err != nil {
		return fail(o, dbError(err))
	}
	defer srv.Close()

	// The first line is the admin URL, new at each start; the second the
	// key's fingerprint, which a human compares with what "airlock team
	// join" shows on each machine.
	adminURL := srv.AdminURL()
	fmt.Fprintln(o.Stdout, adminURL)
	fmt.Fprintf(o.Stdout, "fingerprint %s\n", srv.Fingerprint())
	how := "loaded from"
	if srv.KeyCreated() {
		how = "created in"
	}
	fmt.Fprintf(o.Stderr, "airlock team serve: signing key %s %s (keep it: machines pinned it at join)\n", how, keyPath)
	fmt.Fprintf(o.Stderr, "airlock team serve: the admin link above logs one browser in, once, within %s; reviewers log in at %s/login with their token\n", serve.CodeLife, srv.BaseURL())
	fmt.Fprintf(o.Stderr, "airlock team serve: machines join with: airlock team join %s --token TOKEN (airlock team add-machine NAME --db URL makes one)\n", srv.BaseURL())
	if c.noTLS != "" && !tls {
		fmt.Fprintf(o.Stderr, "airlock team serve: warning: serving without TLS on %s because: %s\n", ln.Addr(), c.noTLS)
	}
	if o.Ready != nil {
		o.Ready(adminURL)
	}

	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() {
		if tls {
			errc <- hs.ServeTLS(ln, c.cert, c.tlsKey)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	go srv.RunRetention(rctx, retentionEvery, func(n int, err error) {
		if err != nil {
			fmt.Fprintf(o.Stderr, "airlock team serve: retention: %v\n", err)
		} else {
			fmt.Fprintf(o.Stderr, "airlock team serve: retention: archived %d item(s) settled more than %d days ago\n", n, c.retention)
		}
	})
	status := ExitOK
	select {
	case err := <-errc:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			status = fail(o, err)
		}
	case <-ctx.Done():
	case <-o.Stop:
	}
	rcancel()
	shut, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	hs.Shutdown(shut)
	hs.Close()
	return status
}
