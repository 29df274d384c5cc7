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
