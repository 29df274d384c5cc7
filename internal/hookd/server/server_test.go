//go:build linux

package server

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// TestMain doubles as the impostor writer of TestOtherWriterRejected: run
// with HOOKD_FAKE_WRITER=1, it writes a well-formed "allow" answer on the
// connection it inherited as fd 3, as a process that forked from the
// listener (or was handed its socket) would.
func TestMain(m *testing.M) {
	if sock := os.Getenv("HOOKD_CLIENT_OF"); sock != "" {
		// A hook client in a process of its own (TestClientNamedByKernel).
		exe, _ := os.Executable()
		if _, err := ask(sock, exe); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv("HOOKD_FAKE_WRITER") == "1" {
		f := os.NewFile(3, "conn")
		f.Write(hookd.AppendResponse(nil, &hookd.Response{Kind: hookd.KindAnswer, Status: 0, Stdout: []byte(`{"decision":"allow"}`)}))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var allowReply = &hookd.Response{Kind: hookd.KindAnswer, Stdout: []byte("answer\n")}

// start runs a server with handle in a fresh state directory and returns
// it, its socket and a function that stops it and waits.
func start(t *testing.T, handle Handler, exe string) (*Server, string, func() error) {
	t.Helper()
	dir := shortDir(t)
	s := &Server{StateDir: dir, Idle: time.Hour, Handle: handle, Exe: exe}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	sock := filepath.Join(dir, hookd.SocketName)
	waitFor(t, func() bool { return s.listener.Load() > 0 }, done)
	stop := func() error { s.Shutdown(); return <-done }
	t.Cleanup(func() { s.Shutdown() })
	return s, sock, stop
}

// shortDir is a temporary directory short enough for a socket address.
func shortDir(t *testing.T) string {
	d, err := os.MkdirTemp("/tmp", "hookd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// waitFor polls until ok (the server runs in a goroutine), failing if
// the server returned first. It asserts no time.
func waitFor(t *testing.T, ok func() bool, done chan error) {
	t.Helper()
	for !ok() {
		select {
		case err := <-done:
			t.Fatalf("the server stopped before listening: %v", err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

func self(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func ask(sock, want string) (*hookd.Response, error) {
	c, err := hookd.Dial(sock, want)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.Ask(&hookd.Request{Args: []string{"hook", "claude-code"}, Cwd: "/", Stdin: []byte("{}")})
}

func TestServeAnswers(t *testing.T) {
	var got *hookd.Request
	_, sock, stop := start(t, func(r *hookd.Request) *hookd.Response { got = r; return allowReply }, self(t))
	resp, err := ask(sock, self(t))
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Stdout) != "answer\n" || got == nil || string(got.Stdin) != "{}" || got.Args[0] != "hook" {
		t.Fatalf("answer %+v to request %+v", resp, got)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket is still there after the service stopped: %v", err)
	}
	if _, err := ask(sock, self(t)); !errors.Is(err, hookd.ErrNoService) {
		t.Fatalf("asking a stopped service: %v, want ErrNoService", err)
	}
}

// TestImpostorListener: a listener that is not the expected airlock
// binary (here: the client expects another file) gets nothing to read.
func TestImpostorListener(t *testing.T) {
	called := false
	_, sock, _ := start(t, func(*hookd.Request) *hookd.Response { called = true; return allowReply }, self(t))
	other := filepath.Join(t.TempDir(), "airlock")
	if err := os.WriteFile(other, []byte("another build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(sock, other); !errors.Is(err, hookd.ErrUntrusted) {
		t.Fatalf("a listener running another binary: %v, want ErrUntrusted", err)
	}
	if called {
		t.Fatal("the event reached an untrusted listener")
	}
}

// TestOtherWriterRejected: the listener runs the right binary, but the
// answer is written by another process holding the connection (a child
// forked before the parent exec'd airlock, or a relay). Every piece of
// the answer must come from the trusted binary.
func TestOtherWriterRejected(t *testing.T) {
	copyExe := filepath.Join(t.TempDir(), "impostor")
	data, err := os.ReadFile(self(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyExe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := shortDir(t)
	sock := filepath.Join(dir, "s")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 1); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() {
		c, _, err := syscall.Accept4(fd, syscall.SOCK_CLOEXEC)
		if err != nil {
			served <- err
			return
		}
		conn := os.NewFile(uintptr(c), "conn")
		defer conn.Close()
		io.Copy(io.Discard, conn) // the request, up to the client's shutdown
		cmd := exec.Command(copyExe)
		cmd.Env = append(os.Environ(), "HOOKD_FAKE_WRITER=1")
		cmd.ExtraFiles = []*os.File{conn}
		served <- cmd.Run()
	}()
	_, err = ask(sock, self(t))
	if !errors.Is(err, hookd.ErrUntrusted) {
		t.Fatalf("an answer written by another binary: %v, want ErrUntrusted", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("the impostor writer: %v", err)
	}
}

// TestShortAnswer: a service that dies while answering gives an error,
// never a partial answer.
func TestShortAnswer(t *testing.T) {
	dir := shortDir(t)
	sock := filepath.Join(dir, "s")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	syscall.Listen(fd, 1)
	go func() {
		c, _, err := syscall.Accept4(fd, syscall.SOCK_CLOEXEC)
		if err != nil {
			return
		}
		conn := os.NewFile(uintptr(c), "conn")
		io.Copy(io.Discard, conn)
		full := hookd.AppendResponse(nil, allowReply)
		conn.Write(full[:len(full)-2])
		conn.Close()
	}()
	if resp, err := ask(sock, self(t)); err == nil {
		t.Fatalf("a cut answer was accepted: %+v", resp)
	}
}

func TestDeclined(t *testing.T) {
	_, sock, _ := start(t, func(*hookd.Request) *hookd.Response {
		return &hookd.Response{Kind: hookd.KindDeclined, Reason: "no"}
	}, self(t))
	if _, err := ask(sock, self(t)); !errors.Is(err, hookd.ErrDeclined) {
		t.Fatalf("got %v, want ErrDeclined", err)
	}
}

// TestPanicDeclines: a handler that panics declines; the service lives
// on for the next request.
func TestPanicDeclines(t *testing.T) {
	n := 0
	_, sock, _ := start(t, func(*hookd.Request) *hookd.Response {
		n++
		if n == 1 {
			panic("boom")
		}
		return allowReply
	}, self(t))
	if _, err := ask(sock, self(t)); !errors.Is(err, hookd.ErrDeclined) {
		t.Fatalf("a panicking handler: %v, want ErrDeclined", err)
	}
	if _, err := ask(sock, self(t)); err != nil {
		t.Fatalf("the service did not survive a panic: %v", err)
	}
}

// TestOneInstance: a second service of the same state directory does
// not start.
func TestOneInstance(t *testing.T) {
	s, _, _ := start(t, func(*hookd.Request) *hookd.Response { return allowReply }, self(t))
	second := &Server{StateDir: s.StateDir, Idle: time.Hour, Handle: s.Handle, Exe: s.Exe}
	if err := second.Serve(); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second service: %v, want ErrRunning", err)
	}
}

// TestReplacedBinary: once the binary the service started from is
// replaced, the service declines and exits, so that the next hook starts
// the new build.
func TestReplacedBinary(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "airlock")
	if err := os.WriteFile(exe, []byte("v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := shortDir(t)
	s := &Server{StateDir: dir, Idle: time.Hour, Handle: func(*hookd.Request) *hookd.Response { return allowReply }, Exe: exe}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	waitFor(t, func() bool { return s.listener.Load() > 0 }, done)
	sock := filepath.Join(dir, hookd.SocketName)
	if _, err := ask(sock, self(t)); err != nil {
		t.Fatal(err)
	}
	next := exe + ".new"
	os.WriteFile(next, []byte("v2"), 0o755)
	if err := os.Rename(next, exe); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(sock, self(t)); !errors.Is(err, hookd.ErrDeclined) {
		t.Fatalf("after an upgrade: %v, want ErrDeclined", err)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "replaced") {
		t.Fatalf("the service returned %v, want the replaced-binary error", err)
	}
}

// TestIdleExit: with nothing to do, the service exits and removes its
// socket.
func TestIdleExit(t *testing.T) {
	dir := shortDir(t)
	s := &Server{StateDir: dir, Idle: 20 * time.Millisecond, Handle: func(*hookd.Request) *hookd.Response { return allowReply }, Exe: self(t)}
	if err := s.Serve(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, hookd.SocketName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket left after an idle exit: %v", err)
	}
}

// TestSymlinkedStateDir: a state directory that is a symlink is refused.
func TestSymlinkedStateDir(t *testing.T) {
	real := shortDir(t)
	link := filepath.Join(shortDir(t), "l")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	s := &Server{StateDir: link, Idle: time.Hour, Handle: func(*hookd.Request) *hookd.Response { return allowReply }, Exe: self(t)}
	if err := s.Serve(); err == nil {
		t.Fatal("a symlinked state directory was served")
	}
}

// TestStateDirRemovedExit: a service whose state directory is removed
// (a test's temporary directory cleaned up, an uninstall) can never be
// reached again; it must exit by itself rather than wait out its idle
// time. The deadline is generous: it bounds a hang, it measures nothing.
func TestStateDirRemovedExit(t *testing.T) {
	for _, what := range []string{"state directory", "socket", "socket replaced"} {
		t.Run(what, func(t *testing.T) {
			dir := shortDir(t)
			s := &Server{StateDir: dir, Idle: time.Hour, Poll: 10 * time.Millisecond,
				Handle: func(*hookd.Request) *hookd.Response { return allowReply }, Exe: self(t)}
			done := make(chan error, 1)
			go func() { done <- s.Serve() }()
			waitFor(t, func() bool { return s.listener.Load() > 0 }, done)
			t.Cleanup(s.Shutdown)
			sock := filepath.Join(dir, hookd.SocketName)
			switch what {
			case "state directory":
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
			case "socket":
				if err := os.Remove(sock); err != nil {
					t.Fatal(err)
				}
			case "socket replaced":
				// Another service's socket now holds the name: the old one
				// exits and leaves it in place.
				if err := os.Remove(sock); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(sock, []byte("newer"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Serve: %v", err)
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("the service outlived the removal of its " + what)
			}
			if what == "socket replaced" {
				if _, err := os.Lstat(sock); err != nil {
					t.Fatalf("the exiting service removed the newer socket: %v", err)
				}
			}
		})
	}
}

// TestDropsARequestWhoseClientLeft: a client that gave up (a stopped
// service, then SIGCONT) has closed its connection; the service must not
// handle, and so journal, its request: the client decided in process.
// A client still waiting (only its writing half shut) is answered.
func TestDropsARequestWhoseClientLeft(t *testing.T) {
	for _, left := range []bool{true, false} {
		pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		client, srv := pair[0], pair[1]
		msg := hookd.AppendRequest(nil, &hookd.Request{Args: []string{"hook", "claude-code"}, Cwd: "/", Stdin: []byte("{}")})
		if _, err := syscall.Write(client, msg); err != nil {
			t.Fatal(err)
		}
		syscall.Shutdown(client, syscall.SHUT_WR)
		if left {
			syscall.Close(client)
		}
		handled := false
		s := &Server{Handle: func(*hookd.Request) *hookd.Response { handled = true; return allowReply }}
		s.serveConn(srv, int32(os.Getpid()), false)
		if handled == left {
			t.Fatalf("client left=%v: handled=%v", left, handled)
		}
		if !left {
			syscall.Close(client)
		}
	}
}

// TestAnotherBuildsClientStopsTheService: a client that expects another
// binary does not trust the service, and tells it to exit, so that its
// own build's service can start; the service does.
func TestAnotherBuildsClientStopsTheService(t *testing.T) {
	s, sock, stop := start(t, func(r *hookd.Request) *hookd.Response { return allowReply }, self(t))
	other := filepath.Join(t.TempDir(), "airlock")
	if err := os.WriteFile(other, []byte("another build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(sock, other); !errors.Is(err, hookd.ErrUntrusted) {
		t.Fatalf("a client of another build: %v, want ErrUntrusted", err)
	}
	// The service leaves by itself (a hang guard, not a speed check).
	for deadline := time.Now().Add(10 * time.Second); s.listener.Load() > 0; {
		if time.Now().After(deadline) {
			t.Fatal("the service of another build did not exit when this build's client called")
		}
		time.Sleep(time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the other build's service still holds the socket: %v", err)
	}
}

// peerPidfds reports whether the kernel gives a pidfd of a unix socket's
// peer (SO_PEERPIDFD, Linux 6.5).
func peerPidfds(t *testing.T) bool {
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(pair[0])
	defer syscall.Close(pair[1])
	fd, err := syscall.GetsockoptInt(pair[0], syscall.SOL_SOCKET, soPeerPidfd)
	if err != nil {
		return false
	}
	syscall.Close(fd)
	return true
}

// TestClientNamedByKernel: the handler learns the client's process from
// the connection, not from the request: its pid, pinned while it runs,
// and no longer pinned once it has exited (its pid may then be reused).
func TestClientNamedByKernel(t *testing.T) {
	if !peerPidfds(t) {
		t.Skip("this kernel gives no SO_PEERPIDFD (Linux 6.5): the service leaves proxied calls to the client (TestHookdUnpinnedClient in internal/cli)")
	}
	type seen struct {
		c       hookd.Client
		pinned  bool
		release chan bool
	}
	got := make(chan seen)
	_, sock, _ := start(t, func(r *hookd.Request) *hookd.Response {
		s := seen{c: r.Client, pinned: r.Client.Pinned != nil && r.Client.Pinned(), release: make(chan bool)}
		got <- s
		<-s.release
		return allowReply
	}, self(t))

	// The test process itself.
	errc := make(chan error, 1)
	go func() { _, err := ask(sock, self(t)); errc <- err }()
	s := <-got
	if s.c.PID != os.Getpid() || !s.pinned {
		t.Errorf("a client in this process: %+v pinned=%v, want pid %d pinned", s.c, s.pinned, os.Getpid())
	}
	close(s.release)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}

	// A client of its own, killed while its request is handled.
	cmd := exec.Command(self(t), "-test.run=^$")
	cmd.Env = append(os.Environ(), "HOOKD_CLIENT_OF="+sock)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s = <-got
	if s.c.PID != cmd.Process.Pid || !s.pinned {
		t.Errorf("a client process: %+v pinned=%v, want pid %d pinned", s.c, s.pinned, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if s.c.Pinned() {
		t.Error("the pid of a client that has exited is still pinned")
	}
	close(s.release)
}

// TestClientPinnedWhenAsked: the pidfd of the client is asked for when the
// handler first calls Pinned, not before; it is still the pidfd of the
// process that connected. A client killed before the first question is
// not pinned (its pid may be reused by then); a live one asked late is;
// and once the request is answered, Pinned says no.
func TestClientPinnedWhenAsked(t *testing.T) {
	if !peerPidfds(t) {
		t.Skip("this kernel gives no SO_PEERPIDFD (Linux 6.5)")
	}
	type seen struct {
		c       hookd.Client
		release chan bool
	}
	got := make(chan seen)
	_, sock, _ := start(t, func(r *hookd.Request) *hookd.Response {
		s := seen{c: r.Client, release: make(chan bool)}
		got <- s
		<-s.release
		return allowReply
	}, self(t))

	// A live client, asked only after a while, is pinned; after its
	// answer, no longer.
	errc := make(chan error, 1)
	go func() { _, err := ask(sock, self(t)); errc <- err }()
	s := <-got
	if s.c.Pinned == nil {
		t.Fatal("no Pinned on a kernel with SO_PEERPIDFD")
	}
	time.Sleep(20 * time.Millisecond)
	if !s.c.Pinned() {
		t.Error("a live client asked late is not pinned")
	}
	close(s.release)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if s.c.Pinned() {
		t.Error("Pinned still says yes after the request was answered")
	}

	// A client of its own, killed before the handler first asks.
	cmd := exec.Command(self(t), "-test.run=^$")
	cmd.Env = append(os.Environ(), "HOOKD_CLIENT_OF="+sock)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s = <-got
	if s.c.PID != cmd.Process.Pid {
		t.Errorf("client pid %d, want %d", s.c.PID, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if s.c.Pinned() {
		t.Error("a client that exited before the first question is pinned")
	}
	close(s.release)
}
