package agentinstall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// TestAntigravityHookShape checks what agy reads: a named set "airlock"
// beside the user's own sets, its PreToolUse group selecting run_command,
// and a command handler running airlock's hook for that event.
func TestAntigravityHookShape(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "antigravity"), root)
	env := testEnv(root)
	doInstall(t, antigravity(), env, User)
	root2, err := jsonedit.Parse(mustRead(t, filepath.Join(env.Home, ".gemini", "config", "hooks.json")))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := root2.Get("notify"); !ok {
		t.Error("the user's own hook set is gone")
	}
	got, err := jsonedit.Marshal(root2)
	if err != nil {
		t.Fatal(err)
	}
	want := `"airlock": {
    "PreToolUse": [
      {
        "matcher": "run_command",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/airlock/bin/airlock hook antigravity --event PreToolUse",
            "timeout": 30
          }
        ]
      }
    ]
  }`
	if !strings.Contains(string(got), want) {
		t.Errorf("hooks.json:\n%s\nwant it to hold:\n%s", got, want)
	}
}

// TestAntigravitySettingsSwitches: the doctor says so when agy's
// settings do not turn command hooks on (some versions need both
// switches), and is content when both are true.
func TestAntigravitySettingsSwitches(t *testing.T) {
	cases := []struct {
		name, settings string
		want           string // a word the problem must hold; "" for none
	}{
		{"both on", `{"enable_json_hooks": true, "enable_prehook": true}`, ""},
		{"missing file", "", "enable_json_hooks and enable_prehook"},
		{"one off", `{"enable_json_hooks": true, "enable_prehook": false}`, "does not set enable_prehook"},
		{"string, not true", `{"enable_json_hooks": "true", "enable_prehook": true}`, "does not set enable_json_hooks"},
		{"not JSON", `{"enable_json_hooks": tru`, "settings.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			env := testEnv(root)
			settings := AntigravitySettings(env.Home)
			if c.settings != "" {
				if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(settings, []byte(c.settings), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			a := antigravity()
			if st := a.Inspect(env, User); st.Installed || len(st.Problems) > 0 {
				t.Fatalf("before install: %+v", st)
			}
			doInstall(t, a, env, User)
			st := a.Inspect(env, User)
			if !st.Installed {
				t.Fatalf("not installed: %+v", st)
			}
			var msgs []string
			for _, p := range st.Problems {
				msgs = append(msgs, p.Msg+" / "+p.Hint)
			}
			all := strings.Join(msgs, "\n")
			switch {
			case c.want == "" && len(msgs) > 0:
				t.Errorf("problems: %s", all)
			case c.want != "" && !strings.Contains(all, c.want):
				t.Errorf("problems %q do not say %q", all, c.want)
			}
		})
	}
}

// TestCrushFiles: the user's crush.json follows CRUSH_GLOBAL_CONFIG and
// XDG_CONFIG_HOME as Crush does; the project's is crush.json in its root.
func TestCrushFiles(t *testing.T) {
	env := Env{Home: "/h", Project: "/p", Getenv: func(string) string { return "" }}
	if got := crushFile(env, User); got != "/h/.config/crush/crush.json" {
		t.Errorf("user: %s", got)
	}
	if got := crushFile(env, Project); got != "/p/crush.json" {
		t.Errorf("project: %s", got)
	}
	env.Getenv = func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "/x"}[k] }
	if got := crushFile(env, User); got != "/x/crush/crush.json" {
		t.Errorf("XDG_CONFIG_HOME: %s", got)
	}
	env.Getenv = func(k string) string {
		return map[string]string{"XDG_CONFIG_HOME": "/x", "CRUSH_GLOBAL_CONFIG": "/g"}[k]
	}
	if got := crushFile(env, User); got != "/g/crush.json" {
		t.Errorf("CRUSH_GLOBAL_CONFIG: %s", got)
	}
}
