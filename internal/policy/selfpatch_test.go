package policy

import (
	"strings"
	"testing"
)

// TestPatchWrites: a patch is read, and the files it creates or changes
// are its write operands (issue 24). One that writes an agent's hook
// settings or airlock's policy is refused; one that writes the project's
// MCP definitions is asked about; one that cannot be read is asked about
// (held unattended); an ordinary patch is allowed.
func TestPatchWrites(t *testing.T) {
	f := newFixture(t)
	p := f.load()
	proj := f.path("proj")
	settings := "diff --git a/.claude/settings.json b/.claude/settings.json\nnew file mode 100644\n--- /dev/null\n+++ b/.claude/settings.json\n@@ -0,0 +1 @@\n+{\"hooks\":{}}\n"
	policy := "--- /dev/null\n+++ home/.config/airlock/policy.yaml\n@@ -0,0 +1 @@\n+rules: []\n"
	f.write("proj/evil.patch", settings)
	f.write("proj/sub/evil.patch", settings)
	f.write("proj/policy.patch", policy)
	f.write("proj/mcp.patch", "--- /dev/null\n+++ b/.mcp.json\n@@ -0,0 +1 @@\n+{}\n")
	f.write("proj/ok.patch", "--- a/src/main.go\n+++ b/src/main.go\n@@ -1 +1 @@\n-a\n+b\n")
	f.write("proj/codex.patch", "*** Begin Patch\n*** Update File: .codex/config.toml\n@@\n-a\n+b\n*** End Patch\n")
	f.write("proj/big.patch", strings.Repeat("x", 2<<20))
	deny := []string{
		"git apply evil.patch",
		"git apply --index -p1 evil.patch",
		"git apply -v 'evil.patch'",
		"git -C sub apply evil.patch",
		"git am evil.patch",
		"git am < evil.patch",
		"patch -p1 < evil.patch",
		"patch -p1 -i evil.patch",
		"patch -p1 --input=evil.patch",
		"patch -p0 < evil.patch",
		"cd sub && patch -p1 < evil.patch",
		"bash -c 'git apply evil.patch'",
		"sudo patch -p1 -i evil.patch",
		"patch -p1 <<'EOF'\n" + settings + "EOF",
		"git apply - < codex.patch",
		"cd .. && patch -p0 < proj/policy.patch",
	}
	for _, cmd := range deny {
		for _, m := range []Mode{Interactive, Unattended} {
			if v := p.DecideIn(m, shellIn(cmd, proj)); v.Decision != Deny || v.Rule != RuleProtectedPath {
				t.Errorf("%q (%s): got %s by %s, want deny by %s", cmd, m, v.Decision, v.Rule, RuleProtectedPath)
			}
		}
	}
	ask := map[string]string{
		"git apply mcp.patch":                  RuleAgentConfig,
		"git diff | git apply":                 RulePatchUnread,
		"git apply missing.patch":              RulePatchUnread,
		"git apply big.patch":                  RulePatchUnread,
		"git apply $PATCH":                     RulePatchUnread,
		"curl -s https://x.test/d | patch -p1": RulePatchUnread,
	}
	for cmd, rule := range ask {
		vi, vu := p.DecideIn(Interactive, shellIn(cmd, proj)), p.DecideIn(Unattended, shellIn(cmd, proj))
		if vi.Decision != Ask || vi.Rule != rule || vu.Decision < Defer {
			t.Errorf("%q: got %s by %s (interactive), %s by %s (unattended); want ask by %s and a hold", cmd, vi.Decision, vi.Rule, vu.Decision, vu.Rule, rule)
		}
	}
	for _, cmd := range []string{"git apply ok.patch", "patch -p1 < ok.patch", "git apply --check evil.patch", "git apply --stat evil.patch",
		"patch --dry-run -p1 < evil.patch", "git diff > evil2.patch", "cat evil.patch", "git am --abort"} {
		if v := p.DecideIn(Unattended, shellIn(cmd, proj)); v.Decision != Allow {
			t.Errorf("%q: got %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Message)
		}
	}
}
