package agentinstall

import (
	"bytes"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

func TestClaudeSandboxInstallAndRestore(t *testing.T) {
	spec := ClaudeSandbox{ProxyPort: 7779, DenyRead: []string{"/h/.local/state/airlock"}, DenyWrite: []string{"/h/.config/airlock", "/h/.claude/settings.json"}}
	for _, before := range []string{
		"",
		"{\n  \"model\": \"opus\"\n}\n",
		"{\n  \"sandbox\": {\n    \"enabled\": false,\n    \"excludedCommands\": [\n      \"docker\"\n    ],\n    \"network\": {\n      \"httpProxyPort\": 1.50\n    },\n    \"filesystem\": {\n      \"denyRead\": [\n        \"~/.ssh\"\n      ]\n    }\n  },\n  \"model\": \"opus\"\n}\n",
		"{\n  \"sandbox\": true\n}\n",
	} {
		out, backup, err := InstallClaudeSandbox([]byte(before), spec)
		if strings.Contains(before, `"sandbox": true`) {
			if err == nil {
				t.Errorf("a non-object sandbox value was overwritten: %s", out)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", before, err)
		}
		root, err := jsonedit.Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		sbv, _ := root.Get("sandbox")
		sb := sbv.(*jsonedit.Object)
		for k, want := range map[string]any{"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false} {
			if v, _ := sb.Get(k); v != want {
				t.Errorf("%q: sandbox.%s = %v, want %v", before, k, v, want)
			}
		}
		nv, _ := sb.Get("network")
		if p, _ := nv.(*jsonedit.Object).Get("httpProxyPort"); p != jsonedit.Number("7779") {
			t.Errorf("%q: httpProxyPort = %v", before, p)
		}
		text := string(out)
		for _, w := range append(spec.DenyRead, spec.DenyWrite...) {
			if !strings.Contains(text, `"`+w+`"`) {
				t.Errorf("%q: %s missing from\n%s", before, w, out)
			}
		}
		if strings.Contains(before, "docker") && (!strings.Contains(text, `"docker"`) || !strings.Contains(text, `"~/.ssh"`)) {
			t.Errorf("the user's own sandbox keys were lost:\n%s", out)
		}
		back, err := RestoreClaudeSandbox(out, backup)
		if err != nil {
			t.Fatal(err)
		}
		want := before
		if want == "" {
			want = "{}\n"
		}
		if !bytes.Equal(back, []byte(want)) {
			t.Errorf("uninstall did not restore the settings byte for byte:\nbefore %q\nafter  %q", want, back)
		}
	}
}
