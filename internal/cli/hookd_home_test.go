//go:build linux

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// TestHookdClientHome: the service decides with the request's HOME, not
// its own. A service started with HOME=A answers a hook process whose
// HOME is B as that process would in itself ("~" is B: its secrets, its
// scripts, its home outside the project), and guards A's protected paths
// as well (the same user's: the union, never fewer). A request without
// HOME, or with a relative one, reads no script through "~" and still
// has A's paths guarded.
func TestHookdClientHome(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, k := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "AIRLOCK_HOME", "AIRLOCK_POLICY", "AIRLOCK_MODE", "AIRLOCK_STORY", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR"} {
		t.Setenv(k, "")
	}
	t.Setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
	state := filepath.Join(b, ".local", "state", "airlock")
	os.MkdirAll(filepath.Join(state, "secrets"), 0o700)
	os.WriteFile(filepath.Join(state, "secrets", "serve.token"), []byte("0123456789abcdef0123456789abcdef"), 0o600)
	proj := filepath.Join(b, "proj")
	os.MkdirAll(proj, 0o755)
	// The same script name in both homes: B's publishes, A's does not.
	for _, f := range []string{"x.sh", "bin/deploy"} {
		os.MkdirAll(filepath.Join(b, filepath.Dir(f)), 0o755)
		os.MkdirAll(filepath.Join(a, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(b, f), []byte("git push origin main\n"), 0o755)
		os.WriteFile(filepath.Join(a, f), []byte("echo hi\n"), 0o755)
	}
	os.WriteFile(filepath.Join(proj, "ok.sh"), []byte("echo ok\n"), 0o755)
	ev := func(cmd string) []byte {
		return []byte(`{"session_id":"s-home","cwd":"` + proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"},"tool_use_id":"t1"}`)
	}
	args := []string{"hook", "claude-code", "--event", "PreToolUse"}
	// The service's own HOME is A.
	t.Setenv("HOME", a)
	h := hookdHandler(state)
	ask := func(env []string, cmd string) string {
		t.Helper()
		r := h(&hookd.Request{Args: args, Env: env, Cwd: proj, Stdin: ev(cmd)})
		if r.Kind != hookd.KindAnswer {
			t.Fatalf("%s: declined: %s", cmd, r.Reason)
		}
		return string(r.Stdout)
	}
	decision := func(out string) string {
		for _, d := range []string{"deny", "ask", "defer"} {
			if strings.Contains(out, `"permissionDecision":"`+d+`"`) {
				return d
			}
		}
		return "allow"
	}
	// inProcess is the hook process's own answer with HOME=B.
	inProcess := func(cmd string) string {
		t.Helper()
		t.Setenv("HOME", b)
		t.Setenv("AIRLOCK_HOOKD", "off")
		defer t.Setenv("HOME", a)
		var out, errb bytes.Buffer
		Main(args, bytes.NewReader(ev(cmd)), &out, &errb)
		return out.String()
	}
	envB := []string{"HOME=" + b, "CLAUDE_CODE_SESSION_ATTENDED=1"}
	for _, c := range []struct {
		cmd, want, mention string
		// union: refused for A's sake; the hook process with HOME=B
		// alone allows it.
		union bool
	}{
		{cmd: "cat ~/.local/state/airlock/secrets/serve.token", want: "deny", mention: state + "/secrets"},
		{cmd: "cat $HOME/.local/state/airlock/secrets/serve.token", want: "deny", mention: state + "/secrets"},
		{cmd: "tar czf /tmp/s.tgz ~/.local/state", want: "deny", mention: state + "/secrets"},
		{cmd: "rm -rf ~/x", want: "ask", mention: b + "/x, outside the project"},
		{cmd: "rm -rf $HOME/x", want: "ask", mention: "outside the project"},
		{cmd: "bash ~/x.sh", want: "ask", mention: "git push"},
		{cmd: "sh ~/x.sh", want: "ask", mention: "git push"},
		{cmd: ". ~/x.sh", want: "ask", mention: "git push"},
		{cmd: "cd ~ && bash x.sh", want: "ask", mention: "git push"},
		{cmd: "~/bin/deploy", want: "ask", mention: "git push"},
		{cmd: "echo x >> ~/.bashrc", want: "deny", mention: b + "/.bashrc"},
		// A's paths: the same user's, guarded too.
		{cmd: "cat " + a + "/.local/state/airlock/secrets/human.key", want: "deny", mention: a + "/.local/state/airlock/secrets", union: true},
		{cmd: "echo x >> " + a + "/.bashrc", want: "deny", mention: a + "/.bashrc", union: true},
		{cmd: "echo x | tee -a " + a + "/.zshrc", want: "deny", mention: a + "/.zshrc", union: true},
		{cmd: "rm -rf " + a + "/.config/airlock", want: "deny", mention: a + "/.config/airlock", union: true},
		// Ordinary work, in both homes.
		{cmd: "cat ~/notes.txt", want: "allow"},
		{cmd: "ls ~ " + a, want: "allow"},
		{cmd: "bash ./ok.sh", want: "allow"},
		{cmd: "cat " + a + "/notes.txt", want: "allow"},
		{cmd: "cat " + a + "/.bashrc", want: "allow"},
		{cmd: "bash " + a + "/x.sh", want: "allow"},
	} {
		got := ask(envB, c.cmd)
		if d := decision(got); d != c.want || !strings.Contains(got, c.mention) {
			t.Errorf("HOME=B %s: %s, want %s mentioning %q:\n%s", c.cmd, d, c.want, c.mention, got)
			continue
		}
		if c.union {
			if d := decision(inProcess(c.cmd)); d != "allow" {
				t.Errorf("in process, %s: %s (the case does not test the union)", c.cmd, d)
			}
		} else if want := inProcess(c.cmd); got != want {
			t.Errorf("HOME=B %s: through the service\n%s\nin process\n%s", c.cmd, got, want)
		}
	}
	// No HOME, or a relative one: "~" names no script to read (never A's
	// harmless one), and A's paths stay guarded.
	for _, env := range [][]string{{"AIRLOCK_HOME=" + state}, {"HOME=rel", "AIRLOCK_HOME=" + state}, {"HOME=", "AIRLOCK_HOME=" + state}} {
		env = append(env, "CLAUDE_CODE_SESSION_ATTENDED=1")
		for _, c := range []struct{ cmd, want string }{
			{"bash ~/x.sh", "ask"},
			{"echo x >> " + a + "/.bashrc", "deny"},
			{"cat " + state + "/secrets/serve.token", "deny"},
			{"cat " + a + "/.local/state/airlock/secrets/human.key", "deny"},
			{"bash ./ok.sh", "allow"},
			{"go test ./...", "allow"},
		} {
			if d := decision(ask(env, c.cmd)); d != c.want {
				t.Errorf("%q %s: %s, want %s", env, c.cmd, d, c.want)
			}
		}
	}
}

func TestServiceHomes(t *testing.T) {
	for _, c := range []struct {
		own, req string
		want     int
	}{
		{"/home/a", "/home/a", 0}, {"/home/a/", "/home/a", 0}, {"/home/a", "/home/b", 1},
		{"/home/a", "", 1}, {"/home/a", "rel", 1}, {"", "/home/b", 0}, {"rel", "/home/b", 0}, {"/", "/home/b", 0},
	} {
		if got := serviceHomes(c.own, c.req); len(got) != c.want {
			t.Errorf("serviceHomes(%q, %q) = %q", c.own, c.req, got)
		}
	}
}
