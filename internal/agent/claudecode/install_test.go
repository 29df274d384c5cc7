package claudecode

import (
	"strings"
	"testing"
)

// rich is a settings file with everything a user might have: other keys
// in a non-sorted order, permissions, env, other tools' hooks on the same
// events, numbers, unicode and HTML-ish characters.
const rich = `{
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(npm run test:*)",
      "Read(~/notes/**)"
    ],
    "deny": [
      "Bash(git push *)"
    ],
    "defaultMode": "acceptEdits"
  },
  "env": {
    "FOO": "a<b>&c",
    "NAME": "Zoë ☃"
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/block-rm.sh",
            "args": [],
            "if": "Bash(rm *)",
            "timeout": 30
          }
        ]
      }
    ],
    "Notification": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send claude"
          }
        ]
      }
    ]
  },
  "cleanupPeriodDays": 20,
  "includeCoAuthoredBy": false,
  "statusLine": null,
  "ratio": 1.50
}
`

const exe = "/usr/local/bin/airlock"

func TestInstallRoundTrip(t *testing.T) {
	out, changed, err := Install([]byte(rich), exe)
	if err != nil || !changed {
		t.Fatalf("install: changed=%v err=%v", changed, err)
	}
	s := string(out)
	for _, want := range []string{
		`"command": "/usr/local/bin/airlock hook claude-code --event PreToolUse"`,
		`"onFailure": "block"`,
		`"command": "/usr/local/bin/airlock hook claude-code --event SessionEnd"`,
		`"command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/block-rm.sh"`,
		`"command": "notify-send claude"`,
		`"FOO": "a<b>&c"`,
		`"ratio": 1.50`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("installed settings lack %s\n%s", want, s)
		}
	}
	// Other keys keep their order: model first, ratio last.
	if !strings.HasPrefix(s, "{\n  \"model\": \"opus\",\n  \"permissions\"") || !strings.HasSuffix(s, "\"ratio\": 1.50\n}\n") {
		t.Errorf("key order changed:\n%s", s)
	}
	// The other tool's PreToolUse group stays first; airlock's comes after.
	if strings.Index(s, "block-rm.sh") > strings.Index(s, "--event PreToolUse") {
		t.Errorf("airlock's group was put before the existing one")
	}
	// Installing again changes nothing.
	again, changed, err := Install(out, exe)
	if err != nil || changed || string(again) != s {
		t.Errorf("second install changed the file (changed=%v, err=%v)", changed, err)
	}
	ev, err := Installed(out)
	if err != nil || len(ev) != len(installed) {
		t.Errorf("Installed: %v %v", ev, err)
	}
	// Uninstall removes exactly what install added.
	back, changed, err := Uninstall(out)
	if err != nil || !changed {
		t.Fatalf("uninstall: changed=%v err=%v", changed, err)
	}
	if string(back) != rich {
		t.Errorf("uninstall did not restore the file:\n%s", back)
	}
	if _, changed, _ := Uninstall(back); changed {
		t.Error("second uninstall changed the file")
	}
}

func TestInstallEmptyAndMoved(t *testing.T) {
	out, changed, err := Install(nil, "/opt/my tools/airlock")
	if err != nil || !changed {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"command": "'/opt/my tools/airlock' hook claude-code --event PreToolUse"`) {
		t.Errorf("path with a space not quoted:\n%s", out)
	}
	// A moved binary replaces the old hooks instead of adding a second set.
	moved, changed, err := Install(out, exe)
	if err != nil || !changed {
		t.Fatal(err)
	}
	if strings.Contains(string(moved), "my tools") || strings.Count(string(moved), "--event PreToolUse") != 1 {
		t.Errorf("old hooks kept:\n%s", moved)
	}
	back, _, err := Uninstall(moved)
	if err != nil || string(back) != "{}\n" {
		t.Errorf("uninstall of a fresh file: %q %v", back, err)
	}
}

func TestInstallKeepsSharedGroups(t *testing.T) {
	// A user who added their own handler into airlock's group keeps it.
	in := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/x/airlock hook claude-code --event PreToolUse"},{"type":"command","command":"mine.sh"}]}]}}`
	out, changed, err := Uninstall([]byte(in))
	if err != nil || !changed || !strings.Contains(string(out), "mine.sh") || strings.Contains(string(out), "airlock") {
		t.Errorf("uninstall: %s %v %v", out, changed, err)
	}
}

func TestInstallErrors(t *testing.T) {
	for _, bad := range []string{`[]`, `{"hooks": []}`, `{"hooks": {"PreToolUse": {}}}`, `{`, `{} {}`} {
		if _, _, err := Install([]byte(bad), exe); err == nil {
			t.Errorf("Install(%s) accepted a broken settings file", bad)
		}
	}
}

func TestIsOurs(t *testing.T) {
	for cmd, want := range map[string]bool{
		"/usr/bin/airlock hook claude-code --event PreToolUse": true,
		"'/a b/airlock' hook claude-code":                      true,
		"airlock hook claude-codex":                            false,
		"notify-send claude":                                   false,
		"/usr/bin/airlock hook codex":                          false,
		"/usr/bin/airlock-hook claude-code --event PreToolUse": true,
		"'/a b/airlock-hook' claude-code --event Stop":         true,
		"/tmp/evil/airlock-hook claude-code --event Stop":      true, // replaced by install, flagged by the doctor
		"/usr/bin/airlock-hookx claude-code --event Stop":      false,
		"/usr/bin/airlock-hook claude-codex":                   false,
		"notify.sh 'x hook claude-code'":                       false,
		"sh -c 'airlock hook claude-code'":                     false,
		"log.sh '/usr/bin/airlock-hook claude-code'":           false,
	} {
		if isOurs(cmd) != want {
			t.Errorf("isOurs(%q) = %v", cmd, !want)
		}
	}
}

// TestInstallFormSwitch: the client's line replaces the in-process line
// and back, never adding a second hook or leaving the other behind; a
// look-alike of the user's stays.
func TestInstallFormSwitch(t *testing.T) {
	client := "/usr/local/bin/airlock-hook"
	mine := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/usr/local/bin/airlock-hookx claude-code --event PreToolUse"}]}]}}`
	out := []byte(mine)
	for i, bin := range []string{client, exe, client} {
		next, changed, err := Install(out, bin)
		if err != nil || !changed {
			t.Fatalf("install %d: changed=%v err=%v", i, changed, err)
		}
		out = next
		got, err := Installed(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range installed {
			if c := got[h.event]; len(c) != 1 || c[0] != HookCommand(bin, h.event) {
				t.Fatalf("install %d (%s): %s runs %q", i, bin, h.event, c)
			}
		}
		if !strings.Contains(string(out), "airlock-hookx") {
			t.Fatalf("install %d removed the user's look-alike hook:\n%s", i, out)
		}
	}
	if _, changed, _ := Install(out, client); changed {
		t.Error("a second install of the client's line changed the file")
	}
	back, _, err := Uninstall(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Installed(back); len(got) != 0 || !strings.Contains(string(back), "airlock-hookx") {
		t.Errorf("uninstall of the client's line:\n%s", back)
	}
}
