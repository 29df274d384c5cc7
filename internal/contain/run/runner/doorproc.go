//go:build linux

package runner

import (
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// DoorBinary is the egress proxy's own binary (cmd/airlock-proxy),
// beside airlock-run: the door of a run whose Options name it
// (DoorProgram).
const DoorBinary = "airlock-proxy"

// doorProc is the door as a process of its own: airlock-proxy, given the
// listener the runner made in the run directory (bound read-only inside).
// airlock-run does not link the proxy (TLS, x509, net/http, the policy),
// which cost about a millisecond of package initialisation on every start,
// and a command that makes no request pays nothing for the door: the
// proxy starts at the sandbox's first connection (lazy), which the runner
// accepts and hands over with the listener; later connections wait in the
// listener's backlog meanwhile. Nothing reaches the network but through
// the proxy: until it serves, a connection waits; if it cannot start, the
// runner kills the sandbox, its connections still unanswered, and the run
// ends with exit 2 (start, late). When airlock's authority does not exist
// yet (the first run makes it), the proxy is started as the sandbox
// starts and the bridge waits for it, as for an in-process door (eager).
// docs/BENCHMARKS.md, containment start-up, round 4.
type doorProc struct {
	prog   string
	ln     *net.UnixListener
	env    []string
	cwd    string
	stderr io.Writer

	mu      sync.Mutex
	p       *proc
	held    *os.File // the first connection, when the proxy failed
	stopped bool
	settled chan struct{} // closed once the lazy accept has ended
}

func newDoorProc(prog, sock string, env []string, cwd string, stderr io.Writer) (*doorProc, error) {
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return nil, err
	}
	// The socket stays in the run directory when the runner's own copy
	// of the listener is closed: the proxy serves its copy.
	ln.SetUnlinkOnClose(false)
	return &doorProc{prog: prog, ln: ln, env: env, cwd: cwd, stderr: stderr}, nil
}

// lazy accepts the sandbox's first connection and starts the proxy with
// it. The channel receives an error when the proxy could not start.
func (d *doorProc) lazy() <-chan error {
	errc := make(chan error, 1)
	d.settled = make(chan struct{})
	go func() {
		defer close(d.settled)
		c, err := d.ln.AcceptUnix()
		if err != nil {
			return // the run ended without a request
		}
		f, err := c.File()
		c.Close()
		if err == nil {
			err = d.start(f, "")
		}
		if err != nil {
			// The connection and the listener stay open, unanswered,
			// until the run's end (stop): the runner ends the sandbox
			// first, so the command sees no failure to go on from.
			d.mu.Lock()
			d.held = f
			d.mu.Unlock()
			errc <- err
			return
		}
		f.Close()
	}()
	return errc
}

// start starts the proxy on the listener (and first, the connection
// accepted, when not nil) and returns once it serves, or why it did not.
// bundle, when not "", is where it writes the CA bundle first.
func (d *doorProc) start(first *os.File, bundle string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return errors.New("the run has ended")
	}
	lf, err := d.ln.File()
	if err != nil {
		return err
	}
	defer lf.Close()
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer readyR.Close()
	argv := []string{d.prog, "--listen-fd", "3", "--ready-fd", "4", "--cwd", d.cwd}
	extra := []*os.File{lf, readyW}
	if first != nil {
		argv = append(argv, "--first-fd", "5")
		extra = append(extra, first)
	}
	if bundle != "" {
		argv = append(argv, "--ca-cert", bundle)
	}
	// Its own process group: a ^C at the terminal is the command's (the
	// runner forwards it into the sandbox), not the door's. It ends with
	// the runner.
	sys := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	p, err := spawn(d.prog, argv, d.env, nil, nil, d.stderr, extra, sys)
	readyW.Close()
	if err != nil {
		return err
	}
	d.p = p
	b := make([]byte, 1)
	if n, _ := readyR.Read(b); n == 1 {
		return nil
	}
	ws, _ := p.wait()
	d.p = nil
	return fmt.Errorf("%s ended before it served (%s; its message, if any, is above)", DoorBinary, describe(ws))
}

// stop ends the proxy (SIGTERM: it closes its connections and leaves)
// and the runner's listener, once the run is over.
func (d *doorProc) stop() {
	d.ln.Close()
	if d.settled != nil {
		<-d.settled
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	if d.held != nil {
		d.held.Close()
	}
	if d.p == nil {
		return
	}
	_ = syscall.Kill(d.p.pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_, _ = d.p.wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(d.p.pid, syscall.SIGKILL)
		<-done
	}
}

// caFile is egress.CAFile (the authority's certificate and key in
// airlock's state; this package does not link the proxy's):
// TestLazyBundleIsTheDoors checks the two agree.
const caFile = "secrets/egress-ca.pem"

// doorRoots are where the proxy looks for the system's roots
// (egress.systemBundles), after the proxy's own SSL_CERT_FILE.
var doorRoots = []string{
	"/etc/ssl/certs/ca-certificates.crt",
	"/etc/pki/tls/certs/ca-bundle.crt",
	"/etc/ssl/ca-bundle.pem",
	"/etc/pki/tls/cacert.pem",
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
	"/etc/ssl/cert.pem",
}

// LazyBundle is the CA bundle the proxy would write (its
// egress.Proxy.CABundlePEM: the authority's certificate, then the first
// system roots found), made without the proxy from the authority's file
// in stateDir; ok is false when there is no authority yet (the proxy makes
// it on its first start). The private key is read, never written.
func LazyBundle(stateDir, sslCertFile string) (bundle []byte, ok bool) {
	if !filepath.IsAbs(stateDir) {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(stateDir, filepath.FromSlash(caFile)))
	if err != nil {
		return nil, false
	}
	var cert []byte
	for {
		var b *pem.Block
		if b, data = pem.Decode(data); b == nil {
			break
		}
		if b.Type == "CERTIFICATE" {
			cert = pem.EncodeToMemory(b)
		}
	}
	if cert == nil {
		return nil, false
	}
	for _, f := range append([]string{sslCertFile}, doorRoots...) {
		if f == "" {
			continue
		}
		if b, err := os.ReadFile(f); err == nil && len(b) > 0 {
			if cert[len(cert)-1] != '\n' {
				cert = append(cert, '\n')
			}
			return append(cert, b...), true
		}
	}
	return cert, true
}
