package egress

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// env is one proxy served on loopback with a real policy, pipeline and
// journal in a temporary state directory.
type env struct {
	t        testing.TB
	state    string
	cwd      string
	j        *journal.Journal
	p        *Proxy
	proxyURL *url.URL
	// upstream are the roots the proxy trusts for the test's TLS sinks.
	upstream *x509.CertPool
	mu       sync.Mutex
	// caPool holds airlock's CA: what a client inside trusts.
	caPool *x509.CertPool
}

// newEnv starts a proxy whose policy file holds policyYAML ("" for none).
func newEnv(t testing.TB, policyYAML string) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{t: t, state: filepath.Join(dir, "state"), cwd: filepath.Join(dir, "project"), upstream: x509.NewCertPool()}
	if err := os.MkdirAll(e.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"AIRLOCK_HOME": e.state, "HOME": filepath.Join(dir, "home"), "XDG_CONFIG_HOME": filepath.Join(dir, "config")}
	if policyYAML != "" {
		f := filepath.Join(dir, "policy.yaml")
		if err := os.WriteFile(f, []byte(policyYAML), 0o600); err != nil {
			t.Fatal(err)
		}
		vars["AIRLOCK_POLICY"] = f
	}
	o, j, err := Wired(func(k string) string { return vars[k] }, e.cwd)
	if err != nil {
		t.Fatal(err)
	}
	// The proxy trusts the test's sinks, which are added to e.upstream
	// while it runs: verified here under the lock (a CertPool is not
	// safe to change while it is read).
	o.UpstreamTLS = &tls.Config{InsecureSkipVerify: true, VerifyConnection: func(cs tls.ConnectionState) error {
		e.mu.Lock()
		roots := e.upstream.Clone()
		e.mu.Unlock()
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, DNSName: cs.ServerName})
		return err
	}}
	// The test's sinks listen on this machine's loopback, which the proxy
	// refuses by default: allowed here unless the test's policy says
	// otherwise (the loopback tests in findings3_test.go).
	if !strings.Contains(policyYAML, "allow_loopback") {
		o.AllowLoopback = true
	}
	e.j = j
	e.p, err = New(o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- e.p.Serve(l) }()
	t.Cleanup(func() {
		e.p.Close()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	e.proxyURL = &url.URL{Scheme: "http", Host: l.Addr().String()}
	e.caPool = x509.NewCertPool()
	if !e.caPool.AppendCertsFromPEM(e.p.CACertPEM()) {
		t.Fatal("CACertPEM is not a PEM certificate")
	}
	return e
}

// client is an HTTP client inside: it goes through the proxy and trusts
// roots (airlock's CA when nil).
func (e *env) client(roots *x509.CertPool) *http.Client {
	if roots == nil {
		roots = e.caPool
	}
	return &http.Client{Transport: &http.Transport{
		Proxy:             http.ProxyURL(e.proxyURL),
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		DisableKeepAlives: true,
	}, Timeout: 30 * time.Second}
}

// sink is a server outside that counts what reaches it.
type sink struct {
	*httptest.Server
	mu     sync.Mutex
	hits   []string
	bodies []string
}

func (s *sink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.hits)
}

func newSink(t testing.TB, e *env, useTLS bool) *sink {
	t.Helper()
	s := &sink{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.hits = append(s.hits, r.Method+" "+r.URL.RequestURI())
		s.bodies = append(s.bodies, string(b))
		s.mu.Unlock()
		io.WriteString(w, "sink says hello")
	})
	if useTLS {
		s.Server = httptest.NewTLSServer(h)
		e.trust(s.Certificate())
	} else {
		s.Server = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

// do sends a request and returns the response with its body read.
func do(t *testing.T, c *http.Client, method, u, body string) (*http.Response, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// heldID checks that resp is airlock's hold and returns its queue id,
// which the status phrase, a header and the body all carry.
func heldID(t *testing.T, resp *http.Response, body string) string {
	t.Helper()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %q, want 403 held; body:\n%s", resp.Status, body)
	}
	id := resp.Header.Get("X-Airlock-Queue")
	if id == "" {
		t.Fatalf("no queue id in the hold: %q\n%s", resp.Status, body)
	}
	if !strings.Contains(resp.Status, "Held by airlock: queue "+id) {
		t.Errorf("status %q does not carry the queue id %s", resp.Status, id)
	}
	for _, want := range []string{"Queue item: " + id, "go on with local work", "airlock queue show " + id} {
		if !strings.Contains(body, want) {
			t.Errorf("the body for the agent lacks %q:\n%s", want, body)
		}
	}
	return id
}

// item is the queue item id, from the journal.
func (e *env) item(id string) *journal.Item {
	e.t.Helper()
	it, err := e.j.Item(id, time.Now())
	if err != nil {
		e.t.Fatalf("queue item %s: %v", id, err)
	}
	return it
}

func (e *env) approve(id string) {
	e.t.Helper()
	if _, err := e.j.Settle(journal.EventApprove, id, "test", 0); err != nil {
		e.t.Fatalf("approve %s: %v", id, err)
	}
}

func timeNow() time.Time { return time.Now() }

// trust makes the proxy trust a test server's certificate upstream.
func (e *env) trust(c *x509.Certificate) {
	e.mu.Lock()
	e.upstream.AddCert(c)
	e.mu.Unlock()
}

func tlsRoots(p *x509.CertPool) *tls.Config { return &tls.Config{RootCAs: p} }
