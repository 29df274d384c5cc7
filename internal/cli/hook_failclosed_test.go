package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/policy"
)

// agentRefusal is one agent's refusal, as that agent reads it: the one
// thing an internal error may answer there.
type agentRefusal struct {
	// pkg holds the agent's recorded payloads (internal/agent/PKG/testdata),
	// whose local.json is a harmless command that is allowed when nothing
	// fails.
	pkg string
	// event is the --event airlock installs for the agent's tool calls.
	event string
	// refused reads a reply: whether the agent refuses the call on it,
	// and, when not, why not.
	refused func(code int, stdout []byte) (bool, string)
}

// replyJSON decodes a reply that must be one JSON object.
func replyJSON(stdout []byte) (map[string]any, bool) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(stdout))
	if dec.Decode(&m) != nil || dec.More() {
		return nil, false
	}
	return m, true
}

// claudeDenied is Claude Code's deny (Codex, Factory Droid, Qwen Code and
// Copilot's PascalCase events read it too): exit 2, or exit 0 with
// hookSpecificOutput.permissionDecision "deny".
func claudeDenied(code int, stdout []byte) (bool, string) {
	if code == 2 {
		return true, ""
	}
	m, ok := replyJSON(stdout)
	if code != 0 || !ok {
		return false, "neither exit 2 nor a JSON reply"
	}
	s, _ := m["hookSpecificOutput"].(map[string]any)
	if s == nil || s["permissionDecision"] != "deny" || s["permissionDecisionReason"] == "" {
		return false, "no hookSpecificOutput.permissionDecision deny with a reason"
	}
	return true, ""
}

// jsonRefusal is a JSON reply's refusal in one field: exit 0 and field == want,
// or, where exitBlocks, exit 2.
func jsonRefusal(name string, want any, exitBlocks bool) func(int, []byte) (bool, string) {
	return func(code int, stdout []byte) (bool, string) {
		if code == 2 && exitBlocks {
			return true, ""
		}
		m, ok := replyJSON(stdout)
		if code != 0 || !ok {
			return false, "neither exit 2 (where it blocks) nor a JSON reply"
		}
		if _, claude := m["hookSpecificOutput"]; claude {
			return false, "a Claude-shaped reply, which this agent does not read"
		}
		if m[name] != want {
			return false, "no " + name + " " + strings.Trim(string(mustJSON(want)), `"`)
		}
		return true, ""
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// refusals has one entry for every agent "airlock hook" answers. An agent
// without one fails TestHookInternalErrorRefuses: adding an adapter means
// saying here what its refusal looks like.
var refusals = map[string]agentRefusal{
	"claude-code": {"", "PreToolUse", claudeDenied},
	"codex":       {"codex", "PreToolUse", claudeDenied},
	"factory":     {"factory", "PreToolUse", claudeDenied},
	"qwen":        {"qwen", "PreToolUse", claudeDenied},
	"gemini":      {"gemini", "BeforeTool", jsonRefusal("decision", "deny", true)},
	"copilot":     {"copilot", "preToolUse", jsonRefusal("permissionDecision", "deny", true)},
	// The shim throws on anything but an allow it can read; airlock's
	// own answer is the deny.
	"opencode": {"opencode", "", jsonRefusal("decision", "deny", false)},
	"cursor":   {"cursor", "", jsonRefusal("permission", "deny", true)},
	"goose":    {"goose", "PreToolUse", jsonRefusal("decision", "block", true)},
	// Cline's exit statuses are not documented: only its JSON counts.
	"cline": {"cline", "PreToolUse", jsonRefusal("cancel", true, false)},
	// Kiro reads exit 2 (the reason on standard error) and nothing else.
	"kiro": {"kiro", "preToolUse", func(code int, stdout []byte) (bool, string) {
		if code != 2 || len(bytes.TrimSpace(stdout)) > 0 {
			return false, "not exit 2 with empty standard output"
		}
		return true, ""
	}},
	// Auggie obeys Claude Code's reply (a deny blocks; exit 2 too).
	"auggie": {"auggie", "PreToolUse", claudeDenied},
	// The Pi extension blocks on a deny and throws on anything it cannot
	// read; airlock's own answer is the deny.
	"pi": {"pi", "", jsonRefusal("decision", "deny", false)},
	// agy reads only its own deny: a Claude-shaped one runs the command.
	"antigravity": {"antigravity", "PreToolUse", jsonRefusal("decision", "deny", false)},
	// Crush: both the JSON deny and exit 2 (see internal/agent/crush).
	"crush": {"crush", "PreToolUse", func(code int, stdout []byte) (bool, string) {
		if code != 2 {
			return false, "not exit 2"
		}
		m, ok := replyJSON(stdout)
		if !ok || m["decision"] != "deny" {
			return false, "no JSON deny beside exit 2"
		}
		return true, ""
	}},
}

// hookAgents is every agent "airlock hook" answers, sorted.
func hookAgents() []string {
	names := []string{claudecode.Name}
	for n := range adapters() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// failEnv is an isolated environment for in-process hook runs.
type failEnv struct {
	vars map[string]string
	work string
}

func newFailEnv(t *testing.T) *failEnv {
	work := t.TempDir()
	home := filepath.Join(work, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(work, "policy.yaml")
	if err := os.WriteFile(pol, []byte("mode: unattended\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &failEnv{work: work, vars: map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
		"AIRLOCK_POLICY": pol, "AIRLOCK_HOOKD": "off",
	}}
}

// run answers one hook event in process.
func (f *failEnv) run(args []string, stdin string) (int, []byte, string) {
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv:     func(k string) string { return f.vars[k] },
		getwd:      func() (string, error) { return f.work, nil },
		executable: os.Executable}
	code := e.dispatch(hookRoot(), args)
	return code, out.Bytes(), errb.String()
}

// localPayload is an agent's harmless local command, as it sends it.
func localPayload(t *testing.T, agent string, r agentRefusal, work string) string {
	t.Helper()
	if agent == claudecode.Name {
		return `{"session_id":"s","cwd":"` + work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hello > proof.txt"},"tool_use_id":"t"}`
	}
	raw, err := os.ReadFile(filepath.Join("..", "agent", r.pkg, "testdata", "local.json"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(raw), "$WORK", work)
}

// TestHookInternalErrorRefuses runs, for every agent airlock hooks
// (taken from the hook's own table, so a new adapter is covered the day
// it is registered), each way airlock itself can fail while answering a
// tool call: the policy cannot be loaded, the journal cannot be written,
// the payload cannot be read, the decision panics, the decision does not
// finish. Each must answer that agent's refusal, in that agent's shape;
// and the same harmless call, with nothing failing, must not be refused,
// so that the refusals are the errors' doing.
func TestHookInternalErrorRefuses(t *testing.T) {
	for _, agent := range hookAgents() {
		r, ok := refusals[agent]
		if !ok {
			t.Errorf("%s: no refusal shape in this test's table: say how %s refuses a call, and check that every internal error answers it", agent, agent)
			continue
		}
		t.Run(agent, func(t *testing.T) {
			args := []string{"hook", agent}
			if r.event != "" {
				args = append(args, "--event", r.event)
			}
			check := func(what string, code int, stdout []byte, stderr string) {
				t.Helper()
				if ok, why := r.refused(code, stdout); !ok {
					t.Errorf("%s: not %s's refusal (%s): exit %d, stdout %q, stderr %q", what, agent, why, code, stdout, stderr)
				}
			}

			// Nothing fails: the local command is not refused.
			f := newFailEnv(t)
			local := localPayload(t, agent, r, f.work)
			code, out, errs := f.run(args, local)
			if ok, _ := r.refused(code, out); ok {
				t.Fatalf("the harmless call is refused with nothing failing: exit %d, %s %s", code, out, errs)
			}

			// The policy cannot be loaded.
			f = newFailEnv(t)
			if err := os.WriteFile(f.vars["AIRLOCK_POLICY"], []byte("mode: unattended\nno_such_key: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs = f.run(args, local)
			check("unloadable policy", code, out, errs)

			// The journal cannot be written: its directory is a file.
			f = newFailEnv(t)
			blocker := filepath.Join(f.work, "state-is-a-file")
			if err := os.WriteFile(blocker, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			f.vars["XDG_STATE_HOME"] = blocker
			code, out, errs = f.run(args, local)
			check("unwritable journal", code, out, errs)

			// The payload cannot be read.
			f = newFailEnv(t)
			for _, bad := range []string{`{"session_id":`, ``, `[]`, `null`, "\x00\xff"} {
				code, out, errs = f.run(args, bad)
				check("payload "+strings.TrimSpace(bad), code, out, errs)
			}

			// The decision panics, or does not finish.
			if agent == claudecode.Name {
				h := &claudecode.Hook{Policy: func(string) (*policy.Policy, error) { panic("boom") }, Recorder: failingRecorder{io.ErrClosedPipe}}
				var o, e bytes.Buffer
				code := h.Run(r.event, strings.NewReader(local), &o, &e)
				check("panic", code, o.Bytes(), e.String())
				return
			}
			run := func(rn *hookrun.Runner) (int, []byte, string) {
				var o, e bytes.Buffer
				code := rn.Run(r.event, strings.NewReader(local), &o, &e)
				return code, o.Bytes(), e.String()
			}
			code, out, errs = run(&hookrun.Runner{Adapter: adapters()[agent](), Decide: func(*hookrun.Request) hookrun.Result { panic("boom") }})
			check("panic", code, out, errs)
			stop := make(chan struct{})
			code, out, errs = run(&hookrun.Runner{Adapter: adapters()[agent](), Deadline: time.Millisecond,
				Decide: func(*hookrun.Request) hookrun.Result { <-stop; return hookrun.Result{} }})
			close(stop)
			check("deadline", code, out, errs)
		})
	}
}
