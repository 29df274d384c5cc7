// Package egresscmd is the command line of airlock-proxy, the egress
// proxy's binary ("airlock proxy" starts it): a long-lived service that
// a sandbox's programs reach the network through (Claude Code's
// sandbox.network.httpProxyPort). It links TLS and an HTTP stack, which
// the airlock binary, run on every tool call, must not.
package egresscmd

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/contain/egress"
	"github.com/airlock-dev/airlock/internal/contain/record"
)

// Usage is what --help prints ("airlock help proxy" says more).
const Usage = `usage: airlock proxy [--listen 127.0.0.1:PORT | unix:PATH] [--ca-cert FILE] [--cwd DIR] [--json]

  --listen ADDR    where to listen: HOST:PORT on loopback, or unix:PATH
                   (default 127.0.0.1:3128)
  --ca-cert FILE   write the certificates clients inside must trust here:
                   airlock's authority and the system's roots (default:
                   egress-ca.crt in airlock's state directory)
  --cwd DIR        the project the requests are made for: its policy applies
                   and approvals bind to it (default: this directory)
  --json           print the first line as JSON: listen, ca_cert, env

The first line printed is where it listens. See docs/CONTAIN.md.
`

// Options are what a start of the proxy is given.
type Options struct {
	Args           []string
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Getwd          func() (string, error)
	// Stop, when set, stops the proxy as a signal would (tests).
	Stop <-chan struct{}
}

type config struct {
	listen, caCert, cwd string
	json                bool
	// listenFD, firstFD and readyFD are airlock-run's lazy door
	// (docs/CONTAIN.md, "Network: one door"): the runner made the
	// listener (fd listenFD) and accepted the first connection (fd
	// firstFD), which is served first; one byte on readyFD says the
	// proxy serves. -1: not given.
	listenFD, firstFD, readyFD int
}

func parse(o Options) (*config, error) {
	fs := flag.NewFlagSet("airlock proxy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := &config{}
	fs.StringVar(&c.listen, "listen", "127.0.0.1:3128", "")
	fs.StringVar(&c.caCert, "ca-cert", "", "")
	fs.StringVar(&c.cwd, "cwd", "", "")
	fs.BoolVar(&c.json, "json", false, "")
	fs.IntVar(&c.listenFD, "listen-fd", -1, "")
	fs.IntVar(&c.firstFD, "first-fd", -1, "")
	fs.IntVar(&c.readyFD, "ready-fd", -1, "")
	if err := fs.Parse(o.Args); errors.Is(err, flag.ErrHelp) {
		return nil, err
	} else if err != nil {
		return nil, &clierror.Usage{Msg: err.Error(), Hints: []string{"airlock proxy --help"}}
	}
	if fs.NArg() > 0 {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("proxy takes no operands, got %q", fs.Args()), Hints: []string{"airlock proxy --help"}}
	}
	if c.listenFD >= 0 {
		if c.listenFD < 3 || c.firstFD == 0 || c.firstFD == 1 || c.firstFD == 2 || c.readyFD == 0 || c.readyFD == 1 || c.readyFD == 2 {
			return nil, &clierror.Usage{Msg: "--listen-fd, --first-fd and --ready-fd name inherited descriptors from 3 on",
				Hints: []string{"airlock run starts the proxy this way; to run one yourself: airlock proxy --listen 127.0.0.1:3128"}}
		}
		return c, nil
	}
	if c.firstFD >= 0 || c.readyFD >= 0 {
		return nil, &clierror.Usage{Msg: "--first-fd and --ready-fd go with --listen-fd", Hints: []string{"airlock proxy --help"}}
	}
	if path, ok := strings.CutPrefix(c.listen, "unix:"); ok {
		if path == "" {
			return nil, &clierror.Usage{Msg: "--listen unix: needs a socket path", Hints: []string{"airlock proxy --listen unix:/run/user/1000/airlock-egress.sock"}}
		}
		return c, nil
	}
	host, _, err := net.SplitHostPort(c.listen)
	if err != nil {
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--listen %q is not HOST:PORT or unix:PATH", c.listen), Hints: []string{"airlock proxy --listen 127.0.0.1:3128"}}
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		// Anyone who reaches the port sends through it in the user's name
		// and fills the user's queue: it answers on loopback only.
		return nil, &clierror.Usage{Msg: fmt.Sprintf("--listen %s is not a loopback address: the proxy sends in your name, so it listens only where this machine's own programs reach it", c.listen),
			Hints: []string{"--listen 127.0.0.1:3128, or a Unix socket: --listen unix:PATH"}}
	}
	return c, nil
}

// Main runs the proxy until a signal (or o.Stop) and returns the exit
// status: 0 when stopped, 1 when it cannot start, 2 on a usage error.
func Main(o Options) int {
	c, err := parse(o)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(o.Stdout, Usage)
		return 0
	}
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	if c.cwd == "" {
		if c.cwd, err = o.Getwd(); err != nil {
			return clierror.Print(o.Stderr, err)
		}
	}
	if c.cwd, err = filepath.Abs(c.cwd); err != nil {
		return clierror.Print(o.Stderr, err)
	}
	opts, _, err := egress.Wired(o.Getenv, c.cwd)
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	p, err := egress.New(opts)
	if err != nil {
		return clierror.Print(o.Stderr, err)
	}
	if c.listenFD >= 0 {
		return serveInherited(c, o, p)
	}
	if c.caCert == "" {
		c.caCert = filepath.Join(opts.StateDir, "egress-ca.crt")
	}
	// The file clients trust holds airlock's authority and the system's
	// roots, which the passthrough hosts' own certificates need.
	if err := os.WriteFile(c.caCert, p.CABundlePEM(o.Getenv("SSL_CERT_FILE")), 0o644); err != nil {
		return clierror.Print(o.Stderr, err)
	}
	ln, where, err := listen(c.listen)
	if err != nil {
		return clierror.Print(o.Stderr, &clierror.Usage{Msg: err.Error(), Hints: []string{"pick another address: --listen 127.0.0.1:PORT or --listen unix:PATH"}})
	}
	defer ln.Close()
	// A TCP port is what Claude Code's sandbox is pointed at
	// (sandbox.network.httpProxyPort): the record, in airlock's state,
	// is how the hook knows that port is this proxy and not another
	// program (record.CheckProxy). A proxy that cannot record itself
	// still serves; calls through that port are then not taken as
	// contained.
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		if remove, err := record.WriteProxy(opts.StateDir, tcp.Port, where); err != nil {
			fmt.Fprintf(o.Stderr, "airlock proxy: warning: cannot record this proxy in airlock's state (%v): Claude Code's Bash calls through it will not count as contained\n", err)
		} else {
			defer remove()
		}
	}
	if c.json {
		b, _ := json.Marshal(struct {
			Listen string   `json:"listen"`
			CACert string   `json:"ca_cert"`
			Env    []string `json:"env"`
		}{where, c.caCert, egress.CAEnv(c.caCert)})
		fmt.Fprintf(o.Stdout, "%s\n", b)
	} else {
		fmt.Fprintln(o.Stdout, where)
		fmt.Fprintf(o.Stderr, "airlock proxy: clients inside trust %s (%s); Ctrl-C stops the proxy\n", c.caCert, strings.Join(egress.CAEnv(c.caCert)[:2], ", ")+", …")
	}
	code := serveUntilStopped(o, func() error { return p.Serve(ln) }, nil)
	p.Close()
	return code
}

// serveUntilStopped runs serve until it fails, SIGINT or SIGTERM comes,
// or o.Stop closes; ready, when set, runs once serving has started.
func serveUntilStopped(o Options, serve func() error, ready func()) int {
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	errc := make(chan error, 1)
	go func() { errc <- serve() }()
	if ready != nil {
		ready()
	}
	select {
	case err := <-errc:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return clierror.Print(o.Stderr, err)
		}
	case <-sigc:
	case <-o.Stop:
	}
	return 0
}

// serveInherited is airlock-run's lazy door: the runner made the
// listener in its run directory (bound read-only in the sandbox) and
// started this process at the first connection, which it hands over
// too; connections made meanwhile wait in the listener's backlog. It
// prints nothing on stdout (the command's), writes the bundle only when
// --ca-cert names one (the runner wrote it before the sandbox started),
// says it serves with one byte on --ready-fd, and serves until SIGTERM,
// when the runner's run ends.
func serveInherited(c *config, o Options, p *egress.Proxy) int {
	defer p.Close()
	if c.caCert != "" {
		if err := os.WriteFile(c.caCert, p.CABundlePEM(o.Getenv("SSL_CERT_FILE")), 0o644); err != nil {
			return clierror.Print(o.Stderr, err)
		}
	}
	lf := os.NewFile(uintptr(c.listenFD), "listener")
	ln, err := net.FileListener(lf)
	lf.Close()
	if err != nil {
		return clierror.Print(o.Stderr, fmt.Errorf("the inherited listener: %w", err))
	}
	defer ln.Close()
	var first net.Conn
	if c.firstFD >= 0 {
		ff := os.NewFile(uintptr(c.firstFD), "first connection")
		first, err = net.FileConn(ff)
		ff.Close()
		if err != nil {
			return clierror.Print(o.Stderr, fmt.Errorf("the first connection: %w", err))
		}
	}
	var ready func()
	if c.readyFD >= 0 {
		ready = func() {
			rf := os.NewFile(uintptr(c.readyFD), "ready")
			_, _ = rf.Write([]byte{1})
			rf.Close()
		}
	}
	return serveUntilStopped(o, func() error { return p.Serve(&firstListener{Listener: ln, first: first}) }, ready)
}

// firstListener hands out first, then ln's connections.
type firstListener struct {
	net.Listener
	first net.Conn
	once  sync.Once
}

func (l *firstListener) Accept() (net.Conn, error) {
	var c net.Conn
	l.once.Do(func() { c, l.first = l.first, nil })
	if c != nil {
		return c, nil
	}
	return l.Listener.Accept()
}

// listen opens addr: HOST:PORT, or unix:PATH (a stale socket left by a
// proxy that died is replaced; a live one is not).
func listen(addr string) (net.Listener, string, error) {
	path, ok := strings.CutPrefix(addr, "unix:")
	if !ok {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, "", err
		}
		return ln, ln.Addr().String(), nil
	}
	if st, err := os.Lstat(path); err == nil && st.Mode().Type() == os.ModeSocket {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, "", fmt.Errorf("%s is in use by a running proxy", path)
		}
		os.Remove(path)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, "", err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, "", err
	}
	return ln, "unix:" + path, nil
}
