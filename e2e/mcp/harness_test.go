// Package mcp is the end-to-end tier of the MCP firewall: the real airlock
// binary runs as "airlock mcp run" between real MCP clients and servers in
// separate processes.
//
// Two rigs: a Go text-message fixture server (testdata/textserver) driven
// by a go-sdk client, which needs nothing but Go; and the npm packages
// pinned in .ci/npm/mcp — @modelcontextprotocol/server-everything behind
// the proxy, driven by the @modelcontextprotocol/inspector CLI and by a
// scripted client on @modelcontextprotocol/sdk that declares elicitation.
// .ci/run installs the npm packages and names their node_modules in
// AIRLOCK_E2E_MCP_NODE_MODULES; without it the Node tests fail under CI
// and skip elsewhere.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// bin holds the binaries TestMain builds.
var bin struct {
	dir, airlock, textserver string
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "airlock-e2e-mcp-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin.dir = dir
	bin.airlock = filepath.Join(dir, "airlock")
	bin.textserver = filepath.Join(dir, "textserver")
	for out, pkg := range map[string]string{
		bin.airlock: "github.com/airlock-dev/airlock/cmd/airlock",
		// "airlock mcp run" starts the proxy binary installed next to it.
		filepath.Join(dir, "airlock-mcp"): "github.com/airlock-dev/airlock/cmd/airlock-mcp",
		bin.textserver:                    "github.com/airlock-dev/airlock/e2e/mcp/testdata/textserver",
	} {
		goBin, err := exec.LookPath("go")
		if err != nil {
			goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		cmd := exec.Command(goBin, "build", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", pkg, err, b)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// touchSources stats every Go source file and the module files the built
// binaries come from. The test cache keys a result on the files a test
// looked at, not on what "go build" read in a subprocess: without this a
// change to the proxy would replay a stale pass. It runs inside the tests
// (newHome): file access in TestMain is not logged.
var touched sync.Once

func touchSources() { touched.Do(statSources) }

func statSources() {
	for _, root := range []string{"../../cmd", "../../internal", "testdata"} {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
				_, _ = os.Stat(path)
			}
			return nil
		})
	}
	for _, f := range []string{"../../go.mod", "../../go.sum"} {
		_, _ = os.Stat(f)
	}
}

// home is one test's private machine: HOME, XDG dirs, a policy file.
type home struct {
	t      *testing.T
	root   string
	policy string
	env    []string
}

func newHome(t *testing.T, policy string) *home {
	t.Helper()
	touchSources()
	root := t.TempDir()
	h := &home{t: t, root: root, policy: filepath.Join(root, "policy.yaml")}
	if err := os.WriteFile(h.policy, []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	h.env = []string{
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "home", ".config"),
		"XDG_STATE_HOME=" + filepath.Join(root, "home", ".local", "state"),
		"PATH=" + os.Getenv("PATH"),
	}
	return h
}

// airlock runs an airlock subcommand to completion.
func (h *home) airlock(args ...string) (string, error) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin.airlock, args...)
	cmd.Env = h.env
	cmd.Dir = h.root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// queue lists the review queue as JSON objects.
func (h *home) queue() []map[string]any {
	h.t.Helper()
	out, err := h.airlock("queue", "list", "--all", "--json")
	if err != nil {
		h.t.Fatalf("airlock queue list: %v\n%s", err, out)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		h.t.Fatalf("queue list --json: %v\n%s", err, out)
	}
	return items
}

// journal returns the journal's entries.
func (h *home) journal() []map[string]any {
	h.t.Helper()
	files, _ := filepath.Glob(filepath.Join(h.root, "home", ".local", "state", "airlock", "journal", "journal-*.jsonl"))
	var out []map[string]any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if line == "" {
				continue
			}
			var e map[string]any
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				h.t.Fatalf("journal line %q: %v", line, err)
			}
			out = append(out, e)
		}
	}
	return out
}

func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// nodeModules returns the node_modules directory with the npm packages
// pinned in .ci/npm/mcp, named by AIRLOCK_E2E_MCP_NODE_MODULES. Without it
// the test fails under CI (the tier must never pass by not running) and
// skips elsewhere.
func nodeModules(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("AIRLOCK_E2E_MCP_NODE_MODULES")
	problem := ""
	if dir == "" {
		problem = "AIRLOCK_E2E_MCP_NODE_MODULES is not set"
	} else {
		for _, need := range []string{
			"@modelcontextprotocol/server-everything/dist/index.js",
			"@modelcontextprotocol/sdk/package.json",
			".bin/mcp-inspector",
		} {
			if _, err := os.Stat(filepath.Join(dir, need)); err != nil {
				problem = fmt.Sprintf("AIRLOCK_E2E_MCP_NODE_MODULES=%s lacks %s", dir, need)
				break
			}
		}
	}
	if problem == "" {
		if _, err := exec.LookPath("node"); err != nil {
			problem = "node is not on PATH"
		}
	}
	if problem == "" {
		return dir
	}
	msg := problem + ": the MCP tier needs the npm packages pinned in .ci/npm/mcp. Install them with .ci/run (its mcp section), " +
		"or by hand: npm install in a copy of .ci/npm/mcp, then AIRLOCK_E2E_MCP_NODE_MODULES=DIR/node_modules (docs/MCP.md)"
	if inCI() {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
