//go:build linux

package runner

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
)

// spawn hands a child its streams as os/exec does: a reader and writers
// that are not files through pipes (one writer given twice gets one pipe,
// in order), extra files as descriptors 3 and up; wait returns once the
// child has ended and its output is copied.
func TestSpawnStreams(t *testing.T) {
	sh := needTool(t, "sh")
	extraR, extraW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer extraR.Close()
	var out bytes.Buffer
	p, err := spawn(sh, []string{"sh", "-c", "read x; echo out:$x; echo err:$FOO >&2; echo three >&3; exit 7"}, []string{"FOO=bar"},
		strings.NewReader("in\n"), &out, &out, []*os.File{extraW}, nil)
	extraW.Close()
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.wait()
	if err != nil {
		t.Fatal(err)
	}
	if ws.ExitStatus() != 7 || describe(ws) != "exit status 7" {
		t.Errorf("status %d (%s), want 7", ws.ExitStatus(), describe(ws))
	}
	if out.String() != "out:in\nerr:bar\n" {
		t.Errorf("output %q, want stdout and stderr in order in one buffer", out.String())
	}
	b := make([]byte, 64)
	n, _ := extraR.Read(b)
	if string(b[:n]) != "three\n" {
		t.Errorf("descriptor 3 carried %q", b[:n])
	}
}

func TestSpawnSignalledAndMissing(t *testing.T) {
	sh := needTool(t, "sh")
	var stdout, stderr bytes.Buffer
	p, err := spawn(sh, []string{"sh", "-c", "echo gone; kill -KILL $$"}, nil, nil, &stdout, &stderr, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.wait()
	if err != nil {
		t.Fatal(err)
	}
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL || ws.ExitStatus() != -1 || describe(ws) != "signal: killed" {
		t.Errorf("killed child: %s, exit %d", describe(ws), ws.ExitStatus())
	}
	if stdout.String() != "gone\n" || stderr.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if _, err := spawn("/nonexistent/bwrap", []string{"bwrap"}, nil, nil, nil, nil, nil, nil); err == nil || !strings.Contains(err.Error(), "/nonexistent/bwrap") {
		t.Errorf("a missing program: %v", err)
	}
}
