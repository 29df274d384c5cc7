//go:build linux

package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/statusline"
)

// TestStatusLineThroughHookd: a call the resident service answers keeps
// the status line current as the in-process hook does: the held count
// (the journal's) and the session's mode and marks from the client's own
// environment (the hook's), not the service's.
func TestStatusLineThroughHookd(t *testing.T) {
	home, answered := hookdEnv(t)
	t.Setenv("AIRLOCK_MODE", "unattended")
	t.Setenv("AIRLOCK_CONTAINED", "run")
	ev := `{"session_id":"s-status","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git -C /tmp/repo push origin main"},"tool_use_id":"t1"}`
	got := runHookMain([]string{"hook", "claude-code", "--event", "PreToolUse"}, ev)
	if answered.Load() != 1 || !strings.Contains(got.stdout, "queued as") {
		t.Fatalf("the service did not hold the push (%d answers): %+v", answered.Load(), got)
	}
	st, err := statusline.Read(statusline.Path(filepath.Join(home, ".local", "state", "airlock", "journal")))
	if err != nil {
		t.Fatal(err)
	}
	seg := statusline.Segment(st, statusline.Input{Session: "s-status"}, statusline.Options{})
	if seg != "airlock ⏸ 1 held · unattended · contained · gate off" {
		t.Errorf("segment after a call through the service: %q", seg)
	}
}
