//go:build linux

// Package server is the resident half of the hook decision service: it
// listens on the unix socket in airlock's state directory, reads one
// request per connection and answers it with a Handler (package cli runs
// the hook exactly as a hook process would).
//
// It uses raw system calls rather than package net, which the airlock
// binary must not link (cmd/airlock/deps_test.go: net's initialisation
// would be paid by every hook process).
package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// Handler decides one request. It is called from several goroutines.
type Handler func(*hookd.Request) *hookd.Response

// Server is one service for one state directory.
type Server struct {
	// StateDir holds the socket and the lock.
	StateDir string
	// Idle is how long the service waits for a request before it exits.
	Idle time.Duration
	// Handle answers requests.
	Handle Handler
	// Exe is the binary the service runs; when the file at this path is
	// replaced (an upgrade, a rebuild) the service declines and exits, so
	// that the next hook starts the new build.
	Exe string
	// Log receives one line per notable event; nil discards.
	Log func(format string, args ...any)
	// Poll is how often an idle service checks that its socket is still
	// in place (default: every 5 seconds, or Idle when shorter). A service
	// whose socket or state directory was removed (an uninstall, a test's
	// temporary directory cleaned up) can never be reached again, so it
	// exits instead of waiting out its idle time.
	Poll time.Duration
	// Go starts fn, which serves one connection from its first byte to
	// the answer; nil: a goroutine of its own. The service passes a
	// function that runs fn on a kept thread where the handler can run
	// without handing the request to another thread (internal/cli).
	Go func(fn func())

	// listener is the listening socket while Serve runs, else -1, and
	// listenerFile the poller's file of it.
	listener     atomic.Int64
	listenerFile atomic.Pointer[os.File]
	// stopping is set by Shutdown.
	stopping atomic.Bool
}

// Shutdown makes Serve stop accepting, finish the requests it has, remove
// the socket and return (on SIGTERM, say).
func (s *Server) Shutdown() {
	if fd := s.listener.Load(); fd > 0 {
		s.stopping.Store(true)
		syscall.Shutdown(int(fd), syscall.SHUT_RDWR)
		// A wait in the poller ends at its deadline: make that now.
		if f := s.listenerFile.Load(); f != nil {
			f.SetReadDeadline(time.Now())
		}
	}
}

// ErrRunning is returned by Serve when another service holds the lock of
// the same state directory.
var ErrRunning = errors.New("hookd: a service already runs for this state directory")

// errStale stops the loop when the binary was replaced.
var errStale = errors.New("hookd: the airlock binary was replaced")

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}

// Serve takes the state directory's lock, listens, and answers until
// the service has been idle for s.Idle or its binary was replaced. The
// socket is removed before it returns.
func (s *Server) Serve() error {
	if err := os.MkdirAll(s.StateDir, 0o700); err != nil {
		return err
	}
	if err := checkDir(s.StateDir); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(s.StateDir, hookd.LockName), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return ErrRunning
		}
		return err
	}
	var exeSt syscall.Stat_t
	if err := syscall.Stat(s.Exe, &exeSt); err != nil {
		return err
	}
	sock := filepath.Join(s.StateDir, hookd.SocketName)
	if len(sock) >= 108 {
		return fmt.Errorf("hookd: socket path %s is longer than a unix socket address allows", sock)
	}
	// Holding the lock, whatever is at the socket's path is a dead
	// service's socket (or something planted): remove it, without
	// following a link.
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	// closeFD closes the listening socket on the way out: the descriptor
	// alone until the poller's file takes it over.
	closeFD := func() { syscall.Close(fd) }
	defer func() { closeFD() }()
	// The socket is created with the umask applied; no other user may
	// even connect (the directory is 0700 too).
	old := syscall.Umask(0o177)
	err = syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock})
	syscall.Umask(old)
	if err != nil {
		return err
	}
	// The socket is removed on the way out only while it is still this
	// service's: once the state directory was removed and made again,
	// the name may belong to a newer service.
	var sockSt syscall.Stat_t
	if err := syscall.Lstat(sock, &sockSt); err != nil {
		os.Remove(sock)
		return err
	}
	defer func() {
		if !socketGone(sock, &sockSt) {
			os.Remove(sock)
		}
	}()
	if err := syscall.Listen(fd, 256); err != nil {
		return err
	}
	// The service waits for a connection in the runtime's poller, not in
	// a blocking accept: a goroutine blocked in a system call keeps its
	// processor in the scheduler's eyes, so the runtime's monitor thread
	// (sysmon) went on polling while the service waited, every 20 µs at
	// first, and after 10 ms took the processor back, which started its
	// 20 µs polling over again (a few dozen wake-ups per call). Parked in
	// the poller, a waiting service leaves every processor idle, and the
	// monitor sleeps until the next call.
	if err := syscall.SetNonblock(fd, true); err != nil {
		return err
	}
	lf := os.NewFile(uintptr(fd), sock)
	closeFD = func() { lf.Close() }
	rc, err := lf.SyscallConn()
	if err != nil {
		return err
	}
	s.listener.Store(int64(fd))
	s.listenerFile.Store(lf)
	defer s.listenerFile.Store(nil)
	defer s.listener.Store(-1)
	// A wait that ends without a connection after poll is both the idle
	// timer and the check of the socket, with no goroutine of their own.
	idle := s.Idle
	if idle <= 0 {
		idle = 30 * time.Minute
	}
	poll := s.Poll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	poll = min(poll, idle)
	s.logf("listening on %s (idle exit after %s)", sock, idle)
	var wg sync.WaitGroup
	defer wg.Wait()
	uid := uint32(os.Getuid())
	last := time.Now()
	for {
		if err := lf.SetReadDeadline(time.Now().Add(poll)); err != nil {
			return err
		}
		if s.stopping.Load() {
			s.logf("stopped")
			return nil
		}
		c := -1
		var aerr error
		err := rc.Read(func(fd uintptr) bool {
			c, _, aerr = syscall.Accept4(int(fd), syscall.SOCK_CLOEXEC)
			return !errors.Is(aerr, syscall.EAGAIN)
		})
		if err == nil {
			err = aerr
		}
		switch {
		case s.stopping.Load():
			if err == nil {
				syscall.Close(c)
			}
			s.logf("stopped")
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded) && socketGone(sock, &sockSt):
			s.logf("%s was removed: exiting", sock)
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded) && time.Since(last) >= idle:
			s.logf("idle for %s: exiting", idle)
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			continue
		case errors.Is(err, syscall.EINTR), errors.Is(err, syscall.ECONNABORTED):
			continue
		case errors.Is(err, syscall.EINVAL):
			// Shutdown was called.
			s.logf("stopped")
			return nil
		case err != nil:
			return err
		}
		cred, err := syscall.GetsockoptUcred(c, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		if err != nil || cred.Uid != uid {
			// Another user cannot reach a 0600 socket in a 0700 directory;
			// if one does anyway, it gets nothing.
			syscall.Close(c)
			continue
		}
		last = time.Now()
		stale := replaced(s.Exe, &exeSt)
		wg.Add(1)
		s.spawn(func() {
			defer wg.Done()
			s.serveConn(c, cred.Pid, stale)
		})
		if stale {
			s.logf("%s was replaced: exiting", s.Exe)
			return errStale
		}
	}
}

// spawn runs fn as s.Go says.
func (s *Server) spawn(fn func()) {
	if s.Go != nil {
		s.Go(fn)
		return
	}
	go fn()
}

// replaced reports whether the file at exe is no longer the one the
// service started from.
func replaced(exe string, was *syscall.Stat_t) bool {
	var st syscall.Stat_t
	return syscall.Stat(exe, &st) != nil || st.Dev != was.Dev || st.Ino != was.Ino
}

// socketGone reports whether the service's socket is no longer at its
// path: removed, alone or with the whole state directory, or replaced.
func socketGone(sock string, was *syscall.Stat_t) bool {
	var st syscall.Stat_t
	return syscall.Lstat(sock, &st) != nil || st.Dev != was.Dev || st.Ino != was.Ino
}

// checkDir refuses a state directory that is a symlink or another user's.
func checkDir(dir string) error {
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		return err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return fmt.Errorf("hookd: %s is not a directory (a symlink is refused)", dir)
	}
	if st.Uid != uint32(os.Getuid()) {
		return fmt.Errorf("hookd: %s belongs to another user", dir)
	}
	return nil
}

// connTimeout bounds reading a request: a client that connects and sends
// nothing holds one goroutine this long, not forever.
const connTimeout = 10 * time.Second

func (s *Server) serveConn(c int, pid int32, stale bool) {
	s.serveOne(c, pid, stale, true)
}

// serveOne answers the request on connection c, whose client the kernel
// named pid when it connected. relay says c may be "airlock run"'s relay
// handing over a hook client's connection (hookd.RelayArg): then that
// connection is served instead, once, never a relay in turn.
func (s *Server) serveOne(c int, pid int32, stale, relay bool) {
	closed := false
	defer func() {
		if !closed {
			syscall.Close(c)
		}
	}()
	tv := syscall.NsecToTimeval(int64(connTimeout))
	syscall.SetsockoptTimeval(c, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	syscall.SetsockoptTimeval(c, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	// Each piece of the request comes labelled with the process that
	// wrote it (see readRequest).
	syscall.SetsockoptInt(c, syscall.SOL_SOCKET, syscall.SO_PASSCRED, 1)
	var resp *hookd.Response
	req, writer, fds, err := readRequest(c)
	if err == nil && len(req.Args) == 1 && req.Args[0] == hookd.RelayArg {
		if !relay || len(fds) != 1 {
			closeAll(fds)
			s.logf("declined: a relay message without exactly one connection")
			return
		}
		// The hook client's own connection: its request, its answer, and
		// the kernel's word on who it is.
		syscall.CloseOnExec(fds[0])
		syscall.Close(c)
		closed = true
		cred, err := syscall.GetsockoptUcred(fds[0], syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		if err != nil || cred.Uid != uint32(os.Getuid()) {
			syscall.Close(fds[0])
			return
		}
		s.serveOne(fds[0], cred.Pid, stale, false)
		return
	}
	closeAll(fds)
	switch {
	case err != nil:
		resp = &hookd.Response{Kind: hookd.KindDeclined, Reason: err.Error()}
	case stale:
		resp = &hookd.Response{Kind: hookd.KindDeclined, Reason: "the airlock binary was replaced"}
	case len(req.Args) == 1 && req.Args[0] == hookd.StopOtherBuild:
		s.logf("a client of another airlock build called: exiting so that its own service can start")
		s.Shutdown()
		return
	case clientGone(c):
		// The client gave up waiting (the service was stopped, or slow)
		// and decided in process: handling the request now would journal
		// the call a second time, and queue a held call twice.
		s.logf("dropped: the client had gone before its request was handled")
		return
	default:
		client, done := peer(c, pid)
		if writer == pid && client.Pinned != nil {
			// Only the process that connected wrote the request, and it is
			// pinned: where it runs can be read about it, once, if asked.
			var once sync.Once
			var in bool
			client.Contained = func() bool {
				once.Do(func() { in = sandboxed(int(pid), s.StateDir) && client.Pinned() })
				return in
			}
		}
		req.Client = client
		resp = s.handle(req)
		done()
	}
	if resp.Kind == hookd.KindDeclined {
		s.logf("declined: %s", resp.Reason)
	}
	msg := hookd.AppendResponse(nil, resp)
	for len(msg) > 0 {
		n, err := syscall.Write(c, msg)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		msg = msg[n:]
	}
}

func closeAll(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// handle runs the handler; a panic declines (the client then decides in
// process, where the same panic would have happened).
func (s *Server) handle(req *hookd.Request) (resp *hookd.Response) {
	defer func() {
		if r := recover(); r != nil {
			resp = &hookd.Response{Kind: hookd.KindDeclined, Reason: fmt.Sprint("panic: ", r)}
		}
	}()
	return s.Handle(req)
}

// clientGone reports whether the client has closed its end of the
// connection. A waiting client has only shut down its writing half (it
// reads the answer): the kernel reports POLLHUP once both halves are
// closed, which a client does when it stops waiting.
func clientGone(c int) bool {
	revents, ok := pollNow(c, pollOut)
	return ok && revents&(pollHup|pollErr) != 0
}

// soPeerPidfd is SO_PEERPIDFD (Linux 6.5): a pidfd of the process that
// connected, which stays that process's whatever happens to its pid.
const soPeerPidfd = 77

// peer names the client of connection c for the handler: the pid the
// kernel gave for the connection (SO_PEERCRED, read at accept) and,
// where the kernel gives a pidfd of that process, a check that the pid
// still names it. done closes the pidfd, and Pinned says no after it.
//
// The pidfd is asked for when Pinned is first called, not before the
// handler runs: most calls never ask (only a call that may go to an MCP
// proxy, or that asks whether its client is in a sandbox), and the three
// system calls (getsockopt, fcntl, close) were a few per cent of the
// service's CPU on every call. Asked later, it is still the pidfd of the
// process that connected: the socket holds that process's struct pid
// from connect(2) on, whatever happens to its number. If that process
// has exited by then (its number perhaps reused), the kernel gives a
// pidfd that polls as exited, or none, and Pinned is false either way, as
// it would have been for a pidfd taken earlier and polled then.
func peer(c int, pid int32) (client hookd.Client, done func()) {
	client = hookd.Client{PID: int(pid)}
	if pid <= 0 || !kernelPeerPidfds() {
		// An older kernel, or no pid: the pid cannot be pinned, and
		// Pinned stays nil.
		return client, func() {}
	}
	var mu sync.Mutex
	fd, asked, finished := -1, false, false
	client.Pinned = func() bool {
		mu.Lock()
		defer mu.Unlock()
		if finished {
			return false
		}
		if !asked {
			asked = true
			if f, err := syscall.GetsockoptInt(c, syscall.SOL_SOCKET, soPeerPidfd); err == nil && f >= 0 {
				syscall.CloseOnExec(f)
				fd = f
			}
		}
		return fd >= 0 && running(fd)
	}
	return client, func() {
		mu.Lock()
		defer mu.Unlock()
		finished = true
		if fd >= 0 {
			syscall.Close(fd)
			fd = -1
		}
	}
}

// kernelPeerPidfds reports whether this kernel gives a pidfd of a unix
// socket's peer (SO_PEERPIDFD, Linux 6.5), asked once per process on a
// socket pair of its own.
var kernelPeerPidfds = sync.OnceValue(func() bool {
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(pair[0])
	defer syscall.Close(pair[1])
	fd, err := syscall.GetsockoptInt(pair[0], syscall.SOL_SOCKET, soPeerPidfd)
	if err != nil || fd < 0 {
		return false
	}
	syscall.Close(fd)
	return true
})

// running reports whether the process of pidfd fd has not exited: a
// pidfd polls readable once it has. While it runs, its pid is its own.
func running(pidfd int) bool {
	revents, ok := pollNow(pidfd, pollIn)
	return ok && revents == 0
}

const pollIn, pollOut, pollErr, pollHup, pollNval = 0x1, 0x4, 0x8, 0x10, 0x20

// pollNow polls one descriptor without waiting.
func pollNow(fd int, events int16) (revents int16, ok bool) {
	fds := [1]struct {
		fd      int32
		events  int16
		revents int16
	}{{fd: int32(fd), events: events}}
	var zero syscall.Timespec
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 || fds[0].revents&pollNval != 0 {
			return 0, false
		}
		return fds[0].revents, true
	}
}

// readBufs are readRequest's buffers.
var readBufs = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// readRequest reads a whole request from c. writer is the process that
// wrote every piece of it, from the credentials the kernel attached to
// each (SO_PASSCRED is set on c): -1 when pieces came from different
// processes, 0 when the kernel attached none. fds are the descriptors
// passed with it (SCM_RIGHTS), which the caller closes.
func readRequest(c int) (req *hookd.Request, writer int32, fds []int, err error) {
	var b []byte
	// A buffer from the pool: a 64 KiB slice local to this function would
	// sit on the goroutine's stack, and every worker's stack would grow
	// to hold it (by copying) again after each collection shrank it.
	bp := readBufs.Get().(*[64 << 10]byte)
	defer readBufs.Put(bp)
	buf := bp[:]
	oob := make([]byte, syscall.CmsgSpace(syscall.SizeofUcred)+syscall.CmsgSpace(4*4))
	first := true
	for {
		n, oobn, _, _, err := syscall.Recvmsg(c, buf, oob, syscall.MSG_CMSG_CLOEXEC)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, 0, fds, err
		}
		if n == 0 {
			break
		}
		pid := int32(0)
		if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
			for i := range msgs {
				if cr, err := syscall.ParseUnixCredentials(&msgs[i]); err == nil {
					pid = cr.Pid
				} else if rights, err := syscall.ParseUnixRights(&msgs[i]); err == nil {
					fds = append(fds, rights...)
				}
			}
		}
		switch {
		case first:
			writer, first = pid, false
		case pid != writer:
			writer = -1
		}
		b = append(b, buf[:n]...)
		if hookd.RequestTooLarge(len(b)) {
			return nil, 0, fds, errors.New("request too large")
		}
	}
	req, err = hookd.ParseRequest(b)
	return req, writer, fds, err
}
