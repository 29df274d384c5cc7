package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// agentPolicy gives the MCP guard a server to judge (mcp_hook.txtar's):
// a send to a raw number is refused by the guard, which only a call read
// as texts/send_message reaches.
const agentPolicy = `mcp:
  contacts:
    Alice: "+1 555 0100"
  servers:
    texts:
      tools:
        send_message: {class: sink, recipient_arg: to, text_arg: body, rate: 100/h}
`

// agentCase is one recorded payload (internal/agent/<pkg>/testdata) and
// what the reply must say.
type agentCase struct {
	file string
	// deny: the reply refuses the call; want: a pattern the reason holds.
	deny bool
	want string
}

// Patterns of the decisions, as the reason words them.
const (
	heldRE    = `held this action for human review.*queued for review by a human as [0-9a-f]{8}.*Continue with the work that does not depend on it`
	selfRE    = `airlock denied this action.*belongs to airlock`
	unknownRE = `held this action for human review: the tool .*does not know what this tool does.*queued for review by a human as [0-9a-f]{8}`
	guardRE   = `raw address`
	brokenRE  = `airlock blocked this tool call because airlock could not read it`
)

// Every agent's recorded payloads go through "airlock hook <agent>" as a
// separate process: a git push is held with its queue item, a local
// command runs, a write to airlock's own policy is refused
// (self-protection), an MCP call meets the MCP guard where the agent names
// its server (and is held as unknown where it does not), malformed input
// is refused, an unknown tool is held as opaque. No reply ever says "ask".
func TestHookAgents(t *testing.T) {
	bin := airlockBinary(t)
	std := func(mcp string) []agentCase {
		return []agentCase{
			{"push.json", true, heldRE},
			{"local.json", false, ""},
			{"selfprotect.json", true, selfRE},
			{"mcp.json", true, mcp},
			{"malformed.json", true, brokenRE},
			{"unknown.json", true, unknownRE},
		}
	}
	agents := []struct {
		agent, pkg, event string
		cases             []agentCase
	}{
		{"codex", "codex", "PreToolUse", std(guardRE)},
		{"gemini", "gemini", "BeforeTool", std(guardRE)},
		{"copilot", "copilot", "preToolUse", std(unknownRE)},
		{"copilot", "copilot", "PreToolUse", []agentCase{{"pascal-push.json", true, heldRE}}},
		{"opencode", "opencode", "", std(unknownRE)},
		{"factory", "factory", "PreToolUse", std(guardRE)},
		{"qwen", "qwen", "PreToolUse", std(guardRE)},
		{"cursor", "cursor", "", append(std(unknownRE), agentCase{"read-secret.json", true, `airlock denied this action.*secrets`})},
		{"kiro", "kiro", "preToolUse", std(guardRE)},
		{"goose", "goose", "PreToolUse", std(guardRE)},
		{"cline", "cline", "PreToolUse", std(guardRE)},
		{"pi", "pi", "", std(unknownRE)},
		{"auggie", "auggie", "PreToolUse", std(unknownRE)},
		{"crush", "crush", "PreToolUse", std(guardRE)},
		{"antigravity", "antigravity", "PreToolUse", []agentCase{
			{"push.json", true, heldRE},
			{"local.json", false, ""},
			{"selfprotect.json", true, selfRE},
			{"write-selfprotect.json", true, selfRE},
			{"malformed.json", true, brokenRE},
			{"unknown.json", true, unknownRE},
		}},
	}
	for _, ag := range agents {
		for _, c := range ag.cases {
			t.Run(ag.agent+"/"+ag.event+"/"+strings.TrimSuffix(c.file, ".json"), func(t *testing.T) {
				t.Parallel()
				work := t.TempDir()
				home := filepath.Join(work, "home")
				pol := filepath.Join(work, "policy.yaml")
				if err := os.MkdirAll(home, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(pol, []byte(agentPolicy), 0o644); err != nil {
					t.Fatal(err)
				}
				raw, err := os.ReadFile(filepath.Join("..", "agent", ag.pkg, "testdata", c.file))
				if err != nil {
					t.Fatal(err)
				}
				payload := strings.NewReplacer("$WORK", work, "$HOME", home, "$POLICY", pol).Replace(string(raw))
				args := []string{"hook", ag.agent}
				if ag.event != "" {
					args = append(args, "--event", ag.event)
				}
				cmd := exec.Command(bin, args...)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/.config",
					"XDG_STATE_HOME="+home+"/.local/state", "AIRLOCK_HOME=", "AIRLOCK_POLICY="+pol,
					"AIRLOCK_MODE=", "CLAUDE_PROJECT_DIR=",
					// Set as an attended Claude Code session would: the
					// other agents must not read it as a human to ask.
					"CLAUDE_CODE_SESSION_ATTENDED=1")
				cmd.Stdin = strings.NewReader(payload)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				code := 0
				if err := cmd.Run(); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						t.Fatal(err)
					}
					code = ee.ExitCode()
				}
				denied, reason := readReply(t, ag.agent, code, stdout.Bytes(), stderr.String())
				if denied != c.deny {
					t.Fatalf("denied=%v, want %v\nexit %d\nstdout: %s\nstderr: %s", denied, c.deny, code, stdout.String(), stderr.String())
				}
				if c.want != "" && !regexp.MustCompile(c.want).MatchString(reason) {
					t.Errorf("reason %q does not match %q\nstderr: %s", reason, c.want, stderr.String())
				}
				if strings.Contains(stdout.String(), `"ask"`) && (ag.agent != "antigravity" || c.deny) {
					// agy's "ask" hands a call airlock lets through to
					// agy's own rules; no other agent may see one.
					t.Errorf("the reply asks: %s", stdout.String())
				}
			})
		}
	}
}

// readReply reads any agent's reply: whether it refuses the call, and the
// reason the model sees. It fails the test on a reply the agent could not
// read, or on an exit status the agent would read as something else.
func readReply(t *testing.T, agent string, code int, stdout []byte, stderr string) (bool, string) {
	t.Helper()
	if agent == "kiro" {
		if len(bytes.TrimSpace(stdout)) > 0 {
			t.Errorf("kiro: standard output must stay empty, got %s", stdout)
		}
		switch code {
		case 0:
			return false, ""
		case 2:
			return true, stderr
		}
		t.Fatalf("kiro: exit %d", code)
	}
	if agent == "crush" {
		// A refusal is both: the JSON deny and exit 2, the reason on
		// standard error (which Crush reads on exit 2).
		switch {
		case code == 2 && strings.Contains(string(stdout), `"decision":"deny"`) && strings.TrimSpace(stderr) != "":
			return true, stderr
		case code == 0 && !strings.Contains(string(stdout), `"decision"`):
			return false, ""
		}
		t.Fatalf("crush: exit %d with %s: neither a refusal nor silence", code, stdout)
	}
	if code != 0 {
		t.Fatalf("%s: exit %d, want 0 (a JSON reply)\nstderr: %s", agent, code, stderr)
	}
	if len(bytes.TrimSpace(stdout)) == 0 {
		if agent == "opencode" || agent == "pi" || agent == "cline" || agent == "gemini" || agent == "cursor" || agent == "antigravity" {
			t.Fatalf("%s: empty reply; this agent's reply is always a JSON object", agent)
		}
		return false, ""
	}
	var r struct {
		Specific *struct {
			Event    string `json:"hookEventName"`
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
		PermissionDecision string `json:"permissionDecision"`
		PermissionReason   string `json:"permissionDecisionReason"`
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		Permission         string `json:"permission"`
		AgentMessage       string `json:"agent_message"`
		UserMessage        string `json:"user_message"`
		Cancel             bool   `json:"cancel"`
		ErrorMessage       string `json:"errorMessage"`
	}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s: reply %s: %v", agent, stdout, err)
	}
	switch {
	case r.Specific != nil:
		return r.Specific.Decision == "deny", r.Specific.Reason
	case r.PermissionDecision != "":
		return r.PermissionDecision == "deny", r.PermissionReason
	case r.Decision != "":
		if (agent == "opencode" || agent == "pi") && r.Decision != "allow" && r.Decision != "deny" {
			t.Fatalf("%s: decision %q", agent, r.Decision)
		}
		if agent == "antigravity" && r.Decision != "ask" && r.Decision != "deny" {
			// "allow" would approve what agy's own rules did not.
			t.Fatalf("antigravity: decision %q", r.Decision)
		}
		return r.Decision == "deny" || r.Decision == "block", r.Reason
	case r.Permission != "":
		return r.Permission == "deny", r.AgentMessage
	}
	return r.Cancel, r.ErrorMessage
}
