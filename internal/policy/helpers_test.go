package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// fixture is a private home with policy files, and the environment that
// points airlock at it.
type fixture struct {
	t    testing.TB
	root string
	env  map[string]string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	return &fixture{t: t, root: root, env: map[string]string{
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME":  filepath.Join(home, ".local", "state"),
	}}
}

func (f *fixture) path(rel string) string { return filepath.Join(f.root, rel) }

func (f *fixture) write(rel, content string) string {
	f.t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) userFile(content string) string {
	return f.write("home/.config/airlock/policy.yaml", content)
}

func (f *fixture) projectFile(content string) string {
	return f.write("proj/"+ProjectFile, content)
}

func (f *fixture) options() Options {
	return Options{
		Getenv:     func(k string) string { return f.env[k] },
		Cwd:        f.path("proj/sub"),
		Executable: "/opt/airlock/bin/airlock",
		Protect:    []string{f.path("home/.claude/settings.json")},
	}
}

func (f *fixture) load() *Policy {
	f.t.Helper()
	p, err := Load(f.options())
	if err != nil {
		f.t.Fatalf("Load: %v", err)
	}
	return p
}

func (f *fixture) trust(file string) {
	f.t.Helper()
	ts, err := LoadTrust(PathsFrom(func(k string) string { return f.env[k] }).TrustFile())
	if err != nil {
		f.t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		f.t.Fatal(err)
	}
	ts.Trust(file, data)
	if err := ts.Save(); err != nil {
		f.t.Fatal(err)
	}
}

func shell(cmd string) Action {
	return Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: "/work/proj"}
}
