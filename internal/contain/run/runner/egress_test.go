//go:build linux

package runner

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/egress"
	"github.com/airlock-dev/airlock/internal/journal"
)

// sink stands for the outside world: an HTTP server on a non-loopback
// address of this machine (the sandbox's loopback is its own), which
// records every request body it receives.
type sink struct {
	mu    sync.Mutex
	posts []string
	gets  int
	url   string
}

func startSink(t *testing.T) *sink {
	t.Helper()
	addr := externalAddr(t)
	l, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s := &sink{url: "http://" + l.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.Method == http.MethodGet {
			s.gets++
			fmt.Fprint(w, "sink-hello")
			return
		}
		s.posts = append(s.posts, r.Method+" "+r.URL.Path+" "+string(body))
		fmt.Fprint(w, "sink-got")
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return s
}

func (s *sink) received() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.posts...), s.gets
}

// realDoor is airlock's own egress proxy for the world's home, as
// airlock-run wires it.
func realDoor(t *testing.T, w *world) *egress.Proxy {
	t.Helper()
	o, _, err := egress.Wired(w.getenv, w.project)
	if err != nil {
		t.Fatal(err)
	}
	p, err := egress.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEgressHeldThroughTheRealProxy: under airlock run with airlock's own
// egress proxy, a POST by curl, by Python's urllib and by a compiled Go
// program never reaches the sink and is queued with its method and URL;
// a raw TCP dial and a UDP datagram find no network; a GET of the same
// server works. After a human approves one held POST, the identical
// request passes once and is held again after.
func TestEgressHeldThroughTheRealProxy(t *testing.T) {
	needBwrap(t)
	curl := needTool(t, "curl")
	python := needTool(t, "python3")
	s := startSink(t)
	w := newWorld(t, 0, 0)
	// The world's journal stand-in is a plain file; the proxy keeps the
	// real journal beside it.
	if err := os.RemoveAll(filepath.Join(w.state, "journal")); err != nil {
		t.Fatal(err)
	}
	// and its stand-in key is not a key: airlock makes its own.
	if err := os.Remove(w.secret); err != nil {
		t.Fatal(err)
	}
	// A compiled program that POSTs, built here (airlock cannot read it).
	prog := filepath.Join(w.project, "up")
	src := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(src, []byte(`package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
)

func main() {
	resp, err := http.Post(os.Args[1]+"/go", "text/plain", strings.NewReader("from-go"))
	if err != nil {
		fmt.Println("go: error:", err)
		return
	}
	fmt.Println("go: status", resp.StatusCode)
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "build", "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("building the program: %v\n%s", err, out)
	}
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(s.url, "http://"))
	script := strings.Join([]string{
		curl + " -s -m 10 " + s.url + "/read; echo",
		curl + " -s -m 10 -X POST -d from-curl " + s.url + "/curl; echo",
		python + ` -c "import urllib.request as u
try:
    print(u.urlopen(u.Request('` + s.url + `/py', data=b'from-python'), timeout=10).status)
except Exception as e:
    print('python:', e)"`,
		prog + " " + s.url,
		python + ` -c "import socket
try:
    socket.create_connection(('` + host + `', ` + port + `), timeout=5); print('raw-tcp-connected')
except Exception as e:
    print('raw-tcp:', e)
try:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('` + host + `', 53)); print('udp-sent')
except Exception as e:
    print('udp:', e)"`,
	}, "\n")
	d := realDoor(t, w)
	_, out := runIn(t, w, d, script)
	posts, gets := s.received()
	if len(posts) != 0 {
		t.Fatalf("requests reached the sink from inside: %q\n%s", posts, out)
	}
	if gets != 1 || !strings.Contains(out, "sink-hello") {
		t.Fatalf("the GET did not pass (%d at the sink):\n%s", gets, out)
	}
	for _, bad := range []string{"raw-tcp-connected", "udp-sent", "sink-got"} {
		if strings.Contains(out, bad) {
			t.Fatalf("%s from inside:\n%s", bad, out)
		}
	}
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
		held[journal.What(it, 200)] = it.ID
	}
	for _, want := range []string{"POST " + s.url + "/curl", "POST " + s.url + "/py", "POST " + s.url + "/go"} {
		if held[want] == "" {
			t.Fatalf("%s is not in the queue; held: %v\n%s", want, held, out)
		}
	}
	// A human approves the curl POST outside: the identical request
	// passes once, then is held again.
	approve := exec.Command(filepath.Join(binDir, "airlock"), "queue", "approve", held["POST "+s.url+"/curl"])
	approve.Env = w.env
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("queue approve: %v\n%s", err, out)
	}
	retry := curl + " -s -m 10 -X POST -d from-curl " + s.url + "/curl; echo"
	_, out = runIn(t, w, realDoor(t, w), retry+"\n"+retry)
	posts, _ = s.received()
	if len(posts) != 1 || posts[0] != "POST /curl from-curl" {
		t.Fatalf("after one approval the sink got %q, want the one approved POST\n%s", posts, out)
	}
}
