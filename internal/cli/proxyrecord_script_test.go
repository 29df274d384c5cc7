package cli

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/airlock-dev/airlock/internal/contain/record"
	"github.com/airlock-dev/airlock/internal/policy"
)

// testProxyMain is airlock-test-proxy in scripts: a stand-in for
// airlock's egress proxy as the hook sees it. It listens on a loopback
// port and records itself in airlock's state as airlock proxy does
// (record.WriteProxy), prints the port, and runs until its standard
// input closes. It serves nothing: the hook only checks who listens.
func testProxyMain() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(3)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	remove, err := record.WriteProxy(policy.PathsFrom(os.Getenv).StateDir, port, ln.Addr().String())
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(4)
	}
	os.Stdout.WriteString(strconv.Itoa(port) + "\n")
	buf := make([]byte, 1)
	os.Stdin.Read(buf)
	remove()
	os.Exit(0)
}

var testProxies sync.Map // *testscript.TestScript -> *exec.Cmd

// cmdTestProxy starts airlock-test-proxy with the script's environment
// and sets VAR to its port, or stops it:
//
//	testproxy start PORT
//	testproxy stop
func cmdTestProxy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: testproxy start VAR | stop")
	}
	switch {
	case args[0] == "start" && len(args) == 2:
		bin := ""
		for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
			if p := filepath.Join(d, "airlock-test-proxy"); isExecutable(p) {
				bin = p
				break
			}
		}
		if bin == "" {
			ts.Fatalf("testproxy: airlock-test-proxy is not on the script's PATH")
		}
		cmd := exec.Command(bin)
		for _, k := range []string{"HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "AIRLOCK_HOME", "PATH"} {
			if v := ts.Getenv(k); v != "" {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
		in, err := cmd.StdinPipe()
		ts.Check(err)
		out, err := cmd.StdoutPipe()
		ts.Check(err)
		cmd.Stderr = os.Stderr
		ts.Check(cmd.Start())
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			ts.Fatalf("testproxy: %v", err)
		}
		testProxies.Store(ts, cmd)
		ts.Defer(func() {
			in.Close()
			cmd.Wait()
			testProxies.Delete(ts)
		})
		ts.Setenv(args[1], strings.TrimSpace(line))
	case args[0] == "stop":
		v, ok := testProxies.Load(ts)
		if !ok {
			ts.Fatalf("testproxy: not started")
		}
		cmd := v.(*exec.Cmd)
		// Killed, not stopped: its record stays behind, as a crashed
		// proxy's would.
		cmd.Process.Kill()
		cmd.Wait()
	default:
		ts.Fatalf("usage: testproxy start VAR | stop")
	}
}
