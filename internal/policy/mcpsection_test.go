package policy

import "testing"

func TestSplitToolName(t *testing.T) {
	for _, tt := range []struct{ in, server, tool string }{
		{"mcp__texts__send_message", "texts", "send_message"},
		{"mcp__a__b__c", "a", "b__c"},
		{"mcp__texts", "", ""},
		{"Bash", "", ""},
	} {
		s, tool, ok := SplitToolName(tt.in)
		if s != tt.server || tool != tt.tool || ok != (tt.server != "") {
			t.Errorf("SplitToolName(%q) = %q, %q, %v", tt.in, s, tool, ok)
		}
	}
}
