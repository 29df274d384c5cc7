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
	"github.com/airlock-dev/airlock/internal/statusline"
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
	// Door serves the sandbox's HTTP(S) traffic. When nil, MakeDoor or
	// ProxySocket must be set.
	Door Door
	// MakeDoor makes the door. It runs while the sandbox starts (the
	// bridge waits for it before it runs the command), so that the
	// proxy's set-up (the policy, the journal, the CA) is not paid before
	// bubblewrap's; an error refuses the run, the command never started.
	MakeDoor func() (Door, error)
	// DoorProgram is airlock-proxy (DoorBinary): the door as a process
	// of its own, started at the sandbox's first connection (doorproc.go),
	// with Door and MakeDoor nil.
	DoorProgram string
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
	// The signals start forwards to the sandbox are caught from here on:
	// one that arrives while the run is set up reaches the sandbox's
	// first process once it runs, and the runner still removes what it
	// made. Registering each is a round trip with the runtime's
	// signal-mask thread, so they are registered while the run is set
	// up, not just before bubblewrap starts (docs/BENCHMARKS.md,
	// containment start-up, round 3).
	// SIGCHLD wakes the wait for bubblewrap (proc.waitOn).
	sigs := make(chan os.Signal, 8)
	chld := make(chan os.Signal, 1)
	notified := make(chan struct{})
	go func() {
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
		signal.Notify(chld, syscall.SIGCHLD)
		close(notified)
	}()
	defer func() {
		<-notified
		signal.Stop(sigs)
		signal.Stop(chld)
	}()
	getenv := o.Config.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	dir, err := makeRunDir(getenv, o.Credential)
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
	var doorc chan error
	var late <-chan error
	openDoorNow := func() {}
	stateDir := hookd.StateDir(getenv)
	switch {
	case o.Door == nil && o.MakeDoor == nil && o.DoorProgram != "":
		sock := filepath.Join(dir, "proxy.sock")
		dp, err := newDoorProc(o.DoorProgram, sock, cfg.Environ, cfg.Cwd, o.Stderr)
		if err != nil {
			return 0, fmt.Errorf("the door's socket: %w", err)
		}
		defer dp.stop()
		if o.Credential != nil {
			_ = os.Chown(sock, int(o.Credential.Uid), int(o.Credential.Gid))
		}
		cfg.ProxySocket = sock
		cfg.Door = o.DoorProgram
		cfg.CABundle = filepath.Join(dir, "ca-bundle.pem")
		if b, ok := LazyBundle(stateDir, getenv("SSL_CERT_FILE")); ok && os.WriteFile(cfg.CABundle, b, 0o644) == nil {
			late = dp.lazy()
			break
		}
		// No authority yet: the proxy makes it, and writes the bundle,
		// as the sandbox starts; the bridge waits for it.
		cfg.WaitForDoor = true
		doorc = make(chan error, 1)
		openDoorNow = func() {
			go func() { doorc <- dp.start(nil, cfg.CABundle) }()
		}
	case o.Door != nil || o.MakeDoor != nil:
		sock := filepath.Join(dir, "proxy.sock")
		ln, err := net.Listen("unix", sock)
		if err != nil {
			return 0, fmt.Errorf("the door's socket: %w", err)
		}
		if o.Credential != nil {
			_ = os.Chown(sock, int(o.Credential.Uid), int(o.Credential.Gid))
		}
		cfg.ProxySocket = sock
		// The bundle's path is in the sandbox's environment from the
		// start; the door writes it before the bridge may run the command.
		cfg.CABundle = filepath.Join(dir, "ca-bundle.pem")
		cfg.WaitForDoor = true
		doorc = make(chan error, 1)
		doorDone := make(chan Door, 1)
		// The door is made once bubblewrap is started (start calls
		// openDoorNow), not before: its set-up (the policy, the journal,
		// the CA) would otherwise take the processor from the plan and
		// bubblewrap's start, which the command waits for, while the
		// sandbox's own set-up leaves it the time it needs.
		launched := false
		openDoorNow = func() {
			launched = true
			go func() {
				d, err := openDoor(o, cfg.CABundle)
				if err != nil {
					ln.Close()
					doorc <- err
					doorDone <- nil
					return
				}
				go func() { _ = d.Serve(ln) }()
				doorc <- nil
				doorDone <- d
			}()
		}
		defer func() {
			if !launched {
				ln.Close()
				return
			}
			if d := <-doorDone; d != nil {
				d.Close()
			}
		}()
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
	// The state directory is hidden inside by an empty one in its place,
	// which needs it to exist; airlock makes it on first use anyway.
	if filepath.IsAbs(stateDir) {
		_ = os.MkdirAll(stateDir, 0o700)
		cleanStale(stateDir, o.Stderr)
	}
	if len(pem) > 0 {
		cfg.CABundle = filepath.Join(dir, "ca-bundle.pem")
	}
	// The plan is made beside the rest of the set-up (the relay's socket,
	// the bundle, the status view), on the other processor, naming the
	// relay's socket and the status view where they are made. It touches
	// nothing of the run directory. When either could not be made, the
	// plan is made again without it (docs/BENCHMARKS.md, containment
	// start-up, round 3).
	journalDir := statusline.JournalDir(getenv)
	guess := cfg
	guess.HookSocket = hookSocketPath(dir)
	if filepath.IsAbs(journalDir) {
		guess.StatusView = filepath.Join(dir, statusline.ViewDir)
	}
	type planned struct {
		plan *run.Plan
		err  error
	}
	planc := make(chan planned, 1)
	go func() {
		p, err := run.NewPlan(guess)
		planc <- planned{p, err}
	}()
	if relay, err := startHookRelay(hookSocketPath(dir), cfg.Executable, getenv, cfg.Environ, uid, gid); err == nil {
		defer relay.Close()
		cfg.HookSocket = hookSocketPath(dir)
	}
	if len(pem) > 0 {
		if err := writeBundle(cfg.CABundle, pem); err != nil {
			return 0, err
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return 0, err
	}
	view, stopView := startStatusView(dir, journalDir)
	defer stopView()
	cfg.StatusView = view
	pr := <-planc
	plan, err := pr.plan, pr.err
	if cfg.HookSocket != guess.HookSocket || cfg.StatusView != guess.StatusView {
		plan, err = run.NewPlan(cfg)
	}
	if err != nil {
		return 0, err
	}
	made, err := makePlaceholders(plan.Placeholders)
	defer removeRecorded(made, recordMade(stateDir, made, plan.Unfenced, o.Stderr), o.Stderr)
	if err != nil {
		return 0, &run.Refusal{Msg: "cannot fence a protected path that does not exist yet: " + err.Error(),
			Hints: []string{"airlock run never runs a command uncontained"}}
	}
	<-notified
	status, err := start(bwrap, plan, o, doorc, late, openDoorNow, sigs, chld)
	if err != nil {
		return 0, err
	}
	// A protected path that did not exist could not be fenced by a mount:
	// one the command made is set aside for review (setaside.go).
	setAside(plan.Project, plan.Unfenced, o.Stderr)
	setAsideModules(plan.Project, plan.GitModules, o.Stderr)
	reviewed := run.ReviewRun(plan.Project, plan.Before)
	// git's own configuration last: a file the walk set aside and put
	// back is then as it was (gitreview.go).
	var undone []run.Found
	if plan.Before != nil {
		undone = run.GitReview(plan.Before.Git)
	}
	reviewed.Found = append(reviewed.Found, undone...)
	reportReview(plan.Project, reviewed, stateDir, o.Stderr)
	return gitStatus(status, undone, o.Stderr), nil
}

// makeRunDir makes the run's directory (the door's and the hook relay's
// sockets, the CA bundle, the status view; bound read-only inside). Every
// run makes and removes it and a few files in it, so it goes on a tmpfs
// when there is one: on a disk file system each inode made and freed
// costs the file system's own work (5 ms of wall time for a directory
// made and removed on the benchmark machine, ext4 mounted with discard;
// docs/BENCHMARKS.md, containment start-up, round 3). The first of:
// $XDG_RUNTIME_DIR (the user's own tmpfs, meant for sockets; not when the
// sandbox runs as another user, who could not reach it), $TMPDIR when
// set (the user's choice), /dev/shm when it is a tmpfs, then /tmp. Inside,
// the directory is bound at its own path, over the sandbox's empty /run,
// /dev or /tmp.
func makeRunDir(getenv func(string) string, cred *syscall.Credential) (string, error) {
	var bases []string
	if d := getenv("XDG_RUNTIME_DIR"); cred == nil && filepath.IsAbs(d) && onTmpfs(d) {
		bases = append(bases, d)
	}
	if getenv("TMPDIR") == "" && onTmpfs("/dev/shm") {
		bases = append(bases, "/dev/shm")
	}
	for _, b := range bases {
		if dir, err := os.MkdirTemp(b, "airlock-run-"); err == nil {
			return dir, nil
		}
	}
	return os.MkdirTemp("", "airlock-run-")
}

// onTmpfs reports whether dir is a directory on a tmpfs.
func onTmpfs(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == tmpfsMagic
}

// tmpfsMagic is TMPFS_MAGIC, a tmpfs's f_type.
const tmpfsMagic = 0x01021994

// madePath is a placeholder or a directory made for one, as it was made.
type madePath struct {
	path string
	dir  bool
	size int64
	st   os.FileInfo
	// parent: a directory made for a placeholder, writable inside; left
	// without a word when the command put something in it.
	parent bool
}

// makePlaceholders makes the plan's placeholders (and the directories
// they need) before the sandbox starts; it returns what it made, so that
// the caller removes it, even on error. Nothing is made over something
// that exists.
func makePlaceholders(phs []run.Placeholder) ([]madePath, error) {
	var made []madePath
	add := func(path string, dir bool, content string, parent bool) error {
		var err error
		if dir {
			err = os.Mkdir(path, 0o755)
		} else {
			var f *os.File
			if f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
				_, err = f.WriteString(content)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		}
		if err != nil {
			return err
		}
		st, err := os.Lstat(path)
		if err != nil {
			return err
		}
		made = append(made, madePath{path: path, dir: dir, size: int64(len(content)), st: st, parent: parent})
		return nil
	}
	for _, ph := range phs {
		for _, d := range ph.Parents {
			if _, err := os.Lstat(d); err == nil {
				continue
			}
			if err := add(d, true, "", true); err != nil {
				return made, err
			}
		}
		if err := add(ph.Path, ph.Dir, ph.Content, false); err != nil {
			return made, err
		}
	}
	return made, nil
}

// removePlaceholders removes what makePlaceholders made, innermost
// first, each only if it is still as made: an empty directory, a file of
// the same size and inode. What changed (outside the sandbox, during the
// run) is left, with a warning.
func removePlaceholders(made []madePath, stderr io.Writer) {
	for i := len(made) - 1; i >= 0; i-- {
		m := made[i]
		st, err := os.Lstat(m.path)
		if err != nil {
			continue
		}
		same := os.SameFile(st, m.st) && (m.dir || st.Size() == m.size)
		if same {
			if err = os.Remove(m.path); err == nil || m.parent {
				continue
			}
		}
		if m.parent {
			continue
		}
		fmt.Fprintf(stderr, "airlock run: warning: %s was made empty for the run, to fence a protected path, and is no longer empty: review it\n", m.path)
	}
}

// bundler is a door that knows the whole bundle clients inside must
// trust (its authority and the roots it chose, egress.Proxy.CABundlePEM):
// the runner writes it as it is. Adding the system's roots to it again
// doubled the file (440 KB here), which the runner wrote and every TLS
// client inside read and parsed on every run (docs/BENCHMARKS.md).
type bundler interface {
	CABundle() []byte
}

// openDoor makes the door (o.Door, or o.MakeDoor's) and writes the CA
// bundle clients inside trust.
func openDoor(o Options, bundle string) (Door, error) {
	d := o.Door
	if d == nil {
		var err error
		if d, err = o.MakeDoor(); err != nil {
			return nil, err
		}
	}
	var err error
	if b, ok := d.(bundler); ok {
		err = os.WriteFile(bundle, b.CABundle(), 0o644)
	} else {
		err = writeBundle(bundle, d.CACertPEM())
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// writeBundle writes the system's roots followed by pem (airlock's CA):
// the variables that point clients at it replace the system's roots.
func writeBundle(path string, pem []byte) error {
	var bundle bytes.Buffer
	for _, f := range systemRoots {
		if b, err := os.ReadFile(f); err == nil {
			bundle.Write(b)
			bundle.WriteByte('\n')
			break
		}
	}
	bundle.Write(pem)
	return os.WriteFile(path, bundle.Bytes(), 0o644)
}

// start runs bubblewrap and forwards signals to the sandbox's first
// process (the bridge), which forwards them to the command. doorc, when
// set, says whether the door came up: the bridge gets its go (one byte
// on bridge.GoFD) then, and an error ends the run before the command.
// spawned is called once bubblewrap runs (Run makes the door then).
// late, when set, says that a door started at the first connection could
// not start: the sandbox is ended then, and the run refused.
func start(bwrap string, plan *run.Plan, o Options, doorc, late <-chan error, spawned func(), sigs, chld <-chan os.Signal) (int, error) {
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
	var goR, goW *os.File
	if doorc != nil {
		if goR, goW, err = os.Pipe(); err != nil {
			info.Close()
			infoW.Close()
			readyW.Close()
			return 0, err
		}
	}
	// bubblewrap writes {"child-pid": N} on fd 3 as the sandbox starts;
	// the bridge writes one byte on fd 4 (bridge.ReadyFD) once it runs inside, every
	// mount made.
	argv := append([]string{bwrap, "--info-fd", "3"}, plan.Args...)
	extra := []*os.File{infoW, readyW}
	if goR != nil {
		extra = append(extra, goR)
	}
	// Its own process group: ^C at the terminal reaches airlock-run,
	// which forwards it to the command, instead of killing bubblewrap.
	sys := &syscall.SysProcAttr{Setpgid: true, Credential: o.Credential, Pdeathsig: syscall.SIGKILL}
	// The streams are handed over as they are: a terminal stays a
	// terminal for the command (an interactive agent needs one).
	bw, err := spawn(bwrap, argv, plan.Env, o.Stdin, o.Stdout, o.Stderr, extra, sys)
	if err != nil {
		infoW.Close()
		info.Close()
		readyW.Close()
		if goR != nil {
			goR.Close()
			goW.Close()
		}
		return 0, &run.Refusal{Msg: "cannot start bubblewrap: " + err.Error(), Hints: []string{"airlock doctor shows what containment needs here"}}
	}
	spawned()
	infoW.Close()
	readyW.Close()
	doorErr := make(chan error, 1)
	if goR != nil {
		goR.Close()
		go func() {
			// The door's outcome reaches the bridge: go, or a closed pipe
			// (the command is not run).
			// A bridge that never ran (bubblewrap failed) closed the pipe:
			// that failure is bubblewrap's, reported below, not the door's.
			err := <-doorc
			if err == nil {
				_, _ = goW.Write([]byte{1})
			}
			goW.Close()
			doorErr <- err
		}()
	} else {
		doorErr <- nil
	}
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
	type exit struct {
		ws  syscall.WaitStatus
		err error
	}
	done := make(chan exit, 1)
	go func() {
		ws, err := bw.waitOn(chld)
		done <- exit{ws, err}
	}()
	child := 0
	var pending []os.Signal
	var lateErr error
	for {
		select {
		case err := <-late:
			// The command asked for the network and the door could not
			// open: nothing went out, and the run ends (its connections
			// still unanswered), as when the door fails before the
			// command starts.
			late, lateErr = nil, err
			if child > 0 {
				_ = syscall.Kill(child, syscall.SIGKILL)
			}
			_ = syscall.Kill(bw.pid, syscall.SIGKILL)
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
		case ex := <-done:
			if pidc != nil {
				if pid, ok := <-pidc; ok {
					child = pid
				}
			}
			if ex.err != nil {
				return 0, ex.err
			}
			if lateErr != nil {
				return 0, &run.Refusal{Msg: "cannot contain the command: the egress proxy did not start at the command's first connection, so the sandbox was ended: " + lateErr.Error(),
					Hints: []string{"airlock doctor shows what containment needs here; airlock run never lets a command reach the network but through airlock's proxy"}}
			}
			if err := <-doorErr; err != nil {
				return 0, &run.Refusal{Msg: "cannot contain the command: the egress proxy did not start: " + err.Error(),
					Hints: []string{"airlock doctor shows what containment needs here; airlock run never runs a command uncontained"}}
			}
			if !<-readyc {
				// The sandbox never ran the bridge: bubblewrap failed to
				// set it up (a mount, a namespace). Nothing ran.
				return 0, &run.Refusal{Msg: "cannot contain the command: bubblewrap failed (" + describe(ex.ws) + "; its message, if any, is above)",
					Hints: []string{"airlock doctor shows what containment needs here; airlock run never runs a command uncontained"}}
			}
			// -1 when bubblewrap was killed by a signal, as
			// os.ProcessState.ExitCode says.
			return ex.ws.ExitStatus(), nil
		}
	}
}

// MakePlaceholders makes a plan's placeholders as a run does, for a
// program that runs bubblewrap with the plan's arguments itself
// (bench/runstart's bare run); undo removes what it made.
func MakePlaceholders(phs []run.Placeholder) (undo func(), err error) {
	made, err := makePlaceholders(phs)
	return func() { removePlaceholders(made, io.Discard) }, err
}
