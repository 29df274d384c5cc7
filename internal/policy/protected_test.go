package policy

import (
	"testing"
)

func TestProtectedPaths(t *testing.T) {
	env := map[string]string{"HOME": "/h", "CODEX_HOME": "/c"}
	got := map[string]ProtectedPath{}
	for _, p := range ProtectedPaths(PathsFrom(func(k string) string { return env[k] }), "/p", Options{Getenv: func(k string) string { return env[k] }, Cwd: "/p", Executable: "/bin/x/airlock"}) {
		got[p.Path] = p
	}
	for path, want := range map[string]ProtectedPath{
		"/h/.local/state/airlock":         {Dir: true, State: true, Kind: "airlock"},
		"/h/.local/state/airlock/secrets": {Dir: true, Secret: true, Kind: "secret"},
		"/h/.config/airlock":              {Dir: true, Kind: "airlock"},
		"/bin/x/airlock-hook":             {Kind: "airlock"},
		"/h/.claude/settings.json":        {Kind: "agent-settings"},
		"/c/config.toml":                  {Kind: "agent-settings"},
		"/h/.bashrc":                      {Kind: "startup"},
		"/p/.claude/settings.json":        {Kind: "agent-settings"},
		"/p/.airlock":                     {Dir: true, Kind: "airlock"},
	} {
		p, ok := got[path]
		want.Path = path
		if !ok || p != want {
			t.Errorf("%s: got %+v (listed %v), want %+v", path, p, ok, want)
		}
	}
	if _, ok := got["/p/README"]; ok {
		t.Error("an ordinary project file is listed")
	}
}

// TestProjectFiles: every path ProjectFiles names, under a project, is a
// path the guard does not let an agent write (refused or asked); an
// ordinary file beside them is not listed.
func TestProjectFiles(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home}
	p, err := Load(Options{Getenv: func(k string) string { return env[k] }, Cwd: proj, ProjectDir: proj})
	if err != nil {
		t.Fatal(err)
	}
	files := ProjectFiles()
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Path] = true
		target := proj + "/" + f.Path
		if f.Dir {
			target += "/x.json"
		}
		v := p.Decide(Action{Kind: Write, Tool: "Write", Paths: []string{target}, Cwd: proj})
		if v.Decision == Allow {
			t.Errorf("%s (%s): writing %s is allowed", f.Path, f.Kind, target)
		}
	}
	for _, want := range []string{".claude/settings.json", ".claude/settings.local.json", ".mcp.json", ".airlock", ".codex", ".claude/commands"} {
		if !seen[want] {
			t.Errorf("%s is not listed", want)
		}
	}
	for _, ordinary := range []string{"README.md", ".claude", ".git", "src"} {
		if seen[ordinary] {
			t.Errorf("%s is listed", ordinary)
		}
	}
}
