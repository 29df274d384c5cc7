package cli

import (
	"io"
	"strings"
	"testing"
)

// The hook's whole decision path in process: read the event, load the
// policy (no files: each lookup is a failed open or stat), classify,
// decide, answer. Process start-up is measured by bench/hooktime.
func benchHook(b *testing.B, event string) {
	home := b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", home+"/.config")
	b.Setenv("XDG_STATE_HOME", home+"/.local/state")
	b.Setenv("AIRLOCK_HOME", "")
	b.Setenv("AIRLOCK_POLICY", "")
	b.Setenv("CLAUDE_PROJECT_DIR", "")
	args := []string{"hook", "claude-code", "--event", "PreToolUse"}
	b.ReportAllocs()
	for b.Loop() {
		if st := Main(args, strings.NewReader(event), io.Discard, io.Discard); st != 0 {
			b.Fatalf("status %d", st)
		}
	}
}

const benchEvent = `{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q,"description":"d"},"tool_use_id":"toolu_01"}`

func event(cmd string) string { return strings.Replace(benchEvent, "%q", `"`+cmd+`"`, 1) }

// BenchmarkHookAllow: an allowed Bash command, the hot path.
func BenchmarkHookAllow(b *testing.B) { benchHook(b, event("go test ./... && git status")) }

// BenchmarkHookHeld: a disguised push, held.
func BenchmarkHookHeld(b *testing.B) { benchHook(b, event("git -C /tmp/repo push origin main")) }

// BenchmarkHookRead: a Read checked against the secret path rules.
func BenchmarkHookRead(b *testing.B) {
	benchHook(b, `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/main.go"},"tool_use_id":"t"}`)
}
