//go:build linux

package runner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

// These tests start real sandboxes. Under CI=true a missing bwrap is a
// failure, never a skip (.ci/run installs it).
func needBwrap(t *testing.T) string {
	t.Helper()
	b, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bwrap is not on PATH: .ci/run installs Debian's bubblewrap; the containment tests cannot pass without it")
		}
		t.Skip("bwrap is not on PATH (apt-get install bubblewrap)")
	}
	return b
}

func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not on PATH: .ci/run installs it", name)
		}
		t.Skipf("%s is not on PATH", name)
	}
	return p
}

// TestMain builds airlock-run and the bridge once, into
// a directory, with the airlock binaries it runs beside it.
var binDir string

func TestMain(m *testing.M) {
	code := func() int {
		if _, err := exec.LookPath("go"); err != nil {
			return m.Run()
		}
		d, err := os.MkdirTemp("", "airlock-run-test-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(d)
		os.Chmod(d, 0o755)
		// The real binaries: airlock-run (its own bridge), airlock-proxy
		// (its door), airlock (the hook service, the queue) and the hook
		// client.
		for _, b := range []string{"airlock-run", "airlock-bridge", "airlock", "airlock-hook", "airlock-proxy"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(d, b), "github.com/airlock-dev/airlock/cmd/"+b)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", b, err, out)
				return 1
			}
		}
		binDir = d
		return m.Run()
	}()
	os.Exit(code)
}

// door is the tests' stand-in egress proxy: it answers GET with 200 and
// the URL it was asked for, and anything else (CONNECT included) with 403.
type door struct {
	mu   sync.Mutex
	srvs []*http.Server
	gets atomic.Int32
	refs atomic.Int32
}

func newDoor() *door { return &door{} }

// Serve serves one listener; each run closes its door, so every Serve
// has its own server.
func (d *door) Serve(l net.Listener) error {
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			d.refs.Add(1)
			http.Error(w, "held by the test door", http.StatusForbidden)
			return
		}
		d.gets.Add(1)
		fmt.Fprintf(w, "door-ok %s", r.URL.String())
	})}
	d.mu.Lock()
	d.srvs = append(d.srvs, srv)
	d.mu.Unlock()
	return srv.Serve(l)
}

func (d *door) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range d.srvs {
		s.Close()
	}
	d.srvs = nil
	return nil
}

func (d *door) CACertPEM() []byte { return nil }

// world is a fake user: a home with airlock's state, secrets, journal,
// policy and an agent's settings, and a git project with its own
// protected files and symlinks that point at the protected ones.
type world struct {
	root, home, project, state string
	secret, journal, policy    string
	settings, projSettings     string
	env                        []string
}

func newWorld(t *testing.T, uid, gid int) *world {
	t.Helper()
	root := t.TempDir()
	// t.TempDir's directories are 0700: let another user through.
	for d := root; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	w := &world{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj")}
	w.state = filepath.Join(w.home, ".local/state/airlock")
	w.secret = filepath.Join(w.state, "secrets/human.key")
	w.journal = filepath.Join(w.state, "journal/events.jsonl")
	w.policy = filepath.Join(w.home, ".config/airlock/policy.yaml")
	w.settings = filepath.Join(w.home, ".claude/settings.json")
	w.projSettings = filepath.Join(w.project, ".claude/settings.json")
	for f, body := range map[string]string{
		w.secret: "SECRET-KEY\n", w.journal: "JOURNAL-LINE\n", w.policy: "mode: unattended\n",
		w.settings: "{}\n", w.projSettings: "{}\n",
		filepath.Join(w.home, ".bashrc"):          "# rc\n",
		filepath.Join(w.home, ".cache/tool/x"):    "cache\n",
		filepath.Join(w.project, "README"):        "readme\n",
		filepath.Join(w.project, ".git/HEAD"):     "ref: refs/heads/main\n",
		filepath.Join(w.project, "sub/dir/.keep"): "",
	} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		filepath.Join(w.project, "settings-link"): w.settings,
		filepath.Join(w.project, "policy-link"):   w.policy,
		filepath.Join(w.project, "secret-link"):   w.secret,
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	if uid != 0 {
		filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error {
			return os.Lchown(p, uid, gid)
		})
	}
	w.env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"}
	return w
}

func (w *world) getenv(k string) string {
	for _, kv := range w.env {
		if strings.HasPrefix(kv, k+"=") {
			return kv[len(k)+1:]
		}
	}
	return ""
}

// runIn runs a shell script in the world's sandbox through the Go API,
// with d as the door, and returns its status and output.
func runIn(t *testing.T, w *world, d Door, script string) (int, string) {
	t.Helper()
	var out lockedBuffer
	st, err := Run(Options{
		Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: filepath.Join(w.project, "sub"),
			Executable: filepath.Join(binDir, "airlock"), Bridge: filepath.Join(binDir, "airlock-bridge"),
			Command: []string{"/bin/sh", "-c", script}},
		Door: d, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	return st, out.String()
}

func TestFencedInside(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	d := newDoor()

	// Stand-ins outside: a dashboard on the host's loopback, a TCP and a
	// UDP sink on the machine's own address, and the service (a process
	// of the same user).
	dash, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer dash.Close()
	var dashHits atomic.Int32
	go func() {
		for {
			c, err := dash.Accept()
			if err != nil {
				return
			}
			dashHits.Add(1)
			c.Close()
		}
	}()
	ext := externalAddr(t)
	sink, err := net.Listen("tcp", net.JoinHostPort(ext, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	var sinkHits atomic.Int32
	go func() {
		for {
			c, err := sink.Accept()
			if err != nil {
				return
			}
			sinkHits.Add(1)
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", net.JoinHostPort(ext, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	service := exec.Command("sleep", "3600")
	if err := service.Start(); err != nil {
		t.Fatal(err)
	}
	defer service.Process.Kill()

	dashPort := strconv.Itoa(dash.Addr().(*net.TCPAddr).Port)
	sinkPort := strconv.Itoa(sink.Addr().(*net.TCPAddr).Port)
	udpPort := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)

	fails := []struct{ name, script string }{
		{"read the secrets", "cat " + w.secret},
		{"read the secrets through a symlink in the project", "cat " + filepath.Join(w.project, "secret-link")},
		{"read the journal", "cat " + w.journal},
		{"list the state directory", "ls " + filepath.Join(w.state, "secrets")},
		{"write the policy", "echo 'mode: interactive' >> " + w.policy},
		{"write the policy through a symlink in the project", "echo x >> " + filepath.Join(w.project, "policy-link")},
		{"replace the policy", "mv " + w.policy + " " + w.policy + ".old"},
		{"write the airlock binary", "echo x >> " + filepath.Join(binDir, "airlock")},
		{"write airlock-run", "echo x >> " + filepath.Join(binDir, "airlock-run")},
		{"write an agent's settings", "echo x >> " + w.settings},
		{"write an agent's settings through a symlink in the project", "echo x >> " + filepath.Join(w.project, "settings-link")},
		{"write the project's agent settings", "echo x >> " + w.projSettings},
		{"rename over the project's agent settings", "echo '{}' > " + w.project + "/evil.json && mv " + w.project + "/evil.json " + w.projSettings},
		{"rename the project's agent settings away", "mv " + w.projSettings + " " + w.project + "/moved.json"},
		{"remove the .claude directory", "rm -rf " + filepath.Dir(w.projSettings)},
		{"write a shell start-up file", "echo 'export AIRLOCK_HOOKD=off' >> " + filepath.Join(w.home, ".bashrc")},
		{"write elsewhere in the home", "touch " + filepath.Join(w.home, "planted")},
		{"connect to the host's loopback (the dashboard)", "exec 3<>/dev/tcp/127.0.0.1/" + dashPort},
		{"signal the service", "kill -TERM " + strconv.Itoa(service.Process.Pid)},
		{"raw TCP to the machine's address", "exec 3<>/dev/tcp/" + ext + "/" + sinkPort},
		{"a UDP datagram", "echo leak > /dev/udp/" + ext + "/" + udpPort},
		{"ssh git remote", "git ls-remote ssh://git@" + ext + ":" + sinkPort + "/x.git"},
		{"open /proc/1/root's secrets", "cat /proc/1/root" + w.secret},
	}
	for _, c := range fails {
		t.Run("fails/"+c.name, func(t *testing.T) {
			st, out := runIn(t, w, d, "echo in-sandbox; exec bash -c '"+strings.ReplaceAll(c.script, "'", `'\''`)+"'")
			if !strings.HasPrefix(out, "in-sandbox\n") {
				t.Fatalf("%s: the sandbox did not run the command:\n%s", c.name, out)
			}
			if st == 0 {
				t.Errorf("%s: exit 0 inside the sandbox, want a failure\n%s", c.name, out)
			}
			if strings.Contains(out, "SECRET-KEY") || strings.Contains(out, "JOURNAL-LINE") {
				t.Errorf("%s: the output shows airlock's state:\n%s", c.name, out)
			}
		})
	}
	if n := dashHits.Load(); n != 0 {
		t.Errorf("the dashboard stand-in on the host's loopback got %d connections", n)
	}
	if n := sinkHits.Load(); n != 0 {
		t.Errorf("the TCP sink got %d connections", n)
	}
	udp.SetReadDeadline(time.Now())
	if n, _, err := udp.ReadFrom(make([]byte, 64)); err == nil {
		t.Errorf("the UDP sink got a datagram of %d bytes", n)
	}
	if err := service.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the service stand-in is gone: %v", err)
	}
	for f, want := range map[string]string{w.policy: "mode: unattended\n", w.settings: "{}\n", w.projSettings: "{}\n", filepath.Join(w.home, ".bashrc"): "# rc\n"} {
		if b, _ := os.ReadFile(f); string(b) != want {
			t.Errorf("%s changed to %q", f, b)
		}
	}
	if _, err := os.Stat(filepath.Join(w.home, "planted")); err == nil {
		t.Error("a file was planted in the home directory")
	}

	t.Run("ssh says why", func(t *testing.T) {
		st, out := runIn(t, w, d, "git ls-remote ssh://git@"+ext+"/x.git; echo status $?")
		if !strings.Contains(out, "ssh is not available inside the sandbox") || !strings.Contains(out, "git remote set-url") {
			t.Errorf("git over ssh does not say why it failed (%d):\n%s", st, out)
		}
	})

	t.Run("works", func(t *testing.T) {
		st, out := runIn(t, w, d, "echo made > "+filepath.Join(w.project, "new.txt")+" && echo tmp > /tmp/x && cat /tmp/x && cat "+w.settings+" && echo c >> "+filepath.Join(w.home, ".cache/tool/x")+" && pwd")
		if st != 0 {
			t.Fatalf("writing the project, /tmp and a cache failed: %d\n%s", st, out)
		}
		if b, _ := os.ReadFile(filepath.Join(w.project, "new.txt")); string(b) != "made\n" {
			t.Errorf("the project file is %q", b)
		}
		if !strings.Contains(out, filepath.Join(w.project, "sub")) {
			t.Errorf("the command did not run in its directory:\n%s", out)
		}
		if _, err := os.Stat("/tmp/x"); err == nil {
			if b, _ := os.ReadFile("/tmp/x"); string(b) == "tmp\n" {
				t.Error("the sandbox's /tmp is the host's")
			}
		}
	})

	t.Run("the door", func(t *testing.T) {
		needTool(t, "curl")
		before := d.gets.Load()
		st, out := runIn(t, w, d, "curl -sS -o /dev/stdout -w ' %{http_code}' http://"+ext+":"+sinkPort+"/readme")
		if st != 0 || !strings.Contains(out, "door-ok http://"+ext+":"+sinkPort+"/readme 200") {
			t.Errorf("a GET through the bridge did not reach the door: %d\n%s", st, out)
		}
		if d.gets.Load() != before+1 {
			t.Errorf("the door saw %d GETs, want 1", d.gets.Load()-before)
		}
		st, out = runIn(t, w, d, "curl -sS -o /dev/null -w '%{http_code}' -X POST -d data=1 http://"+ext+":"+sinkPort+"/up")
		if !strings.Contains(out, "403") {
			t.Errorf("a POST through the bridge did not get the door's 403: %d\n%s", st, out)
		}
		if sinkHits.Load() != 0 {
			t.Errorf("the sink got a connection")
		}
	})

	t.Run("exit status", func(t *testing.T) {
		if st, out := runIn(t, w, d, "exit 7"); st != 7 {
			t.Errorf("exit 7 gave %d\n%s", st, out)
		}
		if st, out := runIn(t, w, d, "kill -KILL $$"); st != 128+9 {
			t.Errorf("a command killed by SIGKILL gave %d, want 137\n%s", st, out)
		}
		// Orphans that end first (reparented to the bridge, pid 1, which
		// reaps them as their SIGCHLD comes) leave the command's own
		// status as the run's.
		if st, out := runIn(t, w, d, "(sh -c 'exit 4' &) ; (sh -c 'sleep 0.05; exit 5' &) ; sleep 0.2; exit 3"); st != 3 {
			t.Errorf("a command whose orphans ended first gave %d, want 3\n%s", st, out)
		}
	})

	t.Run("nothing outlives the command", func(t *testing.T) {
		mark := "3599.25" + strconv.Itoa(os.Getpid())
		st, out := runIn(t, w, d, "(setsid sleep "+mark+" >/dev/null 2>&1 &) ; nohup sleep "+mark+" >/dev/null 2>&1 & echo started")
		if st != 0 || !strings.Contains(out, "started") {
			t.Fatalf("%d %s", st, out)
		}
		if pids := procsWith(mark); len(pids) > 0 {
			t.Errorf("processes started inside outlive the command: %v", pids)
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGKILL)
			}
		}
	})
}

// procsWith lists processes whose command line holds s.
func procsWith(s string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if bytes.Contains(b, []byte(s)) {
			out = append(out, pid)
		}
	}
	return out
}

// externalAddr is the machine's own non-loopback address (192.0.2.2 on
// the test machine): a sink there is reachable from the host but, inside,
// only through the door.
func externalAddr(t *testing.T) string {
	t.Helper()
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
			return ip.IP.String()
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no non-loopback IPv4 address on this machine: the containment tests need one for a sink outside the sandbox")
	}
	t.Skip("no non-loopback IPv4 address on this machine")
	return ""
}

// TestSignalsAndUnprivileged runs the airlock-run binary as an
// unprivileged user (nobody) with a door on a unix socket: the sandbox
// starts, the project is writable, the home is not, a GET reaches the
// door, and SIGTERM to airlock-run reaches the command, whose status
// comes back.
func TestSignalsAndUnprivileged(t *testing.T) {
	needBwrap(t)
	for _, who := range []struct {
		name     string
		uid, gid int
	}{{"root", 0, 0}, {"nobody", 65534, 65534}} {
		t.Run(who.name, func(t *testing.T) {
			if who.uid != 0 && os.Getuid() != 0 {
				t.Skip("switching to another user needs root; run as that user instead")
			}
			if who.uid == 0 && os.Getuid() != 0 {
				who.uid, who.gid = os.Getuid(), os.Getgid()
			}
			w := newWorld(t, who.uid, who.gid)
			d := newDoor()
			sockDir := filepath.Join(w.root, "door")
			os.Mkdir(sockDir, 0o755)
			ln, err := net.Listen("unix", filepath.Join(sockDir, "proxy.sock"))
			if err != nil {
				t.Fatal(err)
			}
			os.Chmod(filepath.Join(sockDir, "proxy.sock"), 0o777)
			go d.Serve(ln)
			defer d.Close()

			script := `touch ` + w.project + `/ok && ! touch ` + w.home + `/no 2>/dev/null && ! cat ` + w.secret + ` 2>/dev/null && echo fenced
if command -v curl >/dev/null; then curl -sS http://192.0.2.9/x; echo; fi
trap 'echo got-term; exit 42' TERM
echo ready
while :; do sleep 0.05; done`
			cmd := exec.Command(filepath.Join(binDir, "airlock-run"), "--proxy-socket", filepath.Join(sockDir, "proxy.sock"), "--", "/bin/sh", "-c", script)
			cmd.Dir = w.project
			cmd.Env = w.env
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.gid)}}
			if who.uid == os.Getuid() {
				cmd.SysProcAttr = nil
			}
			stdout, _ := cmd.StdoutPipe()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stdout)
			var seen strings.Builder
			for {
				line, err := r.ReadString('\n')
				seen.WriteString(line)
				if strings.TrimSpace(line) == "ready" {
					break
				}
				if err != nil {
					cmd.Wait()
					t.Fatalf("the command never got ready: %v\nstdout: %s\nstderr: %s", err, seen.String(), stderr.String())
				}
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(r)
			seen.Write(rest)
			cmd.Wait()
			out := seen.String()
			if st := cmd.ProcessState.ExitCode(); st != 42 || !strings.Contains(out, "got-term") {
				t.Errorf("SIGTERM to airlock-run: status %d, want 42 from the command's trap\nstdout: %s\nstderr: %s", st, out, stderr.String())
			}
			if !strings.Contains(out, "fenced") {
				t.Errorf("the project was not writable, or the home or secrets were reachable:\n%s\n%s", out, stderr.String())
			}
			if _, err := exec.LookPath("curl"); err == nil && !strings.Contains(out, "door-ok http://192.0.2.9/x") {
				t.Errorf("a GET did not reach the door:\n%s\n%s", out, stderr.String())
			}
			if st, err := os.Stat(filepath.Join(w.project, "ok")); err != nil {
				t.Errorf("the project file was not made: %v", err)
			} else if uid := st.Sys().(*syscall.Stat_t).Uid; int(uid) != who.uid {
				t.Errorf("the project file belongs to uid %d, want %d", uid, who.uid)
			}
		})
	}
}

// TestRefuses: a project that is the home directory, or holds airlock's
// state, is refused before anything runs; so is a machine without bwrap.
func TestRefuses(t *testing.T) {
	w := newWorld(t, 0, 0)
	marker := filepath.Join(w.root, "ran")
	for _, c := range []struct{ name, cwd, want string }{
		{"home", w.home, "holds your home directory"},
		{"inside the state", w.state, "overlap"},
		{"root", "/", "whole file system"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := Run(Options{
				Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: c.cwd, Bridge: "/nonexistent",
					Command: []string{"touch", marker}},
				Door: newDoor(), Stdout: &out, Stderr: &out, Bwrap: "/bin/false",
			})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Run from %s: %v, want a refusal saying %q", c.cwd, err, c.want)
			}
		})
	}
	t.Run("no bwrap", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		var out bytes.Buffer
		_, err := Run(Options{Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: w.project, Command: []string{"touch", marker}},
			Door: newDoor(), Stdout: &out, Stderr: &out})
		if err == nil || !strings.Contains(err.Error(), "bwrap") {
			t.Errorf("without bwrap: %v", err)
		}
	})
	t.Run("bwrap fails", func(t *testing.T) {
		var out bytes.Buffer
		_, err := Run(Options{Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: w.project, Bridge: "/nonexistent", Command: []string{"touch", marker}},
			Door: newDoor(), Stdout: &out, Stderr: &out, Bwrap: "/bin/false"})
		if err == nil || !strings.Contains(err.Error(), "bubblewrap failed") {
			t.Errorf("with a bwrap that fails: %v", err)
		}
	})
	t.Run("the door fails", func(t *testing.T) {
		// The door is made while the sandbox starts: the bridge is up and
		// waiting when it fails, and the command never runs.
		needBwrap(t)
		var out lockedBuffer
		_, err := Run(Options{Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: w.project,
			Executable: filepath.Join(binDir, "airlock"), Bridge: filepath.Join(binDir, "airlock-bridge"), Command: []string{"touch", marker}},
			MakeDoor: func() (Door, error) { return nil, errors.New("no CA for this test") }, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out})
		if err == nil || !strings.Contains(err.Error(), "the egress proxy did not start: no CA for this test") {
			t.Errorf("with a door that fails: %v\n%s", err, out.String())
		}
	})
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran although containment was refused")
	}
}

// lockedBuffer takes the command's stdout and stderr, which arrive from
// two goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHookInside: the agent's hook inside the sandbox reaches airlock's
// service outside through the runner's relay (the held push is in the
// journal outside), while airlock's queue cannot be approved from inside.
func TestHookInside(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	os.RemoveAll(w.state)
	d := newDoor()
	airlock := filepath.Join(binDir, "airlock")
	outside := func(args ...string) string {
		cmd := exec.Command(airlock, args...)
		cmd.Env, cmd.Dir = w.env, w.project
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	defer outside("hookd", "--stop")
	ev := func(command string) string {
		return `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"},"cwd":"` + w.project + `"}`
	}
	os.WriteFile(filepath.Join(w.project, "push.json"), []byte(ev("git push origin main")), 0o644)
	os.WriteFile(filepath.Join(w.project, "ls.json"), []byte(ev("ls")), 0o644)
	hook := filepath.Join(binDir, "airlock-hook") + " claude-code --event PreToolUse"
	st, out := runIn(t, w, d, hook+" < "+w.project+"/ls.json && echo ls-allowed && "+hook+" < "+w.project+"/push.json")
	if st != 0 || !strings.Contains(out, "ls-allowed") || !strings.Contains(out, "queued as") || strings.Contains(out, "journal") {
		t.Fatalf("the hook inside did not reach the service: %d\n%s", st, out)
	}
	list := outside("queue", "list", "--json")
	var id string
	if i := strings.Index(list, `"id": "`); i >= 0 {
		id = list[i+7 : i+15]
	}
	if id == "" || !strings.Contains(list, "git push origin main") {
		t.Fatalf("the held push is not in the journal outside:\n%s", list)
	}
	st, out = runIn(t, w, d, "echo in-sandbox; "+airlock+" queue approve "+id)
	if st == 0 || !strings.HasPrefix(out, "in-sandbox") {
		t.Errorf("airlock queue approve inside: %d\n%s", st, out)
	}
	if list := outside("queue", "list", "--json"); !strings.Contains(list, `"pending"`) {
		t.Errorf("the item is no longer pending after an approve from inside:\n%s", list)
	}
}
