package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/hookline"
)

// A Claude Code line that runs the client beside airlock, when the client
// fails its checks, is named as that client and the failed check, not as
// "another binary": the user is told what to mend.
func TestDoctorNamesAnUntrustedClient(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	home := filepath.Join(dir, "home")
	for _, d := range []string{bin, filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(bin, "airlock")
	client := filepath.Join(bin, hookline.ClientName)
	for _, f := range []string{exe, client} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings, _, err := claudecode.Install([]byte("{}"), client)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, ".claude", "settings.json")
	if err := os.WriteFile(file, settings, 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: getenv,
		getwd: func() (string, error) { return dir, nil }, executable: func() (string, error) { return exe, nil }}

	// Trusted: the line is airlock's own.
	d := doctorHooks(e, claudecode.User, exe, client)
	if !d.Guarding || !d.RunsThis || d.Untrusted != "" {
		t.Fatalf("trusted client: %+v", d)
	}
	// World-writable: the client's check fails, and doctor says which.
	if err := os.Chmod(client, 0o777); err != nil {
		t.Fatal(err)
	}
	d = doctorHooks(e, claudecode.User, exe, "")
	if d.RunsThis || d.Untrusted != client || !strings.Contains(d.UntrustedWhy, "writable by others") {
		t.Fatalf("world-writable client not named: %+v", d)
	}
}
