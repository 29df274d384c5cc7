package classify

import (
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestInstallsGuarded: installing the project's own package is held when
// it puts a program named like an agent's CLI or airlock's on the PATH,
// and is ordinary work otherwise.
func TestInstallsGuarded(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json":       {Data: []byte(`{"name":"p","bin":{"claude":"x.sh","p":"p.js"}}`)},
		"tool/package.json":  {Data: []byte(`{"name":"mytool","bin":{"mytool":"cli.js"}}`)},
		"one/package.json":   {Data: []byte(`{"name":"@x/airlock-hook","bin":"cli.js"}`)},
		"pyproject.toml":     {Data: []byte("[project]\nname = \"p\"\n[project.scripts]\nclaude = \"p:main\"\n")},
		"py2/pyproject.toml": {Data: []byte("[project]\nname = \"q\"\n[project.scripts]\nq = \"q:main\"\n")},
		"Cargo.toml":         {Data: []byte("[package]\nname = \"p\"\n[[bin]]\nname = \"codex\"\npath = \"src/main.rs\"\n")},
		"rs2/Cargo.toml":     {Data: []byte("[package]\nname = \"fmtx\"\n")},
	}
	for _, tc := range []struct {
		cmd  string
		held bool
	}{
		{"npm link", true},
		{"npm install -g .", true},
		{"npm i --global ./one", true},
		{"pip install --user .", true},
		{"pipx install .", true},
		{"uv tool install .", true},
		{"cargo install --path .", true},
		{"npm pkg set bin.claude=x.sh", true},
		{"npm pkg set name=airlock", true},
		{"npm link ./tool", false},
		{"npm install -g ./tool", false},
		{"npm install", false},
		{"pip install .", false},
		{"pip install --user ./py2", false},
		{"cargo install --path rs2", false},
		{"npm pkg set version=1.2.3", false},
		{"npm pkg set bin.mytool=cli.js", false},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: fsys}
		r := c.Command(tc.cmd)
		if r.Effect.Opaque != tc.held {
			t.Errorf("%s: opaque %v, want %v (%v)", tc.cmd, r.Effect.Opaque, tc.held, r.Effect.Reasons)
		}
	}
}
