// Command runstart measures the start-up of "airlock run -- true" against
// a bare bubblewrap of the same mounts running true, alternating the two
// so that the machine's load falls on both alike (docs/BENCHMARKS.md).
//
//	for b in airlock airlock-run airlock-bridge; do CGO_ENABLED=0 go build -o /tmp/ar/$b ./cmd/$b; done
//	go run ./bench/runstart -bin /tmp/ar -n 200
//
// Run it from a project directory (a git checkout): the plan, and so the
// mounts, depend on where it runs.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

func main() {
	bin := flag.String("bin", "", "directory holding airlock-run, airlock-bridge and airlock")
	n := flag.Int("n", 100, "runs of each")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: runstart -bin DIR [-n N]")
		os.Exit(2)
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		fmt.Fprintln(os.Stderr, "runstart: bwrap is not on PATH")
		os.Exit(1)
	}
	tru, _ := exec.LookPath("true")
	dir, err := os.MkdirTemp("", "runstart-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	// A door that accepts and closes: true makes no request.
	sock := filepath.Join(dir, "door.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		panic(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	cwd, _ := os.Getwd()
	runner := filepath.Join(*bin, "airlock-run")
	bridgeBin := filepath.Join(*bin, run.BridgeBinary)
	// The bare run: the same plan's bubblewrap arguments, with true in
	// place of the bridge.
	plan, err := run.NewPlan(run.Config{Environ: os.Environ(), Cwd: cwd, Executable: filepath.Join(*bin, "airlock"),
		RunDir: dir, ProxySocket: sock, Bridge: bridgeBin, Command: []string{tru}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "runstart:", err)
		os.Exit(1)
	}
	cut := slices.Index(plan.Args, bridgeBin)
	bare := append(append([]string{}, plan.Args[:cut]...), tru)
	// --as-pid-1 stays: true is then the namespace's init, as the bridge is.
	one := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Env = plan.Env
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "runstart: %s: %v\n%s", name, err, out)
			os.Exit(1)
		}
		return time.Since(t0)
	}
	// The plan as airlock-run starts it (bridge included), without
	// airlock-run's own process around it: splits the overhead between
	// the bridge inside and the runner outside.
	// airlock run through the airlock CLI, which starts airlock-run.
	airlock := filepath.Join(*bin, "airlock")
	var a, b, c, d []time.Duration
	for i := 0; i < *n; i++ {
		a = append(a, one(runner, "--proxy-socket", sock, "--", tru))
		b = append(b, one(bwrap, bare...))
		c = append(c, one(bwrap, plan.Args...))
		d = append(d, one(airlock, "run", "--proxy-socket", sock, "--", tru))
	}
	slices.Sort(a)
	slices.Sort(b)
	slices.Sort(c)
	slices.Sort(d)
	med := func(x []time.Duration) time.Duration { return x[len(x)/2] }
	fmt.Printf("runs: %d each, alternating\n", *n)
	fmt.Printf("airlock run -- true (the CLI):  median %v  (p10 %v, p90 %v)\n", med(d), d[len(d)/10], d[len(d)*9/10])
	fmt.Printf("airlock-run -- true:  median %v  (p10 %v, p90 %v)\n", med(a), a[len(a)/10], a[len(a)*9/10])
	fmt.Printf("bare bwrap, same mounts: median %v  (p10 %v, p90 %v)\n", med(b), b[len(b)/10], b[len(b)*9/10])
	fmt.Printf("bwrap with the bridge, no runner: median %v\n", med(c))
	fmt.Printf("ratio airlock run / bare bwrap (medians): %.2fx\n", float64(med(d))/float64(med(b)))
	fmt.Printf("ratio airlock-run / bare bwrap (medians): %.2fx\n", float64(med(a))/float64(med(b)))
}
