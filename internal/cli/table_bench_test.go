package cli

import "testing"

// BenchmarkDispatchTable: what the command table adds to every start,
// the hook's included: build the table, find the command, parse its flags.
func BenchmarkDispatchTable(b *testing.B) {
	args := []string{"hook", "claude-code", "--event", "PreToolUse"}
	b.ReportAllocs()
	for b.Loop() {
		c, rest := resolve(commandTable(), args)
		if _, _, err := parseArgs(c, rest); err != nil {
			b.Fatal(err)
		}
	}
}
