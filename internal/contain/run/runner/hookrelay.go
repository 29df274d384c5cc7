//go:build linux

package runner

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// hookRelay is how the agent's hooks inside the sandbox reach airlock's
// decision service outside. Its socket, in the run directory, is bound
// read-only where the hook client looks for the service (hookd.sock in
// the state directory, otherwise hidden). For each connection it checks
// the service with hookd's own client (the service must run this airlock
// binary, byte by byte), starting one when none runs, and hands the
// client's connection itself to the service (hookd.Conn.Hand): the
// service reads the request from the client and answers it there. The
// relay carries no bytes and vouches for nothing: the service asks the
// kernel who wrote the request and whether that process is in a sandbox
// (hookd/server's sandboxed), which is how a decision knows it is
// contained. Binding the service's socket itself would not do: the
// service leaves after its idle time and a new one makes a new socket,
// which a bind made at the start would never see.
//
// Whatever a client inside sends, the service runs nothing but the hook
// (internal/cli's hookd handler declines every other verb), so no human
// act can be made through this socket.
type hookRelay struct {
	ln      net.Listener
	sock    string // the service's socket outside
	airlock string // the airlock binary the service must run
	getenv  func(string) string
	// environ is the service's environment when the relay starts one:
	// the caller's, so that it serves the same state directory.
	environ []string
}

// startHookRelay listens on path. airlock is the airlock binary beside
// airlock-run ("" when missing: the relay then declines everything and
// the hook decides in process, where it cannot write the hidden journal
// and so refuses: fail closed).
func startHookRelay(path, airlock string, getenv func(string) string, environ []string, uid, gid int) (*hookRelay, error) {
	sock := hookd.SocketPath(getenv)
	if sock == "" {
		return nil, errors.New("no usable state directory for the hook service's socket")
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if uid >= 0 {
		_ = os.Chown(path, uid, gid)
	}
	r := &hookRelay{ln: ln, sock: sock, airlock: airlock, getenv: getenv, environ: environ}
	go r.serve()
	return r, nil
}

func (r *hookRelay) Close() error { return r.ln.Close() }

func (r *hookRelay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		go r.one(c)
	}
}

func (r *hookRelay) one(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(hookd.Timeout + 5*time.Second))
	uc, ok := c.(*net.UnixConn)
	if ok {
		if f, err := uc.File(); err == nil {
			err = r.hand(int(f.Fd()))
			f.Close()
			if err == nil {
				return
			}
		}
	}
	// The service could not take the connection: the client decides in
	// its own process (where the hidden journal makes it refuse).
	_, _ = c.Write(hookd.AppendResponse(nil, &hookd.Response{Kind: hookd.KindDeclined, Reason: "relay"}))
}

// hand gives the client's connection to the service, starting one when
// none runs (as the hook client outside would). The service reads the
// request and answers on it: the relay never sees either, and what the
// service knows about the client (the process that wrote the request,
// whether it runs in a sandbox) is the kernel's word, not the relay's.
func (r *hookRelay) hand(fd int) error {
	if r.airlock == "" {
		return errors.New("no airlock binary")
	}
	conn, err := hookd.Dial(r.sock, r.airlock)
	if errors.Is(err, hookd.ErrNoService) && !hookd.Disabled(r.getenv) {
		startService(r.airlock, r.environ)
		for i := 0; i < 100 && errors.Is(err, hookd.ErrNoService); i++ {
			time.Sleep(20 * time.Millisecond)
			conn, err = hookd.Dial(r.sock, r.airlock)
		}
	}
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Hand(fd)
}

// startService starts "airlock hookd" detached, as airlock-hook does.
func startService(airlock string, environ []string) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	p, err := os.StartProcess(airlock, []string{airlock, "hookd"}, &os.ProcAttr{
		Dir: "/", Env: environ, Files: []*os.File{null, null, null},
		Sys: &syscall.SysProcAttr{Setsid: true},
	})
	if err == nil {
		p.Release()
	}
}

// hookSocketPath is where the relay listens in the run directory.
func hookSocketPath(runDir string) string { return filepath.Join(runDir, "hook.sock") }
