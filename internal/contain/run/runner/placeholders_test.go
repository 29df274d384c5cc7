//go:build linux

package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/record"
)

// TestKilledRunnerPlaceholders: airlock-run killed with SIGKILL leaves
// its placeholders (empty read-only stand-ins for protected paths that
// did not exist) behind, recorded in airlock's state with its pid; the
// next run removes each that is still as made and says so, and leaves
// one that changed since (a file put in it), saying why.
func TestKilledRunnerPlaceholders(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	d := newDoor()
	sockDir := filepath.Join(w.root, "door")
	os.Mkdir(sockDir, 0o755)
	ln, err := net.Listen("unix", filepath.Join(sockDir, "proxy.sock"))
	if err != nil {
		t.Fatal(err)
	}
	go d.Serve(ln)
	defer d.Close()

	cmd := exec.Command(filepath.Join(binDir, "airlock-run"), "--proxy-socket", filepath.Join(sockDir, "proxy.sock"), "--", "/bin/sh", "-c", "echo ready; sleep 300")
	cmd.Dir = w.project
	// A runner killed with SIGKILL leaves its run directory: in the
	// test's own temporary directory, not /dev/shm's.
	cmd.Env = append(w.env, "TMPDIR="+t.TempDir())
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the command never got ready: %q %v\n%s", line, err, stderr.String())
	}
	// The record is written beside the start-up, not before it: wait for
	// it to land.
	var recs []string
	for i := 0; i < 500 && len(recs) == 0; i++ {
		if recs, _ = filepath.Glob(filepath.Join(w.state, record.Dir, "placeholders", "*.json")); len(recs) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if len(recs) != 1 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%d placeholder records while the run lasts, want 1", len(recs))
	}
	var rec record.Placeholders
	b, _ := os.ReadFile(recs[0])
	if err := json.Unmarshal(b, &rec); err != nil || rec.Pid != cmd.Process.Pid || len(rec.Made) == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the record: %+v %v, want airlock-run's pid %d and what it made", rec, err, cmd.Process.Pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	vscode := filepath.Join(w.project, ".vscode")
	var made []string
	var changed string
	for _, m := range rec.Made {
		if m.Parent {
			continue
		}
		if _, err := os.Lstat(m.Path); err != nil {
			t.Fatalf("%s: gone after the runner was killed, before any clean-up: %v", m.Path, err)
		}
		if m.Path == vscode {
			changed = m.Path
			continue
		}
		made = append(made, m.Path)
	}
	if changed == "" || len(made) == 0 {
		t.Fatalf("the run made no placeholder for %s, or none besides: %+v", vscode, rec.Made)
	}
	// A human puts a file in one since.
	if err := os.WriteFile(filepath.Join(changed, "settings.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	st, out := runIn(t, w, newDoor(), "true")
	if st != 0 {
		t.Fatalf("the next run: status %d\n%s", st, out)
	}
	for _, p := range made {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s: left after the next run: %v", p, err)
		}
		if !strings.Contains(out, "removed "+p+", an empty placeholder a killed run (pid ") {
			t.Errorf("the next run did not say it removed %s:\n%s", p, out)
		}
	}
	if _, err := os.Stat(filepath.Join(changed, "settings.json")); err != nil {
		t.Errorf("the file put in %s: %v", changed, err)
	}
	if !strings.Contains(out, changed+" was made empty by a run that was killed") || !strings.Contains(out, "no longer the empty placeholder") {
		t.Errorf("the next run did not say why it left %s:\n%s", changed, out)
	}
	// The next run's own record is gone with its placeholders.
	if recs, _ := filepath.Glob(filepath.Join(w.state, record.Dir, "placeholders", "*.json")); len(recs) != 0 {
		t.Errorf("records left after a clean run: %v", recs)
	}
}
