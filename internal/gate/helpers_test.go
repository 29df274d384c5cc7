package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// harness is one session against a project in a temporary directory, with
// a policy loaded from a real user policy file, a settable environment and
// a settable clock.
type harness struct {
	t       *testing.T
	dir     string
	proj    string
	env     map[string]string
	clock   time.Time
	session string
	agent   string
	policy  string // the user's policy file content
}

// enabled is a user policy with the gate on and destructive commands only
// warned about, so that the destructive gate is reached.
const enabled = "gate: {enabled: true}\ntable:\n  interactive:\n    destructive: warn\n"

func newHarness(t *testing.T, policyText string) *harness {
	t.Helper()
	dir := t.TempDir()
	h := &harness{
		t: t, dir: dir, proj: filepath.Join(dir, "proj"), session: "s1", policy: policyText,
		clock: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		env: map[string]string{
			"HOME":            filepath.Join(dir, "home"),
			"XDG_CONFIG_HOME": filepath.Join(dir, "home", ".config"),
			"XDG_STATE_HOME":  filepath.Join(dir, "home", ".local", "state"),
		},
	}
	h.write("home/.config/airlock/policy.yaml", policyText)
	h.write("proj/internal/x.go", "package internal\n")
	h.write("proj/internal/gate/gate.go", "package gate\n")
	return h
}

func (h *harness) write(rel, content string) string {
	h.t.Helper()
	p := filepath.Join(h.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *harness) getenv(k string) string { return h.env[k] }

// gate returns a fresh gate, as a new hook process would have.
func (h *harness) gate() *Gate {
	return New(h.getenv, func() time.Time { return h.clock })
}

func (h *harness) load() *policy.Policy {
	h.t.Helper()
	p, err := policy.Load(policy.Options{Getenv: h.getenv, Cwd: h.proj})
	if err != nil {
		h.t.Fatalf("policy: %v", err)
	}
	return p
}

// abs is a path in the project.
func (h *harness) abs(rel string) string { return filepath.Join(h.proj, rel) }

func (h *harness) event(name, tool string, input any) *Event {
	h.t.Helper()
	raw, err := json.Marshal(input)
	if err != nil {
		h.t.Fatal(err)
	}
	return &Event{Name: name, Session: h.session, Agent: h.agent, Cwd: h.proj, Tool: tool, Input: raw}
}

// action is what the Claude Code adapter makes of a tool call.
func action(tool, cwd string, input map[string]any) policy.Action {
	a := policy.Action{Tool: tool, Cwd: cwd}
	switch tool {
	case "Bash":
		a.Kind, a.Command = policy.Shell, input["command"].(string)
	case "Edit", "MultiEdit", "Write":
		a.Kind, a.Paths = policy.Write, []string{input["file_path"].(string)}
	case "Read":
		a.Kind, a.Paths = policy.Read, []string{input["file_path"].(string)}
	default:
		a.Kind = policy.LocalTool
	}
	return a
}

// pre runs one PreToolUse through the policy and the gate, as the hook
// does.
func (h *harness) pre(tool string, input map[string]any) (Outcome, policy.Verdict) {
	h.t.Helper()
	p := h.load()
	a := action(tool, h.proj, input)
	v := p.Decide(a)
	out := h.gate().Pre(p, h.event("PreToolUse", tool, input), &a, &v)
	return out, v
}

func (h *harness) observe(tool string, input map[string]any) string {
	h.t.Helper()
	return h.gate().Observe(h.event("PostToolUse", tool, input), func() (*policy.Policy, error) { return h.load(), nil })
}

func (h *harness) prompt(text string) string {
	h.t.Helper()
	ev := &Event{Name: "UserPromptSubmit", Session: h.session, Cwd: h.proj, Prompt: text}
	return h.gate().Observe(ev, func() (*policy.Policy, error) { return h.load(), nil })
}

func edit(path string) map[string]any {
	return map[string]any{"file_path": path, "old_string": "a", "new_string": "b"}
}

func bash(cmd string) map[string]any { return map[string]any{"command": cmd} }

// mustDeny checks that a call was denied by the gate with a rule and a
// reason holding every want.
func mustDeny(t *testing.T, out Outcome, v policy.Verdict, rule string, want ...string) {
	t.Helper()
	if !out.Denied || v.Decision != policy.Deny || v.Rule != rule {
		t.Fatalf("got denied=%v %s by %s (warning %q), want a deny by %s", out.Denied, v.Decision, v.Rule, out.Warning, rule)
	}
	for _, w := range want {
		if !strings.Contains(out.Reason, w) {
			t.Errorf("reason does not contain %q:\n%s", w, out.Reason)
		}
	}
}

// mustPass checks that the gate let a call through with the policy's
// decision.
func mustPass(t *testing.T, out Outcome, v policy.Verdict) {
	t.Helper()
	if out.Denied || strings.HasPrefix(v.Rule, "gate.") {
		t.Fatalf("gate denied (%s): %s", v.Rule, out.Reason)
	}
}

// stateOf reads the session's state file.
func (h *harness) stateOf() *State {
	h.t.Helper()
	s := &store{dir: filepath.Join(h.env["XDG_STATE_HOME"], "airlock", "gate")}
	if d := h.env[EnvStateDir]; d != "" {
		s.dir = d
	}
	st, err := s.load(sessionKey(h.session, "", h.proj))
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}
