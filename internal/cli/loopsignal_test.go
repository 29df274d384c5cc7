package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Ctrl-C stops the loop cleanly: the running agent gets SIGINT, the
// stories after it do not start, and the report is still printed. (The
// first story's only call is held, so it is blocked, not done.)
func TestLoopInterruptedStillReports(t *testing.T) {
	bin := airlockBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	stories := "- {id: first, prompt: p}\n- {id: slow, prompt: p}\n- {id: never, prompt: p}\n"
	agent := `cat >/dev/null
case "$AIRLOCK_STORY" in
first)
  printf '%s' '{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm publish"},"tool_use_id":"t1"}' | "$AIRLOCK_BIN" hook claude-code --event PreToolUse >/dev/null ;;
slow)
  # The trap is set before the mark tells the test to interrupt: the
  # other way round, a SIGINT between the two ended the shell untrapped.
  trap 'echo got-sigint; exit 130' INT
  echo started > "$MARK"
  while :; do sleep 0.05; done ;;
esac
`
	for name, content := range map[string]string{"stories.yaml": stories, "agent.sh": agent} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mark := filepath.Join(dir, "mark")
	cmd := exec.Command(bin, "loop", "--stories", "stories.yaml", "--agent-cmd", "sh agent.sh", "--agent-kind", "other", "--out", "out", "--grace", "5s")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "XDG_STATE_HOME="+home+"/.local/state",
		"AIRLOCK_HOME=", "AIRLOCK_POLICY=", "CLAUDE_PROJECT_DIR=", "AIRLOCK_BIN="+bin, "MARK="+mark)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the slow story is running (no timing assumption:
	// poll for its mark; the test's own deadline bounds the wait).
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	out := stdout.String()
	if code != 130 {
		t.Fatalf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", code, out, stderr.String())
	}
	for _, want := range []string{"interrupted", "Story #first blocked", "Story #slow interrupted", "Story #never not-run",
		"DEFERRED ACTIONS REQUIRE REVIEW", "Story #first [", "npm publish"} {
		if !strings.Contains(out, want) {
			t.Fatalf("stdout lacks %q:\n%s", want, out)
		}
	}
	slowOut, _ := os.ReadFile(filepath.Join(dir, "out", "slow.out"))
	if !strings.Contains(string(slowOut), "got-sigint") {
		t.Fatalf("the running agent did not get SIGINT: %q", slowOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "never.out")); err == nil {
		t.Fatal("a story started after the interrupt")
	}
}
