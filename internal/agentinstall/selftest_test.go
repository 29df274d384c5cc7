package agentinstall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestVerdict(t *testing.T) {
	cases := []struct {
		status int
		out    string
		want   string
	}{
		{0, "", "allow"},
		{0, "  \n", "allow"},
		{2, "", "deny"},
		{1, "", "error: exit status 1"},
		{0, "not json", "error: the answer is not JSON"},
		{0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "deny"},
		{0, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "ask"},
		{0, `{"permissionDecision":"deny","permissionDecisionReason":"x"}`, "deny"},
		{0, `{"decision":"deny","reason":"x"}`, "deny"},
		{0, `{"decision":"block","reason":"x"}`, "deny"},
		{0, `{"permission":"deny","agent_message":"x"}`, "deny"},
		{0, `{"cancel":true,"errorMessage":"x"}`, "deny"},
		{0, `{"decision":"allow"}`, "allow"},
		{0, `{"permission":"allow"}`, "allow"},
	}
	for _, c := range cases {
		if got := Verdict(c.status, []byte(c.out)); got != c.want {
			t.Errorf("Verdict(%d, %q) = %q, want %q", c.status, c.out, got, c.want)
		}
	}
}

// TestSelfTestEvents checks that every agent has a recorded event, that
// it is JSON, and that it carries the command where that agent puts it.
func TestSelfTestEvents(t *testing.T) {
	for _, a := range Agents() {
		ev := selfTestEvent(a.Name, "/w", "git push origin main")
		var v map[string]any
		if err := json.Unmarshal(ev, &v); err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if !containsString(v, "git push origin main") {
			t.Errorf("%s: the event does not carry the command: %s", a.Name, ev)
		}
	}
}

func containsString(v any, s string) bool {
	switch t := v.(type) {
	case string:
		return t == s
	case map[string]any:
		for _, e := range t {
			if containsString(e, s) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if containsString(e, s) {
				return true
			}
		}
	}
	return false
}

// TestRunSelfTest runs hook scripts that stand for a working hook, a
// missing one, one that allows everything and one that hangs.
func TestRunSelfTest(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := script("good", `if grep -q "git push"; then echo '{"decision":"deny","reason":"held"}'; fi`)
	open := script("open", `cat >/dev/null`)
	hang := script("hang", `exec sleep 30`)
	// The hanging hook's deadline is short only next to its 30 s sleep:
	// a loaded machine may take far more than a fraction of a second to
	// start a shell, and what is asserted is the answer, not the speed.
	cases := []struct {
		cmd        string
		timeout    time.Duration
		allow, err string
	}{
		{good, time.Minute, "allow", "deny"},
		{open, time.Minute, "allow", "allow"},
		{filepath.Join(dir, "missing"), time.Minute, "error: exit status 127", "error: exit status 127"},
		{hang, 3 * time.Second, "error: no answer within 3s", "error: no answer within 3s"},
	}
	for _, c := range cases {
		got := RunSelfTest("gemini", c.cmd, dir, os.Environ(), c.timeout)
		if got[0].Got != c.allow || got[1].Got != c.err {
			t.Errorf("%s: got %q, %q; want %q, %q", filepath.Base(c.cmd), got[0].Got, got[1].Got, c.allow, c.err)
		}
		if got[0].OK != (c.allow == "allow") || got[1].OK != (c.err == "deny") {
			t.Errorf("%s: OK flags wrong: %+v", filepath.Base(c.cmd), got)
		}
	}
}

// TestSelfTestCommand: the doctor self-tests only the line the installer
// builds, byte for byte; any other text a configuration file holds is
// never a command line to run.
func TestSelfTestCommand(t *testing.T) {
	exe := "/opt/air lock/airlock"
	for _, a := range Agents() {
		for _, ev := range a.Events {
			own := HookCommand(exe, a.Name, ev)
			if got, ok := a.SelfTestCommand(exe, own); !ok || got != own {
				t.Errorf("%s %s: own line refused: %q", a.Name, ev, got)
			}
			for _, bad := range []string{
				own + "; touch x", "touch x; " + own, own + " && touch x", own + "\ntouch x", own + " $(touch x)",
				" " + own, own + " ", HookCommand("/tmp/other/airlock", a.Name, ev), "/opt/air\\ lock/airlock hook " + a.Name + " --event " + ev,
			} {
				if got, ok := a.SelfTestCommand(exe, bad); ok {
					t.Errorf("%s: accepted %q as %q", a.Name, bad, got)
				}
			}
		}
		if _, ok := a.SelfTestCommand("", HookCommand("", a.Name, a.Events[0])); ok {
			t.Errorf("%s: accepted a line for an unknown binary", a.Name)
		}
	}
}
