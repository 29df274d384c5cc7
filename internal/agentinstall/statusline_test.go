package agentinstall

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusLineChainsAndRestores: an existing command status line is
// chained ("theirs | airlock statusline"), not replaced; installing again
// changes nothing; uninstalling gives the file back byte for byte, for
// Claude Code's key and Qwen Code's.
func TestStatusLineChainsAndRestores(t *testing.T) {
	cmd := StatusLineCommand("/opt/my tools/airlock")
	if cmd != "'/opt/my tools/airlock' statusline" {
		t.Fatalf("command %q", cmd)
	}
	cases := []struct {
		key    []string
		before string
		want   string // the command after install ("" : no status line check)
	}{
		{ClaudeStatusLine, "", cmd},
		{ClaudeStatusLine, "{\n  \"model\": \"opus\"\n}\n", cmd},
		{ClaudeStatusLine, "{\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"~/.claude/line.sh | cut -c1-80\",\n    \"padding\": 2,\n    \"refreshInterval\": 5\n  },\n  \"model\": \"opus\"\n}\n",
			"~/.claude/line.sh | cut -c1-80 | " + cmd},
		{[]string{"ui", "statusLine"}, "{\n  \"ui\": {\n    \"theme\": \"dark\"\n  }\n}\n", cmd},
		{[]string{"ui", "statusLine"}, "{\n  \"general\": {}\n}\n", cmd},
		{[]string{"ui", "statusLine"}, "{\n  \"ui\": {\n    \"statusLine\": {\n      \"type\": \"command\",\n      \"command\": \"echo hi\"\n    }\n  }\n}\n", "echo hi | " + cmd},
	}
	for _, c := range cases {
		out, err := InstallStatusLine([]byte(c.before), c.key, cmd)
		if err != nil {
			t.Fatalf("%q: %v", c.before, err)
		}
		got, ours := StatusLineOf(out, c.key)
		if got != c.want || !ours {
			t.Errorf("%q: command %q (ours %v), want %q", c.before, got, ours, c.want)
		}
		again, err := InstallStatusLine(out, c.key, cmd)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%q: a second install changed the file:\n%s", c.before, again)
		}
		// A newer airlock at another path replaces airlock's part only.
		moved, _ := InstallStatusLine(out, c.key, StatusLineCommand("/usr/bin/airlock"))
		if got, _ := StatusLineOf(moved, c.key); strings.Count(got, "statusline") != 1 || !strings.HasSuffix(got, "/usr/bin/airlock statusline") {
			t.Errorf("%q: reinstall from another path: %q", c.before, got)
		}
		back, err := UninstallStatusLine(out, c.key)
		if err != nil {
			t.Fatal(err)
		}
		want := c.before
		if want == "" {
			want = "{}\n"
		}
		if !bytes.Equal(back, []byte(want)) {
			t.Errorf("uninstall did not restore the settings byte for byte:\nbefore %q\nafter  %q", want, back)
		}
	}
}

func TestStatusLineLeavesOthersAlone(t *testing.T) {
	for _, before := range []string{
		"{\n  \"statusLine\": \"text\"\n}\n",
		"{\n  \"statusLine\": {\n    \"type\": \"static\",\n    \"text\": \"x\"\n  }\n}\n",
	} {
		if _, err := InstallStatusLine([]byte(before), ClaudeStatusLine, StatusLineCommand("/bin/airlock")); !errors.Is(err, ErrStatusLineNotCommand) {
			t.Errorf("%q: err %v, want ErrStatusLineNotCommand", before, err)
		}
	}
	// A status line that only mentions airlock is not airlock's: left as
	// it is by uninstall.
	for _, before := range []string{
		"{\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"airlock-report | wc -l\"\n  }\n}\n",
		"{\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"/bin/airlock statusline --json\"\n  }\n}\n",
		"{\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"/bin/notairlock statusline\"\n  }\n}\n",
	} {
		back, err := UninstallStatusLine([]byte(before), ClaudeStatusLine)
		if err != nil || string(back) != before {
			t.Errorf("%q changed by uninstall: %q %v", before, back, err)
		}
	}
}

// TestQwenStatusLinePlan: "install qwen --statusline" writes the status
// line into the same settings file as the hook, in one change, and
// uninstall takes both out: the file comes back byte for byte.
func TestQwenStatusLinePlan(t *testing.T) {
	home := t.TempDir()
	env := Env{Home: home, Exe: "/opt/airlock/airlock"}
	file := filepath.Join(home, ".qwen", "settings.json")
	before := "{\n  \"ui\": {\n    \"statusLine\": {\n      \"type\": \"command\",\n      \"command\": \"git branch --show-current\"\n    }\n  },\n  \"model\": {\n    \"name\": \"qwen3-coder\"\n  }\n}\n"
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := Lookup("qwen")
	p, err := a.Install(env, User)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.StatusLine(p, env, User, true); err != nil {
		t.Fatal(err)
	}
	if len(p.Files) != 1 {
		t.Fatalf("%d file changes, want the settings file once: %+v", len(p.Files), p.Files)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if got, ours := StatusLineOf(data, []string{"ui", "statusLine"}); got != "git branch --show-current | /opt/airlock/airlock statusline" || !ours {
		t.Errorf("status line %q", got)
	}
	if !strings.Contains(string(data), "hook qwen") {
		t.Errorf("the hook is missing:\n%s", data)
	}
	p, err = a.Uninstall(env, User)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.StatusLine(p, env, User, false); err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(file)
	if string(after) != before {
		t.Errorf("uninstall did not restore the file byte for byte:\nbefore %q\nafter  %q", before, after)
	}
	// An agent without a command status line says so.
	codex, _ := Lookup("codex")
	if err := codex.StatusLine(&Plan{}, env, User, true); !errors.Is(err, ErrNoStatusLine) {
		t.Errorf("codex: %v", err)
	}
}

// TestStatusLineClient: with airlock-statusline beside airlock, the
// status line runs it (it starts about as fast as a bare Go program);
// without it, or when it is not an executable file, "airlock statusline".
// Both are recognised as airlock's by uninstall.
func TestStatusLineClient(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "airlock")
	client := filepath.Join(dir, StatusLineClient)
	if got := StatusLineCommand(exe); got != exe+" statusline" {
		t.Errorf("no client: %q", got)
	}
	os.WriteFile(client, []byte("#!/bin/sh\n"), 0o644)
	if got := StatusLineCommand(exe); got != exe+" statusline" {
		t.Errorf("a client that is not executable was chosen: %q", got)
	}
	os.Chmod(client, 0o755)
	if got := StatusLineCommand(exe); got != client {
		t.Errorf("client beside airlock: %q", got)
	}
	for cmd, want := range map[string]bool{
		client:                       true,
		exe + " statusline":          true,
		"echo x | " + client:         true,
		client + " --x":              false,
		"airlock-statusline":         false, // not by absolute path: not what install writes
		dir + "/airlock-statusline2": false,
	} {
		if _, ours := splitOurs(cmd); ours != want {
			t.Errorf("splitOurs(%q) ours = %v, want %v", cmd, ours, want)
		}
	}
}
