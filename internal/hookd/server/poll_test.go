//go:build linux

package server

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// The service waits for connections in the runtime's poller (Serve): a
// waiting service has no thread blocked in accept(2), Shutdown ends the
// wait at once whatever the poll interval, and requests keep being
// answered one after another and handed to Go.
func TestServeWaitsInThePoller(t *testing.T) {
	dir := shortDir(t)
	var spawned int
	s := &Server{StateDir: dir, Idle: time.Hour, Poll: time.Hour, Handle: func(*hookd.Request) *hookd.Response { return allowReply }, Exe: self(t),
		Go: func(fn func()) { spawned++; go fn() }}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	sock := filepath.Join(dir, hookd.SocketName)
	waitFor(t, func() bool { return s.listener.Load() > 0 }, done)
	for i := 0; i < 5; i++ {
		if r, err := ask(sock, self(t)); err != nil || string(r.Stdout) != "answer\n" {
			t.Fatalf("request %d: %+v %v", i, r, err)
		}
	}
	if spawned != 5 {
		t.Errorf("Go ran %d connections, want 5", spawned)
	}
	// No thread of this process sits in accept(2) while it waits (the
	// kernel names a blocked thread's system call in /proc).
	fd := int(s.listener.Load())
	for i := 0; i < 100; i++ {
		if inAccept(t) {
			t.Fatalf("a thread is blocked in accept on fd %d", fd)
		}
		time.Sleep(time.Millisecond)
	}
	s.Shutdown()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Shutdown did not end the wait (Poll is an hour)")
	}
}

// inAccept reports whether a thread of this process is in accept4(2):
// /proc/self/task/TID/syscall starts with the number of the system call a
// blocked thread is in.
func inAccept(t *testing.T) bool {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip("no /proc/self/task")
	}
	for _, tk := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + tk.Name() + "/syscall")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 0 && (f[0] == strconv.Itoa(syscall.SYS_ACCEPT4) || f[0] == strconv.Itoa(syscall.SYS_ACCEPT)) {
			return true
		}
	}
	return false
}

// An answer longer than the client's read buffer (hookd.Conn.Ask) comes
// whole, over several reads.
func TestLongAnswer(t *testing.T) {
	long := []byte(strings.Repeat("0123456789abcdef", 20000)) // 320 KB
	_, sock, _ := start(t, func(*hookd.Request) *hookd.Response {
		return &hookd.Response{Kind: hookd.KindAnswer, Stdout: long, Stderr: []byte("e")}
	}, self(t))
	r, err := ask(sock, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Stdout) != string(long) || string(r.Stderr) != "e" {
		t.Fatalf("answer of %d and %d bytes, want %d and 1", len(r.Stdout), len(r.Stderr), len(long))
	}
}
