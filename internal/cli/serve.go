package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/serve"
)

const serveHelp = `
Serve the review dashboard: the live queue, each held action in detail,
approve once or reject, make it a rule, reports by session and story, and
the journal's audit status.

The first line printed is the URL to open: it carries a login token that
changes at each start (also kept in the state directory's
secrets/serve.token while the server runs). The dashboard answers only to
the address it listens on, takes changes only from its own pages (CSRF
token, Origin), and listens on loopback unless told otherwise: a
non-loopback --listen needs --tls-cert and --tls-key, or --no-tls with
the reason.

Agents cannot run it: airlock's self-protection denies it, since a
dashboard the agent started is one it could click.

Exit status: 0 when stopped by a signal, 2 on a usage error.`

func runServe(e *env) int {
	listen := *e.flags.String("listen")
	cert, key := *e.flags.String("tls-cert"), *e.flags.String("tls-key")
	noTLS := *e.flags.String("no-tls")
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("--listen %q is not HOST:PORT", listen), Hints: []string{"airlock serve --listen 127.0.0.1:7777"}})
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("--listen %q names no single address; the dashboard answers only to the address it listens on", listen),
			Hints: []string{"give one address of this machine, e.g. --listen 127.0.0.1:7777 or --listen 192.168.1.10:7777 --tls-cert FILE --tls-key FILE"}})
	}
	if (cert == "") != (key == "") {
		return fail(e.stderr, &usageError{Msg: "--tls-cert and --tls-key go together"})
	}
	tls := cert != ""
	if !serve.IsLoopback(host) && !tls && noTLS == "" {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("--listen %s is not a loopback address, and the dashboard's login token and approvals would cross the network in clear", listen),
			Hints: []string{"add --tls-cert FILE --tls-key FILE", `or say why not: --no-tls "behind a VPN I trust"`}})
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"pick another port: --listen 127.0.0.1:PORT"}})
	}
	defer ln.Close()
	srv, err := serve.New(serve.Config{Journal: j, Addr: ln.Addr().String(), TLS: tls, Getenv: e.getenv})
	if err != nil {
		return fail(e.stderr, err)
	}
	remove, err := srv.WriteToken(policy.PathsFrom(e.getenv).StateDir)
	if err != nil {
		return fail(e.stderr, err)
	}
	defer remove()
	fmt.Fprintln(e.stdout, srv.LoginURL())
	if noTLS != "" && !tls {
		fmt.Fprintf(e.stderr, "airlock serve: warning: serving without TLS on %s because: %s\n", ln.Addr(), noTLS)
	}
	fmt.Fprintf(e.stderr, "airlock serve: open the URL above; Ctrl-C stops the dashboard\n")
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() {
		if tls {
			errc <- hs.ServeTLS(ln, cert, key)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fail(e.stderr, err)
		}
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(shut)
		hs.Close()
	}
	return ExitOK
}
