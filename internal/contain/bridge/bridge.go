//go:build linux

// Package bridge is the first process inside "airlock run"'s sandbox
// (the airlock-bridge binary). It links nothing but the standard
// library's network code, so that it starts fast: it is started once per
// contained command, and everything airlock-run links (the policy, the
// classifier's tables) would be initialised again inside for nothing.
package bridge

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
)

// Main is the sandbox's first process (pid 1 of its pid namespace): it
// listens on the loopback port inside, relays every connection to the
// door's unix socket (bound in read-only), and runs the command as its
// child. It forwards the signals it gets to the command, reaps orphans
// (it is the namespace's init), and exits with the command's status; the
// kernel then ends every process left in the namespace.
//
// args: --port N --socket PATH -- COMMAND [ARG...]
func Main(args []string, stderr io.Writer) int {
	port, sock, wait, cmdArgs, err := bridgeArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, "airlock run: bridge:", err)
		return 126
	}
	// Signals are caught before the command starts, so none is lost in
	// between; as pid 1, a signal without a handler would be ignored.
	// Registering them is a round trip per signal with the runtime's
	// signal-mask thread (seven of them, about 1.5 ms of waiting on a
	// busy machine): it runs while the bridge listens, and the command
	// starts only once it is done (docs/BENCHMARKS.md, containment
	// start-up, round 3).
	// SIGCHLD wakes the reaping loop below.
	sigs := make(chan os.Signal, 8)
	chld := make(chan os.Signal, 1)
	notified := make(chan struct{})
	go func() {
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH)
		signal.Notify(chld, syscall.SIGCHLD)
		close(notified)
	}()
	ln, err := listenLoopback(false, port)
	if err != nil {
		fmt.Fprintln(stderr, "airlock run: bridge: cannot listen inside the sandbox:", err)
		return 126
	}
	// The sandbox's own IPv6 loopback too, when it has one: a client
	// that resolves "localhost" to ::1 first still finds the bridge.
	if ln6, err := listenLoopback(true, port); err == nil {
		go relay(ln6, sock)
	}
	go relay(ln, sock)
	// Tell the runner outside that the sandbox is set up (every mount
	// made, the bridge listening): until then a failure is bubblewrap's,
	// and the runner refuses with exit 2 instead of passing on a status.
	if ready := os.NewFile(uintptr(ReadyFD), "ready"); ready != nil {
		_, _ = ready.Write([]byte{1})
		ready.Close()
	}

	// With --wait, the runner is still setting up the door (the egress
	// proxy) while the sandbox starts: the command runs once it says go,
	// and not at all if it does not.
	if wait {
		gofd := os.NewFile(uintptr(GoFD), "go")
		b := []byte{0}
		n, _ := gofd.Read(b)
		gofd.Close()
		if n != 1 || b[0] != 1 {
			fmt.Fprintln(stderr, "airlock run: bridge: the egress proxy did not start; the command was not run")
			return 126
		}
	}

	<-notified
	// syscall.ForkExec rather than os/exec: os/exec's first start probes
	// the kernel's pidfd support by cloning a child of its own, one more
	// process on every contained run's start (docs/BENCHMARKS.md). The
	// bridge reaps with wait4 anyway.
	path, err := exec.LookPath(cmdArgs[0])
	if err != nil {
		fmt.Fprintln(stderr, "airlock run:", err)
		return 127
	}
	child, err := syscall.ForkExec(path, cmdArgs, &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		fmt.Fprintln(stderr, "airlock run: "+cmdArgs[0]+":", err)
		if errors.Is(err, syscall.ENOENT) {
			return 127
		}
		return 126
	}
	go func() {
		for s := range sigs {
			_ = syscall.Kill(child, s.(syscall.Signal))
		}
	}()
	// Reap every child; the command's own status ends the run. Orphans
	// reparented to pid 1 are reaped here too. Each SIGCHLD reaps what
	// has ended (WNOHANG) rather than a wait4 that blocks: a goroutine
	// blocked in a system call keeps the runtime's monitor thread polling
	// for as long as it lasts (docs/BENCHMARKS.md, containment start-up,
	// round 3). A SIGCHLD that arrives while this loop reaps is in the
	// channel already, so no child's end is missed.
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			fmt.Fprintln(stderr, "airlock run: bridge: wait:", err)
			return 126
		}
		if pid == 0 {
			<-chld
			continue
		}
		if pid != child {
			continue
		}
		switch {
		case ws.Exited():
			return ws.ExitStatus()
		case ws.Signaled():
			return 128 + int(ws.Signal())
		}
	}
}

// ReadyFD is the descriptor the runner hands the sandbox for the bridge's
// one byte of readiness (bubblewrap passes descriptors through).
const ReadyFD = 4

// GoFD is the descriptor on which the runner writes one byte (1) once the
// door is ready, when the bridge runs with --wait: the command starts
// only then.
const GoFD = 5

func bridgeArgs(args []string) (port int, sock string, wait bool, cmd []string, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--wait":
			wait = true
		case "--port":
			if i+1 < len(args) {
				port, err = strconv.Atoi(args[i+1])
				i++
			}
		case "--socket":
			if i+1 < len(args) {
				sock = args[i+1]
				i++
			}
		case "--":
			cmd = args[i+1:]
			i = len(args)
		default:
			return 0, "", false, nil, fmt.Errorf("unexpected argument %q", args[i])
		}
	}
	if err != nil || port <= 0 || port > 65535 || sock == "" || len(cmd) == 0 {
		return 0, "", false, nil, errors.New("usage: airlock-bridge --port N --socket PATH [--wait] -- COMMAND [ARG...]")
	}
	return port, sock, wait, cmd, nil
}

// listenLoopback listens on the sandbox's loopback (127.0.0.1, or ::1
// with v6) at port, with the system calls themselves. net.Listen would
// first read /proc/sys/net/core/somaxconn and probe the kernel's IPv6 and
// multipath TCP support by opening sockets of its own: work done in every
// sandbox's first process, on the path of every contained start
// (docs/BENCHMARKS.md, containment start-up). The listener is the same
// plain TCP socket net.Listen makes.
func listenLoopback(v6 bool, port int) (net.Listener, error) {
	family := syscall.AF_INET
	var addr syscall.Sockaddr = &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}
	if v6 {
		family = syscall.AF_INET6
		addr = &syscall.SockaddrInet6{Port: port, Addr: [16]byte{15: 1}}
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	f := os.NewFile(uintptr(fd), "bridge-listener")
	defer f.Close() // net.FileListener holds its own descriptor
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		return nil, os.NewSyscallError("setsockopt", err)
	}
	if err := syscall.Bind(fd, addr); err != nil {
		return nil, os.NewSyscallError("bind", err)
	}
	// The kernel caps the backlog at its somaxconn.
	if err := syscall.Listen(fd, 4096); err != nil {
		return nil, os.NewSyscallError("listen", err)
	}
	return net.FileListener(f)
}

// relay forwards each connection on ln to the unix socket.
func relay(ln net.Listener, sock string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			u, err := net.Dial("unix", sock)
			if err != nil {
				// No door: the client sees a closed connection, never a
				// way around.
				return
			}
			defer u.Close()
			pipe(c, u)
		}()
	}
}

// pipe copies both ways and half-closes each side as its source ends, so
// that request bodies and responses of any length pass.
func pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		} else {
			_ = dst.Close()
		}
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	<-done
}
