//go:build linux

package runner

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
)

// TestHookContained: the decision service knows a hook call comes from
// inside "airlock run" from the kernel's view of the hook process (the
// relay hands over the hook client's connection, it does not vouch for
// it). The same command airlock cannot read is warned about inside and
// held outside; a push is held inside too; a hook outside that claims
// to be contained (AIRLOCK_CONTAINED=run, the variable set inside) over
// the service's normal socket is not believed; the journal records which
// way each call was decided.
func TestHookContained(t *testing.T) {
	needBwrap(t)
	w := newWorld(t, 0, 0)
	os.RemoveAll(w.state)
	d := newDoor()
	airlock := filepath.Join(binDir, "airlock")
	hookBin := filepath.Join(binDir, "airlock-hook")
	outside := func(stdin string, env []string, args ...string) string {
		cmd := exec.Command(airlock, args...)
		if stdin != "" {
			cmd = exec.Command(hookBin, args...)
			cmd.Stdin = strings.NewReader(stdin)
		}
		cmd.Env, cmd.Dir = append(append([]string(nil), w.env...), env...), w.project
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	defer outside("", nil, "hookd", "--stop")
	ev := func(session, command string) string {
		b, _ := json.Marshal(map[string]any{"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]string{"command": command}, "cwd": w.project})
		return string(b)
	}
	const opaque = `eval "$CMD"`
	for name, body := range map[string]string{"opaque.json": ev("inside", opaque), "push.json": ev("inside", "git push origin main")} {
		os.WriteFile(filepath.Join(w.project, name), []byte(body), 0o644)
	}
	hook := hookBin + " claude-code --event PreToolUse"
	st, out := runIn(t, w, d, hook+" < "+w.project+"/opaque.json; echo ==; "+hook+" < "+w.project+"/push.json")
	in, push, _ := strings.Cut(out, "==")
	if st != 0 || !strings.Contains(in, "airlock warn") || !strings.Contains(in, "contain.opaque-local") {
		t.Errorf("an opaque local command inside airlock run: want a warning (contain.opaque-local), got %d\n%s", st, in)
	}
	if !strings.Contains(push, "queued as") {
		t.Errorf("git push inside airlock run: want held, got\n%s", push)
	}
	// Outside, through the service's normal socket: held, whatever the
	// client says about itself.
	if out := outside(ev("outside", opaque), nil, "claude-code", "--event", "PreToolUse"); !strings.Contains(out, "queued as") {
		t.Errorf("the same command outside: want held, got\n%s", out)
	}
	if out := outside(ev("claims", opaque), []string{"AIRLOCK_CONTAINED=run"}, "claude-code", "--event", "PreToolUse"); !strings.Contains(out, "queued as") {
		t.Errorf("a client outside claiming AIRLOCK_CONTAINED=run: want held, got\n%s", out)
	}
	if out := outside("", nil, "hookd", "--stop"); !strings.Contains(out, "stopped the service") {
		t.Errorf("the calls outside did not go through the service: %s", out)
	}
	// The journal: which way each was decided.
	j, err := journal.Open(filepath.Join(w.state, "journal"))
	if err != nil {
		t.Fatal(err)
	}
	es, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range es {
		if e.Command == "" {
			continue
		}
		c := ""
		if e.Contained {
			c = " contained"
		}
		got[e.Session+" "+e.Command] = e.Decision + c
	}
	for k, want := range map[string]string{
		"inside " + opaque:            "warn contained",
		"inside git push origin main": "defer",
		"outside " + opaque:           "defer",
		"claims " + opaque:            "defer",
	} {
		if got[k] != want {
			t.Errorf("journal %q: %q, want %q (all: %v)", k, got[k], want, got)
		}
	}
}
