package classify

import (
	"strings"
	"testing"
)

// TestNestedPiAuggie: Pi started without extensions (airlock's guard is
// one) or with its directory moved, and Auggie with its settings moved,
// are agents with the guard off; their ordinary runs are not.
func TestNestedPiAuggie(t *testing.T) {
	for _, tc := range []struct{ cmd, label, reason string }{
		{"pi --no-extensions -p 'git push'", "external+opaque", "--no-extensions"},
		{"pi -ne -p x", "local+opaque", "-ne"},
		{"PI_CODING_AGENT_DIR=/tmp/p pi -p x", "local+opaque", "PI_CODING_AGENT_DIR"},
		{"npx @mariozechner/pi-coding-agent --no-extensions -p x", "local+opaque+netread", "--no-extensions"},
		{"pi -p 'fix the tests'", "local", ""},
		{"pi --no-skills -p x", "local", ""},
		{"auggie --augment-cache-dir /tmp/a -p x", "local+opaque", "--augment-cache-dir"},
		{"auggie --augment-cache-dir=/tmp/a -p x", "local+opaque", "--augment-cache-dir"},
		{"auggie -p 'fix the tests'", "local", ""},
	} {
		got := Command(tc.cmd)
		if got.Label() != tc.label {
			t.Errorf("%s\n  got  %s %v\n  want %s", tc.cmd, got.Label(), got.Reasons, tc.label)
			continue
		}
		if tc.reason != "" && !strings.Contains(reasonText(got.Effect), tc.reason) {
			t.Errorf("%s: reasons %v do not mention %q", tc.cmd, got.Reasons, tc.reason)
		}
	}
}
