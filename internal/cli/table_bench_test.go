package cli

import "testing"

var hookArgs = []string{"hook", "claude-code", "--event", "PreToolUse"}

// BenchmarkDispatchTable: what the whole command table costs a command:
// build the table, find the command, parse its flags.
func BenchmarkDispatchTable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, rest := resolve(commandTable(), hookArgs)
		if _, _, err := parseArgs(c, rest); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDispatchHook: the same for the hook, which Main builds alone.
func BenchmarkDispatchHook(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, rest := resolve(&command{name: "airlock", subs: []*command{hookCommand()}}, hookArgs)
		if _, _, err := parseArgs(c, rest); err != nil {
			b.Fatal(err)
		}
	}
}
