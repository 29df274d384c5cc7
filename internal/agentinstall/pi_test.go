package agentinstall

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPiExtensionFailsClosed loads the extension airlock writes for Pi in
// node, with stand-ins for the airlock binary, and checks that a call
// passes only on an answer of exactly "allow", is blocked with airlock's
// reason on "deny", and that the handler throws (Pi then blocks the call)
// on a crash, an exit status, garbage, silence, another decision, a
// timeout and a missing binary. It runs where node is on PATH.
func TestPiExtensionFailsClosed(t *testing.T) {
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
		// want is "pass", "block: REASON" or a substring of the thrown
		// message.
		want string
	}{
		{"allow", `cat > "$0.in"; echo '{"decision":"allow"}'`, "pass"},
		{"deny", `echo '{"decision":"deny","reason":"held as 3f2a"}'`, "block: held as 3f2a"},
		{"deny without reason", `echo '{"decision":"deny"}'`, "block: airlock: refused"},
		{"other decision", `echo '{"decision":"ask","reason":"x"}'`, "neither allow nor deny"},
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
				body := c.body
				if !strings.HasPrefix(body, "cat") {
					body = "cat >/dev/null; " + body
				}
				exe = stub("pi-"+strings.ReplaceAll(c.name, " ", "-"), body)
			}
			ext := string(PiExtension(exe))
			if c.name == "timeout" {
				ext = strings.Replace(ext, "const TIMEOUT_MS = 30000;", "const TIMEOUT_MS = 300;", 1)
			}
			pf := filepath.Join(dir, "pi-"+strings.ReplaceAll(c.name, " ", "-")+".mjs")
			if err := os.WriteFile(pf, []byte(ext), 0o644); err != nil {
				t.Fatal(err)
			}
			// A stand-in for Pi's extension API: the one handler the
			// extension registers, called as Pi calls it.
			driver := `const m = await import(process.argv[1]);
const handlers = {};
m.default({ on: (name, fn) => { handlers[name] = fn; } });
const ctx = { cwd: "/w", hasUI: false, sessionManager: { getSessionId: () => "s-1" } };
try {
  const r = await handlers["tool_call"]({ type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "git push" } }, ctx);
  if (r && r.block) console.log("block: " + r.reason); else console.log("pass");
} catch (e) { console.log("threw: " + e.message); }`
			out, err := exec.Command(node, "--input-type=module", "-e", driver, pf).CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			got := strings.TrimSpace(string(out))
			switch {
			case c.want == "pass":
				if got != "pass" {
					t.Fatalf("got %q, want the call to pass", got)
				}
				in, err := os.ReadFile(exe + ".in")
				for _, want := range []string{`"event":"tool_call"`, `"toolName":"bash"`, `"command":"git push"`, `"cwd":"/w"`, `"sessionId":"s-1"`, `"toolCallId":"c1"`} {
					if err != nil || !strings.Contains(string(in), want) {
						t.Fatalf("airlock got %q (%v), want %s in it", in, err, want)
					}
				}
			case strings.HasPrefix(c.want, "block: "):
				if got != c.want {
					t.Fatalf("got %q, want %q", got, c.want)
				}
			default:
				if !strings.HasPrefix(got, "threw: ") || !strings.Contains(got, c.want) {
					t.Fatalf("got %q, want a throw mentioning %q", got, c.want)
				}
			}
		})
	}
}

// TestPiAgentDir: PI_CODING_AGENT_DIR moves Pi's user directory, and the
// user-scope extension with it.
func TestPiAgentDir(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"", "/h/.pi/agent"},
		{"/opt/pi", "/opt/pi"},
		{"~/pi-dir", "/h/pi-dir"},
		{"relative", "/h/.pi/agent"},
	} {
		env := Env{Home: "/h", Getenv: func(k string) string {
			if k == "PI_CODING_AGENT_DIR" {
				return c.env
			}
			return ""
		}}
		if got := PiAgentDir(env); got != c.want {
			t.Errorf("PI_CODING_AGENT_DIR=%q: %s, want %s", c.env, got, c.want)
		}
	}
}
