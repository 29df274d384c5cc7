//go:build linux

package record

import (
	"bufio"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary run as a helper process: a stand-in
// proxy that listens and records itself (RECORD_HELPER=proxy), or a
// runner that makes placeholders and waits to be killed
// (RECORD_HELPER=placeholders).
func TestMain(m *testing.M) {
	switch os.Getenv("RECORD_HELPER") {
	case "proxy":
		helperProxy()
	case "placeholders":
		helperPlaceholders()
	}
	os.Exit(m.Run())
}

// helperProxy listens on 127.0.0.1:0, records itself as airlock's proxy
// in RECORD_STATE, prints the port, and waits for stdin to close.
func helperProxy() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(3)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	remove, err := WriteProxy(os.Getenv("RECORD_STATE"), port, ln.Addr().String())
	if err != nil {
		os.Exit(4)
	}
	os.Stdout.WriteString(strconv.Itoa(port) + "\n")
	buf := make([]byte, 1)
	os.Stdin.Read(buf)
	remove()
	os.Exit(0)
}

// startHelper runs the test binary as helper kind with env, and returns
// it with its first line of output.
func startHelper(t *testing.T, kind string, env ...string) (*exec.Cmd, string, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "RECORD_HELPER="+kind), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper %s: %v", kind, err)
	}
	stop := func() { in.Close(); cmd.Wait() }
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, strings.TrimSpace(line), stop
}

// TestCheckProxy: the port is airlock's proxy only while the process
// that recorded it runs and holds every socket listening there; a record
// for another process's port, a port with a second listener (the other
// IP family), a port nobody recorded, and the record of a proxy that
// stopped or was killed are refused, each with its reason.
func TestCheckProxy(t *testing.T) {
	state := t.TempDir()
	cmd, line, stop := startHelper(t, "proxy", "RECORD_STATE="+state)
	port, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("helper printed %q", line)
	}
	if err := CheckProxy(state, port); err != nil {
		t.Fatalf("the running proxy's port: %v", err)
	}

	// Nobody recorded this port: a listener of the test's own.
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	oport := other.Addr().(*net.TCPAddr).Port
	if err := CheckProxy(state, oport); !errors.Is(err, ErrNotAirlockProxy) || !strings.Contains(err.Error(), "no airlock proxy recorded") {
		t.Errorf("an unrecorded port: %v", err)
	}
	// A record that names the proxy's process for a port it does not hold
	// (as a stale or copied record would).
	var rec Proxy
	if err := read(proxyPath(state, port), &rec); err != nil {
		t.Fatal(err)
	}
	rec.Port = oport
	if err := write(proxyPath(state, oport), rec); err != nil {
		t.Fatal(err)
	}
	if err := CheckProxy(state, oport); !errors.Is(err, ErrNotAirlockProxy) || !strings.Contains(err.Error(), "another process listens") {
		t.Errorf("a port the recorded process does not hold: %v", err)
	}
	// A second listener on the proxy's port, on the other family.
	if six, err := net.Listen("tcp6", "[::1]:"+line); err == nil {
		if err := CheckProxy(state, port); !errors.Is(err, ErrNotAirlockProxy) || !strings.Contains(err.Error(), "another process listens") {
			t.Errorf("a second listener on [::1]:%d: %v", port, err)
		}
		six.Close()
		if err := CheckProxy(state, port); err != nil {
			t.Errorf("after the second listener closed: %v", err)
		}
	} else {
		t.Logf("no IPv6 loopback here (%v): the second family is not tested", err)
	}

	// Stopped: the record goes with it.
	stop()
	if _, err := os.Stat(proxyPath(state, port)); !os.IsNotExist(err) {
		t.Errorf("the record outlived the proxy: %v", err)
	}
	if err := CheckProxy(state, port); !errors.Is(err, ErrNotAirlockProxy) {
		t.Errorf("a stopped proxy's port: %v", err)
	}
	_ = cmd

	// Killed (SIGKILL): the record stays, its process is gone.
	cmd2, line2, _ := startHelper(t, "proxy", "RECORD_STATE="+state)
	port2, _ := strconv.Atoi(line2)
	if err := CheckProxy(state, port2); err != nil {
		t.Fatalf("the second proxy: %v", err)
	}
	cmd2.Process.Kill()
	cmd2.Wait()
	if _, err := os.Stat(proxyPath(state, port2)); err != nil {
		t.Fatalf("a killed proxy's record: %v", err)
	}
	if err := CheckProxy(state, port2); !errors.Is(err, ErrNotAirlockProxy) || !strings.Contains(err.Error(), "no longer runs") {
		t.Errorf("a killed proxy's port: %v", err)
	}
	if err := CheckProxy(filepath.Join(state, "nowhere"), port2); !errors.Is(err, ErrNotAirlockProxy) {
		t.Errorf("another state directory: %v", err)
	}
}

func TestProcAlive(t *testing.T) {
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	if !self.Alive() {
		t.Errorf("this process is not alive: %+v", self)
	}
	if (Proc{Pid: self.Pid, Start: self.Start + 1}).Alive() {
		t.Errorf("another start time passes for this process")
	}
	if (Proc{}).Alive() {
		t.Errorf("pid 0 is alive")
	}
}
