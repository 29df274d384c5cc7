//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// TestRestoreStdin: after a failed exchange, "airlock hook" must read the
// event whole: the bytes already taken, then the rest.
func TestRestoreStdin(t *testing.T) {
	src, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(" and the rest")
	w.Close()
	dstR, dstW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer dstW.Close()
	if err := restoreStdin([]byte("taken"), int(src.Fd()), int(dstR.Fd())); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(dstR)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "taken and the rest" {
		t.Fatalf("standard input reads %q", got)
	}
}

// TestClientProcess builds airlock and airlock-hook side by side and
// checks, as whole processes: with no service the client answers as
// "airlock hook" (it runs it) and starts a service; through that service
// it still answers the same; AIRLOCK_HOOKD=off starts none.
func TestClientProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	bin := t.TempDir()
	for _, b := range []struct{ out, pkg string }{{"airlock", "../airlock"}, {"airlock-hook", "."}} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, b.out), b.pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	home, err := os.MkdirTemp("/tmp", "ahk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	var env []string
	for _, kv := range os.Environ() {
		if !regexp.MustCompile(`^(HOME|XDG_[A-Z_]*|AIRLOCK_[A-Z_]*|CLAUDE_[A-Z_]*)=`).MatchString(kv) {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "CLAUDE_CODE_SESSION_ATTENDED=1", "CLAUDE_CODE_ENTRYPOINT=cli")
	sock := filepath.Join(home, ".local", "state", "airlock", "hookd.sock")
	t.Cleanup(func() {
		c := exec.Command(filepath.Join(bin, "airlock"), "hookd", "--stop")
		c.Env = env
		c.Run()
	})

	ev := `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git -C /tmp/r push origin main"},"tool_use_id":"t"}`
	run := func(extra []string, name string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Env = append(append([]string{}, env...), extra...)
		cmd.Stdin = bytes.NewReader([]byte(ev))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return regexp.MustCompile(`\b[0-9a-f]{8}\b`).ReplaceAllString(out.String(), "ID"), code
	}
	want, wantCode := run([]string{"AIRLOCK_HOOKD=off"}, "airlock", "hook", "claude-code", "--event", "PreToolUse")
	if got, code := run([]string{"AIRLOCK_HOOKD=off"}, "airlock-hook", "claude-code", "--event", "PreToolUse"); got != want || code != wantCode {
		t.Fatalf("AIRLOCK_HOOKD=off: %d %q, want %d %q", code, got, wantCode, want)
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Fatal("AIRLOCK_HOOKD=off started a service")
	}
	if got, code := run(nil, "airlock-hook", "claude-code", "--event", "PreToolUse"); got != want || code != wantCode {
		t.Fatalf("no service: %d %q, want %d %q", code, got, wantCode, want)
	}
	// The first call started a service in the background: wait for it
	// (this asserts no time; the test's own timeout bounds it).
	for {
		if _, err := os.Lstat(sock); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got, code := run(nil, "airlock-hook", "claude-code", "--event", "PreToolUse"); got != want || code != wantCode {
		t.Fatalf("through the service: %d %q, want %d %q", code, got, wantCode, want)
	}
	// The service executed itself again with a timer slack of 1 ms, which
	// every one of its threads has (the runtime's monitor thread too).
	if c, err := hookd.Dial(sock, filepath.Join(bin, "airlock")); err != nil {
		t.Fatalf("the service: %v", err)
	} else {
		pid, err := c.Peer()
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		// A thread's slack is read at /proc/TID (not listed, but there).
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
		if len(tasks) < 2 {
			t.Fatalf("the service %d has %d threads", pid, len(tasks))
		}
		for _, task := range tasks {
			f := "/proc/" + task.Name() + "/timerslack_ns"
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if string(bytes.TrimSpace(b)) != "1000000" {
				t.Errorf("%s: %s, want 1000000", f, bytes.TrimSpace(b))
			}
		}
	}
	// A fake socket put in place of the service's (by someone who could
	// write there): the client does not trust it and still answers.
	stop := exec.Command(filepath.Join(bin, "airlock"), "hookd", "--stop")
	stop.Env = env
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("airlock hookd --stop: %v\n%s", err, out)
	}
	for {
		if _, err := os.Lstat(sock); err != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	syscall.Listen(fd, 8)
	if got, code := run(nil, "airlock-hook", "claude-code", "--event", "PreToolUse"); got != want || code != wantCode {
		t.Fatalf("with an impostor socket: %d %q, want %d %q", code, got, wantCode, want)
	}

	// A service the client started exits by itself once its state
	// directory is removed (a test's temporary HOME cleaned up), instead
	// of living on for its idle time. Nothing here is timed: the service
	// polls every few seconds, and the deadline only bounds a hang.
	syscall.Close(fd)
	os.Remove(sock)
	run(nil, "airlock-hook", "claude-code", "--event", "PreToolUse")
	var pid int
	for pid == 0 {
		if c, err := hookd.Dial(sock, filepath.Join(bin, "airlock")); err == nil {
			pid, err = c.Peer()
			c.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the service %d outlived the removal of its state directory", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive reports whether process pid runs (a zombie waiting for its
// parent has exited).
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// The state follows the command name's closing parenthesis.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
