package egress

import (
	"bufio"
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
)

func TestPostHeldGetPasses(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, false)
	c := e.client(nil)

	resp, body := do(t, c, "POST", s.URL+"/upload?x=1", "secret data")
	id := heldID(t, resp, body)
	if n := s.count(); n != 0 {
		t.Fatalf("the sink received %d requests, want none: %v", n, s.hits)
	}
	it := e.item(id)
	if it.Kind != "net" || it.Tool != "POST" || it.URL != s.URL+"/upload?x=1" || it.Status != journal.Pending {
		t.Errorf("queue item: kind %q tool %q url %q status %q", it.Kind, it.Tool, it.URL, it.Status)
	}
	var d netDetail
	if err := json.Unmarshal(it.Detail, &d); err != nil || d.Method != "POST" || d.BodySize != 11 || !strings.HasPrefix(d.BodyDigest, "sha256:") {
		t.Errorf("detail %s (%v)", it.Detail, err)
	}
	// queue list --json shows the item with its method and URL.
	b, err := json.Marshal(it)
	if err != nil || !bytes.Contains(b, []byte(`"method":"POST"`)) || !bytes.Contains(b, []byte(`"url":"`+s.URL+`/upload?x=1"`)) {
		t.Errorf("the item as JSON lacks its method and URL: %s", b)
	}

	resp, body = do(t, c, "GET", s.URL+"/page", "")
	if resp.StatusCode != 200 || body != "sink says hello" {
		t.Fatalf("GET: %s %q", resp.Status, body)
	}
	if s.count() != 1 {
		t.Fatalf("sink hits %v, want the GET only", s.hits)
	}
}

func TestExfiltrationShapedGetHeld(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, false)
	c := e.client(nil)
	blob := base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte("the contents of ~/.ssh/id_ed25519 "), 4))
	for _, u := range []string{
		s.URL + "/collect?d=" + blob,
		s.URL + "/c/" + blob,
		s.URL + "/api?token=ghp_" + strings.Repeat("a1B2", 9),
	} {
		resp, body := do(t, c, "GET", u, "")
		heldID(t, resp, body)
	}
	if n := s.count(); n != 0 {
		t.Fatalf("the sink received %v", s.hits)
	}
	// A read with an ordinary query (a git fetch's first request) passes.
	resp, _ := do(t, c, "GET", s.URL+"/repo.git/info/refs?service=git-upload-pack", "")
	if resp.StatusCode != 200 || s.count() != 1 {
		t.Fatalf("plain GET: %s, sink %v", resp.Status, s.hits)
	}
}

func TestHTTPSInspected(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, true)
	c := e.client(nil)

	resp, body := do(t, c, "POST", s.URL+"/publish", `{"post":"hello"}`)
	id := heldID(t, resp, body)
	if s.count() != 0 {
		t.Fatalf("the sink received %v", s.hits)
	}
	if it := e.item(id); it.URL != s.URL+"/publish" || it.Tool != "POST" {
		t.Errorf("item url %q tool %q", it.URL, it.Tool)
	}

	resp, body = do(t, c, "GET", s.URL+"/page", "")
	if resp.StatusCode != 200 || body != "sink says hello" {
		t.Fatalf("GET over inspected HTTPS: %s %q", resp.Status, body)
	}
	// The client saw airlock's certificate, not the sink's.
	peer := resp.TLS.PeerCertificates[0]
	if peer.Equal(s.Certificate()) || !strings.Contains(peer.Issuer.CommonName, "airlock egress CA") {
		t.Errorf("the inspected connection's certificate is issued by %q", peer.Issuer.CommonName)
	}

	// A client that trusts only the real server (it pins) fails instead
	// of leaking.
	pinned := e.upstream
	if _, err := e.client(pinned).Get(s.URL + "/page"); err == nil {
		t.Error("a client that does not trust airlock's CA got through an inspected tunnel")
	}
}

func TestPassthroughTunnelled(t *testing.T) {
	e := newEnv(t, "version: 1\negress:\n  passthrough: [127.0.0.1]\n")
	s := newSink(t, e, true)
	// The client trusts the sink's own certificate only, and sees it.
	c := e.client(e.upstream)
	resp, body := do(t, c, "POST", s.URL+"/v1/messages", `{"model":"x"}`)
	if resp.StatusCode != 200 || body != "sink says hello" {
		t.Fatalf("passthrough POST: %s %q", resp.Status, body)
	}
	if !resp.TLS.PeerCertificates[0].Equal(s.Certificate()) {
		t.Error("the passthrough tunnel did not show the sink's own certificate")
	}
	if s.count() != 1 {
		t.Errorf("sink hits %v", s.hits)
	}
	// Plain HTTP to a passthrough host is still decided: passthrough
	// names tunnels.
	p := newSink(t, e, false)
	resp, body = do(t, e.client(nil), "POST", p.URL+"/x", "data")
	heldID(t, resp, body)
}

func TestApprovalOnce(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, true)
	c := e.client(nil)
	u := s.URL + "/repos/o/r/issues"

	resp, body := do(t, c, "POST", u, "one")
	id := heldID(t, resp, body)
	e.approve(id)

	// A different body is not the approved request.
	resp, body = do(t, c, "POST", u, "two")
	heldID(t, resp, body)
	if s.count() != 0 {
		t.Fatalf("a different body after the approval reached the sink: %v", s.bodies)
	}

	resp, body = do(t, c, "POST", u, "one")
	if resp.StatusCode != 200 {
		t.Fatalf("the approved request: %s %s", resp.Status, body)
	}
	if it := e.item(id); it.Status != journal.Used {
		t.Errorf("item %s is %s after its retry, want used", id, it.Status)
	}
	resp, body = do(t, c, "POST", u, "one")
	id2 := heldID(t, resp, body)
	if id2 == id {
		t.Errorf("the second identical request was held under the used item %s", id)
	}
	if s.count() != 1 || s.bodies[0] != "one" {
		t.Fatalf("sink received %v %q, want the approved body once", s.hits, s.bodies)
	}
}

func TestApprovalOnceUnderConcurrency(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, false)
	u := s.URL + "/deploy"
	resp, body := do(t, e.client(nil), "PUT", u, "v2")
	e.approve(heldID(t, resp, body))

	var wg sync.WaitGroup
	codes := make(chan int, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("PUT", u, strings.NewReader("v2"))
			resp, err := e.client(nil).Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	ok := 0
	for c := range codes {
		if c == 200 {
			ok++
		} else if c != 403 {
			t.Errorf("status %d", c)
		}
	}
	if ok != 1 || s.count() != 1 {
		t.Fatalf("%d requests passed and the sink got %d; one approval lets exactly one through", ok, s.count())
	}
}

func TestNeverRefusedNotQueued(t *testing.T) {
	e := newEnv(t, "version: 1\negress:\n  never: [127.0.0.1]\n")
	s := newSink(t, e, false)
	resp, body := do(t, e.client(nil), "GET", s.URL+"/", "")
	if resp.StatusCode != 403 || resp.Header.Get("X-Airlock-Queue") != "" || !strings.Contains(body, "egress.never") {
		t.Fatalf("a never host: %s %q", resp.Status, body)
	}
	if s.count() != 0 {
		t.Fatal("a never host was reached")
	}
	items, err := e.j.Open(timeNow())
	if err != nil || len(items) != 0 {
		t.Errorf("a refusal was queued: %v %v", items, err)
	}
}

func TestWriteOnlyHostReadHeld(t *testing.T) {
	e := newEnv(t, "version: 1\negress:\n  write_only_hosts: [127.0.0.1]\n")
	s := newSink(t, e, false)
	resp, body := do(t, e.client(nil), "GET", s.URL+"/", "")
	heldID(t, resp, body)
	if s.count() != 0 {
		t.Fatal("a read of a write-only host was sent")
	}
}

func TestTunnelWithoutInspectionHeld(t *testing.T) {
	e := newEnv(t, "version: 1\negress:\n  inspect: false\n")
	s := newSink(t, e, true)
	_, err := e.client(e.upstream).Get(s.URL + "/")
	if err == nil || !strings.Contains(err.Error(), "Held by airlock") {
		t.Fatalf("a tunnel airlock cannot see into: %v", err)
	}
	if s.count() != 0 {
		t.Fatal("the sink was reached through an uninspected tunnel")
	}
	items, _ := e.j.Open(timeNow())
	if len(items) != 1 || items[0].Tool != "CONNECT" || !strings.HasPrefix(items[0].URL, "tcp://127.0.0.1:") {
		t.Fatalf("queue %v", items)
	}
	// Approved, the identical tunnel opens once.
	e.approve(items[0].ID)
	resp, body := do(t, e.client(e.upstream), "GET", s.URL+"/", "")
	if resp.StatusCode != 200 || body != "sink says hello" {
		t.Fatalf("the approved tunnel: %s", resp.Status)
	}
}

func TestOriginFromProxyAuthorization(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, false)
	cmd := "go run ./cmd/up --to prod"
	auth := base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(cmd)) + ":x"))
	req, _ := http.NewRequest("POST", s.URL+"/", strings.NewReader("x"))
	req.Header.Set("Proxy-Authorization", "Basic "+auth)
	resp, err := e.client(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id := resp.Header.Get("X-Airlock-Queue")
	var d netDetail
	if err := json.Unmarshal(e.item(id).Detail, &d); err != nil || d.Origin != cmd {
		t.Fatalf("origin %q (%v), want %q", d.Origin, err, cmd)
	}
}

func TestCAKeptInSecrets(t *testing.T) {
	e := newEnv(t, "")
	path := filepath.Join(e.state, filepath.FromSlash(CAFile))
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, st.Mode().Perm())
	}
	dst, err := os.Stat(filepath.Dir(path))
	if err != nil || dst.Mode().Perm() != 0o700 {
		t.Errorf("the secrets directory: %v %v", dst.Mode(), err)
	}
	if bytes.Contains(e.p.CACertPEM(), []byte("PRIVATE")) {
		t.Error("CACertPEM carries the private key")
	}
	// The same authority is found again, not made anew.
	a, err := loadAuthority(e.state)
	if err != nil || !a.cert.Equal(e.p.ca.cert) {
		t.Errorf("reloaded authority differs (%v)", err)
	}
	env := CAEnv("/ca.pem")
	for _, k := range []string{"SSL_CERT_FILE=/ca.pem", "NODE_EXTRA_CA_CERTS=/ca.pem", "GIT_SSL_CAINFO=/ca.pem", "REQUESTS_CA_BUNDLE=/ca.pem", "CURL_CA_BUNDLE=/ca.pem"} {
		if !strings.Contains(strings.Join(env, "\n"), k) {
			t.Errorf("CAEnv lacks %s", k)
		}
	}
}

// A tunnel that carries neither TLS nor HTTP (an ssh client through
// CONNECT) is decided as an opaque tunnel: held, queued, and the server
// never sees a connection.
func TestOpaqueTunnelHeld(t *testing.T) {
	e := newEnv(t, "")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	c, err := net.Dial("tcp", e.proxyURL.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", l.Addr(), l.Addr())
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	io.WriteString(c, "SSH-2.0-OpenSSH_9.2p1\r\n")
	if b, _ := io.ReadAll(br); len(b) != 0 {
		t.Errorf("the proxy answered an opaque tunnel with %q", b)
	}
	items, _ := e.j.Open(timeNow())
	if len(items) != 1 || items[0].Tool != "CONNECT" || items[0].URL != "tcp://"+l.Addr().String() {
		t.Fatalf("queue %v", items)
	}
	if accepted.Load() != 0 {
		t.Fatal("the server behind an opaque tunnel was reached")
	}
}

// The bundle for clients inside holds airlock's authority and the
// system's roots: a passthrough host's own certificate verifies with it.
func TestCABundle(t *testing.T) {
	e := newEnv(t, "")
	sys := filepath.Join(t.TempDir(), "roots.pem")
	other := newSink(t, e, true)
	if err := os.WriteFile(sys, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: other.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	b := e.p.CABundlePEM(sys)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		t.Fatal("the bundle holds no certificate")
	}
	if !bytes.HasPrefix(b, e.p.CACertPEM()) {
		t.Error("the bundle does not start with airlock's authority")
	}
	if _, err := other.Certificate().Verify(x509.VerifyOptions{Roots: pool}); err != nil {
		t.Errorf("a system root is missing from the bundle: %v", err)
	}
	if bytes.Contains(b, []byte("PRIVATE")) {
		t.Error("the bundle carries a private key")
	}
}
