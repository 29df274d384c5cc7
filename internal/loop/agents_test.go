package loop

import (
	"strings"
	"testing"
)

// Every preset names its own program, and only Claude Code's gets the
// settings file: giving it to another CLI would pass an unknown flag, and
// missing it on Claude's would run the loop unguarded.
func TestAgentPresets(t *testing.T) {
	for _, name := range AgentNames() {
		p, _ := LookupAgent(name)
		prog, _, _ := strings.Cut(p.Command, " ")
		if prog != name {
			t.Errorf("%s: command %q runs %q", name, p.Command, prog)
		}
		if (p.Kind == KindClaude) != IsClaude(prog) {
			t.Errorf("%s: kind %q, but IsClaude(%q) = %v", name, p.Kind, prog, IsClaude(prog))
		}
	}
	if _, ok := LookupAgent("cursor"); ok {
		t.Errorf("an agent without a preset was found")
	}
}
