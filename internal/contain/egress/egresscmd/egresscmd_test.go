package egresscmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// The service prints where it listens first, and a POST through it is
// held while a GET passes.
func TestServiceFirstLineAndHold(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"AIRLOCK_HOME": filepath.Join(dir, "state"), "HOME": dir}
	// The test's sink is on this machine's loopback, which the proxy
	// refuses unless the user's policy allows it.
	pol := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(pol, []byte("egress:\n  allow_loopback: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	vars["AIRLOCK_POLICY"] = pol
	pr, pw := io.Pipe()
	stop := make(chan struct{})
	var stderr bytes.Buffer
	done := make(chan int, 1)
	ca := filepath.Join(dir, "ca.pem")
	go func() {
		done <- Main(Options{Args: []string{"--listen", "127.0.0.1:0", "--json", "--ca-cert", ca}, Stdout: pw, Stderr: &stderr,
			Getenv: func(k string) string { return vars[k] }, Getwd: func() (string, error) { return dir, nil }, Stop: stop})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("first line: %v; stderr: %s", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	var first struct {
		Listen string   `json:"listen"`
		CACert string   `json:"ca_cert"`
		Env    []string `json:"env"`
	}
	if err := json.Unmarshal([]byte(line), &first); err != nil || !strings.HasPrefix(first.Listen, "127.0.0.1:") || first.CACert != ca {
		t.Fatalf("first line %q (%v)", line, err)
	}
	if b, err := os.ReadFile(ca); err != nil || !bytes.Contains(b, []byte("BEGIN CERTIFICATE")) || bytes.Contains(b, []byte("PRIVATE")) {
		t.Fatalf("the CA certificate file: %v", err)
	}
	var hits atomic.Int32
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer sink.Close()
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(&url.URL{Scheme: "http", Host: first.Listen})}}
	resp, err := c.Post(sink.URL+"/x", "text/plain", strings.NewReader("data"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 || resp.Header.Get("X-Airlock-Queue") == "" || hits.Load() != 0 {
		t.Fatalf("POST through the service: %s, sink hits %d", resp.Status, hits.Load())
	}
	resp, err = c.Get(sink.URL + "/")
	if err != nil || resp.StatusCode != 200 || hits.Load() != 1 {
		t.Fatalf("GET through the service: %v %v, hits %d", resp, err, hits.Load())
	}
	resp.Body.Close()
	close(stop)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"--listen", "0.0.0.0:3128"}, {"--listen", "192.0.2.2:3128"}, {"--listen", "unix:"}, {"extra"}, {"--bogus"},
		{"--first-fd", "5"}, {"--ready-fd", "4"}, {"--listen-fd", "1"}, {"--listen-fd", "3", "--ready-fd", "2"}} {
		var out, errb bytes.Buffer
		code := Main(Options{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Getwd: os.Getwd})
		if code != 2 || !strings.HasPrefix(errb.String(), "airlock: error: ") || !strings.Contains(errb.String(), "hint: ") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errb.String())
		}
	}
	var out bytes.Buffer
	if code := Main(Options{Args: []string{"--help"}, Stdout: &out, Stderr: io.Discard}); code != 0 || !strings.Contains(out.String(), "usage: airlock proxy") {
		t.Errorf("--help: %d %q", code, out.String())
	}
}
