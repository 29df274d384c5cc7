//go:build linux

package runner

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

// TestDoorProcess: the door is airlock-proxy, a process of its own. The
// first run (no authority yet) starts it as the sandbox starts; later
// runs start it only at the command's first connection, so a command
// that makes no request starts none; a request then reaches the network
// through it, and it ends with the run. A door that cannot start at the
// first connection ends the sandbox before the command goes on, and the
// run is refused with the proxy's message.
func TestDoorProcess(t *testing.T) {
	needBwrap(t)
	curl := needTool(t, "curl")
	w := newWorld(t, 0, 0)
	// The test's sink is on the host's loopback, which the door refuses
	// unless the policy allows it; the sandbox itself cannot reach it.
	if err := os.WriteFile(w.policy, []byte("mode: unattended\negress:\n  allow_loopback: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	sink, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(rw, "sink-ok")
	})}
	go srv.Serve(sink)
	defer srv.Close()
	// The door: airlock-proxy behind a script that records each start
	// and its pid (exec keeps it).
	starts := filepath.Join(w.root, "door-starts")
	doorDir := filepath.Join(w.root, "doorbin")
	os.MkdirAll(doorDir, 0o755)
	door := filepath.Join(doorDir, DoorBinary)
	script := fmt.Sprintf("#!/bin/sh\necho $$ >> %s\nexec %s \"$@\"\n", starts, filepath.Join(binDir, DoorBinary))
	if err := os.WriteFile(door, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	pids := func() []string {
		b, _ := os.ReadFile(starts)
		return strings.Fields(string(b))
	}
	runWith := func(prog, cmd string) (int, string, error) {
		var out lockedBuffer
		st, err := Run(Options{
			Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: w.project,
				Executable: filepath.Join(binDir, "airlock"), Bridge: filepath.Join(binDir, "airlock-bridge"),
				Command: []string{"/bin/sh", "-c", cmd}},
			DoorProgram: prog, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
		})
		return st, out.String(), err
	}
	get := fmt.Sprintf("%s -s -m 20 --noproxy '' -x http://127.0.0.1:3128 http://%s/x", curl, sink.Addr())
	bundle := `grep -c 'BEGIN CERTIFICATE' "$SSL_CERT_FILE"`

	// The first run makes the authority: its door starts at once.
	if st, out, err := runWith(door, bundle); err != nil || st != 0 {
		t.Fatalf("first run: %d %v\n%s", st, err, out)
	}
	if n := len(pids()); n != 1 {
		t.Fatalf("the first run started its door %d times, want once (it makes the authority)", n)
	}
	if _, err := os.Stat(filepath.Join(w.state, filepath.FromSlash(caFile))); err != nil {
		t.Fatalf("the first run made no authority: %v", err)
	}
	// Then none for a command that makes no request, and the bundle is
	// there all the same: the runner's copy of the proxy's.
	st, out, err := runWith(door, bundle)
	if err != nil || st != 0 {
		t.Fatalf("second run: %d %v\n%s", st, err, out)
	}
	if n := len(pids()); n != 1 {
		t.Errorf("a run that made no request started its door (%d starts in all)", n)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(out)); n < 1 {
		t.Errorf("the sandbox's CA bundle holds no certificate: %q", out)
	}
	// A request starts it, reaches the sink through it, and it ends with
	// the run.
	st, out, err = runWith(door, get+"; echo; "+get)
	if err != nil || st != 0 || strings.Count(out, "sink-ok") != 2 || hits.Load() != 2 {
		t.Errorf("two GETs through the lazy door: %d %v, %d hits\n%s", st, err, hits.Load(), out)
	}
	p := pids()
	if len(p) != 2 {
		t.Fatalf("the run with requests started its door %d times, want once", len(p)-1)
	}
	if pid, _ := strconv.Atoi(p[1]); pid <= 0 || syscall.Kill(pid, 0) == nil {
		t.Errorf("the door (pid %s) outlived its run", p[1])
	}
	// HTTPS: the door's certificate for the host verifies against the
	// bundle the runner wrote without it (the sink speaks plain HTTP, so
	// the door answers 502 once the client's handshake is done; a bundle
	// without the door's authority fails the handshake: 000).
	tls := fmt.Sprintf("%s -s -m 20 -o /dev/null -w '%%{http_code}' --noproxy '' -x http://127.0.0.1:3128 https://%s/x", curl, sink.Addr())
	if st, out, err := runWith(door, tls); err != nil || st != 0 || strings.TrimSpace(out) != "502" {
		t.Errorf("HTTPS through the lazy door: %d %v, want the door's 502 after a verified handshake\n%s", st, err, out)
	}

	// A door that cannot start: the command asked for the network and
	// is ended, unanswered; the run is refused.
	broken := filepath.Join(w.root, "broken-door")
	if err := os.WriteFile(broken, []byte("#!/bin/sh\necho the test door is broken >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	after := filepath.Join(w.project, "after-the-request")
	st, out, err = runWith(broken, get+"; touch "+after)
	if err == nil || !strings.Contains(err.Error(), "did not start at the command's first connection") || !strings.Contains(out, "the test door is broken") {
		t.Errorf("with a door that fails: %d %v\n%s", st, err, out)
	}
	if _, err := os.Stat(after); err == nil {
		t.Error("the command went on after its door failed")
	}
	// Before any request, the run is the command's.
	if st, out, err := runWith(broken, "exit 3"); err != nil || st != 3 {
		t.Errorf("a run that makes no request with a broken door: %d %v, want 3\n%s", st, err, out)
	}
}

// TestMainNeedsDoorBinary: airlock-run without --proxy-socket refuses
// (exit 2) when airlock-proxy is not beside it, and runs nothing.
func TestMainNeedsDoorBinary(t *testing.T) {
	if binDir == "" {
		t.Skip("no go toolchain to build airlock-run")
	}
	d := t.TempDir()
	// Copies: airlock-run finds its companions beside its own binary,
	// symlinks resolved.
	for _, b := range []string{"airlock-run", "airlock-bridge"} {
		data, err := os.ReadFile(filepath.Join(binDir, b))
		if err == nil {
			err = os.WriteFile(filepath.Join(d, b), data, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(d, "ran")
	out, err := exec.Command(filepath.Join(d, "airlock-run"), "--", "touch", marker).CombinedOutput()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 2 || !strings.Contains(string(out), DoorBinary+" (the egress proxy") {
		t.Errorf("without %s: exit %d, %v\n%s", DoorBinary, code, err, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran without a door")
	}
}
