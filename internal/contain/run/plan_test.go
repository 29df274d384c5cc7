package run

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPlanOrderAndEnvironment(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{home + "/.local/state/airlock/runs/x", home + "/.cache", proj + "/.git", proj + "/.claude"} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(proj+"/.claude/settings.json", []byte("{}"), 0o644)
	os.WriteFile(home+"/.local/state/airlock/runs/x/s.json", []byte("{}"), 0o644)
	os.WriteFile(home+"/.local/state/airlock/journal", []byte("x"), 0o644)
	env := map[string]string{"HOME": home}
	cfg := Config{Getenv: func(k string) string { return env[k] }, Environ: []string{"HOME=" + home, "HTTPS_PROXY=http://evil:1", "SSH_AUTH_SOCK=/x", "KEEP=1"},
		Cwd: proj, Bridge: "/usr/bin/airlock-bridge", ProxySocket: "/run/p.sock", RunDir: "", CABundle: "/tmp/ca.pem",
		Expose: []string{home + "/.local/state/airlock/runs/x/s.json"}, Command: []string{"sh"}}
	// The proxy socket must exist to be bound in.
	sock := filepath.Join(root, "p.sock")
	os.WriteFile(sock, nil, 0o600)
	cfg.ProxySocket = sock
	p, err := NewPlan(cfg)
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Join(p.Args, " ")
	idx := func(s string) int {
		i := strings.Index(args, s)
		if i < 0 {
			t.Fatalf("%q not in %s", s, args)
		}
		return i
	}
	// rw project, then the read-only bind of its settings on top; the
	// state hidden after the cache bind; the exposed file inside it.
	if idx("--bind "+proj+" "+proj) > idx("--ro-bind "+proj+"/.claude/settings.json") {
		t.Errorf("the project's settings are bound before the project:\n%s", args)
	}
	state := home + "/.local/state/airlock"
	if idx("--bind "+home+"/.cache") > idx("--tmpfs "+state) || idx("--tmpfs "+state) > idx("--ro-bind "+state+"/runs/x/s.json") || idx("--ro-bind "+state+"/runs/x/s.json") > idx("--remount-ro "+state) {
		t.Errorf("the state directory is not hidden in order:\n%s", args)
	}
	for _, f := range []string{"--unshare-net", "--unshare-pid", "--unshare-user", "--new-session", "--die-with-parent", "--disable-userns", "--as-pid-1", "--tmpfs /tmp"} {
		idx(f)
	}
	if strings.Contains(args, state+"/journal") {
		t.Errorf("the journal is mentioned in the mounts:\n%s", args)
	}
	for _, want := range []string{"HTTPS_PROXY=http://127.0.0.1:3128", "http_proxy=http://127.0.0.1:3128", "NO_PROXY=localhost,127.0.0.1,::1", "SSL_CERT_FILE=/tmp/ca.pem", "KEEP=1"} {
		if !slices.Contains(p.Env, want) {
			t.Errorf("the environment lacks %s: %q", want, p.Env)
		}
	}
	for _, bad := range []string{"HTTPS_PROXY=http://evil:1", "SSH_AUTH_SOCK=/x"} {
		if slices.Contains(p.Env, bad) {
			t.Errorf("the environment keeps %s", bad)
		}
	}
	if !slices.Contains(p.Unfenced, proj+"/.claude/settings.local.json") {
		t.Errorf("a missing protected file in the project is not listed as unfenced: %q", p.Unfenced)
	}

	// Exposing anything but a file of the loop's runs is refused.
	for _, f := range []string{state + "/journal", home + "/.cache"} {
		c := cfg
		c.Expose = []string{f}
		if _, err := NewPlan(c); err == nil {
			t.Errorf("exposing %s was accepted", f)
		}
	}
}
