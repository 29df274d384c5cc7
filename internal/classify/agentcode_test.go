package classify

import "testing"

// TestAgentAddsCode: an agent's or an editor's own command that adds a
// program the agent starts by itself (an MCP server, a plugin, an
// extension) is opaque; listing, removing and ordinary runs are not.
func TestAgentAddsCode(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		opaque bool
	}{
		{"claude mcp add x -- ./x.sh", true},
		{"claude mcp add --scope user x ./x.sh", true},
		{`claude mcp add-json x '{"command":"./x.sh"}'`, true},
		{"npx @anthropic-ai/claude-code mcp add x -- ./x.sh", true},
		{"claude plugin install x", true},
		{"claude plugin marketplace add owner/repo", true},
		{"gemini extensions install https://example.com/x", true},
		{"amp mcp add x ./x.sh", true},
		{"codex mcp add x -- ./x.sh", true},
		{`code --add-mcp '{"name":"x","command":"./x.sh"}'`, true},
		{"claude mcp list", false},
		{"claude mcp remove x", false},
		{"claude plugin list", false},
		{"code .", false},
		{"code --install-extension golang.go", false},
		{"code --install-extension ./x.vsix", true},
		{"cursor --install-extension x.vsix", true},
		{"code --install-extension=build/x.VSIX", true},
		{"code --install-extension $X", true},
		{"code --install-extension ms-python.python --force", false},
		{`claude -p "mcp add the tests"`, false},
	} {
		r := Command(tc.cmd)
		if r.Effect.Opaque != tc.opaque {
			t.Errorf("%s: opaque %v, want %v (%v)", tc.cmd, r.Effect.Opaque, tc.opaque, r.Effect.Reasons)
		}
	}
}
