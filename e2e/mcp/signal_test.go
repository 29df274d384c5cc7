package mcp

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// descendants lists the process tree under pid (Linux /proc).
func descendants(t *testing.T, pid int) []int {
	t.Helper()
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(p) + "/task")
		for _, task := range tasks {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/task/" + task.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				c, _ := strconv.Atoi(f)
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// running reports whether pid is a live process (a zombie has exited).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs Linux /proc to see the process tree")
	}
}

// waitTree waits until each of pids has ended; the bound is generous so
// that a slow machine does not fail it.
func waitTree(t *testing.T, pids []int, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, p := range pids {
		for running(p) {
			if time.Now().After(deadline) {
				cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
				t.Fatalf("%s: process %d (%s) still runs", what, p, strings.ReplaceAll(string(cmdline), "\x00", " "))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestServeSignals: SIGTERM, SIGINT or SIGHUP to "airlock mcp serve"
// stops airlock-mcp and the upstream server, and the port is free again.
func TestServeSignals(t *testing.T) {
	needProc(t)
	listening := regexp.MustCompile(`listening on http://([0-9.:]+)/`)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			h := newHome(t, benchPolicy)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin.airlock, "mcp", "serve", "--listen", "127.0.0.1:0", "--config", h.policy, "--name", "texts", "--upstream-cmd", "--", bin.textserver)
			cmd.Env, cmd.Dir = h.env, h.root
			// An orphaned child holding stderr must not hang Wait.
			cmd.WaitDelay = 10 * time.Second
			stderr := &lockedBuffer{}
			cmd.Stderr = stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			line, err := bufio.NewReader(stdout).ReadString('\n')
			m := listening.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("no listening line: %q %v\nstderr: %s", line, err, stderr)
			}
			addr := m[1]
			// The proxy answers: a real session before the signal.
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/"}, nil)
			if err != nil {
				t.Fatalf("connect: %v\nstderr: %s", err, stderr)
			}
			defer cs.Close()
			tree := descendants(t, cmd.Process.Pid)
			if len(tree) < 2 {
				t.Fatalf("process tree under airlock: %v, want airlock-mcp and the upstream", tree)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			defer func() {
				for _, p := range tree {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			}()
			waitTree(t, tree, "after "+sig.String())
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				t.Fatalf("the port is still in use after %s: %v", sig, err)
			}
			ln.Close()
		})
	}
}

// TestRunSignal: SIGTERM to "airlock mcp run" (what an agent sends to
// stop a server) stops airlock-mcp and the upstream server.
func TestRunSignal(t *testing.T) {
	needProc(t)
	h := newHome(t, benchPolicy)
	cmd := exec.Command(bin.airlock, "mcp", "run", "--config", h.policy, "--name", "texts", "--", bin.textserver)
	cmd.Env, cmd.Dir = h.env, h.root
	cmd.WaitDelay = 10 * time.Second
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr)
	}
	defer cs.Close()
	tree := descendants(t, cmd.Process.Pid)
	if len(tree) < 2 {
		t.Fatalf("process tree under airlock: %v, want airlock-mcp and the upstream", tree)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, p := range tree {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}()
	waitTree(t, tree, "after SIGTERM")
}
