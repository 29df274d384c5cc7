package cli

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
)

// TestAirlockVerbsMatchFlags cross-checks self-protection's table of
// airlock's command line (policy.AirlockVerbs) with the command table the
// CLI really parses: a flag the policy table lacks would refuse a
// harmless call, a flag whose taking of a value it gets wrong would let a
// value pass for a verb or a flag, and a verb it does not know is
// refused as mutating.
func TestAirlockVerbsMatchFlags(t *testing.T) {
	cli := map[string]*command{}
	var walk func(c *command, path []string)
	walk = func(c *command, path []string) {
		if c.run != nil && len(path) > 0 && !c.hidden {
			cli[strings.Join(path, " ")] = c
		}
		for _, s := range c.subs {
			walk(s, append(append([]string(nil), path...), s.name))
		}
	}
	walk(commandTable(), nil)

	verbs := map[string]policy.AirlockVerb{}
	for _, v := range policy.AirlockVerbs() {
		verbs[v.Path] = v
		c, ok := cli[v.Path]
		if !ok {
			t.Errorf("policy.AirlockVerbs has %q, which the CLI does not define", v.Path)
			continue
		}
		if c.passthrough {
			continue // its flags are airlock-mcp's own
		}
		got := map[string]bool{}
		for _, f := range c.flags {
			got[f.name] = f.kind != kindBool
		}
		for name, takes := range got {
			want, ok := v.Flags[name]
			switch {
			case !ok:
				t.Errorf("%s: --%s is defined by the CLI but missing from policy.AirlockVerbs", v.Path, name)
			case want != takes:
				t.Errorf("%s: --%s: the policy table says it takes a value = %v, the CLI %v", v.Path, name, want, takes)
			}
		}
		for name := range v.Flags {
			if _, ok := got[name]; !ok {
				t.Errorf("%s: --%s is in policy.AirlockVerbs but the CLI does not define it", v.Path, name)
			}
		}
	}
	// Every command a person may type is known to self-protection, read-only
	// or not, so a new command is a decision rather than an accident.
	for path := range cli {
		switch path {
		case "help", "version", "completion":
			continue // read-only at the top level (airlockArgv)
		}
		if _, ok := verbs[path]; !ok {
			t.Errorf("the CLI defines %q but policy.AirlockVerbs does not say whether it only reads", path)
		}
	}
}
