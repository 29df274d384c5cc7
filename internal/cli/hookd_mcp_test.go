//go:build linux

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/mcp/proxied"
)

// mcpEvent is Claude Code's PreToolUse event for an MCP tool.
func mcpEvent(tool string) string {
	return `{"session_id":"s-mcp","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"` + tool +
		`","tool_input":{"to":"Bob","body":"hi"},"tool_use_id":"t1"}`
}

// TestHookdProxiedSameAnswer: a call to a server behind airlock's MCP
// proxy that the hook's agent started is left to that proxy, through the
// service exactly as in process; a call to another server is decided
// (held, in unattended mode, for a tool the policy does not list) both
// ways. The hook is a process of its own (proxiedHookChild), which is
// also the proxy, so that the proxy's client, the hook's parent, is this
// test: the service, running here, would not find it among its own
// ancestors.
func TestHookdProxiedSameAnswer(t *testing.T) {
	home, answered := hookdEnv(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestProxiedHookChild$")
	cmd.Env = append(os.Environ(), "AIRLOCK_TEST_PROXIED_CHILD=1", "AIRLOCK_MODE=unattended")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the hook process: %v\n%s", err, out)
	}
	runs := map[string]hookRun{}
	for _, line := range strings.Split(string(out), "\n") {
		var r struct {
			Key            string
			Status         int
			Stdout, Stderr string
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Key != "" {
			runs[r.Key] = hookRun{r.Status, r.Stdout, r.Stderr}
		}
	}
	if len(runs) != 4 || answered.Load() != 2 {
		t.Fatalf("%d answers from the hook process, %d of them from the service; want 4 and 2:\n%s", len(runs), answered.Load(), out)
	}
	for _, tt := range []struct {
		tool    string
		proxied bool
	}{
		{"mcp__texts__send_message", true},
		{"mcp__mail__send_message", false},
	} {
		want, got := runs[tt.tool+" in process"], runs[tt.tool+" through the service"]
		if got != want {
			t.Errorf("%s through the service:\n%+v\nin process:\n%+v", tt.tool, got, want)
		}
		// Claude Code's allow is an empty answer; a held call is a deny
		// naming the queue.
		held := strings.Contains(got.stdout, `"permissionDecision":"deny"`)
		if held == tt.proxied || got.status != 0 {
			t.Errorf("%s: proxied=%v, but the hook answered %+v", tt.tool, tt.proxied, got)
		}
	}
	// The journal says who decided: one mcp.proxied each way for texts.
	n := 0
	filepath.WalkDir(filepath.Join(home, ".local", "state", "airlock"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			b, _ := os.ReadFile(p)
			for _, line := range strings.Split(string(b), "\n") {
				if strings.Contains(line, `"rule":"mcp.proxied"`) {
					n++
				}
			}
		}
		return nil
	})
	if n != 2 {
		t.Errorf("the journal has %d calls left to the proxy, want 2 (in process and through the service)", n)
	}
}

// TestProxiedHookChild is the hook process of TestHookdProxiedSameAnswer:
// it registers as the proxy of "texts" (its client is its parent, the
// test) and runs the hook for a call to texts and to mail, in process and
// through the service, printing each answer as a JSON line.
func TestProxiedHookChild(t *testing.T) {
	if os.Getenv("AIRLOCK_TEST_PROXIED_CHILD") != "1" {
		t.Skip("the hook process of TestHookdProxiedSameAnswer")
	}
	release, err := proxied.Register(filepath.Join(os.Getenv("HOME"), ".local", "state", "airlock"), "texts", "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	args := []string{"hook", "claude-code", "--event", "PreToolUse"}
	for _, tool := range []string{"mcp__texts__send_message", "mcp__mail__send_message"} {
		for _, way := range []string{"in process", "through the service"} {
			os.Setenv("AIRLOCK_HOOKD", map[string]string{"in process": "off"}[way])
			r := runHookMain(args, mcpEvent(tool))
			b, _ := json.Marshal(map[string]any{"Key": tool + " " + way, "Status": r.status, "Stdout": r.stdout, "Stderr": r.stderr})
			fmt.Println(string(b))
		}
	}
}

// TestHookdUnpinnedClient: a request whose client the kernel did not pin
// (no SO_PEERPIDFD) is left to the client, which decides in its own
// process, while a proxy is registered; with none, the service decides.
func TestHookdUnpinnedClient(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, ".local", "state", "airlock")
	h := hookdHandler(state)
	req := func() *hookd.Request {
		return &hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
			Env: []string{"HOME=" + home, "AIRLOCK_MODE=unattended"}, Cwd: "/tmp", Stdin: []byte(mcpEvent("mcp__texts__send_message")),
			Client: hookd.Client{PID: os.Getpid()}}
	}
	if r := h(req()); r.Kind != hookd.KindAnswer {
		t.Fatalf("with no proxy registered the service declined: %+v", r)
	}
	release, err := proxied.Register(state, "texts", "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if r := h(req()); r.Kind != hookd.KindDeclined || !strings.Contains(r.Reason, "SO_PEERPIDFD") {
		t.Fatalf("an unpinned client while a proxy runs: %+v, want declined", r)
	}
	pinned := req()
	pinned.Client.Pinned = func() bool { return true }
	if r := h(pinned); r.Kind != hookd.KindAnswer || len(r.Stdout) != 0 {
		t.Fatalf("a pinned client of this proxy's agent: %+v %s, want an allow", r, r.Stdout)
	}
}
