// Package servecmd is the command line of airlock-serve, the dashboard's
// binary ("airlock serve" starts it). The dashboard links an HTTP server
// and templates, which the airlock binary must not: it answers every tool
// call of every agent, and pays for every package it links on each one.
package servecmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/serve"
)

// Usage is what --help prints ("airlock help serve" says more).
const Usage = `usage: airlock serve [--listen 127.0.0.1:7777] [--tls-cert FILE --tls-key FILE | --no-tls REASON]

  --listen HOST:PORT   the address to listen on (default 127.0.0.1:7777)
  --tls-cert FILE      serve HTTPS with this certificate (PEM)
  --tls-key FILE       the certificate's private key (PEM)
  --no-tls REASON      serve plain HTTP on a non-loopback address, and why

The first line printed is the URL to open. See docs/DASHBOARD.md.
`

// Options are what a start of the dashboard is given.
type Options struct {
	Args           []string
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Stop, when set, stops the server as a signal would (tests).
	Stop <-chan struct{}
}

// config is a start's checked command line.
type config struct {
	listen, cert, key, noTLS string
}

// parse reads and checks the flags: a non-loopback address needs TLS or
// a stated reason, and an unspecified address is refused.
func parse(o Options) (*config, error) {
	fs := flag.NewFlagSet("airlock serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := &config{}
	fs.StringVar(&c.listen, "listen", "127.0.0.1:7777", "")
	fs.StringVar(&c.cert, "tls-cert", "", "")
	fs.StringVar(&c.key, "tls-key", "", "")
	fs.StringVar(&c.noTLS, "no-tls", "", "")
	if err := fs.Parse(o.Args); errors.Is(err, flag.ErrHelp) {
		return nil, err
	} else if err != nil {
		return nil, &clierror.Usage{Msg: err.Error(), Hints: []string{"airlock serve --help"}}
	}
	if fs.NArg() > 0 {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("serve takes no operands, got %q", fs.Args()), Hints: []string{"airlock serve --help"}}
	}
	host, _, err := net.SplitHostPort(c.listen)
	if err != nil {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--listen %q is not HOST:PORT", c.listen), Hints: []string{"airlock serve --listen 127.0.0.1:7777"}}
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--listen %q names no single address; the dashboard answers only to the address it listens on", c.listen),
			Hints: []string{"give one address of this machine, e.g. --listen 127.0.0.1:7777 or --listen 192.168.1.10:7777 --tls-cert FILE --tls-key FILE"}}
	}
	if (c.cert == "") != (c.key == "") {
		return nil, &clierror.Usage{Msg: "--tls-cert and --tls-key go together"}
	}
	if !serve.IsLoopback(host) && c.cert == "" && c.noTLS == "" {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--listen %s is not a loopback address, and the dashboard's login token and approvals would cross the network in clear", c.listen),
			Hints: []string{"add --tls-cert FILE --tls-key FILE", `or say why not: --no-tls "behind a VPN I trust"`}}
	}
	return c, nil
}

// Main runs the dashboard until a signal (or o.Stop) and returns the exit
// status: 0 when stopped, 2 on a usage error.
func Main(o Options) int {
	c, err := parse(o)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(o.Stdout, Usage)
		return 0
	}
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	tls := c.cert != ""
	state := policy.PathsFrom(o.Getenv).StateDir
	if state == "" {
		return clierror.Print(o.Stderr, &clierror.Usage{Msg: "no state directory", Hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}})
	}
	j, err := journal.Open(journal.DirIn(state))
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return clierror.Print(o.Stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{"pick another port: --listen 127.0.0.1:PORT"}})
	}
	defer ln.Close()
	srv, err := serve.New(serve.Config{Journal: j, Addr: ln.Addr().String(), TLS: tls, Getenv: o.Getenv})
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	remove, err := srv.WriteToken(state)
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	defer remove()
	fmt.Fprintln(o.Stdout, srv.LoginURL())
	if c.noTLS != "" && !tls {
		fmt.Fprintf(o.Stderr, "airlock serve: warning: serving without TLS on %s because: %s\n", ln.Addr(), c.noTLS)
	}
	fmt.Fprintf(o.Stderr, "airlock serve: open the link above: it logs one browser in, once, within %s (the token itself is never in a link). Later, open /login and paste the token kept in %s. Ctrl-C stops the dashboard\n", serve.CodeLife, filepath.Join(state, filepath.FromSlash(serve.TokenFile)))
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() {
		if tls {
			errc <- hs.ServeTLS(ln, c.cert, c.key)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return clierror.Print(o.Stderr, err)
		}
	case <-ctx.Done():
	case <-o.Stop:
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hs.Shutdown(shut)
	hs.Close()
	return 0
}
