package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
)

// fixture is a home directory with the user's policy file and a project
// with its own, for loading a policy the way airlock does.
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

func (f *fixture) write(rel, content string) string {
	f.t.Helper()
	p := filepath.Join(f.root, rel)
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
	return f.write("proj/"+policy.ProjectFile, content)
}

// options loads from the fixture, with schema compiling the "mcp:"
// sections (nil leaves them for Of).
func (f *fixture) options(schema func() policy.MCPSchema) policy.Options {
	return policy.Options{
		Getenv: func(k string) string { return f.env[k] },
		Cwd:    filepath.Join(f.root, "proj", "sub"),
		MCP:    schema,
	}
}

// load compiles the fixture's policy both ways a caller can (with the
// schema at load time, and by Of afterwards) and checks they agree.
func (f *fixture) load() *Config {
	f.t.Helper()
	p, err := policy.Load(f.options(Schema))
	if err != nil {
		f.t.Fatalf("Load: %v", err)
	}
	c, err := Of(p)
	if err != nil {
		f.t.Fatalf("Of: %v", err)
	}
	lazy, err := policy.Load(f.options(nil))
	if err != nil {
		f.t.Fatalf("Load without the schema: %v", err)
	}
	lc, err := Of(lazy)
	if err != nil {
		f.t.Fatalf("Of without the schema: %v", err)
	}
	if a, b := dump(c), dump(lc); a != b {
		f.t.Errorf("the schema at load time compiled\n%s\nOf compiled\n%s", a, b)
	}
	return c
}

func (f *fixture) trust(file string) {
	f.t.Helper()
	ts, err := policy.LoadTrust(policy.PathsFrom(func(k string) string { return f.env[k] }).TrustFile())
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

func dump(c *Config) string {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}
