//go:build linux

package proxied

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	reg, ok := Deciding(state, "texts")
	if !ok || reg.Proxy.PID != os.Getpid() || reg.Client.PID != os.Getppid() || reg.Config != "/etc/p.yaml" {
		t.Fatalf("Deciding = %+v %v", reg, ok)
	}
	if _, ok := Deciding(state, "mail"); ok {
		t.Error("another server's calls defer to the proxy")
	}
	for _, bad := range []string{"", "..", "a/b", "*"} {
		if _, ok := Deciding(state, bad); ok {
			t.Errorf("Deciding(%q) ok", bad)
		}
	}
	release()
	if _, ok := Deciding(state, "texts"); ok {
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
			if reg, ok := Deciding(state, "texts"); ok {
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
	if reg, ok := Deciding(state, "texts"); ok {
		t.Errorf("a symlinked registration deferred to %+v", reg)
	}
}
