package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Go runs the initialisation of every package the airlock binary links
// before main, whichever subcommand is asked for: a map literal, a
// regexp or a table built at package level is paid for by every hook
// call of every agent, used or not, in CPU and in fresh heap pages (page
// faults, the largest part of a short process's cost). The rule: package
// initialisation builds only what every call needs; anything else is
// built on first use (sync.OnceValue). docs/BENCHMARKS.md ("Start-up:
// what package initialisation may do") has the figures.
//
// The test measures allocations, not time: GODEBUG=inittrace=1 prints
// each package's initialisation with the bytes it allocated, which do
// not move with the machine's load.

// initBudget is the largest allocation, in bytes, a package of the module
// may make at initialisation unless initExceptions says otherwise.
const initBudget = 8 << 10

// initExceptions are the module's packages allowed more than initBudget,
// with the reason a reader needs when this test fails.
var initExceptions = map[string]struct {
	bytes int
	why   string
}{
	"github.com/airlock-dev/airlock/internal/agent/claudecode": {12 << 10, "the tool table of the hook every Claude Code call runs"},
}

// initTotal bounds the allocations of all packages' initialisation,
// the standard library's and other modules' included (go.yaml.in/yaml/v3,
// mvdan.cc/sh), so that a new dependency's start-up cost is a decision.
const initTotal = 128 << 10

// initAllocs builds the airlock binary as it is released and returns the
// bytes each package allocated at initialisation.
func initAllocs(t *testing.T) map[string]int {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the airlock binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "airlock")
	build := exec.Command(gobin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--version")
	home := t.TempDir()
	cmd.Env = []string{"GODEBUG=inittrace=1", "HOME=" + home, "XDG_STATE_HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + os.Getenv("PATH")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("airlock --version: %v\n%s", err, stderr.String())
	}
	return parseInitTrace(t, stderr.Bytes())
}

// parseInitTrace reads lines of the form
// "init PKG @0.5 ms, 0.01 ms clock, 1234 bytes, 5 allocs".
func parseInitTrace(t *testing.T, out []byte) map[string]int {
	t.Helper()
	got := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		pkg := strings.ReplaceAll(f[1], "%2e", ".")
		got[pkg] += n
	}
	return got
}

// TestInitAllocations fails when a package's initialisation allocates
// more than its budget, or all of them more than initTotal.
func TestInitAllocations(t *testing.T) {
	got := initAllocs(t)
	// The trace must be seen: without these, a changed GODEBUG output
	// would pass silently.
	for _, p := range []string{"runtime", "github.com/airlock-dev/airlock/internal/classify", "go.yaml.in/yaml/v3"} {
		if _, ok := got[p]; !ok {
			t.Fatalf("GODEBUG=inittrace=1 printed no line for %s; read %d packages: the trace format may have changed", p, len(got))
		}
	}
	total := 0
	for pkg, n := range got {
		total += n
		if !strings.HasPrefix(pkg, "github.com/airlock-dev/airlock/") {
			continue
		}
		budget, why := initBudget, "no exception"
		if e, ok := initExceptions[pkg]; ok {
			budget, why = e.bytes, e.why
		}
		if n > budget {
			t.Errorf("%s allocates %d bytes at initialisation, over its budget of %d (%s): build what an allowed hook call does not need on first use (sync.OnceValue), or measure the cost with go run ./bench/hooktime and raise the budget in initExceptions", pkg, n, budget, why)
		}
	}
	if total > initTotal {
		t.Errorf("package initialisation allocates %d bytes in all, over initTotal (%d): see which package grew with GODEBUG=inittrace=1 airlock --version", total, initTotal)
	}
	t.Logf("package initialisation: %d bytes in all", total)
}
