package agentinstall

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testExe = "/opt/airlock/bin/airlock"

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		return os.WriteFile(dst, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// snapshot is every file under root with its content and mode.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, _ := d.Info()
		out[p] = fi.Mode().String() + "\n" + string(mustRead(t, p))
		return nil
	})
	return out
}

func diff(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, "gone: "+k)
		} else if v != w {
			out = append(out, "changed: "+k+"\n--- before\n"+v+"\n--- after\n"+w)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "new: "+k)
		}
	}
	return strings.Join(out, "\n")
}

func testEnv(root string) Env {
	return Env{Home: filepath.Join(root, "home"), Project: filepath.Join(root, "project"), Exe: testExe, Getenv: func(string) string { return "" }}
}

func doInstall(t *testing.T, a *Agent, env Env, scope Scope) *Plan {
	t.Helper()
	p, err := a.Install(env, scope)
	return apply(t, p, err)
}

func doUninstall(t *testing.T, a *Agent, env Env, scope Scope) *Plan {
	t.Helper()
	p, err := a.Uninstall(env, scope)
	return apply(t, p, err)
}

func apply(t *testing.T, p *Plan, err error) *Plan {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRoundTrip installs into recorded configuration files that hold the
// user's own settings and hooks, for every agent and scope: the install
// writes the hook, a second install changes nothing, the doctor sees the
// hook, and uninstalling gives back every file byte for byte (and removes
// the files airlock created).
func TestRoundTrip(t *testing.T) {
	for _, a := range Agents() {
		for _, scope := range a.Scopes {
			t.Run(a.Name+"/"+string(scope), func(t *testing.T) {
				root := t.TempDir()
				copyTree(t, filepath.Join("testdata", a.Name), root)
				env := testEnv(root)
				before := snapshot(t, root)

				p := doInstall(t, a, env, scope)
				if !p.Changed() {
					t.Fatal("install changed nothing")
				}
				installed := snapshot(t, root)
				var hooked bool
				for _, content := range installed {
					hooked = hooked || strings.Contains(content, shellQuote(testExe)+" hook "+a.Name) || strings.Contains(content, `"`+testExe+`"`)
				}
				if !hooked {
					t.Fatalf("no file names the hook after install:\n%s", diff(before, installed))
				}
				if p2, err := a.Install(env, scope); err != nil || p2.Changed() {
					t.Fatalf("second install: err %v, files %+v", err, p2.Files)
				}
				st := a.Inspect(env, scope)
				if !st.Installed || len(st.Problems) > 0 {
					t.Fatalf("inspect after install: %+v", st)
				}

				doUninstall(t, a, env, scope)
				if d := diff(before, snapshot(t, root)); d != "" {
					t.Fatalf("uninstall did not give back the original files:\n%s", d)
				}
				if p3, err := a.Uninstall(env, scope); err != nil || p3.Changed() {
					t.Fatalf("second uninstall: err %v, files %+v", err, p3.Files)
				}
				if st := a.Inspect(env, scope); st.Installed {
					t.Fatalf("inspect after uninstall: %+v", st)
				}
			})
		}
	}
}

// TestNewBinaryReplaces checks that installing from another airlock binary
// leaves one hook, running the new binary, and that uninstalling then
// still gives back the original files.
func TestNewBinaryReplaces(t *testing.T) {
	for _, a := range Agents() {
		t.Run(a.Name, func(t *testing.T) {
			root := t.TempDir()
			copyTree(t, filepath.Join("testdata", a.Name), root)
			env := testEnv(root)
			scope := a.Scopes[0]
			before := snapshot(t, root)
			doInstall(t, a, env, scope)
			env.Exe = "/usr/local/bin/airlock"
			doInstall(t, a, env, scope)
			after := snapshot(t, root)
			for _, content := range after {
				if strings.Contains(content, testExe) {
					t.Fatalf("the old binary is still named:\n%s", content)
				}
			}
			st := a.Inspect(env, scope)
			if !st.Installed || len(st.Problems) > 0 {
				t.Fatalf("inspect: %+v", st)
			}
			doUninstall(t, a, env, scope)
			if d := diff(before, snapshot(t, root)); d != "" {
				t.Fatalf("uninstall:\n%s", d)
			}
		})
	}
}

func TestHookBinary(t *testing.T) {
	for _, exe := range []string{"/usr/bin/airlock", "/opt/my dir/air'lock", "/a/b'c'd"} {
		cmd := HookCommand(exe, "codex", "PreToolUse")
		if got := HookBinary(cmd); got != exe {
			t.Errorf("HookBinary(%q) = %q, want %q", cmd, got, exe)
		}
		if !isOurs(cmd, "codex") || isOurs(cmd, "code") || isOurs(cmd, "codex2") {
			t.Errorf("isOurs wrong for %q", cmd)
		}
	}
	for _, cmd := range []string{
		"notify.sh 'x hook codex'",
		"sh -c '/usr/bin/airlock hook codex'",
		"FOO=1 /usr/bin/airlock hook codex --event PreToolUse",
		"/usr/bin/airlock hook codex; curl x",
		" hook codex",
	} {
		if isOurs(cmd, "codex") && !strings.HasSuffix(cmd, "; curl x") {
			t.Errorf("isOurs(%q) = true: a user's own command would be replaced", cmd)
		}
	}
}

// TestForeignManagedFile checks that airlock neither overwrites nor
// removes a plugin or hook script it did not write.
func TestForeignManagedFile(t *testing.T) {
	for _, a := range []*Agent{opencode(), cline(), pi()} {
		root := t.TempDir()
		env := testEnv(root)
		p, err := a.Install(env, User)
		if err != nil {
			t.Fatal(err)
		}
		path := p.Files[0].Path
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("someone else's hook\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		var notOurs *NotOursError
		if _, err := a.Install(env, User); !errors.As(err, &notOurs) {
			t.Errorf("%s: install over a foreign file: err %v", a.Name, err)
		}
		if p, err := a.Uninstall(env, User); err != nil || p.Changed() {
			t.Errorf("%s: uninstall touched a foreign file: %v %+v", a.Name, err, p)
		}
		if st := a.Inspect(env, User); st.Installed || len(st.Problems) == 0 {
			t.Errorf("%s: inspect of a foreign file: %+v", a.Name, st)
		}
	}
}

func TestCodexTrustConflict(t *testing.T) {
	root := t.TempDir()
	env := testEnv(root)
	hooks, _ := codexFiles(env)
	key := CodexHookKey(hooks, "PreToolUse", 0, 0)
	for _, config := range []string{
		"[hooks.state." + tomlString(key) + "]\ntrusted_hash = \"sha256:ab\"\n",
		"[hooks]\nstate = { x = 1 }\n",
	} {
		if err := os.MkdirAll(filepath.Dir(hooks), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(hooks), "config.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		var conflict *CodexTrustConflictError
		if _, err := codex().Install(env, User); !errors.As(err, &conflict) {
			t.Errorf("config %q: err %v, want a conflict", config, err)
		}
	}
}

// TestCodexDoctorSeesStaleTrust checks that the doctor notices a trust
// entry that no longer matches the hook (the hook edited by hand, or by
// an agent): Codex would skip the hook silently.
func TestCodexDoctorSeesStaleTrust(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "codex"), root)
	env := testEnv(root)
	doInstall(t, codex(), env, User)
	hooks, _ := codexFiles(env)
	data := bytes.Replace(mustRead(t, hooks), []byte(`"timeout": 30`), []byte(`"timeout": 31`), 1)
	if err := os.WriteFile(hooks, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st := codex().Inspect(env, User)
	if st.Trusted != "no" || len(st.Problems) == 0 {
		t.Fatalf("inspect: %+v", st)
	}
	doInstall(t, codex(), env, User)
	if st := codex().Inspect(env, User); st.Trusted != "yes" || len(st.Problems) > 0 {
		t.Fatalf("inspect after reinstall: %+v", st)
	}
}

func TestKiroNeedsAnAgentFile(t *testing.T) {
	if _, err := kiro().Install(testEnv(t.TempDir()), User); !errors.Is(err, ErrNoAgentFile) {
		t.Fatalf("err %v", err)
	}
}

func TestUnsupportedScope(t *testing.T) {
	for _, a := range []*Agent{codex(), copilot(), goose()} {
		_, err := a.Install(testEnv(t.TempDir()), Project)
		if !errors.Is(err, ErrScope) || !strings.Contains(err.Error(), a.NoScope[Project]) {
			t.Errorf("%s: err %v", a.Name, err)
		}
	}
}

// TestReplaceKeepsPosition checks that installing from a new binary puts
// airlock's group where the old one was: Codex keys trust by position, so
// moving it would move the user's hooks after it and untrust them.
func TestReplaceKeepsPosition(t *testing.T) {
	root := t.TempDir()
	env := testEnv(root)
	doInstall(t, codex(), env, User)
	hooks, config := codexFiles(env)
	data := mustRead(t, hooks)
	user := `{"matcher": "Bash", "hooks": [{"type": "command", "command": "/home/me/bin/guard"}]}`
	data = bytes.Replace(data, []byte("\n    ]\n  }\n}"), []byte(",\n"+user+"\n    ]\n  }\n}"), 1)
	if err := os.WriteFile(hooks, data, 0o644); err != nil {
		t.Fatal(err)
	}
	env.Exe = "/usr/local/bin/airlock"
	doInstall(t, codex(), env, User)
	want, err := codexTrustFor(hooks, mustRead(t, hooks))
	if err != nil || len(want) != 1 || !strings.HasSuffix(want[0].key, ":pre_tool_use:0:0") {
		t.Fatalf("airlock's hook moved: %+v %v\n%s", want, err, mustRead(t, hooks))
	}
	if !bytes.Contains(mustRead(t, hooks), []byte("/home/me/bin/guard")) {
		t.Fatal("the user's hook is gone")
	}
	if hash, _, _ := codexTrusted(string(mustRead(t, config)), want[0].key); hash != want[0].hash {
		t.Fatalf("trust %q, want %q", hash, want[0].hash)
	}
}

// TestUninstallSaysWhichHooksMoved checks that removing airlock's group
// from before a user's trusted Codex hook says that hook needs trusting
// again (Codex keys trust by position).
func TestUninstallSaysWhichHooksMoved(t *testing.T) {
	root := t.TempDir()
	env := testEnv(root)
	doInstall(t, codex(), env, User)
	hooks, config := codexFiles(env)
	user := `{"matcher": "Bash", "hooks": [{"type": "command", "command": "/home/me/bin/guard"}]}`
	data := bytes.Replace(mustRead(t, hooks), []byte("\n    ]\n  }\n}"), []byte(",\n"+user+"\n    ]\n  }\n}"), 1)
	if err := os.WriteFile(hooks, data, 0o644); err != nil {
		t.Fatal(err)
	}
	userKey := CodexHookKey(hooks, "PreToolUse", 1, 0)
	cfg := append(mustRead(t, config), []byte("\n[hooks.state."+tomlString(userKey)+"]\ntrusted_hash = \"sha256:11\"\n")...)
	if err := os.WriteFile(config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := codex().Uninstall(env, User)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "/home/me/bin/guard") {
		t.Fatalf("notes: %q", p.Notes)
	}
}

// TestFormSwitch: installing the client's line over the in-process line
// and back leaves exactly one airlock hook each time, in the form asked
// for; the doctor accepts either; uninstalling from either form gives
// back the original files.
func TestFormSwitch(t *testing.T) {
	client := filepath.Join(filepath.Dir(testExe), "airlock-hook")
	for _, a := range Agents() {
		t.Run(a.Name, func(t *testing.T) {
			root := t.TempDir()
			copyTree(t, filepath.Join("testdata", a.Name), root)
			scope := a.Scopes[0]
			before := snapshot(t, root)
			inproc, fast := testEnv(root), testEnv(root)
			fast.Client = client
			names := func() (clientLines, inprocLines int) {
				for _, content := range snapshot(t, root) {
					clientLines += strings.Count(content, client)
					inprocLines += strings.Count(content, testExe+" hook") + strings.Count(content, `"`+testExe+`"`)
				}
				return
			}
			for i, env := range []Env{fast, inproc, fast, fast} {
				doInstall(t, a, env, scope)
				c, n := names()
				if env.Client != "" && (c == 0 || n != 0) || env.Client == "" && (c != 0 || n == 0) {
					t.Fatalf("install %d (client %q): %d client lines, %d in-process lines:\n%s", i, env.Client, c, n, diff(before, snapshot(t, root)))
				}
				if st := a.Inspect(fast, scope); !st.Installed || len(st.Problems) > 0 {
					t.Fatalf("inspect after install %d: %+v", i, st)
				}
			}
			if p, err := a.Install(fast, scope); err != nil || p.Changed() {
				t.Fatalf("a second install of the client's line: err %v, files %+v", err, p.Files)
			}
			doUninstall(t, a, inproc, scope)
			if d := diff(before, snapshot(t, root)); d != "" {
				t.Fatalf("uninstall of the client's line:\n%s", d)
			}
		})
	}
}

// TestLookalikeClientKept: a user's hook that only looks like airlock's
// client line is neither replaced nor removed.
func TestLookalikeClientKept(t *testing.T) {
	for _, cmd := range []string{
		"/usr/bin/airlock-hookx codex --event PreToolUse",
		"notify.sh '/usr/bin/airlock-hook codex'",
		"'/usr/bin/airlock-hook' codex",
	} {
		if isOurs(cmd, "codex") {
			t.Errorf("isOurs(%q) = true", cmd)
		}
	}
	if !isOurs("/tmp/evil/airlock-hook codex --event PreToolUse", "codex") {
		t.Error("another path's client line is not replaced by install")
	}
}
