//go:build linux

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/hookd/server"
)

// hookdEnv gives the test a private home short enough for a socket
// address, and a running service for it (in this process: the test
// binary is then both the service and the client, so the client's check
// that the service runs its own binary passes). It returns the number of
// requests the service answered.
func hookdEnv(t *testing.T) (home string, answered *atomic.Int64) { return hookdEnvB(t) }

func hookdEnvB(t testing.TB) (home string, answered *atomic.Int64) {
	t.Helper()
	home, err := os.MkdirTemp("/tmp", "hookd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "AIRLOCK_HOME": "",
		"AIRLOCK_POLICY": "", "AIRLOCK_MODE": "", "AIRLOCK_STORY": "", "CLAUDE_PROJECT_DIR": "", "AIRLOCK_HOOKD": "",
		"CLAUDE_CODE_SESSION_ATTENDED": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"} {
		t.Setenv(k, v)
	}
	dir := filepath.Join(home, ".local", "state", "airlock")
	exe, _ := os.Executable()
	answered = &atomic.Int64{}
	handle := hookdHandler(dir)
	s := &server.Server{StateDir: dir, Idle: time.Hour, Exe: exe, Go: goOnDirWorker, Handle: func(r *hookd.Request) *hookd.Response {
		resp := handle(r)
		if resp.Kind == hookd.KindAnswer {
			answered.Add(1)
		}
		return resp
	}}
	done := make(chan error, 1)
	go func() { done <- s.Serve() }()
	t.Cleanup(func() { s.Shutdown(); <-done })
	// The socket's file exists from bind, before listen: wait until a
	// connection is accepted (an empty one, which the service declines
	// without calling the handler), or the first hook would find no
	// service and decide in process.
	for {
		if listening(filepath.Join(dir, hookd.SocketName)) {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the service stopped: %v", err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
	return home, answered
}

// listening reports whether a connection to sock is accepted.
func listening(sock string) bool {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}) == nil
}

type hookRun struct {
	status         int
	stdout, stderr string
}

var queueID = regexp.MustCompile(`\b[0-9a-f]{8}\b`)

func runHookMain(args []string, stdin string) hookRun {
	var out, errb bytes.Buffer
	st := Main(args, strings.NewReader(stdin), &out, &errb)
	// A held call's queue id differs from one call to the next.
	return hookRun{st, queueID.ReplaceAllString(out.String(), "ID"), queueID.ReplaceAllString(errb.String(), "ID")}
}

// TestHookdSameAnswer: for each invocation, the answer through the
// service is the in-process answer, byte for byte.
func TestHookdSameAnswer(t *testing.T) {
	_, answered := hookdEnv(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ev := func(tool, input string) string {
		return `{"session_id":"s-hookd","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + input + `,"tool_use_id":"t1"}`
	}
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"allowed", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Bash", `{"command":"go test ./... && git status"}`)},
		{"held", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Bash", `{"command":"git -C /tmp/repo push origin main"}`)},
		{"self-protection", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Bash", `{"command":"airlock hookd --idle 1h"}`)},
		{"write", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Write", `{"file_path":"/tmp/x","content":"y"}`)},
		// The service reads its own binary once (hookdHandler): writing it,
		// or the client beside it, is refused as in process, call after call.
		{"write the binary", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Write", `{"file_path":"`+exe+`","content":"y"}`)},
		{"write the binary again", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Write", `{"file_path":"`+exe+`","content":"z"}`)},
		{"write the client", []string{"hook", "claude-code", "--event", "PreToolUse"}, ev("Write", `{"file_path":"`+filepath.Join(filepath.Dir(exe), "airlock-hook")+`","content":"y"}`)},
		{"malformed", []string{"hook", "claude-code", "--event", "PreToolUse"}, `{"session_id":`},
		{"unknown agent", []string{"hook", "not-an-agent"}, ev("Bash", `{"command":"ls"}`)},
		{"stop", []string{"hook", "claude-code", "--event", "Stop"}, `{"session_id":"s-hookd","cwd":"/tmp","hook_event_name":"Stop"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("AIRLOCK_HOOKD", "off")
			want := runHookMain(c.args, c.stdin)
			t.Setenv("AIRLOCK_HOOKD", "")
			before := answered.Load()
			got := runHookMain(c.args, c.stdin)
			if answered.Load() != before+1 {
				t.Fatalf("the service did not answer (%d answers before, %d after)", before, answered.Load())
			}
			if got != want {
				t.Errorf("through the service:\n%+v\nin process:\n%+v", got, want)
			}
			if strings.HasPrefix(c.name, "write the") && !strings.Contains(got.stdout, "deny") {
				t.Errorf("writing airlock's binary was not denied: %+v", got)
			}
		})
	}
}

// TestHookdReadsPolicyAfresh: a policy file changed while the service
// runs is in force from the next call (the service keeps no policy).
func TestHookdReadsPolicyAfresh(t *testing.T) {
	home, answered := hookdEnv(t)
	ev := `{"session_id":"s-pol","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl https://example.com/x"},"tool_use_id":"t1"}`
	args := []string{"hook", "claude-code", "--event", "PreToolUse"}
	first := runHookMain(args, ev)
	if strings.Contains(first.stdout, "no-curl") {
		t.Fatalf("the rule fired before it was written: %+v", first)
	}
	pol := filepath.Join(home, ".config", "airlock", "policy.yaml")
	os.MkdirAll(filepath.Dir(pol), 0o700)
	if err := os.WriteFile(pol, []byte("rules:\n  - id: no-curl\n    match: {command: curl}\n    decision: deny\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	second := runHookMain(args, ev)
	if !strings.Contains(second.stdout, "no-curl") || answered.Load() != 2 {
		t.Fatalf("after the policy changed, the service answered %+v (%d answers)", second, answered.Load())
	}
}

// TestHookdDeclines: the socket is no way to run anything but the hook,
// nor to decide for another state directory.
func TestHookdDeclines(t *testing.T) {
	dir := t.TempDir()
	h := hookdHandler(dir)
	cwd, _ := os.Getwd()
	env := []string{"AIRLOCK_HOME=" + dir}
	for _, r := range []*hookd.Request{
		{Args: []string{"queue", "approve", "abcd1234"}, Env: env, Cwd: cwd},
		{Args: []string{"install", "claude-code"}, Env: env, Cwd: cwd},
		{Args: nil, Env: env, Cwd: cwd},
		{Args: []string{"hook", "claude-code"}, Env: []string{"AIRLOCK_HOME=" + dir + "/other"}, Cwd: cwd},
		{Args: []string{"hook", "claude-code"}, Env: env, Cwd: "relative"},
		{Args: []string{"hook", "claude-code"}, Env: append(env, "AIRLOCK_HOOKD=off"), Cwd: cwd},
		// Every human act (issue 25: the socket is bound into airlock
		// run's sandbox, so everything on it is the agent's).
		{Args: []string{"queue", "reject", "abcd1234"}, Env: env, Cwd: cwd},
		{Args: []string{"queue", "run", "abcd1234"}, Env: env, Cwd: cwd},
		{Args: []string{"rule", "add"}, Env: env, Cwd: cwd},
		{Args: []string{"trust", "policy.yaml"}, Env: env, Cwd: cwd},
		{Args: []string{"undo"}, Env: env, Cwd: cwd},
		{Args: []string{"uninstall", "claude-code"}, Env: env, Cwd: cwd},
		{Args: []string{"serve"}, Env: env, Cwd: cwd},
		{Args: []string{"hookd", "--stop"}, Env: env, Cwd: cwd},
		{Args: []string{"HOOK", "claude-code"}, Env: env, Cwd: cwd},
		{Args: []string{" hook", "claude-code"}, Env: env, Cwd: cwd},
	} {
		if resp := h(r); resp.Kind != hookd.KindDeclined {
			t.Errorf("%q with %q in %q was answered: %+v", r.Args, r.Env, r.Cwd, resp)
		}
	}
	// Verbs put after "hook" are not airlock's verbs: the hook command
	// alone is dispatched, and it refuses them as a usage mistake.
	for _, args := range [][]string{
		{"hook", "queue", "approve", "abcd1234"},
		{"hook", "--", "queue", "approve", "abcd1234"},
		{"hook", "trust", "policy.yaml"},
	} {
		resp := h(&hookd.Request{Args: args, Env: env, Cwd: cwd})
		if resp.Kind == hookd.KindAnswer && resp.Status == 0 {
			t.Errorf("%q was run with status 0: %s %s", args, resp.Stdout, resp.Stderr)
		}
	}
}

// TestEnvLookupFirstWins: a forwarded environment reads as os.Getenv
// reads the process's own, where the first of two entries wins.
func TestEnvLookupFirstWins(t *testing.T) {
	get := envLookup([]string{"A=1", "A=2", "B", "C=x=y"})
	if get("A") != "1" || get("B") != "" || get("C") != "x=y" {
		t.Fatalf("A=%q B=%q C=%q", get("A"), get("B"), get("C"))
	}
}

// TestHookdOwnWorkingDirectory: a relative path in the invocation (here
// AIRLOCK_POLICY) resolves against the invocation's directory, not the
// service's, and the service's own directory does not move.
func TestHookdOwnWorkingDirectory(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, ".local", "state", "airlock")
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "pol.yaml"), []byte("rules:\n  - id: no-curl-here\n    match: {command: curl}\n    decision: deny\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Getwd()
	ev := `{"session_id":"s-cwd","cwd":"` + proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl https://example.com/"},"tool_use_id":"t1"}`
	h := hookdHandler(state)
	resp := make(chan *hookd.Response)
	// As in the service, each request runs on a goroutine of its own.
	go func() {
		resp <- h(&hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
			Env: []string{"HOME=" + home, "AIRLOCK_POLICY=pol.yaml"}, Cwd: proj, Stdin: []byte(ev)})
	}()
	r := <-resp
	if r.Kind != hookd.KindAnswer || !strings.Contains(string(r.Stdout), "no-curl-here") {
		t.Fatalf("the relative policy path was not read from the invocation's directory: %+v %s %s", r, r.Stdout, r.Stderr)
	}
	if after, _ := os.Getwd(); after != before {
		t.Fatalf("the service's own directory moved from %s to %s", before, after)
	}
}
