//go:build linux

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/contain/record"
)

// TestDoctorContainRecords: doctor says whether the port Claude Code's
// sandbox is pointed at is airlock's running proxy, and removes (and
// reports) the placeholders of a run whose runner is gone, leaving one
// that changed.
func TestDoctorContainRecords(t *testing.T) {
	state, proj := t.TempDir(), t.TempDir()
	settings := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"sandbox":{"enabled":true,"network":{"httpProxyPort":1}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A runner that ran and is gone: a process that exited.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	var made []record.Made
	for _, rel := range []string{".vscode", ".claude-commands"} {
		p := filepath.Join(proj, rel)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		m, err := record.Identify(p, true, false)
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, m)
	}
	os.WriteFile(filepath.Join(proj, ".claude-commands", "mine.md"), []byte("x"), 0o644)
	b, _ := json.Marshal(record.Placeholders{Proc: record.Proc{Pid: gone.Process.Pid, Start: 1}, Made: made})
	dir := filepath.Join(state, record.Dir, "placeholders")
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(filepath.Join(dir, "1-1.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}

	d := doctorContain{ClaudeSandboxOn: []string{settings}}
	containRecords(&d, state)
	if len(d.ClaudeProxy) != 1 || !strings.Contains(d.ClaudeProxy[0], "port 1:") || !strings.Contains(d.ClaudeProxy[0], "not decided as contained") {
		t.Errorf("the proxy line: %q", d.ClaudeProxy)
	}
	if len(d.StalePlaceholders) != 2 {
		t.Fatalf("stale placeholders: %+v", d.StalePlaceholders)
	}
	for _, s := range d.StalePlaceholders {
		want := strings.HasSuffix(s.Path, ".vscode")
		if s.Removed != want {
			t.Errorf("%s: removed %v, want %v", s.Path, s.Removed, want)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, ".vscode")); !os.IsNotExist(err) {
		t.Errorf("the unchanged placeholder is still there")
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude-commands", "mine.md")); err != nil {
		t.Errorf("the changed one lost its file: %v", err)
	}
	var out strings.Builder
	printDoctorContain(&out, d)
	for _, want := range []string{"removed " + filepath.Join(proj, ".vscode"), "left " + filepath.Join(proj, ".claude-commands"), "Claude Code's sandbox proxy: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor's text lacks %q:\n%s", want, out.String())
		}
	}
}
