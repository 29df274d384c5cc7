package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// airlockBinary makes this test binary callable as "airlock" (testscript's
// TestMain runs Main when the program is named so).
func airlockBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "airlock")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// Agents run tools in parallel, so many hook processes append at once:
// every one of 50 deferred calls must reach the queue, and the chain must
// still verify.
func TestFiftyParallelHookProcessesDefer(t *testing.T) {
	bin := airlockBinary(t)
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "XDG_STATE_HOME="+home+"/.local/state",
		"AIRLOCK_HOME=", "AIRLOCK_POLICY=", "AIRLOCK_MODE=unattended", "CLAUDE_PROJECT_DIR=")
	const n = 50
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	for i := range cmds {
		ev := fmt.Sprintf(`{"session_id":"s-par","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin branch-%d"},"tool_use_id":"toolu_%d"}`, i, i)
		c := exec.Command(bin, "hook", "claude-code", "--event", "PreToolUse")
		c.Env, c.Stdin = env, strings.NewReader(ev)
		outs[i] = &bytes.Buffer{}
		c.Stdout, c.Stderr = outs[i], outs[i]
		cmds[i] = c
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i, c := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Wait(); err != nil {
				t.Errorf("hook %d: %v: %s", i, err, outs[i])
			}
		}()
	}
	wg.Wait()
	for i, o := range outs {
		if !strings.Contains(o.String(), `"permissionDecision":"deny"`) || !strings.Contains(o.String(), "queued as") {
			t.Fatalf("hook %d answered %s", i, o)
		}
	}
	j, err := journal.Open(filepath.Join(home, ".local/state/airlock/journal"))
	if err != nil {
		t.Fatal(err)
	}
	items, err := j.Queue(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range items {
		seen[it.Command] = true
	}
	if len(items) != n || len(seen) != n {
		t.Fatalf("%d queue items for %d distinct commands, want %d", len(items), len(seen), n)
	}
	a, err := j.Verify()
	if err != nil || !a.OK() || a.Entries != n {
		t.Fatalf("verify: %+v %v", a, err)
	}
}

// queue run runs exactly the held command in its recorded directory, once
// a person at the terminal types the item's id, and records the exit
// status.
func TestQueueRunAsksAndRecords(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	getenv := func(k string) string {
		switch k {
		case "XDG_STATE_HOME":
			return home
		}
		return ""
	}
	j, err := journal.Open(filepath.Join(home, "airlock", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"echo ran > marker", "echo ran > other"} {
		if err := j.Append(&journal.Entry{Event: "PreToolUse", Kind: "shell", Tool: "Bash", Command: cmd, Cwd: work, Decision: "defer", Rule: "table.external"}); err != nil {
			t.Fatal(err)
		}
	}
	items, _ := j.Queue(time.Now())
	run := func(id, answer string, terminal bool) (int, string) {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(answer), stdout: &out, stderr: &errb,
			getenv: getenv, isTerminal: func(io.Reader) bool { return terminal }}
		st := e.dispatch(commandTable(), []string{"queue", "run", id})
		return st, out.String() + errb.String()
	}
	if st, out := run(items[0].ID, items[0].ID+"\n", false); st != ExitUsage || !strings.Contains(out, "only from a terminal") {
		t.Fatalf("without a terminal: %d %s", st, out)
	}
	// "y" is no longer an answer; neither is another item's id.
	for _, answer := range []string{"y\n", "yes\n", items[1].ID + "\n", items[0].ID[:4] + "\n", ""} {
		if st, out := run(items[0].ID, answer, true); st != ExitHeld || !strings.Contains(out, "not run") {
			t.Fatalf("answered %q: %d %s", answer, st, out)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "marker")); err == nil {
		t.Fatal("the command ran without a yes")
	}
	st, out := run(items[0].ID, items[0].ID+"\n", true)
	if st != ExitOK || !strings.Contains(out, "echo ran > marker") || !strings.Contains(out, "exit status 0") {
		t.Fatalf("answered yes: %d %s", st, out)
	}
	if data, err := os.ReadFile(filepath.Join(work, "marker")); err != nil || string(data) != "ran\n" {
		t.Fatalf("marker: %q %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(work, "other")); err == nil {
		t.Fatal("another item ran")
	}
	if st, out := run(items[0].ID, items[0].ID+"\n", true); st != ExitUsage || !strings.Contains(out, "already ran") {
		t.Fatalf("second run: %d %s", st, out)
	}
}
