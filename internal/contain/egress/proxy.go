// Package egress is airlock's egress proxy: the one door to the network
// from inside containment (airlock run, or Claude Code's sandbox pointed
// at it). Every request through it, HTTP or HTTPS (inspected with a
// per-installation certificate authority), becomes a Net action that the
// same decision pipeline as the hooks decides: reads pass, writes and
// data-shaped reads are held in the review queue and answered 403 with
// the queue id, and a human's approval lets the identical request through
// once. Hosts the policy lists as passthrough (the agent's own model API)
// are tunnelled without inspection.
//
// It lives off the hook's path: the hook binary links no TLS and no
// proxy (cmd/airlock-hook/deps_test.go, cmd/airlock's deps test). The
// service is the airlock-proxy binary ("airlock proxy"); airlock run
// starts it in process.
package egress

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/egress/egressconfig"
	"github.com/airlock-dev/airlock/internal/pipeline"
)

// DefaultMaxBody is the largest request body the proxy reads to decide
// on (it must see the whole body to digest it); a larger one is refused
// with the limit named.
const DefaultMaxBody = 64 << 20

// Agent is the agent name the proxy's actions carry in the journal.
const Agent = "egress"

// Options configure a Proxy.
type Options struct {
	// StateDir is airlock's state directory: the certificate authority
	// lives in its secrets (CAFile). Required.
	StateDir string
	// Policy is the "egress:" section in effect (egressconfig.Of); nil
	// means the defaults: nothing passed through, any host read,
	// inspection on.
	Policy *egressconfig.Config
	// Decide runs a request's Net action through the decision pipeline
	// and records it: (*pipeline.Pipeline).Decide, whose Recorder is the
	// journal. Required: a proxy that cannot decide lets nothing out.
	Decide func(*pipeline.Request) pipeline.Outcome
	// Origin, when set, names the command that made a request; by default
	// the user name of the request's Proxy-Authorization (base64 of the
	// command, as sandbox-runtime sends it) is used. Agent-controlled
	// text either way: shown to the human, never trusted.
	Origin func(r *http.Request) string
	// Cwd is the project directory the requests are made for: the
	// pipeline loads its policy from there and approvals bind to it.
	Cwd string
	// Session is the session the requests belong to, if known.
	Session string
	// UpstreamTLS configures the proxy's own TLS client to the real
	// servers (nil: the system's roots). Tests set RootCAs.
	UpstreamTLS *tls.Config
	// MaxBody bounds the request body read to decide (DefaultMaxBody
	// when 0).
	MaxBody int64
	// AllowLoopback lets the proxy connect to this machine's loopback
	// (the policy's allow_loopback, or a test's sinks). Off, a request
	// or tunnel to 127.0.0.0/8, ::1, 0.0.0.0, :: or an IPv4-mapped
	// loopback address fails at connect, whatever name resolved to it.
	AllowLoopback bool
}

// Proxy is the egress proxy. Make one with New, serve it with Serve.
type Proxy struct {
	o         Options
	ca        *authority
	transport *http.Transport
	srv       *http.Server

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// New makes a proxy: it loads the certificate authority from the state
// directory's secrets, making it on first use.
func New(o Options) (*Proxy, error) {
	if o.Decide == nil {
		return nil, errors.New("egress: no decision pipeline (Options.Decide)")
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	ca, err := loadAuthority(o.StateDir)
	if err != nil {
		return nil, err
	}
	p := &Proxy{o: o, ca: ca, conns: map[net.Conn]struct{}{}}
	p.transport = &http.Transport{
		// The proxy is the way out: it never goes through another proxy
		// named in its own environment.
		Proxy:               nil,
		DialContext:         p.dialer().DialContext,
		TLSClientConfig:     o.UpstreamTLS.Clone(),
		TLSHandshakeTimeout: 30 * time.Second,
		// What the client asked for comes back as the server sent it.
		DisableCompression:  true,
		MaxIdleConns:        128,
		MaxIdleConnsPerHost: 32,
		IdleConnTimeout:     90 * time.Second,
		// Larger buffers than the default 4 KiB: fewer system calls per
		// byte on a download (docs/BENCHMARKS.md).
		ReadBufferSize:  64 << 10,
		WriteBufferSize: 64 << 10,
	}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serveHTTP), ReadHeaderTimeout: 60 * time.Second}
	return p, nil
}

// dialer is how the proxy connects out. The address is checked after the
// name is resolved, at connect (net.Dialer.Control), so no spelling of
// the host (localhost, 0.0.0.0, [::ffff:127.0.0.1], a name that resolves
// to 127.0.0.1) reaches this machine's own services: inside airlock run
// the sandbox's loopback is its own, and the host's is not the world.
func (p *Proxy) dialer() *net.Dialer {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	if !p.o.AllowLoopback {
		d.Control = refuseLoopback
	}
	return d
}

// errLoopback says a request was aimed at this machine's loopback.
var errLoopback = errors.New("airlock's egress proxy does not connect to this machine's own loopback (the dashboard and local services listen there); a user's policy can allow it with egress: allow_loopback: true")

func refuseLoopback(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.IsLoopback() || ip.IsUnspecified() {
		return errLoopback
	}
	return nil
}

// Serve accepts proxy connections on l (a Unix or TCP listener) until
// Close. It returns http.ErrServerClosed after Close.
func (p *Proxy) Serve(l net.Listener) error { return p.srv.Serve(l) }

// Close stops every listener and every connection, tunnels included.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	err := p.srv.Close()
	p.transport.CloseIdleConnections()
	return err
}

// CACertPEM is the public certificate of the proxy's authority, for
// clients inside to trust (CAEnv).
func (p *Proxy) CACertPEM() []byte { return append([]byte(nil), p.ca.certPEM...) }

// CAEnv are the environment variables that make the common clients
// trust the certificate file certPath: OpenSSL and Go (SSL_CERT_FILE),
// Node, git, Python requests, curl, pip, AWS and gcloud SDKs, Deno.
func CAEnv(certPath string) []string {
	var out []string
	for _, k := range []string{
		"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO", "REQUESTS_CA_BUNDLE",
		"CURL_CA_BUNDLE", "PIP_CERT", "AWS_CA_BUNDLE", "CLOUDSDK_CORE_CUSTOM_CA_CERTS_FILE",
		"DENO_CERT", "HTTPLIB2_CA_CERTS", "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH",
	} {
		out = append(out, k+"="+certPath)
	}
	return out
}

// track keeps a hijacked connection until done, so that Close ends it.
func (p *Proxy) track(c net.Conn) (ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// target is where a request goes: what the decision names and what the
// proxy dials are the same, whatever Host header the client sends.
type target struct {
	scheme, host string
	port         int
}

func (t target) hostport() string { return net.JoinHostPort(t.host, strconv.Itoa(t.port)) }

// authority is host[:port] as it is written in a URL: the port is left
// out when it is the scheme's own.
func (t target) authority() string {
	if t.scheme == "http" && t.port == 80 || t.scheme == "https" && t.port == 443 {
		if strings.Contains(t.host, ":") {
			return "[" + t.host + "]"
		}
		return t.host
	}
	return t.hostport()
}

// parseTarget reads host[:port] with the scheme's default port.
func parseTarget(scheme, hostport string) (target, error) {
	t := target{scheme: scheme, port: 80}
	if scheme == "https" {
		t.port = 443
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	} else {
		n, err := strconv.Atoi(port)
		if err != nil || n <= 0 || n > 65535 {
			return t, errors.New("bad port in " + strconv.Quote(clip(hostport, 100)))
		}
		t.port = n
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" || strings.ContainsAny(host, "/?#@ \t\r\n") {
		return t, errors.New("bad host " + strconv.Quote(clip(hostport, 100)))
	}
	if ip := net.ParseIP(host); ip != nil {
		// One spelling per address, as the policy's host lists write it.
		host = ip.String()
	}
	t.host = host
	return t, nil
}

// serveHTTP is the proxy's front door: CONNECT tunnels and plain-HTTP
// proxy requests (absolute URLs).
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	origin := p.origin(r)
	if r.Method == http.MethodConnect {
		p.connect(w, r, origin)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		msg := "this is airlock's egress proxy: send HTTP requests to it as a proxy (absolute http:// URLs) and HTTPS through CONNECT"
		if r.URL.Scheme != "" && r.URL.Scheme != "http" {
			msg = "airlock's egress proxy takes http:// URLs in proxy form and https:// only through CONNECT, not " + clip(r.URL.Scheme, 20) + "://"
		}
		writeRaw(w, http.StatusBadRequest, "Bad Request", msg+"\n", "")
		return
	}
	t, err := parseTarget("http", r.URL.Host)
	if err != nil {
		writeRaw(w, http.StatusBadRequest, "Bad Request", "airlock's egress proxy: "+err.Error()+"\n", "")
		return
	}
	p.request(w, r, t, origin)
}

// origin names the command that made r (agent-controlled text).
func (p *Proxy) origin(r *http.Request) string {
	if p.o.Origin != nil {
		return clip(p.o.Origin(r), maxOrigin)
	}
	return clip(originFromAuth(r.Header.Get("Proxy-Authorization")), maxOrigin)
}

// connect handles a CONNECT: passthrough hosts are tunnelled as they
// are; with inspection on, the tunnel is opened and what runs in it is
// inspected (TLS with a minted certificate, or plain HTTP), else it is
// decided as a whole.
func (p *Proxy) connect(w http.ResponseWriter, r *http.Request, origin string) {
	t, err := parseTarget("https", r.Host)
	if err != nil {
		writeRaw(w, http.StatusBadRequest, "Bad Request", "airlock's egress proxy: "+err.Error()+"\n", "")
		return
	}
	if p.o.Policy.IsPassthrough(t.host) {
		// Trusted by the policy: not inspected, not decided.
		p.tunnel(w, t, nil)
		return
	}
	if !p.o.Policy.Inspect() {
		out := p.decideTunnel(t, origin)
		if out.Verdict.Decision.Holds() {
			p.refuse(w, out, "CONNECT "+t.hostport())
			return
		}
		p.tunnel(w, t, nil)
		return
	}
	conn, br, ok := p.hijack(w)
	if !ok {
		return
	}
	defer p.untrack(conn)
	if _, err := io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	// The client speaks first in every protocol worth inspecting; one
	// that does not within the time is not kept waiting for ever.
	conn.SetReadDeadline(time.Now().Add(60 * time.Second))
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	conn.SetReadDeadline(time.Time{})
	inner := &bufferedConn{Conn: conn, r: br}
	switch {
	case first[0] == 0x16: // a TLS handshake record
		tc := tls.Server(inner, &tls.Config{
			// The certificate names the CONNECT host, whatever name the
			// client puts in its hello: a client that meant another name
			// fails to verify rather than reach a host nobody decided on.
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return p.ca.leaf(t.host) },
			NextProtos:     []string{"http/1.1"},
			// Full-size records from the first byte: the client is on this
			// machine, where small first records buy no latency and cost a
			// record (and a system call) per packet.
			DynamicRecordSizingDisabled: true,
		})
		p.serveInner(tc, t, origin)
	case looksHTTP(br): // plain HTTP in the tunnel
		t.scheme = "http"
		p.serveInner(inner, t, origin)
	default:
		// Something the proxy cannot read: decided as an opaque tunnel.
		// The 200 is already sent, so a hold can only close it; the hold
		// is queued and journaled all the same.
		out := p.decideTunnel(t, origin)
		if out.Verdict.Decision.Holds() {
			return
		}
		up, err := p.dialer().Dial("tcp", t.hostport())
		if err != nil {
			return
		}
		splice(inner, up)
	}
}

// looksHTTP reports whether what the client sent first in a tunnel
// starts like an HTTP request line: a method of capital letters followed
// by a space ("SSH-2.0-..." is not one, and is decided as an opaque
// tunnel instead of being answered by an HTTP server).
func looksHTTP(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Buffered())
	i := 0
	for i < len(b) && i <= 20 && b[i] >= 'A' && b[i] <= 'Z' {
		i++
	}
	return i >= 3 && i <= 20 && (i == len(b) || b[i] == ' ')
}

// serveInner serves the HTTP requests a client sends inside a tunnel to
// t, each decided and forwarded like a plain proxy request.
func (p *Proxy) serveInner(c net.Conn, t target, origin string) {
	// The connection reports its own close, whoever closes it: the
	// server, or a handler that took it over to write a hold.
	l := newOneConnListener(nil)
	l.c <- &closeNotifyConn{Conn: c, done: func() { l.Close() }}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p.request(w, r, t, origin)
		}),
		ReadHeaderTimeout: 60 * time.Second,
	}
	srv.Serve(l)
	l.wait()
}

// tunnel connects the client to t as it is, first sending rest (bytes
// the client already sent), and relays both ways until either side
// closes.
func (p *Proxy) tunnel(w http.ResponseWriter, t target, rest []byte) {
	up, err := p.dialer().Dial("tcp", t.hostport())
	if err != nil {
		writeRaw(w, http.StatusBadGateway, "Bad Gateway", "airlock's egress proxy could not reach "+t.hostport()+": "+err.Error()+"\n", "")
		return
	}
	conn, br, ok := p.hijack(w)
	if !ok {
		up.Close()
		return
	}
	defer p.untrack(conn)
	if _, err := io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		up.Close()
		return
	}
	splice(&bufferedConn{Conn: conn, r: br}, up)
}

// hijack takes the client's connection over from the HTTP server.
func (p *Proxy) hijack(w http.ResponseWriter) (net.Conn, *bufio.Reader, bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		writeRaw(w, http.StatusInternalServerError, "Internal Server Error", "airlock's egress proxy cannot take this connection over (HTTP/2?)\n", "")
		return nil, nil, false
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return nil, nil, false
	}
	if !p.track(conn) {
		return nil, nil, false
	}
	return conn, rw.Reader, true
}

// splice relays a and b both ways and closes both when either is done.
func splice(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		} else {
			dst.Close()
		}
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	<-done
	a.Close()
	b.Close()
}

// bufferedConn is a connection whose first bytes were read into r.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// CloseWrite half-closes the underlying connection when it can.
func (c *bufferedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Conn.Close()
}

// oneConnListener hands one connection to an http.Server, then reports
// closed once that connection is done.
type oneConnListener struct {
	c    chan net.Conn
	addr net.Addr
	done chan struct{}
	once sync.Once
}

func newOneConnListener(c net.Conn) *oneConnListener {
	l := &oneConnListener{c: make(chan net.Conn, 1), addr: dummyAddr{}, done: make(chan struct{})}
	if c != nil {
		l.c <- c
	}
	return l
}

type dummyAddr struct{}

func (dummyAddr) Network() string { return "tunnel" }
func (dummyAddr) String() string  { return "tunnel" }

// closeNotifyConn calls done once it is closed.
type closeNotifyConn struct {
	net.Conn
	once sync.Once
	done func()
}

func (c *closeNotifyConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.done)
	return err
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.c:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *oneConnListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *oneConnListener) wait()          { <-l.done }
func (l *oneConnListener) Addr() net.Addr { return l.addr }
