package hookline

import (
	"os"
	"path/filepath"
	"testing"
)

// TestParse: both forms are airlock's for their agent; look-alikes are
// not, whoever wrote them.
func TestParse(t *testing.T) {
	cases := []struct {
		cmd  string
		bin  string
		form Form
	}{
		{"/usr/bin/airlock hook codex --event PreToolUse", "/usr/bin/airlock", InProcess},
		{"/usr/bin/airlock-hook codex --event PreToolUse", "/usr/bin/airlock-hook", Service},
		{"/usr/bin/airlock-hook codex", "/usr/bin/airlock-hook", Service},
		{"/old/airlock hook codex", "/old/airlock", InProcess},
		{"'/a b/airlock-hook' codex --event PreToolUse", "/a b/airlock-hook", Service},
		{`'/it'\''s/airlock' hook codex --event X`, "/it's/airlock", InProcess},
		// Another binary with the hook verb is an older or other build's
		// line: still airlock's, so that install replaces it.
		{"/tmp/evil/airlock hook codex --event PreToolUse", "/tmp/evil/airlock", InProcess},
		{"/tmp/evil/airlock-hook codex --event PreToolUse", "/tmp/evil/airlock-hook", Service},
		// Not airlock's.
		{"/usr/bin/airlock-hookx codex --event PreToolUse", "", ""},
		{"/usr/bin/xairlock-hook codex --event PreToolUse", "", ""},
		{"/usr/bin/airlock codex --event PreToolUse", "", ""},
		{"/usr/bin/airlock-hook codexx --event PreToolUse", "", ""},
		{"/usr/bin/airlock-hook gemini --event PreToolUse", "", ""},
		{"/usr/bin/airlock hook codexx", "", ""},
		{"notify.sh 'x hook codex'", "", ""},
		{"notify.sh 'x/airlock-hook codex'", "", ""},
		{"sh -c '/usr/bin/airlock hook codex'", "", ""},
		{"'/usr/bin/airlock-hook' codex", "", ""}, // quoted needlessly: not a line airlock writes
		{"'/a b/airlock-hook codex' x", "", ""},
		{"'/a b/airlock hook codex", "", ""},
		{"/a\\ b/airlock-hook codex", "", ""},
		{" hook codex", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		bin, form, ok := Parse(c.cmd, "codex")
		if ok != (c.bin != "") || bin != c.bin || form != c.form {
			t.Errorf("Parse(%q) = %q %q %v, want %q %q", c.cmd, bin, form, ok, c.bin, c.form)
		}
	}
}

// TestCommandRoundTrip: every line Command writes parses back to its
// program and form, whatever the path.
func TestCommandRoundTrip(t *testing.T) {
	for _, dir := range []string{"/usr/bin", "/a b", "/it's", "/x hook codex", "/x/airlock-hook codex"} {
		for _, name := range []string{"airlock", ClientName} {
			bin := filepath.Join(dir, name)
			cmd := Command(bin, "codex", "PreToolUse")
			got, form, ok := Parse(cmd, "codex")
			if !ok || got != bin || form != FormOf(bin) {
				t.Errorf("Parse(Command(%q)) = %q %q %v", bin, got, form, ok)
			}
			if Binary(cmd) != bin {
				t.Errorf("Binary(%q) = %q", cmd, Binary(cmd))
			}
		}
	}
}

// TestClient: the client beside airlock is used only when nobody but
// airlock's owner could have put it there or changed it.
func TestClient(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "airlock")
	if err := os.WriteFile(exe, []byte("bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, ClientName)
	if _, err := Client(exe); err == nil {
		t.Fatal("a missing client was accepted")
	}
	if err := os.WriteFile(client, []byte("bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Client(exe); err != nil || got != client {
		t.Fatalf("Client = %q, %v", got, err)
	}
	for _, mode := range []os.FileMode{0o644, 0o775, 0o757} {
		if err := os.Chmod(client, mode); err != nil {
			t.Fatal(err)
		}
		if _, err := Client(exe); err == nil {
			t.Errorf("a client with mode %v was accepted", mode)
		}
	}
	os.Remove(client)
	other := filepath.Join(t.TempDir(), ClientName)
	if err := os.WriteFile(other, []byte("bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, client); err != nil {
		t.Fatal(err)
	}
	if _, err := Client(exe); err == nil {
		t.Error("a symlinked client was accepted")
	}
	os.Remove(client)
	if err := os.Mkdir(client, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Client(exe); err == nil {
		t.Error("a directory was accepted as the client")
	}
}
