//go:build linux

package runner

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

// TestRunDirOnTmpfs: the run's directory goes to the user's runtime
// directory when it is a tmpfs, else to /dev/shm (a tmpfs) unless TMPDIR
// names a place, else where os.MkdirTemp puts it; never to the runtime
// directory when the sandbox runs as another user. A run whose directory
// is there works as one in /tmp: the sockets and the bundle are reached
// inside, read-only, and the door answers.
func TestRunDirOnTmpfs(t *testing.T) {
	if !onTmpfs("/dev/shm") {
		t.Skip("/dev/shm is not a tmpfs here")
	}
	xdg, err := os.MkdirTemp("/dev/shm", "xdg-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(xdg)
	os.Chmod(xdg, 0o755)
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		name   string
		getenv func(string) string
		cred   *syscall.Credential
		under  string
		not    []string
	}{
		{"runtime dir", env("XDG_RUNTIME_DIR", xdg), nil, xdg, nil},
		{"runtime dir, another user", env("XDG_RUNTIME_DIR", xdg), &syscall.Credential{Uid: 65534, Gid: 65534}, "/dev/shm", []string{xdg}},
		{"no runtime dir", env(), nil, "/dev/shm", []string{xdg}},
		{"runtime dir not a tmpfs", env("XDG_RUNTIME_DIR", "/nonexistent"), nil, "/dev/shm", nil},
		{"TMPDIR set", env("TMPDIR", os.TempDir()), nil, filepath.Clean(os.TempDir()), []string{"/dev/shm", xdg}},
	} {
		dir, err := makeRunDir(c.getenv, c.cred)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		os.RemoveAll(dir)
		if !strings.HasPrefix(dir, c.under+"/") {
			t.Errorf("%s: %s, want it under %s", c.name, dir, c.under)
		}
		for _, n := range c.not {
			if strings.HasPrefix(dir, n+"/") {
				t.Errorf("%s: %s is under %s", c.name, dir, n)
			}
		}
	}

	needBwrap(t)
	w := newWorld(t, 0, 0)
	w.env = append(w.env, "XDG_RUNTIME_DIR="+xdg)
	script := `case "$SSL_CERT_FILE" in ` + xdg + `/airlock-run-*) echo run-dir-in-runtime-dir;; esac
test -s "$SSL_CERT_FILE" && echo bundle-readable
touch "$(dirname "$SSL_CERT_FILE")/x" 2>/dev/null && echo run-dir-writable
ls ` + xdg + ` | wc -l
if command -v curl >/dev/null; then curl -sS http://192.0.2.9/x; echo; fi`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "run-dir-in-runtime-dir") || !strings.Contains(out, "bundle-readable") {
		t.Errorf("status %d, want the bundle in the runtime directory, readable:\n%s", st, out)
	}
	if strings.Contains(out, "run-dir-writable") {
		t.Errorf("the run directory is writable inside:\n%s", out)
	}
	if _, err := os.Stat("/usr/bin/curl"); err == nil && !strings.Contains(out, "door-ok http://192.0.2.9/x") {
		t.Errorf("a GET did not reach the door:\n%s", out)
	}
	if ents, _ := os.ReadDir(xdg); len(ents) != 0 {
		t.Errorf("the run directory was left in %s: %v", xdg, ents)
	}
}

// TestPlanRemadeWithoutRelay: the plan is made while the hook relay
// starts, naming its socket; when the relay cannot listen (here its path
// is too long for a unix socket), the plan is made again without it, and
// the run goes on (a plan that bound the missing socket would make
// bubblewrap fail).
func TestPlanRemadeWithoutRelay(t *testing.T) {
	needBwrap(t)
	if !onTmpfs("/dev/shm") {
		t.Skip("/dev/shm is not a tmpfs here")
	}
	base, err := os.MkdirTemp("/dev/shm", "xdg-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	long := filepath.Join(base, strings.Repeat("d", 90))
	if err := os.MkdirAll(long, 0o755); err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, 0, 0)
	w.env = append(w.env, "XDG_RUNTIME_DIR="+long)
	d := newDoor()
	sock := filepath.Join(w.root, "proxy.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	go d.Serve(ln)
	defer d.Close()
	var out lockedBuffer
	st, err := Run(Options{
		Config: run.Config{Getenv: w.getenv, Environ: w.env, Cwd: w.project,
			Executable: filepath.Join(binDir, "airlock"), Bridge: filepath.Join(binDir, "airlock-bridge"),
			Command: []string{"/bin/sh", "-c", "echo ran-inside"}},
		ProxySocket: sock, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
	})
	if err != nil || st != 0 || !strings.Contains(out.String(), "ran-inside") {
		t.Fatalf("status %d, %v:\n%s", st, err, out.String())
	}
	if ents, _ := os.ReadDir(long); len(ents) != 0 {
		t.Errorf("the run directory was left in %s: %v", long, ents)
	}
}
