//go:build linux

package proxied

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRegisterDeciding: a registered proxy decides its server for the
// processes its client started (here: the test, whose parent is the
// proxy's "client"), and nothing else defers to it.
func TestRegisterDeciding(t *testing.T) {
	state := t.TempDir()
	release, err := Register(state, "texts", "/etc/p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg, ok := Deciding(state, "texts", Caller{})
	if !ok || reg.Proxy.PID != os.Getpid() || reg.Client.PID != os.Getppid() || reg.Config != "/etc/p.yaml" {
		t.Fatalf("Deciding = %+v %v", reg, ok)
	}
	if _, ok := Deciding(state, "mail", Caller{}); ok {
		t.Error("another server's calls defer to the proxy")
	}
	for _, bad := range []string{"", "..", "a/b", "*"} {
		if _, ok := Deciding(state, bad, Caller{}); ok {
			t.Errorf("Deciding(%q) ok", bad)
		}
	}
	release()
	if _, ok := Deciding(state, "texts", Caller{}); ok {
		t.Error("a released registration still decides")
	}
}

// TestDecidingRefuses: what a stale file, another agent's proxy or a
// forged file says is not believed.
func TestDecidingRefuses(t *testing.T) {
	self, client, err := selfAndClient()
	if err != nil {
		t.Fatal(err)
	}
	write := func(t *testing.T, state string, r Registration, lock bool) {
		t.Helper()
		b, _ := json.Marshal(r)
		if err := os.MkdirAll(filepath.Join(state, Dir), 0o700); err != nil {
			t.Fatal(err)
		}
		path := file(state, r.Server, r.Proxy.PID)
		if !lock {
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			return
		}
		release, err := hold(path, b)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(release)
	}
	otherClient := client
	otherClient.Start++
	for _, tt := range []struct {
		name string
		reg  Registration
		lock bool
	}{
		{"stale file, no proxy holds it", Registration{Server: "texts", Proxy: self, Client: client}, false},
		{"a proxy of another agent", Registration{Server: "texts", Proxy: self, Client: Process{PID: 1}}, true},
		{"the client pid reused", Registration{Server: "texts", Proxy: self, Client: otherClient}, true},
		{"the lock holder is not the proxy named", Registration{Server: "texts", Proxy: Process{PID: os.Getppid(), Start: client.Start}, Client: client}, true},
		{"a file naming another server", Registration{Server: "mail", Proxy: self, Client: client}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir()
			r := tt.reg
			write(t, state, r, tt.lock)
			if r.Server == "mail" {
				// Renamed as if it were texts'.
				if err := os.Rename(file(state, "mail", r.Proxy.PID), file(state, "texts", r.Proxy.PID)); err != nil {
					t.Fatal(err)
				}
			}
			if reg, ok := Deciding(state, "texts", Caller{}); ok {
				t.Errorf("deferred to %+v", reg)
			}
		})
	}
	// A symlink in place of a registration is not followed.
	state := t.TempDir()
	os.MkdirAll(filepath.Join(state, Dir), 0o700)
	target := filepath.Join(t.TempDir(), "x.json")
	b, _ := json.Marshal(Registration{Server: "texts", Proxy: self, Client: client})
	release, err := hold(target, b)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Symlink(target, file(state, "texts", self.PID)); err != nil {
		t.Fatal(err)
	}
	if reg, ok := Deciding(state, "texts", Caller{}); ok {
		t.Errorf("a symlinked registration deferred to %+v", reg)
	}
}

// TestCallerSameAnswer: the decision service, starting from its client's
// pid, defers exactly when the hook deciding in that process would; a
// client whose pid is no longer its own, or that the kernel could not
// pin, defers nothing.
func TestCallerSameAnswer(t *testing.T) {
	state := t.TempDir()
	release, err := Register(state, "texts", "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// A proxy of the same name that another agent started: the pid 1
	// stands for that agent.
	other := t.TempDir()
	_, me, _, _ := stat(os.Getpid())
	b, _ := json.Marshal(Registration{Server: "texts", Proxy: me, Client: Process{PID: 1}})
	os.MkdirAll(filepath.Join(other, Dir), 0o700)
	releaseOther, err := hold(file(other, "texts", me.PID), b)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseOther()

	alive := func() bool { return true }
	reused := func() bool { return false }
	for _, tt := range []struct {
		name, state, server string
		want                bool
	}{
		{"this agent's proxy", state, "texts", true},
		{"a server no proxy runs for", state, "mail", false},
		{"another agent's proxy", other, "texts", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, inProcess := Deciding(tt.state, tt.server, Caller{})
			_, service := Deciding(tt.state, tt.server, Client(os.Getpid(), alive))
			if inProcess != tt.want || service != tt.want {
				t.Errorf("in process %v, through the service %v, want %v", inProcess, service, tt.want)
			}
			if _, ok := Deciding(tt.state, tt.server, Client(os.Getpid(), reused)); ok {
				t.Error("a client whose pid was reused deferred")
			}
			for _, c := range []Caller{Client(os.Getpid(), nil), Client(0, alive), Client(-1, alive)} {
				if c.Known() {
					t.Errorf("%+v is Known", c)
				}
				if _, ok := Deciding(tt.state, tt.server, c); ok {
					t.Errorf("an unpinned client %+v deferred", c)
				}
			}
		})
	}
	if !Client(os.Getpid(), alive).Known() || !(Caller{}).Known() {
		t.Error("a pinned client or this process is not Known")
	}
	if !Registered(state) || !Registered(other) || Registered(t.TempDir()) {
		t.Error("Registered does not tell a live registration from none")
	}
}

// TestCallerChainDepth: the service walks up from its client as the hook
// walks up from itself: a child of this process (whose parent is the
// proxy's client) defers, a grandchild of this process does not.
func TestCallerChainDepth(t *testing.T) {
	state := t.TempDir()
	release, err := Register(state, "texts", "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	child := exec.Command("sh", "-c", "sleep 60 & echo $!; wait")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	var grandchild int
	if _, err := fmt.Fscan(out, &grandchild); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(grandchild, syscall.SIGKILL)
	alive := func() bool { return true }
	if _, ok := Deciding(state, "texts", Client(child.Process.Pid, alive)); !ok {
		t.Error("a grandchild of the proxy's client (a hook the agent ran through a shell) did not defer")
	}
	if _, ok := Deciding(state, "texts", Client(grandchild, alive)); ok {
		t.Error("a process three levels below the proxy's client deferred")
	}
}
