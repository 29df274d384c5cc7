package claudecode

import "testing"

// NoHuman reads the session's attendance from what Claude Code gives its
// hooks, and when it cannot tell, says nobody is there.
func TestNoHuman(t *testing.T) {
	tests := []struct {
		attended, entrypoint, mode string
		want                       bool
	}{
		// Observed on 2.1.332: claude -p, and an interactive session.
		{"0", "sdk-cli", "default", true},
		{"1", "cli", "auto", false},
		// dontAsk refuses every prompt, attended or not.
		{"1", "cli", "dontAsk", true},
		// An older Claude Code that names only its entry point.
		{"", "cli", "default", false},
		{"", "sdk-cli", "default", true},
		{"", "sdk-ts", "default", true},
		{"", "sdk-py", "default", true},
		// Nothing said: a hook run by hand, an unknown client.
		{"", "", "default", true},
		{"", "", "", true},
		// A value airlock does not know is not "attended".
		{"yes", "cli", "default", true},
		{"true", "cli", "default", false},
		// Attendance wins over the entry point.
		{"0", "cli", "default", true},
		{"1", "sdk-cli", "default", false},
	}
	for _, tt := range tests {
		env := map[string]string{envAttended: tt.attended, envEntrypoint: tt.entrypoint}
		got := NoHuman(&Input{PermissionMode: tt.mode}, func(k string) string { return env[k] })
		if got != tt.want {
			t.Errorf("ATTENDED=%q ENTRYPOINT=%q permission_mode=%q: NoHuman=%v, want %v", tt.attended, tt.entrypoint, tt.mode, got, tt.want)
		}
	}
	if !NoHuman(&Input{}, nil) {
		t.Error("no environment at all: want nobody to answer")
	}
}
