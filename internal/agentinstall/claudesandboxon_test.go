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
