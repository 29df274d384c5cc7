//go:build linux

// Package runner starts "airlock run"'s sandbox: it serves the door (the
// egress proxy) on a unix socket outside, builds the plan (package run),
// starts bubblewrap with the bridge as the sandbox's first process,
// forwards signals, and returns the command's exit status. It links the
// network code, so it lives in the airlock-run binary, not in airlock.
package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/airlock-dev/airlock/internal/contain/run"
	"github.com/airlock-dev/airlock/internal/hookd"
)

// Door is what the runner needs of the egress proxy: serve connections
// from the sandbox, stop, and the certificate authority clients inside
// must trust. egress.Proxy has this shape.
type Door interface {
	Serve(net.Listener) error
	Close() error
	CACertPEM() []byte
}

// Options is one contained run.
type Options struct {
	// Config is the plan's input; the runner fills RunDir, ProxySocket
	// and CABundle.
	Config run.Config
	// Door serves the sandbox's HTTP(S) traffic. When nil, ProxySocket
	// must name a door that already listens (a long-running proxy).
	Door Door
	// ProxySocket is an existing door's unix socket (with Door nil).
	ProxySocket string
	// CAFile is an existing door's CA certificate (PEM), with Door nil;
	// "" when it inspects nothing.
	CAFile string
	// Bwrap is bubblewrap's path; "" looks it up on PATH.
	Bwrap string
	// Stdin, Stdout and Stderr are the command's streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Credential runs bubblewrap as another user (tests run the sandbox
	// as an unprivileged user this way); nil: this process's user.
	Credential *syscall.Credential
	// Started, when set, is called with the outside pid of the sandbox's
	// first process once it runs (tests signal it).
	Started func(pid int)
}

// systemRoots are where Debian, Fedora, Alpine and SUSE keep the system's
// CA bundle; the first that exists is copied into the sandbox's bundle,
// so that a tunnelled (passthrough) host's real certificate is trusted as
// well as the proxy's own authority.
var systemRoots = []string{
	"/etc/ssl/certs/ca-certificates.crt",
	"/etc/pki/tls/certs/ca-bundle.crt",
	"/etc/ssl/cert.pem",
	"/etc/ssl/ca-bundle.pem",
}

// Run contains o.Config.Command and returns its exit status. An error
// means the sandbox did not start and the command did not run; a
// *run.Refusal says why in words for the user.
func Run(o Options) (int, error) {
	bwrap := o.Bwrap
	if bwrap == "" {
		b, err := exec.LookPath("bwrap")
		if err != nil {
			return 0, &run.Refusal{Msg: "cannot contain the command: " + run.ErrNoBwrap.Error(),
				Hints: []string{"install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap); airlock run never runs a command uncontained", "airlock doctor shows what containment needs here"}}
		}
		bwrap = b
	}
	dir, err := os.MkdirTemp("", "airlock-run-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if o.Credential != nil {
		if err := os.Chown(dir, int(o.Credential.Uid), int(o.Credential.Gid)); err != nil {
			return 0, err
		}
	}
	cfg := o.Config
	cfg.RunDir = dir
	var pem []byte
	switch {
	case o.Door != nil:
		sock := filepath.Join(dir, "proxy.sock")
		ln, err := net.Listen("unix", sock)
		if err != nil {
			return 0, fmt.Errorf("the door's socket: %w", err)
		}
		if o.Credential != nil {
			_ = os.Chown(sock, int(o.Credential.Uid), int(o.Credential.Gid))
		}
		go func() { _ = o.Door.Serve(ln) }()
		defer o.Door.Close()
		cfg.ProxySocket = sock
		pem = o.Door.CACertPEM()
	case o.ProxySocket != "":
		cfg.ProxySocket = o.ProxySocket
		if o.CAFile != "" {
			if pem, err = os.ReadFile(o.CAFile); err != nil {
				return 0, fmt.Errorf("the proxy's CA certificate: %w", err)
			}
		}
	default:
		return 0, &run.Refusal{Msg: "cannot contain the command: no egress proxy to route its network through",
			Hints: []string{"this build of airlock-run has no proxy; pass --proxy-socket PATH of a running airlock proxy"}}
	}
	uid, gid := -1, -1
	if o.Credential != nil {
		uid, gid = int(o.Credential.Uid), int(o.Credential.Gid)
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	// The state directory is hidden inside by an empty one in its place,
	// which needs it to exist; airlock makes it on first use anyway.
	if st := hookd.StateDir(getenv); filepath.IsAbs(st) {
		_ = os.MkdirAll(st, 0o700)
	}
	if relay, err := startHookRelay(hookSocketPath(dir), cfg.Executable, getenv, cfg.Environ, uid, gid); err == nil {
		defer relay.Close()
		cfg.HookSocket = hookSocketPath(dir)
	}
	if len(pem) > 0 {
		var bundle bytes.Buffer
		for _, f := range systemRoots {
			if b, err := os.ReadFile(f); err == nil {
				bundle.Write(b)
				bundle.WriteByte('\n')
				break
			}
		}
		bundle.Write(pem)
		cfg.CABundle = filepath.Join(dir, "ca-bundle.pem")
		if err := os.WriteFile(cfg.CABundle, bundle.Bytes(), 0o644); err != nil {
			return 0, err
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return 0, err
	}
	plan, err := run.NewPlan(cfg)
	if err != nil {
		return 0, err
	}
	status, err := start(bwrap, plan, o)
	if err != nil {
		return 0, err
	}
	// A protected path that did not exist could not be fenced by a mount;
	// say so when the command made one.
	for _, p := range plan.Unfenced {
		if _, err := os.Lstat(p); err == nil {
			fmt.Fprintf(o.Stderr, "airlock run: warning: %s was created during the run; it is a file airlock protects (agent settings or airlock's own): review it before an agent starts again\n", p)
		}
	}
	return status, nil
}

// start runs bubblewrap and forwards signals to the sandbox's first
// process (the bridge), which forwards them to the command.
func start(bwrap string, plan *run.Plan, o Options) (int, error) {
	info, infoW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	ready, readyW, err := os.Pipe()
	if err != nil {
		info.Close()
		infoW.Close()
		return 0, err
	}
	defer ready.Close()
	// bubblewrap writes {"child-pid": N} on fd 3 as the sandbox starts;
	// the bridge writes one byte on fd 4 (bridge.ReadyFD) once it runs inside, every
	// mount made.
	args := append([]string{"--info-fd", "3"}, plan.Args...)
	cmd := exec.Command(bwrap, args...)
	cmd.Env = plan.Env
	// The streams are handed over as they are: a terminal stays a
	// terminal for the command (an interactive agent needs one).
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.Stdin, o.Stdout, o.Stderr
	cmd.ExtraFiles = []*os.File{infoW, readyW}
	// Its own process group: ^C at the terminal reaches airlock-run,
	// which forwards it to the command, instead of killing bubblewrap.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: o.Credential, Pdeathsig: syscall.SIGKILL}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		infoW.Close()
		info.Close()
		readyW.Close()
		return 0, &run.Refusal{Msg: "cannot start bubblewrap: " + err.Error(), Hints: []string{"airlock doctor shows what containment needs here"}}
	}
	infoW.Close()
	readyW.Close()
	readyc := make(chan bool, 1)
	go func() {
		b := make([]byte, 1)
		n, _ := ready.Read(b)
		readyc <- n == 1
	}()
	pidc := make(chan int, 1)
	go func() {
		defer info.Close()
		var v struct {
			Pid int `json:"child-pid"`
		}
		if err := json.NewDecoder(info).Decode(&v); err == nil && v.Pid > 0 {
			pidc <- v.Pid
		}
		close(pidc)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	child := 0
	var pending []os.Signal
	for {
		select {
		case pid, ok := <-pidc:
			if !ok {
				pidc = nil
				continue
			}
			child = pid
			if o.Started != nil {
				o.Started(pid)
			}
			for _, s := range pending {
				_ = syscall.Kill(child, s.(syscall.Signal))
			}
			pending = nil
		case s := <-sigs:
			if child > 0 {
				_ = syscall.Kill(child, s.(syscall.Signal))
			} else {
				pending = append(pending, s)
			}
		case err := <-done:
			if pidc != nil {
				if pid, ok := <-pidc; ok {
					child = pid
				}
			}
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				return 0, err
			}
			if !<-readyc {
				// The sandbox never ran the bridge: bubblewrap failed to
				// set it up (a mount, a namespace). Nothing ran.
				return 0, &run.Refusal{Msg: "cannot contain the command: bubblewrap failed (" + cmd.ProcessState.String() + "; its message, if any, is above)",
					Hints: []string{"airlock doctor shows what containment needs here; airlock run never runs a command uncontained"}}
			}
			return cmd.ProcessState.ExitCode(), nil
		}
	}
}
