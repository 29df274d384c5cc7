//go:build linux

package hookd

import (
	"errors"
	"strconv"
	"syscall"
	"time"
)

// Errors of Ask. Every one of them means "decide in process"; none is an
// answer.
var (
	// ErrNoService: nothing listens on the socket (it does not exist, or
	// the service exited). Starting one is reasonable.
	ErrNoService = errors.New("hookd: no service")
	// ErrUntrusted: something answered that is not the expected airlock
	// binary, or a writer other than the service wrote on the connection.
	ErrUntrusted = errors.New("hookd: the peer is not this airlock build")
	// ErrDeclined: the service would not decide this invocation.
	ErrDeclined = errors.New("hookd: the service declined")
)

// Timeout bounds a whole exchange with the service. A service slower than
// this is treated as absent: the hook decides in process, so an agent
// gains nothing by stalling the service.
const Timeout = 10 * time.Second

// Conn is a connection to a service whose listener was checked.
type Conn struct {
	fd      int
	want    syscall.Stat_t
	trusted map[int32]bool
	// uid is this process's user, asked once per connection: every piece
	// of the answer is checked against it.
	uid uint32
	// buf receives the answer (see Ask).
	buf []byte
}

// Dial connects to the service listening at sock. want is the file the
// service must be running (the same airlock build: its device and inode
// are compared with the peer's /proc/PID/exe). Nothing of the invocation
// has been read or sent yet when Dial fails, so the caller can decide in
// process from its untouched standard input.
func Dial(sock, want string) (*Conn, error) {
	c := &Conn{fd: -1, trusted: map[int32]bool{}}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	c.fd = fd
	if err := c.dial(sock, want); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return c, nil
}

// dial connects first and looks at want only then: with no service (the
// usual case for "airlock hook" without one), a call costs a socket and a
// failed connect, nothing more.
func (c *Conn) dial(sock, want string) error {
	if err := syscall.SetsockoptInt(c.fd, syscall.SOL_SOCKET, syscall.SO_PASSCRED, 1); err != nil {
		return err
	}
	tv := syscall.NsecToTimeval(int64(Timeout))
	if err := syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	if err := syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); err != nil {
		return err
	}
	if err := syscall.Connect(c.fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return ErrNoService
		}
		return err
	}
	c.uid = uint32(syscall.Getuid())
	// The listener must at least be the user's own and run the expected
	// binary before the event is handed over: a stranger's socket gets
	// nothing to read.
	if err := syscall.Stat(want, &c.want); err != nil {
		return err
	}
	cred, err := syscall.GetsockoptUcred(c.fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return err
	}
	if !c.sameFile(cred.Pid, cred.Uid) {
		if cred.Uid == c.uid {
			// The user's own service of another build (an upgrade, a
			// second install): it would keep the socket, and this build
			// its slow path, for as long as hooks keep calling it. Ask it
			// to exit; the next call starts this build's service. The
			// message carries nothing of the invocation.
			syscall.Write(c.fd, AppendRequest(nil, &Request{Args: []string{StopOtherBuild}}))
		}
		return ErrUntrusted
	}
	return nil
}

// Close closes the connection.
func (c *Conn) Close() error { return syscall.Close(c.fd) }

// Ask sends req and returns the service's answer; it can be called once.
//
// Trust is decided per byte received, not per connection: the client
// turned on SO_PASSCRED, so the kernel labels every piece of the answer
// with the process that wrote it and never merges pieces of different
// writers into one read. The listener's SO_PEERCRED alone would not do:
// it names whoever called listen(), which can exec the real airlock binary
// afterwards while a child it forked, holding the same socket, answers.
func (c *Conn) Ask(req *Request) (*Response, error) {
	deadline := time.Now().Add(Timeout)
	msg := AppendRequest(nil, req)
	for len(msg) > 0 {
		n, err := syscall.Write(c.fd, msg)
		if err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			return nil, err
		}
		msg = msg[n:]
	}
	if err := syscall.Shutdown(c.fd, syscall.SHUT_WR); err != nil {
		return nil, err
	}
	var out []byte
	// The buffer is the connection's, on the heap: a 64 KiB slice local
	// to Ask (as it was) sat on the goroutine's stack, which the hook
	// client (a fresh process on every tool call) grew from 8 KiB to 128
	// KiB by copying, faulting in every page of it, for an answer that is
	// usually a few hundred bytes. A fresh heap span is not zeroed, so
	// only the pages an answer fills are touched; a longer answer takes
	// more reads.
	if c.buf == nil {
		c.buf = make([]byte, 16<<10)
	}
	buf := c.buf
	oob := make([]byte, syscall.CmsgSpace(syscall.SizeofUcred))
	for {
		if time.Now().After(deadline) {
			return nil, errors.New("hookd: no answer in " + Timeout.String())
		}
		n, oobn, _, _, err := syscall.Recvmsg(c.fd, buf, oob, 0)
		if err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			return nil, err
		}
		if n == 0 {
			break
		}
		pid, uid, ok := writer(oob[:oobn])
		if !ok || !c.sameFile(pid, uid) {
			return nil, ErrUntrusted
		}
		out = append(out, buf[:n]...)
		if len(out) > maxResponse {
			return nil, ErrMalformed
		}
	}
	resp, err := ParseResponse(out)
	if err != nil {
		return nil, err
	}
	if resp.Kind == KindDeclined {
		return nil, ErrDeclined
	}
	return resp, nil
}

// Hand gives the service a hook client's connection (fd, another
// process's, accepted by "airlock run"'s relay) instead of carrying its
// bytes: the service reads the request from it and answers on it, so the
// kernel, not the relay, tells the service who wrote the request. The
// caller may close fd once Hand returns.
func (c *Conn) Hand(fd int) error {
	msg := AppendRequest(nil, &Request{Args: []string{RelayArg}})
	oob := syscall.UnixRights(fd)
	for {
		n, err := syscall.SendmsgN(c.fd, msg, oob, nil, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		msg, oob = msg[n:], nil
		if len(msg) == 0 {
			break
		}
	}
	if err := syscall.Shutdown(c.fd, syscall.SHUT_WR); err != nil {
		return err
	}
	// The service closes its side once it has taken the connection.
	var b [1]byte
	for {
		_, err := syscall.Read(c.fd, b[:])
		if !errors.Is(err, syscall.EINTR) {
			return nil
		}
	}
}

// Peer is the process id of the listener (for "airlock hookd --stop").
func (c *Conn) Peer() (int, error) {
	cred, err := syscall.GetsockoptUcred(c.fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Pid), nil
}

// writer is the process that wrote one piece of the answer, from its
// SCM_CREDENTIALS.
func writer(oob []byte) (pid int32, uid uint32, ok bool) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil || len(msgs) != 1 {
		return 0, 0, false
	}
	c, err := syscall.ParseUnixCredentials(&msgs[0])
	if err != nil {
		return 0, 0, false
	}
	return c.Pid, c.Uid, true
}

// sameFile reports whether process pid belongs to this user and runs the
// file c.want names (same device and inode: a rebuilt or upgraded binary
// is another file, so a service of another build is not trusted).
func (c *Conn) sameFile(pid int32, uid uint32) bool {
	if uid != c.uid || pid < 0 {
		return false
	}
	if pid == 0 {
		// The kernel names the peer 0 when it runs in a pid namespace
		// this client cannot see: an ancestor's. A client in the initial
		// namespace sees every process, so outside a sandbox no peer is
		// ever 0 and this changes nothing there. Inside "airlock run" the
		// only socket at the service's path is the runner's relay, bound
		// in read-only by the runner, which checks the service itself
		// (this same test, outside) before it hands over a request; a
		// process inside can make no peer that reads as 0 (its own
		// namespace and those it creates are visible to it).
		return true
	}
	if c.trusted[pid] {
		return true
	}
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/"+strconv.Itoa(int(pid))+"/exe", &st); err != nil {
		return false
	}
	if st.Dev != c.want.Dev || st.Ino != c.want.Ino {
		return false
	}
	c.trusted[pid] = true
	return true
}
