package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
)

// TestAirlockVerbsMatchFlags cross-checks self-protection's table of
// airlock's command line (policy.AirlockVerbs) with the flag sets the
// subcommands really define, as their -h output lists them: a flag the
// table lacks would refuse a harmless call, and a flag whose taking of a
// value the table gets wrong would let a value pass for a verb or a flag.
func TestAirlockVerbsMatchFlags(t *testing.T) {
	line := regexp.MustCompile(`^\s+-([a-z][a-z0-9-]*)(?: (\S+))?`)
	for _, v := range policy.AirlockVerbs() {
		switch v.Path {
		case "mcp run", "mcp serve":
			continue // -h is the proxy binary's own, not in this one
		}
		t.Run(v.Path, func(t *testing.T) {
			var out, errb bytes.Buffer
			Main(append(strings.Fields(v.Path), "-h"), strings.NewReader(""), &out, &errb)
			got := map[string]bool{}
			for _, l := range strings.Split(out.String(), "\n") {
				if m := line.FindStringSubmatch(l); m != nil {
					got[m[1]] = m[2] != ""
				}
			}
			for name, takes := range got {
				want, ok := v.Flags[name]
				if !ok {
					t.Errorf("flag -%s is defined by the CLI but missing from policy.AirlockVerbs", name)
				} else if want != takes {
					t.Errorf("flag -%s: table says takes a value = %v, CLI says %v", name, want, takes)
				}
			}
			if len(got) == 0 && len(v.Flags) > 0 {
				t.Errorf("-h listed no flags; the table has %d", len(v.Flags))
			}
			for name := range v.Flags {
				if _, ok := got[name]; !ok && len(got) > 0 {
					t.Errorf("flag -%s is in policy.AirlockVerbs but the CLI does not define it", name)
				}
			}
		})
	}
}
