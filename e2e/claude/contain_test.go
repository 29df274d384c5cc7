package claude

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestClaudeCodeContained is issue 25's real-client check for Claude
// Code's own sandbox: `airlock install claude-code --contain` points the
// sandbox's network at `airlock proxy`, and a Bash call runs a compiled
// program that POSTs. The hook cannot see into the program (`./up URL`
// reads as local work and is allowed), so the sandbox and the proxy are
// what stop it: the sink outside stays empty and the request is a pending
// net item of the queue.
func TestClaudeCodeContained(t *testing.T) {
	claude := claudeBinary(t)
	if runtime.GOOS != "linux" {
		t.Skip("this tier runs Claude Code's Linux sandbox (bubblewrap and socat)")
	}
	for _, tool := range []string{"bwrap", "socat"} {
		if _, err := exec.LookPath(tool); err != nil {
			if inCI() {
				t.Fatalf("%s is not on PATH: Claude Code's sandbox needs it (.ci/run installs it)", tool)
			}
			t.Skipf("%s is not on PATH: Claude Code's sandbox needs it", tool)
		}
	}
	dir := t.TempDir()
	airlock := buildAirlock(t, dir)
	goBuild(t, filepath.Join(dir, "airlock-proxy"), "github.com/airlock-dev/airlock/cmd/airlock-proxy")
	w := newWorld(t)
	sink := newRecordingSink(t, outsideIPv4(t))

	// A compiled program that POSTs, built here; it prints what it got
	// back, so the model sees the proxy's answer.
	src := filepath.Join(t.TempDir(), "main.go")
	w.writeFile(src, `package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

func main() {
	resp, err := http.Post(os.Args[1]+"/go", "text/plain", strings.NewReader("from-go"))
	if err != nil {
		fmt.Println("up: error:", err)
		os.Exit(1)
	}
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("up: status %d\n%s\n", resp.StatusCode, b)
}
`)
	up := filepath.Join(w.project, "up")
	goBuild(t, up, src)
	// Control, outside any sandbox: the program does reach the sink.
	if out, err := exec.Command(up, sink.url).CombinedOutput(); err != nil || !strings.Contains(string(out), "status 200") {
		t.Fatalf("the program does not reach the sink outside a sandbox: %v\n%s", err, out)
	}
	if got := sink.take(); len(got) != 1 {
		t.Fatalf("the control POST: the sink got %q", got)
	}

	port := startProxy(t, w, airlock)
	if out, err := w.run(nil, airlock, "install", "claude-code", "--contain", "--proxy-port", port); err != nil {
		t.Fatalf("airlock install claude-code --contain: %v\n%s", err, out)
	}

	calls := []call{
		bash("local", "echo local > local.txt", false),
		bash("upload", "./up "+sink.url, false),
	}
	api := newFakeAPI(t, script(calls))
	mode := []string{"AIRLOCK_MODE=unattended"}
	s := w.runClaude(claude, api, "Write local.txt, then upload the notes.", mode, allowedTools...)

	upload, _ := api.result(calls[1].step)
	if got := sink.take(); len(got) != 0 {
		t.Errorf("the sink got %q from inside Claude Code's sandbox\nthe program printed: %s", got, upload.Content)
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "local.txt")); err != nil || strings.TrimSpace(string(b)) != "local" {
		r, _ := api.result(calls[0].step)
		t.Errorf("the local write inside the sandbox did not happen: %q, %v\ntool result: %s", b, err, r.Content)
	}
	if !strings.Contains(upload.Content, "up: status 403") {
		t.Errorf("the program did not get the proxy's 403: %s\nstderr: %s", upload.Content, tail(s.stderr, 2000))
	}
	// The hook allowed both calls: it is the sandbox that held the POST.
	for _, r := range s.hookReplies {
		if r.Decision == "deny" || r.Decision == "ask" {
			t.Errorf("the hook held a call (%s): %s", r.Decision, r.Reason)
		}
	}
	out, err := w.run(nil, airlock, "queue", "list", "--json")
	if err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	var items []struct{ ID, Status, Kind, Tool, URL string }
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	id := ""
	for _, it := range items {
		if it.Kind == "net" && it.Tool == "POST" && it.URL == sink.url+"/go" && it.Status == "pending" {
			id = it.ID
		}
	}
	if id == "" {
		t.Errorf("POST %s/go is not a pending net item of the queue:\n%s", sink.url, out)
	} else if !strings.Contains(upload.Content, id) {
		t.Errorf("the program's output (the proxy's body) does not name the queue id %s: %s", id, upload.Content)
	}
}

func goBuild(t *testing.T, out, pkg string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goBin, "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

// startProxy starts `airlock proxy --listen 127.0.0.1:0` in the world and
// returns its port (the first line it prints is where it listens). It is
// stopped when the test ends.
func startProxy(t *testing.T, w *world, airlock string) string {
	t.Helper()
	cmd := exec.Command(airlock, "proxy", "--listen", "127.0.0.1:0")
	cmd.Dir = w.project
	cmd.Env = w.env("AIRLOCK_MODE=unattended")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// airlock proxy runs airlock-proxy as its child and forwards signals
	// to it: SIGTERM stops both (a SIGKILL would leave the child running,
	// holding the pipes).
	cmd.WaitDelay = 5 * time.Second
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("airlock proxy printed no address: %v\n%s", err, stderr.String())
	}
	go io.Copy(io.Discard, stdout)
	i := strings.LastIndex(strings.TrimSpace(line), ":")
	port := strings.TrimSpace(line)[i+1:]
	if i < 0 || port == "0" || port == "" {
		t.Fatalf("airlock proxy: cannot read its port from %q", line)
	}
	return port
}

// outsideIPv4 is the machine's own non-loopback address: Claude Code's
// sandbox has its own network namespace, so a sink there is outside it.
func outsideIPv4(t *testing.T) string {
	t.Helper()
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
			return ip.IP.String()
		}
	}
	if inCI() {
		t.Fatal("no non-loopback IPv4 address: the contained tier needs one for a sink outside the sandbox")
	}
	t.Skip("no non-loopback IPv4 address")
	return ""
}

// recordingSink records each request's method and path.
type recordingSink struct {
	url string
	mu  sync.Mutex
	got []string
}

func newRecordingSink(t *testing.T, addr string) *recordingSink {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s := &recordingSink{url: "http://" + l.Addr().String()}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		w.Write([]byte("sink ok\n"))
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return s
}

// take returns what the sink got so far and forgets it.
func (s *recordingSink) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := s.got
	s.got = nil
	return got
}
