package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settings writes a Claude Code settings file whose PreToolUse hook is a
// shell script, so the agent's hook protocol can be tested without
// airlock's decisions.
func settings(t *testing.T, hook string) string {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(script, []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	s := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"sh ` + script + `","onFailure":"block"}]}]}}`
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func sandbox(t *testing.T) *Sandbox {
	t.Helper()
	sb, err := Setup(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

func TestTheAgentObeysItsHooks(t *testing.T) {
	sb := sandbox(t)
	// Refuse anything mentioning push (exit 2), answer deny for curl with
	// JSON, allow the rest.
	hook := `in=$(cat)
case "$in" in
*push*) echo "no pushing" >&2; exit 2 ;;
*curl*|*"gh pr"*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no posting"}}' ;;
esac
exit 0
`
	var out, log bytes.Buffer
	a := &Agent{Settings: settings(t, hook), Dir: sb.Project, Session: "t", Env: sb.Env, Out: &out, Log: &log}
	if err := a.Run("1", "fix it"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(sb.Project, "hello.txt")); string(data) != "Hello, world\n" {
		t.Fatalf("the allowed edit did not happen: %q", data)
	}
	if head, _ := sb.RemoteHead(); head != sb.Initial {
		t.Fatal("a refused push reached the remote")
	}
	denied := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not stream-json: %q", line)
		}
		if m["subtype"] == "permission_denied" {
			denied++
			if !strings.Contains(m["decision_reason"].(string), "no pushing") {
				t.Fatalf("denial reason %v", m["decision_reason"])
			}
		}
	}
	if denied != 3 {
		t.Fatalf("%d denials, want the 3 pushes:\n%s", denied, out.String())
	}

	// Story 2 has unsafe calls; a hook that allows everything makes the
	// demo fail, and the unsafe calls still do not run.
	out.Reset()
	a = &Agent{Settings: settings(t, "cat >/dev/null; exit 0\n"), Dir: sb.Project, Session: "t", Env: sb.Env, Out: &out}
	err := a.Run("2", "p")
	if !errors.Is(err, ErrUnsafeAllowed) || !strings.Contains(err.Error(), "gh pr create") {
		t.Fatalf("allow-all hook: %v", err)
	}
	if !strings.Contains(out.String(), "the demo agent does not run this call") {
		t.Fatal("the unsafe call's result does not say it did not run")
	}
}

func TestAHookThatFailsBlocks(t *testing.T) {
	sb := sandbox(t)
	var out bytes.Buffer
	a := &Agent{Settings: settings(t, "exit 1\n"), Dir: sb.Project, Session: "t", Env: sb.Env, Out: &out}
	if err := a.Run("1", "p"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(sb.Project, "hello.txt")); string(data) != "Helo, world\n" {
		t.Fatal("an edit ran although its hook failed with onFailure block")
	}
}

func TestEveryStoryHasCallsAndHeldOnesAreUnsafeOrLocal(t *testing.T) {
	for _, s := range Stories() {
		calls := Calls(s.ID)
		if len(calls) == 0 {
			t.Fatalf("story %s has no calls", s.ID)
		}
		for _, c := range calls {
			// A held call marked safe must only touch the sandbox: the
			// pushes go to the local bare remote, and the project's own
			// scripts push to the local mirror.
			if c.Held && c.Safe && !strings.Contains(c.Command, "git") && !strings.HasPrefix(c.Command, "./scripts/") {
				t.Errorf("story %s: %q is held and marked safe to run", s.ID, c.Command)
			}
		}
	}
}
