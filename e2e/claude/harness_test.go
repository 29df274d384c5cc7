// Package claude is the end-to-end tier with the real Claude Code binary:
// airlock's hooks are installed into a temporary HOME, the genuine `claude
// -p` runs against a fake Anthropic Messages API on loopback that replies
// with scripted tool calls, and the tests judge by side effects on disk (a
// bare git remote that must not receive a push, a loopback HTTP server that
// must not receive a POST, files that local edits must create).
//
// The binary comes from the npm package pinned in .ci/npm/claude, which
// .ci/run installs and names in AIRLOCK_E2E_CLAUDE. Without it the tests
// fail under CI and skip elsewhere. See docs/E2E.md.
package claude

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/render"
)

// claudeTimeout bounds one claude run; a scripted session takes seconds.
const claudeTimeout = 3 * time.Minute

// claudeBinary returns the Claude Code executable named by
// AIRLOCK_E2E_CLAUDE. Without it the test fails under CI (the tier must
// never pass by not running) and skips elsewhere.
func claudeBinary(t *testing.T) string {
	t.Helper()
	path := os.Getenv("AIRLOCK_E2E_CLAUDE")
	problem := ""
	if path == "" {
		problem = "AIRLOCK_E2E_CLAUDE is not set"
	} else if st, err := os.Stat(path); err != nil {
		problem = fmt.Sprintf("AIRLOCK_E2E_CLAUDE=%s: %v", path, err)
	} else if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		problem = fmt.Sprintf("AIRLOCK_E2E_CLAUDE=%s is not an executable file", path)
	}
	if problem == "" {
		return path
	}
	msg := problem + ": the real-Claude tier needs the Claude Code binary pinned in .ci/npm/claude. " +
		"Install it with .ci/run (its claude-code section), or by hand: npm ci --prefix DIR with .ci/npm/claude's files in DIR, " +
		"then AIRLOCK_E2E_CLAUDE=DIR/node_modules/.bin/claude (docs/E2E.md)"
	if inCI() {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// buildAirlock builds the airlock binary into dir, with the hook client
// airlock-hook beside it, as go install ./cmd/... does: airlock install
// then writes the client's line, and the agents' hooks go through the
// resident service (docs/HOOKD.md). The service is started in the
// world's temporary HOME and exits once that directory is removed.
func buildAirlock(t *testing.T, dir string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	for _, name := range []string{"airlock", "airlock-hook"} {
		cmd := exec.Command(goBin, "build", "-o", filepath.Join(dir, name), "github.com/airlock-dev/airlock/cmd/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, b)
		}
	}
	return filepath.Join(dir, "airlock")
}

// world is one scenario's private machine: a HOME, a project that is a git
// repository with a bare local remote, and a loopback HTTP sink.
type world struct {
	t       *testing.T
	root    string
	home    string
	project string
	remote  string
	// base is the commit both the project and the remote start at.
	base string
	sink *sink
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{t: t, root: root, home: filepath.Join(root, "home"),
		project: filepath.Join(root, "project"), remote: filepath.Join(root, "remote.git")}
	for _, d := range []string{w.home, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.git(w.project, "init", "-q", "-b", "main")
	w.git(w.project, "config", "user.name", "airlock e2e")
	w.git(w.project, "config", "user.email", "e2e@airlock.invalid")
	w.writeFile(filepath.Join(w.project, "README.md"), "e2e project\n")
	w.git(w.project, "add", "README.md")
	w.git(w.project, "commit", "-q", "-m", "initial")
	w.base = w.git(w.project, "rev-parse", "HEAD")
	// A bare clone is the remote: it holds main at the base commit without
	// the test itself ever pushing.
	w.git(w.root, "clone", "-q", "--bare", w.project, w.remote)
	w.git(w.project, "remote", "add", "origin", w.remote)
	w.sink = newSink(t)
	return w
}

// env is the whole environment claude and airlock run with: nothing is
// inherited from the process running the tests, where variables of an
// outer agent session (CLAUDECODE, CLAUDE_CODE_*, ANTHROPIC_*) would change
// the client's behaviour (agent-hooks.md §6).
func (w *world) env(extra ...string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + w.home,
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"GIT_TERMINAL_PROMPT=0",
	}
	return append(env, extra...)
}

// git runs git in dir and returns its trimmed output; failure fails the test.
func (w *world) git(dir string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = w.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// remoteRefs lists the bare remote's refs as "hash refname" lines.
func (w *world) remoteRefs() map[string]string {
	w.t.Helper()
	refs := map[string]string{}
	out := w.git(w.remote, "for-each-ref", "--format=%(refname) %(objectname)")
	for _, line := range strings.Split(out, "\n") {
		if name, hash, ok := strings.Cut(line, " "); ok {
			refs[name] = hash
		}
	}
	return refs
}

func (w *world) writeFile(path, content string) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// run runs a program in the project with the world's environment.
func (w *world) run(extraEnv []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = w.project
	cmd.Env = w.env(extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// sink is a loopback HTTP server that records every request it gets: the
// place a disguised POST would land.
type sink struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []string
}

func newSink(t *testing.T) *sink {
	s := &sink{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		fmt.Fprintln(w, "sink ok")
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *sink) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// session is what one claude run left behind.
type session struct {
	// lines are the stream-json messages, in order.
	lines []map[string]any
	// stderr is claude's standard error.
	stderr string
	// result is the final "result" message.
	result map[string]any
	// hookReplies are the stdout of every PreToolUse hook run, decoded.
	hookReplies []hookReply
}

// hookReply is one PreToolUse answer seen in the stream
// (--include-hook-events), decoded from the hook's stdout.
type hookReply struct {
	Decision string
	Reason   string
	Raw      string
}

// runClaude runs `claude -p` in the world's project against api, with no
// standard input and a timeout, and parses its stream-json output.
func (w *world) runClaude(claude string, api *fakeAPI, prompt string, extraEnv []string, args ...string) *session {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
	defer cancel()
	argv := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events"}, args...)
	cmd := exec.CommandContext(ctx, claude, argv...)
	cmd.Dir = w.project
	cmd.Stdin = nil // /dev/null: -p must not wait for input
	cmd.Env = w.env(append(claudeEnv(api), extraEnv...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	s := parseStream(stdout.Bytes())
	s.stderr = stderr.String()
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			w.t.Fatalf("claude did not finish within %s\nstderr: %s\n%s", claudeTimeout, s.stderr, api.diagnostics())
		}
		w.t.Fatalf("claude: %v\nstderr: %s\nstdout tail: %s\n%s", err, s.stderr, tail(stdout.String(), 3000), api.diagnostics())
	}
	if s.result == nil {
		w.t.Fatalf("claude wrote no result message\nstderr: %s\n%s", s.stderr, api.diagnostics())
	}
	return s
}

// claudeEnv is what points Claude Code at the fake API and keeps it from
// any other traffic; it goes on top of world.env.
func claudeEnv(api *fakeAPI) []string {
	return []string{
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"ANTHROPIC_BASE_URL=" + api.URL(),
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	}
}

// parseStream reads claude's stream-json output; lines that are not JSON
// are skipped.
func parseStream(stdout []byte) *session {
	s := &session{}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var m map[string]any
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		s.lines = append(s.lines, m)
		switch {
		case m["type"] == "result":
			s.result = m
		case m["type"] == "system" && m["subtype"] == "hook_response" && m["hook_event"] == "PreToolUse":
			s.hookReplies = append(s.hookReplies, decodeHookReply(str(m["stdout"])))
		}
	}
	return s
}

func decodeHookReply(stdout string) hookReply {
	r := hookReply{Raw: stdout}
	var out struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(stdout)), &out) == nil {
		r.Decision, r.Reason = out.HookSpecificOutput.PermissionDecision, out.HookSpecificOutput.PermissionDecisionReason
	}
	return r
}

// denied returns the tool_use ids Claude Code reports as denied in the
// result message.
func (s *session) denied() map[string]string {
	out := map[string]string{}
	list, _ := s.result["permission_denials"].([]any)
	for _, d := range list {
		m, _ := d.(map[string]any)
		in, _ := m["tool_input"].(map[string]any)
		out[str(m["tool_use_id"])] = str(in["command"])
	}
	return out
}

// replyFor finds the hook reply whose reason names the command, as
// airlock shows it (internal/render: a backslash doubled, escapes visible,
// a long command cut in the middle).
func (s *session) replyFor(command string) (hookReply, bool) {
	shown := render.Line(command, 300)
	for _, r := range s.hookReplies {
		if strings.Contains(r.Reason, command) || strings.Contains(r.Reason, shown) {
			return r, true
		}
	}
	return hookReply{}, false
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
