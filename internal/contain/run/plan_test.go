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

// TestPlanFencesCodeRunLater: what an agent or a tool runs later, perhaps
// outside the sandbox, is read-only inside though its directory is
// writable (FINDINGS-7 C1, C2, C4): Claude Code's shell snapshots,
// Codex's rules, a project's .npmrc and commit hooks, a submodule's git
// configuration and hooks; a missing hooks directory of a submodule gets
// an empty read-only one.
func TestPlanFencesCodeRunLater(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{home + "/.claude/shell-snapshots", home + "/.codex/rules", home + "/.claude/projects", home + "/.claude/local", proj + "/.cargo",
		proj + "/.git/modules/lib/hooks", proj + "/.git/modules/nested/sub/x", proj + "/.husky", proj + "/src", proj + "/.idea", proj + "/.hg"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{proj + "/.npmrc", proj + "/.git/modules/lib/config", proj + "/.git/modules/nested/sub/config", proj + "/src/a.go",
		proj + "/.exrc", proj + "/.lfsconfig", proj + "/.hg/hgrc"} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(root, "p.sock")
	os.WriteFile(sock, nil, 0o600)
	env := map[string]string{"HOME": home}
	p, err := NewPlan(Config{Getenv: func(k string) string { return env[k] }, Environ: []string{"HOME=" + home},
		Cwd: proj, Bridge: "/usr/bin/airlock-bridge", ProxySocket: sock, Command: []string{"sh"}})
	if err != nil {
		t.Fatal(err)
	}
	args := " " + strings.Join(p.Args, " ") + " "
	// Claude Code's shell snapshots: a private empty directory inside.
	if !strings.Contains(args, "--tmpfs "+home+"/.claude/shell-snapshots ") {
		t.Errorf("the shell snapshots are not private inside:\n%s", args)
	}
	for _, ro := range []string{home + "/.codex/rules", home + "/.claude/local", proj + "/.cargo", proj + "/.npmrc", proj + "/.husky",
		proj + "/.git/modules/lib/config", proj + "/.git/modules/lib/hooks", proj + "/.git/modules/nested/sub/config",
		proj + "/.idea", proj + "/.exrc", proj + "/.lfsconfig", proj + "/.hg/hgrc"} {
		if !strings.Contains(args, " "+ro+" "+ro+" ") || !strings.Contains(args, "--ro-bind "+ro+" ") && !strings.Contains(args, "--ro-bind-try "+ro+" ") {
			t.Errorf("%s is not bound read-only:\n%s", ro, args)
		}
	}
	// A missing hooks directory of a submodule: an empty read-only one.
	if !strings.Contains(args, proj+"/.git/modules/nested/sub/hooks") {
		t.Errorf("the nested submodule's missing hooks directory is not fenced:\n%s", args)
	}
	// Ordinary work stays writable: the sources, and the agent's sessions.
	for _, rw := range []string{proj + "/src", home + "/.claude/projects"} {
		if strings.Contains(args, "--ro-bind "+rw+" ") {
			t.Errorf("%s is read-only:\n%s", rw, args)
		}
	}
}

// TestPlanFencesTheDoorProgram: the door's program, which the runner
// starts outside while the command runs, is read-only inside even where
// it lies in a writable directory (here the project) with no airlock
// beside it; the same tree without it leaves that file writable.
func TestPlanFencesTheDoorProgram(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	door := filepath.Join(proj, "bin", "airlock-proxy")
	if err := os.MkdirAll(filepath.Dir(door), 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(home, 0o755)
	if err := os.WriteFile(door, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(root, "p.sock")
	os.WriteFile(sock, nil, 0o600)
	env := map[string]string{"HOME": home}
	for _, d := range []string{door, ""} {
		p, err := NewPlan(Config{Getenv: func(k string) string { return env[k] }, Environ: []string{"HOME=" + home},
			Cwd: proj, Bridge: "/usr/bin/airlock-bridge", ProxySocket: sock, Door: d, Command: []string{"sh"}})
		if err != nil {
			t.Fatal(err)
		}
		args := " " + strings.Join(p.Args, " ") + " "
		if got := strings.Contains(args, "--ro-bind "+door+" "+door+" "); got != (d != "") {
			t.Errorf("Door %q: the door's program bound read-only: %v\n%s", d, got, args)
		}
	}
}

// TestPlanMissingRcFiles: a tool's configuration that is missing at the
// project's top gets no placeholder (an empty directory named .npmrc
// would break npm): it is listed, to be set aside if the run makes it.
func TestPlanMissingRcFiles(t *testing.T) {
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(proj+"/.git", 0o755)
	sock := filepath.Join(root, "p.sock")
	os.WriteFile(sock, nil, 0o600)
	env := map[string]string{"HOME": home}
	p, err := NewPlan(Config{Getenv: func(k string) string { return env[k] }, Environ: []string{"HOME=" + home},
		Cwd: proj, Bridge: "/usr/bin/airlock-bridge", ProxySocket: sock, Command: []string{"sh"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".npmrc", ".yarnrc.yml", ".curlrc", ".gitattributes", ".pre-commit-config.yaml", ".exrc", ".nvim.lua", ".lfsconfig"} {
		if !slices.Contains(p.Unfenced, filepath.Join(proj, f)) {
			t.Errorf("%s is not listed to be set aside: %q", f, p.Unfenced)
		}
		for _, ph := range p.Placeholders {
			if ph.Path == filepath.Join(proj, f) {
				t.Errorf("%s gets a placeholder", f)
			}
		}
	}
}
