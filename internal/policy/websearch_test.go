package policy

import (
	"strings"
	"testing"
)

// TestWebSearchQuery: a web search's query is read like a fetched URL
// (FINDINGS-10 E2): airlock's own secret values are refused, a token in a
// known vendor format is held (the search provider receives it), and an
// ordinary query, even one that names a token variable, passes.
func TestWebSearchQuery(t *testing.T) {
	f, v := secretFixture(t)
	p := f.load()
	search := func(q string) Action { return Action{Kind: Fetch, Tool: "WebSearch", Query: q} }
	for _, q := range []string{v["token"], "login " + v["token"], "ntfy " + v["reply"]} {
		got := p.DecideIn(Unattended, search(q))
		if got.Decision != Deny || got.Rule != RuleSecretValue {
			t.Errorf("WebSearch of a secret value: got %s by %s, want deny by %s", got.Decision, got.Rule, RuleSecretValue)
		}
		if strings.Contains(got.Message, v["token"]) || strings.Contains(got.Message, v["reply"]) {
			t.Errorf("the reason prints the secret: %s", got.Message)
		}
	}
	held := []string{
		"ghp_" + strings.Repeat("a1B2", 9) + " rate limit",
		"is this token valid AKIA" + strings.Repeat("Q", 16),
	}
	for _, q := range held {
		if got := p.DecideIn(Unattended, search(q)); got.Decision == Allow || got.Decision == Warn {
			t.Errorf("WebSearch %q: got %s by %s, want it held", q, got.Decision, got.Rule)
		}
	}
	for _, q := range []string{"golang context cancel example", "GITHUB_TOKEN permissions in actions", "ghp_ token prefix meaning"} {
		if got := p.DecideIn(Unattended, search(q)); got.Decision != Allow && got.Decision != Warn {
			t.Errorf("WebSearch %q: got %s by %s, want it allowed", q, got.Decision, got.Rule)
		}
	}
}
