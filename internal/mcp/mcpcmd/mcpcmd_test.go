package mcpcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsage checks the mistakes that stop run and serve before anything
// starts, each with its message.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("mcp:\n  servers:\n    s:\n      tools:\n        send:\n          class: sink\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("mcp:\n  servers:\n    texts:\n      tools:\n        read_messages: {class: source}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"nothing", nil, []string{"needs run or serve"}},
		{"unknown", []string{"frobnicate"}, []string{`unknown mcp command "frobnicate"`}},
		{"run without command", []string{"run"}, []string{"mcp run needs the server's command after --"}},
		{"missing config", []string{"run", "--config", filepath.Join(dir, "nowhere.yaml"), "--", "true"}, []string{"--config: ", "nowhere.yaml"}},
		{"broken mcp section", []string{"run", "--config", bad, "--", "true"}, []string{"bad.yaml:5: bad value: sink \"send\" needs recipient_arg", "hint: airlock policy check"}},
		{"server that cannot start", []string{"run", "--config", good, "--", filepath.Join(dir, "no-such-server")}, []string{"upstream MCP server no-such-server"}},
		{"listen beyond loopback", []string{"serve", "--listen", "0.0.0.0:8931", "--upstream", "http://127.0.0.1:1/mcp"}, []string{"not a loopback address"}},
		{"no upstream", []string{"serve", "--listen", "127.0.0.1:0"}, []string{"exactly one of --upstream URL and --upstream-cmd"}},
		{"two upstreams", []string{"serve", "--upstream", "http://127.0.0.1:1/mcp", "--upstream-cmd", "--", "x"}, []string{"exactly one of"}},
		{"upstream-cmd without command", []string{"serve", "--upstream-cmd"}, []string{"--upstream-cmd needs the server's command"}},
		{"no session ttl", []string{"serve", "--session-ttl", "0s", "--upstream", "http://127.0.0.1:1/mcp"}, []string{"--session-ttl must be positive", "hint: the defaults: --session-ttl 30m0s --max-sessions 64"}},
		{"no sessions", []string{"serve", "--max-sessions", "0", "--upstream", "http://127.0.0.1:1/mcp"}, []string{"--max-sessions at least 1"}},
		{"bad flag", []string{"run", "--nope"}, []string{"unknown flag --nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			home := t.TempDir()
			env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(k string) string {
					return map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state")}[k]
				},
				Getwd:      func() (string, error) { return dir, nil },
				Executable: func() (string, error) { return "/opt/airlock/bin/airlock-mcp", nil },
			}
			if code := Main(tt.args, env); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q lacks %q", stderr.String(), w)
				}
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help"} {
		var stdout bytes.Buffer
		if code := Main([]string{"run", h}, Env{Stdout: &stdout, Stderr: &stdout}); code != exitOK || !strings.Contains(stdout.String(), "airlock mcp run [--config FILE]") {
			t.Errorf("%s: exit %d: %s", h, code, stdout.String())
		}
		if n := strings.Count(stdout.String(), "Usage:"); n != 1 {
			t.Errorf("%s: help printed %d times", h, n)
		}
		if strings.Contains(stdout.String(), "\n  -config") || !strings.Contains(stdout.String(), "\n  --config FILE") {
			t.Errorf("%s: flags not spelled --flag: %s", h, stdout.String())
		}
	}
	// airlock-mcp's own help, for a person who runs the binary.
	for _, h := range []string{"-h", "--help", "help"} {
		var stdout, stderr bytes.Buffer
		if code := Main([]string{h}, Env{Stdout: &stdout, Stderr: &stderr}); code != exitOK || !strings.Contains(stdout.String(), "airlock mcp serve --listen") || stderr.Len() != 0 {
			t.Errorf("airlock-mcp %s: exit %d, stdout %q, stderr %q", h, code, stdout.String(), stderr.String())
		}
	}
	// A mistake goes to standard error alone.
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"serve", "--nope"}, Env{Stdout: &stdout, Stderr: &stderr}); code != exitUsage || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q", code, stdout.String())
	}
}
