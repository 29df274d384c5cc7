package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/hookline"
)

// TestChooseHookForm: install writes the client's line only for a client
// beside airlock that nobody else could have written; otherwise the
// in-process line, saying why and how to get the fast one.
func TestChooseHookForm(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the service runs on Linux only")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "airlock")
	if err := os.WriteFile(exe, []byte("bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, hookline.ClientName)
	say := func(f hookForm) string {
		var b bytes.Buffer
		f.say(&b)
		return b.String()
	}

	f := chooseHookForm(exe, false)
	if f.Form != hookline.InProcess || f.Bin != exe || !strings.Contains(f.Why, "not installed") {
		t.Fatalf("no client: %+v", f)
	}
	if s := say(f); !strings.Contains(s, "note: the hook runs airlock in process") || !strings.Contains(s, "hint: install airlock-hook beside airlock") {
		t.Errorf("no client, install says:\n%s", s)
	}

	if err := os.WriteFile(client, []byte("bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if f := chooseHookForm(exe, false); f.Form != hookline.Service || f.Bin != client || f.Why != "" {
		t.Fatalf("with a client: %+v", f)
	}
	if f := chooseHookForm(exe, true); f.Form != hookline.InProcess || f.Bin != exe || f.Why != "--no-hookd" {
		t.Fatalf("--no-hookd: %+v", f)
	} else if s := say(f); strings.Contains(s, "hint:") {
		t.Errorf("--no-hookd is a choice, not a problem to fix:\n%s", s)
	}

	// A client someone else could have replaced is not written into a
	// hook line.
	if err := os.Chmod(client, 0o777); err != nil {
		t.Fatal(err)
	}
	if f := chooseHookForm(exe, false); f.Form != hookline.InProcess || !strings.Contains(f.Why, "writable") {
		t.Fatalf("a world-writable client: %+v", f)
	}
}

// TestCheckExeName: an airlock binary named like the client would write
// a line that reads as the client's; install refuses it.
func TestCheckExeName(t *testing.T) {
	if checkExeName("/usr/bin/airlock") != nil {
		t.Error("airlock refused")
	}
	if checkExeName("/usr/bin/"+hookline.ClientName) == nil {
		t.Error("an airlock binary named airlock-hook accepted")
	}
}
