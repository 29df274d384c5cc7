// Package agents is the end-to-end tier with the real agent CLIs other
// than Claude Code: Codex CLI, Gemini CLI, GitHub Copilot CLI and
// OpenCode, installed from the npm registry at the versions pinned in
// .ci/npm/<agent>. Each runs in its non-interactive mode, in a temporary
// HOME with nothing inherited from the test's environment, against the Go
// fake model API of e2e/fakemodel on loopback. The tests judge by side
// effects: a bare git remote's refs, a loopback HTTP sink, files in the
// project.
//
// .ci/run installs the CLIs and names them in AIRLOCK_E2E_CODEX,
// AIRLOCK_E2E_GEMINI, AIRLOCK_E2E_COPILOT and AIRLOCK_E2E_OPENCODE (and
// OpenCode's plugin package in AIRLOCK_E2E_OPENCODE_PLUGIN_NODE_MODULES);
// Pi and Auggie, whose tiers are TestPi and TestAuggie, in AIRLOCK_E2E_PI
// and AIRLOCK_E2E_AUGGIE.
// Without them the tests fail under CI and skip elsewhere. See docs/E2E.md.
package agents

import (
	"bytes"
	"context"
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

	"github.com/airlock-dev/airlock/e2e/fakemodel"
)

// agentTimeout bounds one CLI run. A scripted session takes seconds on
// an idle machine, but OpenCode alone spends about 20 s of CPU on one, and
// on a loaded machine (load 30 on 2 cores) its runs took up to 227 s.
const agentTimeout = 6 * time.Minute

func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// tool returns the file an AIRLOCK_E2E_* variable names. Without it the
// test fails under CI (a tier must never pass by not running) and skips
// elsewhere.
func tool(t *testing.T, envVar string, wantDir bool) string {
	t.Helper()
	path := os.Getenv(envVar)
	problem := ""
	if path == "" {
		problem = envVar + " is not set"
	} else if st, err := os.Stat(path); err != nil {
		problem = fmt.Sprintf("%s=%s: %v", envVar, path, err)
	} else if wantDir != st.IsDir() || (!wantDir && st.Mode().Perm()&0o111 == 0) {
		problem = fmt.Sprintf("%s=%s is not an executable file", envVar, path)
		if wantDir {
			problem = fmt.Sprintf("%s=%s is not a directory", envVar, path)
		}
	}
	if problem == "" {
		return path
	}
	msg := problem + ": the agent tiers need the CLIs pinned in .ci/npm/<agent>. Install them with .ci/run (its agents section), " +
		"or by hand: npm ci --prefix DIR with .ci/npm/<agent>'s files in DIR, then point the variable at DIR/node_modules/.bin/<agent> (docs/E2E.md)"
	if inCI() {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
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
// repository one commit ahead of its bare local remote, and a loopback
// HTTP sink.
type world struct {
	t       *testing.T
	root    string
	home    string
	project string
	remote  string
	// base is the commit the remote holds; head the project's, one ahead.
	base, head string
	sink       *sink
}

func newWorld(t *testing.T) *world {
	t.Helper()
	// Codex refuses to set up its helpers under the system temporary
	// directory, so a scenario's files live in the module's own scratch
	// directory when one is given.
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
	w.git(w.root, "clone", "-q", "--bare", w.project, w.remote)
	w.git(w.project, "remote", "add", "origin", w.remote)
	// One commit ahead, so a push that lands changes the remote's main.
	w.writeFile(filepath.Join(w.project, "CHANGES.md"), "unpublished\n")
	w.git(w.project, "add", "CHANGES.md")
	w.git(w.project, "commit", "-q", "-m", "changes")
	w.head = w.git(w.project, "rev-parse", "HEAD")
	w.sink = newSink(t)
	return w
}

// env is the whole environment an agent and airlock run with: nothing is
// inherited from the process running the tests (an outer agent session's
// variables would change the clients' behaviour), as with env -i.
func (w *world) env(extra ...string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + w.home,
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(w.home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"GIT_TERMINAL_PROMPT=0",
		"NO_COLOR=1",
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

// remoteRefs maps the bare remote's ref names to their commits.
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

// runResult is what one agent run left behind.
type runResult struct {
	stdout, stderr string
	err            error
}

// runAgent runs argv in the project with the world's environment plus
// extra, no standard input, and a timeout. A run that does not finish
// fails the test; a non-zero exit is returned for the caller to judge.
func (w *world) runAgent(api *fakemodel.Server, extra []string, argv ...string) runResult {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = w.project
	cmd.Stdin = nil
	cmd.Env = w.env(extra...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	r := runResult{stdout: stdout.String(), stderr: stderr.String(), err: err}
	// AIRLOCK_E2E_CAPTURE=DIR keeps each run's standard output, the raw
	// material of the scanner's testdata (internal/scan/testdata/agents).
	if dir := os.Getenv("AIRLOCK_E2E_CAPTURE"); dir != "" {
		name := strings.NewReplacer("/", "-", " ", "_").Replace(w.t.Name()) + ".out"
		if err := os.WriteFile(filepath.Join(dir, name), stdout.Bytes(), 0o644); err != nil {
			w.t.Logf("AIRLOCK_E2E_CAPTURE: %v", err)
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		w.t.Fatalf("%s did not finish within %s\nstdout: %s\nstderr: %s\n%s", filepath.Base(argv[0]), agentTimeout,
			tail(r.stdout, 3000), tail(r.stderr, 3000), api.Diagnostics())
	}
	return r
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
