//go:build linux

// Command runstart measures the start-up of "airlock run -- true" against
// a bare bubblewrap of the same mounts running true, alternating the runs
// so that the machine's load falls on all alike (docs/BENCHMARKS.md).
//
//	for b in airlock airlock-run airlock-bridge; do CGO_ENABLED=0 go build -o /tmp/ar/$b ./cmd/$b; done
//	go run ./bench/runstart -bin /tmp/ar -n 200
//
// Run it from a project directory (a git checkout): the plan, and so the
// mounts, depend on where it runs. "airlock run -- true" starts its own
// door (the egress proxy, as a user's run does); its state (journal, CA)
// goes to a temporary AIRLOCK_HOME, never the user's.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/run"
	runpkg "github.com/airlock-dev/airlock/internal/contain/run/runner"
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
	// The runs' state: a temporary AIRLOCK_HOME (the door's journal and
	// CA are made there on the warm-up run).
	state := filepath.Join(dir, "state")
	os.Setenv("AIRLOCK_HOME", state)
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
	// The protected paths missing here get their placeholders for the
	// whole measurement, as airlock run makes them for its run: without
	// them the bare bubblewrap has no source to bind.
	undo, err := runpkg.MakePlaceholders(plan.Placeholders)
	if err != nil {
		fmt.Fprintln(os.Stderr, "runstart: placeholders:", err)
		os.Exit(1)
	}
	defer undo()
	cut := slices.Index(plan.Args, bridgeBin)
	bare := append(append([]string{}, plan.Args[:cut]...), tru)
	// --as-pid-1 stays: true is then the namespace's init, as the bridge is.
	// cpu is the CPU time of every process of the run (each is waited
	// for by its parent, so the run's whole tree is counted): on a loaded
	// machine the wall clock swings with the other jobs, this much less.
	cpu := map[string][]time.Duration{}
	one := func(label, name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Env = plan.Env
		c0 := childCPU()
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "runstart: %s: %v\n%s", name, err, out)
			undo() // os.Exit runs no deferred call
			os.Exit(1)
		}
		d := time.Since(t0)
		cpu[label] = append(cpu[label], childCPU()-c0)
		return d
	}
	// The plan as airlock-run starts it (bridge included), without
	// airlock-run's own process around it: splits the overhead between
	// the bridge inside and the runner outside.
	// airlock run through the airlock CLI, which starts airlock-run.
	airlock := filepath.Join(*bin, "airlock")
	one("warm-up", airlock, "run", "--", tru) // the CA is made once
	delete(cpu, "warm-up")
	var a, b, c, d, e []time.Duration
	for i := 0; i < *n; i++ {
		e = append(e, one("1 airlock run -- true (its own door)", airlock, "run", "--", tru))
		a = append(a, one("3 airlock-run --proxy-socket S -- true", runner, "--proxy-socket", sock, "--", tru))
		b = append(b, one("5 bare bwrap, same mounts, true", bwrap, bare...))
		c = append(c, one("4 bwrap with the bridge, no runner", bwrap, plan.Args...))
		d = append(d, one("2 airlock run --proxy-socket S -- true", airlock, "run", "--proxy-socket", sock, "--", tru))
	}
	med := func(x []time.Duration) time.Duration { return x[len(x)/2] }
	fmt.Printf("runs: %d each, alternating\n", *n)
	for _, r := range []struct {
		name string
		x    []time.Duration
	}{
		{"airlock run -- true (its own door)", e},
		{"airlock run --proxy-socket S -- true", d},
		{"airlock-run --proxy-socket S -- true", a},
		{"bwrap with the bridge, no runner", c},
		{"bare bwrap, same mounts, true", b},
	} {
		slices.Sort(r.x)
		fmt.Printf("%-40s median %8.2f ms  (p10 %8.2f, p90 %8.2f)\n", r.name, ms(med(r.x)), ms(r.x[len(r.x)/10]), ms(r.x[len(r.x)*9/10]))
	}
	fmt.Println("CPU time of the run's processes (user+system), medians:")
	keys := make([]string, 0, len(cpu))
	for k := range cpu {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		slices.Sort(cpu[k])
		fmt.Printf("  %-40s %8.2f ms\n", k[2:], ms(med(cpu[k])))
	}
	bareCPU := med(cpu["5 bare bwrap, same mounts, true"])
	fmt.Printf("CPU ratio airlock run (own door) / bare bwrap: %.2fx\n", float64(med(cpu["1 airlock run -- true (its own door)"]))/float64(bareCPU))
	fmt.Printf("ratio airlock run (own door) / bare bwrap (medians): %.2fx\n", float64(med(e))/float64(med(b)))
	fmt.Printf("ratio airlock run --proxy-socket / bare bwrap (medians): %.2fx\n", float64(med(d))/float64(med(b)))
	fmt.Printf("ratio airlock-run --proxy-socket / bare bwrap (medians): %.2fx\n", float64(med(a))/float64(med(b)))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// childCPU is the user and system time of the children waited for.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
