package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStackStartFirst checks that internal/stackstart is initialised
// before any package whose initialisation allocates, and before every
// package outside the standard library: it grows the stack once while
// the stack is shallow, which is its whole point. It fails if the package
// gains an import (it is then initialised after that import) or stops
// being linked.
func TestStackStartFirst(t *testing.T) {
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
	const stackstart = "github.com/airlock-dev/airlock/internal/stackstart"
	var before []string
	found := false
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		pkg := strings.ReplaceAll(f[1], "%2e", ".")
		if pkg == stackstart {
			found = true
			break
		}
		if f[7] != "0" || strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
			t.Errorf("%s is initialised before %s (%s bytes allocated)", pkg, stackstart, f[7])
		}
		before = append(before, pkg)
	}
	if !found {
		t.Fatalf("GODEBUG=inittrace=1 airlock --version printed no line for %s (initialised before it: %v)", stackstart, before)
	}
	t.Logf("initialised before %s: %v", stackstart, before)
}
