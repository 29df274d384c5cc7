package statusline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunReadsTheSandboxView: where the journal's directory is absent (as
// inside airlock run's sandbox), the status line reads the state file's
// read-only copy the runner shows in the state directory; where the
// journal's own file exists, it wins; with neither, the segment is
// neutral.
func TestRunReadsTheSandboxView(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string {
		if k == "AIRLOCK_HOME" {
			return state
		}
		return ""
	}
	run := func() string {
		var out strings.Builder
		Run(strings.NewReader(`{"session_id":"s1"}`), &out, getenv, os.Getwd)
		return strings.TrimSpace(out.String())
	}
	if got := run(); got != Neutral {
		t.Errorf("no file: %q, want %q", got, Neutral)
	}
	view := ViewPath(filepath.Join(state, "journal"))
	if view != filepath.Join(state, ViewDir, FileName) {
		t.Errorf("ViewPath = %s", view)
	}
	os.MkdirAll(filepath.Dir(view), 0o755)
	os.WriteFile(view, []byte(`{"v":1,"held":2,"sessions":[{"id":"s1","held":2,"marks":["contained"]}]}`), 0o644)
	if got := run(); !strings.Contains(got, "2 held") || !strings.Contains(got, "contained") {
		t.Errorf("the view: %q", got)
	}
	os.MkdirAll(filepath.Join(state, "journal"), 0o700)
	os.WriteFile(Path(filepath.Join(state, "journal")), []byte(`{"v":1,"held":0}`), 0o600)
	if got := run(); strings.Contains(got, "held") {
		t.Errorf("the journal's own file did not win: %q", got)
	}
}
