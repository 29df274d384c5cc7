package agentinstall

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCodePluginFailsClosed loads the plugin airlock writes in node,
// with stand-ins for the airlock binary, and checks that it lets a call
// through only on an answer of exactly "allow", and throws (refuses the
// call) on a denial, a crash, an exit status, garbage, silence, a
// timeout and a missing binary. It runs where node is on PATH.
func TestOpenCodePluginFailsClosed(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	dir := t.TempDir()
	stub := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, body string
		want       string // "pass" or a substring of the thrown message
	}{
		{"allow", `cat > "$0.in"; echo '{"decision":"allow"}'`, "pass"},
		{"deny", `echo '{"decision":"deny","reason":"held as 3f2a"}'`, "held as 3f2a"},
		{"deny without reason", `echo '{"decision":"deny"}'`, "airlock: refused"},
		{"other decision", `echo '{"decision":"ask","reason":"x"}'`, "x"},
		{"crash", `exit 1`, "exited with status 1"},
		{"exit 2", `echo '{"decision":"allow"}'; exit 2`, "exited with status 2"},
		{"garbage", `echo 'not json'`, "could not be read"},
		{"silence", `true`, "could not be read"},
		{"timeout", `exec sleep 60`, "could not run"},
		{"missing", "", "could not run"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(dir, "missing-airlock")
			if c.body != "" {
				// Each stand-in reads the call first, as airlock does, so
				// that the plugin's write never meets a closed pipe.
				body := c.body
				if !strings.HasPrefix(body, "cat") {
					body = "cat >/dev/null; " + body
				}
				exe = stub(strings.ReplaceAll(c.name, " ", "-"), body)
			}
			plugin := string(OpenCodePlugin(exe))
			if c.name == "timeout" {
				// Only here is the plugin's own deadline shortened: the
				// stand-in sleeps far past it either way.
				plugin = strings.Replace(plugin, "const TIMEOUT_MS = 30000;", "const TIMEOUT_MS = 300;", 1)
			}
			pf := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".mjs")
			if err := os.WriteFile(pf, []byte(plugin), 0o644); err != nil {
				t.Fatal(err)
			}
			driver := `const m = await import(process.argv[1]);
const hooks = await m.Airlock({ directory: "/w", worktree: "/w" });
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "git push" } });
  console.log("pass");
} catch (e) { console.log("threw: " + e.message); }`
			out, err := exec.Command(node, "--input-type=module", "-e", driver, pf).CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			got := strings.TrimSpace(string(out))
			if c.want == "pass" {
				if got != "pass" {
					t.Fatalf("got %q, want the call to pass", got)
				}
				in, err := os.ReadFile(exe + ".in")
				if err != nil || !strings.Contains(string(in), `"event":"tool.execute.before"`) || !strings.Contains(string(in), `"command":"git push"`) {
					t.Fatalf("airlock got %q (%v)", in, err)
				}
				return
			}
			if !strings.HasPrefix(got, "threw: ") || !strings.Contains(got, c.want) {
				t.Fatalf("got %q, want a throw mentioning %q", got, c.want)
			}
		})
	}
}
