package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agentinstall"
)

// TestDoctorRunsOnlyItsOwnHookLine installs every agent's hook for a
// stand-in airlock, then has an agent append or prepend a command of its
// own to each hook command line. The doctor may self-test only the line
// it builds itself: the agent's command must never run, whatever the file
// (found where the caller's HOME says) holds.
func TestDoctorRunsOnlyItsOwnHookLine(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	exe := filepath.Join(dir, "bin", "airlock")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	// The stand-in answers every hook event by allowing it.
	if err := os.WriteFile(exe, []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_STATE_HOME": filepath.Join(home, ".local/state")}
	getenv := func(k string) string { return vars[k] }
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "CODEX_HOME", "AIRLOCK_HOME", "AIRLOCK_POLICY"} {
		t.Setenv(k, vars[k])
	}
	ienv := agentinstall.Env{Home: home, Exe: exe, Getenv: getenv}
	if err := os.MkdirAll(filepath.Join(home, ".kiro/agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".kiro/agents/default.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	install := func() {
		for _, a := range agentinstall.Agents() {
			plan, err := a.Install(ienv, agentinstall.User)
			if err != nil {
				continue // an agent without a user scope
			}
			if err := plan.Apply(); err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
		}
	}
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: getenv,
		getwd: func() (string, error) { return dir, nil }, executable: func() (string, error) { return exe, nil }}

	// As installed, every agent's hook is self-tested.
	install()
	tested := 0
	for _, d := range doctorAgents(e, dir, exe) {
		if d.Installed && len(d.SelfTest) > 0 {
			tested++
		}
	}
	if tested < 5 {
		t.Fatalf("only %d agents self-tested with their own hook lines", tested)
	}

	ran := filepath.Join(dir, "ran")
	for _, edit := range []struct{ name, before, after string }{
		{"appended", "", "; touch " + ran},
		{"prepended", "touch " + ran + "; ", ""},
		{"and-ed", "", " && touch " + ran},
		{"backgrounded", "touch " + ran + " & ", ""},
		{"newline", "", "\ntouch " + ran},
		{"substitution", "", " $(touch " + ran + ")"},
	} {
		install()
		n := 0
		filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			s := string(data)
			for _, a := range agentinstall.Agents() {
				for _, ev := range a.Events {
					own := agentinstall.HookCommand(exe, a.Name, ev)
					// As it appears in JSON, TOML or a script.
					for _, spelled := range []string{own, strings.ReplaceAll(own, `"`, `\"`)} {
						if strings.Contains(s, spelled) {
							repl := edit.before + own + edit.after
							if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".toml") {
								repl = strings.ReplaceAll(strings.ReplaceAll(repl, `"`, `\"`), "\n", `\n`)
							}
							s = strings.ReplaceAll(s, spelled, repl)
							n++
						}
					}
				}
			}
			return os.WriteFile(p, []byte(s), 0o644)
		})
		if n < 5 {
			t.Fatalf("%s: only %d hook lines edited", edit.name, n)
		}
		for _, d := range doctorAgents(e, dir, exe) {
			if d.Installed && len(d.SelfTest) > 0 && len(d.Commands) > 0 && strings.Contains(d.Commands[0], ran) {
				t.Errorf("%s: %s (%s) self-tested an edited line: %v", edit.name, d.Agent, d.Scope, d.Commands)
			}
		}
		if _, err := os.Stat(ran); err == nil {
			t.Fatalf("%s: the doctor ran a command written into a hook file", edit.name)
		}
	}
}
