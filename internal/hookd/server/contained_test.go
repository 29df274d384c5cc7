//go:build linux

package server

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// TestSandboxed: the kernel facts that make a process contained, each
// one needed. A process in bubblewrap with its own network (only lo),
// pid and mount namespaces, airlock's state hidden, no capability and
// no_new_privs is contained; drop any one and it is not; the test
// process itself is not.
func TestSandboxed(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bwrap is not on PATH (.ci/run installs it)")
		}
		t.Skip("bwrap is not on PATH")
	}
	state := shortDir(t)
	for _, d := range []string{"secrets", "journal"} {
		os.MkdirAll(filepath.Join(state, d), 0o700)
	}
	if sandboxed(os.Getpid(), state) {
		t.Fatal("the test process itself reads as sandboxed")
	}
	full := []string{"--unshare-user", "--unshare-pid", "--unshare-net", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", state}
	without := func(drop ...string) []string {
		var out []string
		for i := 0; i < len(full); i++ {
			if len(drop) > 0 && full[i] == drop[0] {
				i += len(drop) - 1
				continue
			}
			out = append(out, full[i])
		}
		return out
	}
	cases := []struct {
		name string
		args []string
		want bool
	}{
		{"airlock run's shape", full, true},
		{"the host's network", without("--unshare-net"), false},
		{"airlock's state visible", without("--tmpfs", state), false},
		{"the host's pid namespace", without("--unshare-pid"), false},
	}
	if os.Getuid() == 0 {
		// Only root keeps capabilities without a user namespace.
		cases = append(cases, struct {
			name string
			args []string
			want bool
		}{"capabilities kept", slices.DeleteFunc(without("--cap-drop", "ALL"), func(a string) bool { return a == "--unshare-user" }), false})
	}
	for _, c := range cases {
		pid, stop := inBwrap(t, bwrap, c.args)
		if got := sandboxed(pid, state); got != c.want {
			t.Errorf("%s: sandboxed = %v, want %v", c.name, got, c.want)
		}
		stop()
	}
}

// inBwrap starts "sleep" as the first process of a bubblewrap sandbox
// and returns its pid outside and a function that ends it.
func inBwrap(t *testing.T, bwrap string, args []string) (int, func()) {
	t.Helper()
	info, infoW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pre := []string{"--die-with-parent", "--info-fd", "3"}
	if slices.Contains(args, "--unshare-pid") {
		pre = append(pre, "--as-pid-1")
	}
	cmd := exec.Command(bwrap, append(append(pre, args...), "sleep", "60")...)
	cmd.ExtraFiles = []*os.File{infoW}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	infoW.Close()
	var v struct {
		Pid int `json:"child-pid"`
	}
	err = json.NewDecoder(bufio.NewReader(info)).Decode(&v)
	info.Close()
	if err != nil || v.Pid <= 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("bwrap %v: %v %s", args, err, errb.String())
	}
	// bubblewrap names the pid as it clones, before it has made the
	// mounts and dropped the capabilities: wait for the exec of sleep.
	for i := 0; ; i++ {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(v.Pid) + "/comm"); strings.TrimSpace(string(b)) == "sleep" {
			break
		}
		if i == 10000 {
			t.Fatalf("bwrap %v: sleep never started: %s", args, errb.String())
		}
		time.Sleep(time.Millisecond)
	}
	// sleep is the sandbox's pid 1, which ignores signals from inside its
	// namespace: SIGKILL from here, outside, ends it.
	return v.Pid, func() { syscall.Kill(v.Pid, syscall.SIGKILL); cmd.Process.Kill(); cmd.Wait() }
}

// TestRelayedConnection: a connection handed over with hookd.RelayArg is
// served as the client's own: the handler sees the process that wrote on
// it (not the relay's word), and the answer goes to the client. A relay
// message with no connection attached gets nothing handled.
func TestRelayedConnection(t *testing.T) {
	var got *hookd.Request
	handled := 0
	_, sock, _ := start(t, func(r *hookd.Request) *hookd.Response { handled++; got = r; return allowReply }, self(t))
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(pair[1])
	syscall.SetsockoptInt(pair[1], syscall.SOL_SOCKET, syscall.SO_PASSCRED, 1)
	req := hookd.AppendRequest(nil, &hookd.Request{Args: []string{"hook", "claude-code"}, Env: []string{"AIRLOCK_CONTAINED=run"}, Cwd: "/", Stdin: []byte("{}")})
	if _, err := syscall.Write(pair[1], req); err != nil {
		t.Fatal(err)
	}
	syscall.Shutdown(pair[1], syscall.SHUT_WR)
	relay, err := hookd.Dial(sock, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := relay.Hand(pair[0]); err != nil {
		t.Fatal(err)
	}
	relay.Close()
	syscall.Close(pair[0])
	var answer []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(pair[1], buf)
		if n <= 0 || err != nil {
			break
		}
		answer = append(answer, buf[:n]...)
	}
	resp, err := hookd.ParseResponse(answer)
	if err != nil || string(resp.Stdout) != "answer\n" {
		t.Fatalf("the relayed client's answer: %q %v", answer, err)
	}
	if got == nil || got.Client.PID != os.Getpid() {
		t.Fatalf("the handler saw client %+v, want this process %d", got, os.Getpid())
	}
	if got.Client.Contained != nil && got.Client.Contained() {
		t.Error("a client outside any sandbox, whose request says AIRLOCK_CONTAINED=run, reads as contained")
	}
	// A relay message alone.
	c, err := hookd.Dial(sock, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Ask(&hookd.Request{Args: []string{hookd.RelayArg}}); err == nil {
		t.Error("a relay message without a connection got an answer")
	}
	c.Close()
	if handled != 1 {
		t.Errorf("the handler ran %d times, want 1", handled)
	}
}
