package agentinstall

import "testing"

func TestClaudeSandboxEnforced(t *testing.T) {
	on := `{"hooks":{},"sandbox":{"enabled":true,"failIfUnavailable":true,"allowUnsandboxedCommands":false,"network":{"httpProxyPort":7779}}}`
	written, _, err := InstallClaudeSandbox([]byte(`{"hooks":{}}`), ClaudeSandbox{ProxyPort: 7779, DenyRead: []string{"/s"}, DenyWrite: []string{"/p"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		layers []string
		want   bool
	}{
		{"what install --contain writes", []string{string(written)}, true},
		{"on, user layer", []string{on}, true},
		{"on, with empty project layers", []string{on, `{}`, `{"permissions":{}}`}, true},
		{"no settings", []string{`{}`}, false},
		{"not enabled", []string{`{"sandbox":{"enabled":false,"failIfUnavailable":true,"allowUnsandboxedCommands":false,"network":{"httpProxyPort":7779}}}`}, false},
		{"no proxy port", []string{`{"sandbox":{"enabled":true,"failIfUnavailable":true,"allowUnsandboxedCommands":false}}`}, false},
		{"unsandboxed commands allowed (the default)", []string{`{"sandbox":{"enabled":true,"failIfUnavailable":true,"network":{"httpProxyPort":7779}}}`}, false},
		{"fails open when unavailable (the default)", []string{`{"sandbox":{"enabled":true,"allowUnsandboxedCommands":false,"network":{"httpProxyPort":7779}}}`}, false},
		{"excluded commands", []string{`{"sandbox":{"enabled":true,"failIfUnavailable":true,"allowUnsandboxedCommands":false,"excludedCommands":["docker"],"network":{"httpProxyPort":7779}}}`}, false},
		{"a project layer turns it off", []string{on, `{"sandbox":{"enabled":false}}`}, false},
		{"a local layer allows unsandboxed commands", []string{on, `{}`, `{"sandbox":{"allowUnsandboxedCommands":true}}`}, false},
		{"a project layer drops the network", []string{on, `{"sandbox":{"network":null}}`}, false},
		{"a project layer excludes a command", []string{on, `{"sandbox":{"excludedCommands":["make"]}}`}, false},
		{"a managed layer turns it on", []string{`{}`, `{}`, `{}`, on}, true},
		{"a broken layer", []string{on, `{"sandbox":`}, false},
		// Ways around the sandbox or the proxy, from any layer
		// (issue 25): unix sockets, a second proxy, a weaker sandbox.
		{"a project layer allows every unix socket", []string{on, `{"sandbox":{"network":{"allowAllUnixSockets":true}}}`}, false},
		{"a local layer allows a unix socket", []string{on, `{}`, `{"sandbox":{"network":{"allowUnixSockets":["/var/run/docker.sock"]}}}`}, false},
		{"a project layer sets a SOCKS proxy elsewhere", []string{on, `{"sandbox":{"network":{"socksProxyPort":1080}}}`}, false},
		{"a SOCKS port equal to the HTTP proxy's", []string{on, `{"sandbox":{"network":{"httpProxyPort":7779,"socksProxyPort":7779}}}`}, true},
		{"a weaker nested sandbox", []string{on, `{"sandbox":{"enableWeakerNestedSandbox":true}}`}, false},
		{"the user's excluded commands, a project's empty list", []string{`{"sandbox":{"enabled":true,"failIfUnavailable":true,"allowUnsandboxedCommands":false,"excludedCommands":["docker"],"network":{"httpProxyPort":7779}}}`, `{"sandbox":{"excludedCommands":[]}}`}, false},
		{"an empty unix socket list", []string{on, `{"sandbox":{"network":{"allowUnixSockets":[],"httpProxyPort":7779}}}`}, true},
		{"port as a string", []string{`{"sandbox":{"enabled":true,"failIfUnavailable":true,"allowUnsandboxedCommands":false,"network":{"httpProxyPort":"7779"}}}`}, false},
	} {
		var layers [][]byte
		for _, l := range c.layers {
			layers = append(layers, []byte(l))
		}
		if got := ClaudeSandboxEnforced(layers...); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestClaudeSandboxPort: the port Claude Code reads is the highest
// layer's: a project layer can point the sandbox elsewhere, and the
// caller checks that port against airlock's proxy.
func TestClaudeSandboxPort(t *testing.T) {
	on := []byte(`{"sandbox":{"network":{"httpProxyPort":7779}}}`)
	for _, c := range []struct {
		layers [][]byte
		want   int
	}{
		{[][]byte{on}, 7779},
		{[][]byte{on, []byte(`{"sandbox":{"network":{"httpProxyPort":8080}}}`)}, 8080},
		{[][]byte{on, nil, []byte(`{"sandbox":{"network":null}}`)}, 0},
		{[][]byte{on, []byte(`{`)}, 0},
		{[][]byte{[]byte(`{}`)}, 0},
	} {
		if got := ClaudeSandboxPort(c.layers...); got != c.want {
			t.Errorf("%q: %d, want %d", c.layers, got, c.want)
		}
	}
}

// TestClaudeSandboxReopens: a project or local layer's allowRead that
// reaches airlock's state (Claude Code's allowRead re-allows reading
// inside denyRead), or an allowWrite naming a protected file, is found,
// in every reading of Claude Code's path syntax; rules elsewhere are not.
func TestClaudeSandboxReopens(t *testing.T) {
	home := "/h"
	noRead := []string{"/h/.local/state/airlock", "/h/.local/state/airlock/secrets"}
	noWrite := []string{"/h/.config/airlock", "/h/.claude/settings.json", "/p/.claude/settings.json"}
	layer := func(file, fs string) []SettingsLayer {
		return []SettingsLayer{{File: "/h/.claude/settings.json", Data: []byte(`{"sandbox":{"filesystem":{"denyRead":["/h/.local/state/airlock"]}}}`)},
			{File: file, Data: []byte(`{"sandbox":{"filesystem":` + fs + `}}`)}}
	}
	for _, c := range []struct {
		name, file, fs string
		found          bool
	}{
		{"allowRead of the secrets, home syntax", "/p/.claude/settings.json", `{"allowRead":["~/.local/state/airlock/secrets"]}`, true},
		{"allowRead of the state, absolute", "/p/.claude/settings.local.json", `{"allowRead":["//h/.local/state/airlock"]}`, true},
		{"allowRead of the home (holds the state)", "/p/.claude/settings.json", `{"allowRead":["~"]}`, true},
		{"allowRead by a glob", "/p/.claude/settings.json", `{"allowRead":["~/.local/state/air*"]}`, true},
		{"allowRead relative to the settings file", "/h/.local/state/x/settings.json", `{"allowRead":["../airlock"]}`, true},
		{"allowWrite of the policy", "/p/.claude/settings.json", `{"allowWrite":["~/.config/airlock/policy.yaml"]}`, true},
		{"allowWrite of the project's settings, relative", "/p/.claude/settings.json", `{"allowWrite":["settings.json"]}`, true},
		{"not a list", "/p/.claude/settings.json", `{"allowRead":"~"}`, true},
		{"allowRead elsewhere", "/p/.claude/settings.json", `{"allowRead":["~/.cache/go-build", "//opt/data"]}`, false},
		{"allowWrite of a parent (denyWrite wins inside)", "/p/.claude/settings.json", `{"allowWrite":["~/.config"]}`, false},
		{"only deny rules", "/p/.claude/settings.json", `{"denyRead":["~/.ssh"],"denyWrite":["/etc"]}`, false},
	} {
		got := ClaudeSandboxReopens(layer(c.file, c.fs), home, noRead, noWrite)
		if (got != "") != c.found {
			t.Errorf("%s: %q, want found=%v", c.name, got, c.found)
		}
	}
}
