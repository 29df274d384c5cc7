//go:build linux

package runner

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/egress"
	"github.com/airlock-dev/airlock/internal/journal"
)

// More of issue 25's "Egress, held" list, each with a real client under
// airlock run and airlock's own egress proxy (realDoor): Node's fetch
// with a body, git push over HTTP to a git http-backend outside, and a
// GET shaped like data on its way out. The sinks are on the machine's
// non-loopback address, as in TestEgressHeldThroughTheRealProxy.

// realWorld is a world whose journal and key are airlock's own (the
// stand-ins newWorld writes are plain files the proxy cannot use).
func realWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, 0, 0)
	if err := os.RemoveAll(filepath.Join(w.state, "journal")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(w.secret); err != nil {
		t.Fatal(err)
	}
	return w
}

// heldItems maps what each open queue item of the world's journal holds
// ("METHOD URL") to its id.
func heldItems(t *testing.T, w *world) map[string]string {
	t.Helper()
	j, err := journal.Open(journal.DirIn(w.state))
	if err != nil {
		t.Fatal(err)
	}
	items, err := j.Open(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]string{}
	for _, it := range items {
		held[journal.What(it, 400)] = it.ID
	}
	return held
}

// TestEgressNodeFetch: Node's fetch (undici) ignores HTTP_PROXY (Node 20
// has no switch for it), so a POST with a body tries a direct connection,
// and inside there is no route to any address but the sandbox's own
// loopback: it fails with ENETUNREACH before a byte leaves, and the sink
// gets nothing. Node's own http module, told the proxy by hand, reaches
// the door and is held there, queued with its method and URL.
func TestEgressNodeFetch(t *testing.T) {
	needBwrap(t)
	node := needTool(t, "node")
	s := startSink(t)
	w := realWorld(t)
	js := filepath.Join(w.project, "up.js")
	if err := os.WriteFile(js, []byte(`const url = process.argv[2];
fetch(url + "/fetch", {method: "POST", body: "from-node-fetch"})
  .then(r => console.log("fetch: status", r.status))
  .catch(e => console.log("fetch: failed", (e.cause && e.cause.code) || e.message))
  .finally(() => {
    // the same POST through the proxy, as a client that honours it does
    const p = new URL(process.env.HTTP_PROXY);
    const req = require("http").request({host: p.hostname, port: p.port, method: "POST", path: url + "/node-http",
      headers: {"content-type": "text/plain"}}, r => { console.log("node-http: status", r.statusCode); r.resume(); });
    req.on("error", e => console.log("node-http: failed", e.code || e.message));
    req.end("from-node-http");
  });
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := runIn(t, w, realDoor(t, w), node+" "+js+" "+s.url)
	if posts, gets := s.received(); len(posts) != 0 || gets != 0 {
		t.Fatalf("requests reached the sink from inside: %q, %d GETs\n%s", posts, gets, out)
	}
	// Which way it failed: no route, not a proxy's answer.
	if !strings.Contains(out, "fetch: failed ENETUNREACH") {
		t.Errorf("Node's fetch did not fail for want of a network (ENETUNREACH):\n%s", out)
	}
	if !strings.Contains(out, "node-http: status 403") {
		t.Errorf("Node's http module through the proxy did not get the door's 403:\n%s", out)
	}
	held := heldItems(t, w)
	if held["POST "+s.url+"/node-http"] == "" {
		t.Errorf("the POST through the proxy is not in the queue; held: %v\n%s", held, out)
	}
	for what := range held {
		if strings.Contains(what, "/fetch") {
			t.Errorf("the fetch reached the proxy (%s), so it did not go direct", what)
		}
	}
}

// gitServer serves the bare repositories under root with git
// http-backend (smart HTTP), push enabled, on the machine's external
// address: a remote outside the sandbox.
type gitServer struct {
	root, url string
	mu        sync.Mutex
	seen      []string
}

func startGitServer(t *testing.T, backend string, cert *tls.Certificate) *gitServer {
	t.Helper()
	g := &gitServer{root: t.TempDir()}
	l, err := net.Listen("tcp", net.JoinHostPort(externalAddr(t), "0"))
	if err != nil {
		t.Fatal(err)
	}
	g.url = "http://" + l.Addr().String()
	if cert != nil {
		l = tls.NewListener(l, &tls.Config{Certificates: []tls.Certificate{*cert}})
		g.url = "https://" + l.Addr().String()
	}
	h := &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + g.root, "GIT_HTTP_EXPORT_ALL=1"}}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.seen = append(g.seen, r.Method+" "+r.URL.Path)
		g.mu.Unlock()
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return g
}

func (g *gitServer) requests() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.seen...)
}

// gitCA, when set, is the file of the HTTPS git server's certificate,
// which git outside the sandbox trusts.
var gitCA string

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if gitCA != "" {
		cmd.Env = append(cmd.Env, "GIT_SSL_CAINFO="+gitCA)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestEgressGitPushOverHTTP: a clone of a git http-backend outside passes
// (GET info/refs and POST git-upload-pack are reads), a push from inside
// is rejected with the queue id in git's own protocol and queued as POST
// .../git-receive-pack, and the
// remote's ref does not move. The same push from outside the sandbox
// lands (on another branch), so the server does take pushes.
func TestEgressGitPushOverHTTP(t *testing.T) { testGitPush(t, nil) }

// TestEgressGitPushOverHTTPS: the same over HTTPS, inspected: git inside
// trusts airlock's CA (GIT_SSL_CAINFO, set by the runner), the proxy
// trusts the server's own certificate (its upstream roots), and the push
// inside the TLS tunnel is held like the plain one.
func TestEgressGitPushOverHTTPS(t *testing.T) {
	cert, pemFile := selfSigned(t, externalAddr(t))
	gitCA = pemFile
	defer func() { gitCA = "" }()
	testGitPush(t, cert)
}

// selfSigned makes a certificate for the IP address ip, and writes it to a
// PEM file.
func selfSigned(t *testing.T, ip string) (*tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "git test server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP(ip)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "server.pem")
	if err := os.WriteFile(f, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, f
}

func testGitPush(t *testing.T, cert *tls.Certificate) {
	needBwrap(t)
	git := needTool(t, "git")
	backend := filepath.Join(strings.TrimSpace(string(must(exec.Command(git, "--exec-path").Output()))), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git http-backend is not installed (%v): .ci/run installs git", err)
		}
		t.Skipf("git http-backend is not installed: %v", err)
	}
	g := startGitServer(t, backend, cert)
	// The remote: a bare repository with one commit, pushes allowed.
	seed := t.TempDir()
	gitOut(t, seed, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(seed, "README"), []byte("remote\n"), 0o644)
	gitOut(t, seed, "add", "README")
	gitOut(t, seed, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "base")
	base := gitOut(t, seed, "rev-parse", "HEAD")
	bare := filepath.Join(g.root, "r.git")
	gitOut(t, g.root, "clone", "-q", "--bare", seed, bare)
	gitOut(t, bare, "config", "http.receivepack", "true")
	remoteURL := g.url + "/r.git"

	// Control, outside the sandbox: a push over the same server lands.
	ctl := t.TempDir()
	gitOut(t, ctl, "clone", "-q", remoteURL, "c")
	gitOut(t, filepath.Join(ctl, "c"), "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "--allow-empty", "-m", "control")
	gitOut(t, filepath.Join(ctl, "c"), "push", "-q", "origin", "HEAD:refs/heads/control")
	if got := gitOut(t, bare, "rev-parse", "refs/heads/control"); got == base {
		t.Fatal("the control push did not land: the server takes no pushes, so this test would prove nothing")
	}

	g.mu.Lock()
	g.seen = nil // what comes next is from inside
	g.mu.Unlock()

	w := realWorld(t)
	clone := filepath.Join(w.project, "clone")
	script := strings.Join([]string{
		"export GIT_TERMINAL_PROMPT=0 GIT_CONFIG_NOSYSTEM=1",
		git + " clone -q " + remoteURL + " " + clone + " && echo clone-ok",
		"cd " + clone,
		"echo inside > inside.txt && " + git + " add inside.txt && " + git + " -c user.name=t -c user.email=t@t.invalid commit -q -m inside && echo commit-ok",
		git + " push origin main 2>&1; echo push-status $?",
	}, "\n")
	d := realDoor(t, w)
	if cert != nil {
		// The door's own way out trusts the server's certificate, as it
		// would a public server's through the system's roots.
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(must(os.ReadFile(gitCA)))
		d = realDoorTLS(t, w, &tls.Config{RootCAs: pool})
	}
	_, out := runIn(t, w, d, script)
	if !strings.Contains(out, "clone-ok") || !strings.Contains(out, "commit-ok") {
		t.Fatalf("the clone or the local commit failed inside:\n%s", out)
	}
	// The door answers a held push in git's own protocol, so git shows
	// the agent the queue id and what to do (not a bare HTTP 403).
	if strings.Contains(out, "push-status 0") || !strings.Contains(out, "[remote rejected] main -> main (held by airlock: queue ") ||
		!strings.Contains(out, "remote: airlock held this push") {
		t.Errorf("git push from inside was not rejected with airlock's reason:\n%s", out)
	}
	if got := gitOut(t, bare, "rev-parse", "refs/heads/main"); got != base {
		t.Errorf("the remote's main moved to %s (base %s): the push left the sandbox\n%s", got, base, out)
	}
	seen := g.requests()
	if !slices.Contains(seen, "POST /r.git/git-upload-pack") {
		t.Errorf("the clone's fetch did not reach the server: %q", seen)
	}
	for _, r := range seen {
		if strings.HasSuffix(r, "/git-receive-pack") {
			t.Errorf("the git server got %s from inside", r)
		}
	}
	held := heldItems(t, w)
	if held["POST "+remoteURL+"/git-receive-pack"] == "" {
		t.Errorf("the push is not in the queue as POST %s/git-receive-pack; held: %v", remoteURL, held)
	}
	for what := range held {
		if strings.Contains(what, "upload-pack") {
			t.Errorf("the clone was held: %s", what)
		}
	}
}

// realDoorTLS is realDoor with the proxy's upstream TLS configured.
func realDoorTLS(t *testing.T, w *world, upstream *tls.Config) *egress.Proxy {
	t.Helper()
	o, _, err := egress.Wired(w.getenv, w.project)
	if err != nil {
		t.Fatal(err)
	}
	o.UpstreamTLS = upstream
	p, err := egress.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestEgressExfiltrationGET: a GET whose query carries a long opaque value
// (data on its way out in the URL) is held like a POST: the sink sees no
// request, the client gets the door's 403 and the queue has the GET with
// its URL. A GET of the same path with a short query passes.
func TestEgressExfiltrationGET(t *testing.T) {
	needBwrap(t)
	curl := needTool(t, "curl")
	s := startSink(t)
	w := realWorld(t)
	// 120 hex digits: 60 bytes of data, past the 79-character run a name
	// may have (policy.MaxOpaqueRun).
	blob := strings.Repeat("6a8f3c2e1b9d4f70", 8)[:120]
	leak := s.url + "/pixel.gif?d=" + blob
	plain := s.url + "/pixel.gif?page=2"
	script := curl + " -s -m 10 -o /dev/null -w 'leak %{http_code}\\n' '" + leak + "'\n" +
		curl + " -s -m 10 -o /dev/null -w 'plain %{http_code}\\n' '" + plain + "'"
	_, out := runIn(t, w, realDoor(t, w), script)
	if _, gets := s.received(); gets != 1 {
		t.Errorf("the sink got %d GETs, want 1 (the plain one)\n%s", gets, out)
	}
	if !strings.Contains(out, "leak 403") || !strings.Contains(out, "plain 200") {
		t.Errorf("want the exfiltration-shaped GET held (403) and the plain one passed (200):\n%s", out)
	}
	held := heldItems(t, w)
	if held["GET "+leak] == "" {
		t.Errorf("the exfiltration-shaped GET is not in the queue; held: %v", held)
	}
	if held["GET "+plain] != "" {
		t.Errorf("the plain GET was queued")
	}
}

// TestEgressModelAPIOverPlainHTTP: what an agent's model API needs when
// it is served over plain HTTP (the e2e tier's fake model). Listing its
// host as passthrough does not let a POST out: passthrough is about
// tunnels, and a plain request to such a host is still decided, so it is
// held. A user's allow rule naming the host lets the POST out. This is
// how e2e/agents reaches its fake model under airlock run.
func TestEgressModelAPIOverPlainHTTP(t *testing.T) {
	needBwrap(t)
	curl := needTool(t, "curl")
	s := startSink(t)
	host, _, _ := net.SplitHostPort(strings.TrimPrefix(s.url, "http://"))
	post := curl + " -s -m 10 -o /dev/null -w 'model %{http_code}\\n' -X POST -d '{\"input\":\"hi\"}' " + s.url + "/v1/responses"
	for _, c := range []struct {
		name, policy string
		passes       bool
	}{
		{"passthrough", "version: 1\nmode: unattended\negress:\n  passthrough: [\"" + host + "\"]\n", false},
		{"allow rule", "version: 1\nmode: unattended\nrules:\n  - id: model-api\n    match: {host: [\"" + host + "\"]}\n    decision: allow\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := realWorld(t)
			if err := os.WriteFile(w.policy, []byte(c.policy), 0o644); err != nil {
				t.Fatal(err)
			}
			before, _ := s.received()
			_, out := runIn(t, w, realDoor(t, w), post)
			after, _ := s.received()
			reached := len(after) > len(before)
			if reached != c.passes {
				t.Errorf("with %s the POST reached the sink: %v, want %v\n%s", c.name, reached, c.passes, out)
			}
			held := heldItems(t, w)["POST "+s.url+"/v1/responses"] != ""
			if held == c.passes {
				t.Errorf("with %s the POST was queued: %v, want %v\n%s", c.name, held, !c.passes, out)
			}
		})
	}
}
