//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// "airlock run COMMAND" becomes airlock-run (the one beside airlock) at
// the first package's initialisation (cmd/airlock/runfirst): the
// classifier, the policy and the parsers are never initialised for it.
// A stand-in airlock-run prints what it was given.
func TestRunExecsBeforeInitialisation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the airlock binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "airlock")
	build := exec.Command(gobin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "airlock-run"), []byte("#!/bin/sh\necho \"airlock-run got: $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string) {
		cmd := exec.Command(bin, args...)
		home := t.TempDir()
		cmd.Env = []string{"GODEBUG=inittrace=1", "HOME=" + home, "XDG_STATE_HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + os.Getenv("PATH")}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		return stdout.String(), stderr.String()
	}
	const classify = "init github.com/airlock-dev/airlock/internal/classify "
	out, trace := run("run", "--", "go", "test", "./...")
	if out != "airlock-run got: -- go test ./...\n" {
		t.Fatalf("airlock run: stdout %q, want airlock-run's with the arguments as given\n%s", out, trace)
	}
	if !strings.Contains(trace, "init os ") {
		t.Fatalf("GODEBUG=inittrace=1 printed no line for os; the trace format may have changed:\n%s", trace)
	}
	if strings.Contains(trace, classify) {
		t.Errorf("airlock run initialised the classifier before it became airlock-run:\n%s", trace)
	}
	// Run's help is the command line's, after every initialisation.
	out, trace = run("run", "--help")
	if strings.Contains(out, "airlock-run got") || !strings.Contains(trace, classify) {
		t.Errorf("airlock run --help went to airlock-run, or before the command line: stdout %q", out)
	}
}
