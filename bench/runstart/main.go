//go:build linux

// Command runstart measures the start-up of "airlock run -- true" against
// a bare bubblewrap of the same mounts running true, alternating the runs
// so that the machine's load falls on all alike (docs/BENCHMARKS.md).
//
//	for b in airlock airlock-run airlock-bridge; do CGO_ENABLED=0 go build -o /tmp/ar/$b ./cmd/$b; done
//	go run ./bench/runstart -bin /tmp/ar -n 200
//
// With -before DIR (the binaries of another tree, e.g. main's), each run
// of DIR's binaries alternates with the same run of -bin's, so that a
// change is measured side by side under the same load; the bare
// bubblewrap is the same for both.
//
// Run it from a project directory (a git checkout): the plan, and so the
// mounts, depend on where it runs. "airlock run -- true" starts its own
// door (the egress proxy, as a user's run does); its state (journal, CA)
// goes to a temporary AIRLOCK_HOME, never the user's. With -get, a row
// more: a command that makes one GET through its door (curl, to a sink
// on this machine's loopback, which a policy file of the run allows),
// since the door starts at the first connection.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/run"
	runpkg "github.com/airlock-dev/airlock/internal/contain/run/runner"
)

func main() {
	bin := flag.String("bin", "", "directory holding airlock-run, airlock-bridge and airlock")
	before := flag.String("before", "", "optional: another directory of the same binaries, measured alternately with -bin's")
	n := flag.Int("n", 100, "runs of each")
	get := flag.Bool("get", false, "also time a run whose command makes one GET through its own door (curl, to a sink on this machine's loopback)")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: runstart -bin DIR [-before DIR] [-n N]")
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
	// -get: the sink the GET reaches through the door, which refuses
	// this machine's loopback unless the policy allows it (a policy file
	// for those runs only).
	var getArgs, getEnv []string
	if *get {
		curl, err := exec.LookPath("curl")
		if err != nil {
			fmt.Fprintln(os.Stderr, "runstart: -get needs curl on PATH")
			os.Exit(1)
		}
		sink, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		go http.Serve(sink, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }))
		pol := filepath.Join(dir, "policy.yaml")
		if err := os.WriteFile(pol, []byte("egress:\n  allow_loopback: true\n"), 0o644); err != nil {
			panic(err)
		}
		getArgs = []string{curl, "-sf", "-o", "/dev/null", "--noproxy", "", "-x", "http://127.0.0.1:3128", "http://" + sink.Addr().String() + "/"}
		getEnv = []string{"AIRLOCK_POLICY=" + pol}
	}
	cwd, _ := os.Getwd()
	// The trees measured: -bin's ("after" when -before is given), and
	// -before's.
	type tree struct {
		label, bin string
		plan       *run.Plan
	}
	trees := []*tree{{label: "", bin: *bin}}
	if *before != "" {
		trees = []*tree{{label: "before ", bin: *before}, {label: "after  ", bin: *bin}}
	}
	var undos []func()
	// Last made, first removed: a later tree's placeholders may lie in
	// an earlier one's (.gemini/extensions in .gemini).
	undoAll := func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
	// The bare run: the same plan's bubblewrap arguments, with true in
	// place of the bridge. The protected paths missing here get their
	// placeholders for the whole measurement, as airlock run makes them
	// for its run: without them the bare bubblewrap has no source to
	// bind. A placeholder can make another one needed (.gemini made
	// empty, then .gemini/extensions is missing in it), as the runs will
	// see them: the plans are made again until none is missing, so that
	// every row has the mounts the runs have.
	for round := 0; ; round++ {
		made := false
		for _, t := range trees {
			t.plan, err = run.NewPlan(run.Config{Environ: os.Environ(), Cwd: cwd, Executable: filepath.Join(t.bin, "airlock"),
				RunDir: dir, ProxySocket: sock, Bridge: filepath.Join(t.bin, run.BridgeBinary), Command: []string{tru}})
			if err != nil {
				fmt.Fprintln(os.Stderr, "runstart:", err)
				undoAll()
				os.Exit(1)
			}
			if len(t.plan.Placeholders) == 0 {
				continue
			}
			made = true
			undo, err := runpkg.MakePlaceholders(t.plan.Placeholders)
			undos = append(undos, undo)
			if err != nil || round > 10 {
				fmt.Fprintln(os.Stderr, "runstart: placeholders:", err, round)
				undoAll()
				os.Exit(1)
			}
		}
		if !made {
			break
		}
	}
	defer undoAll()
	plan := trees[len(trees)-1].plan
	cut := slices.Index(plan.Args, filepath.Join(*bin, run.BridgeBinary))
	bare := append(append([]string{}, plan.Args[:cut]...), tru)
	// --as-pid-1 stays: true is then the namespace's init, as the bridge is.
	// cpu is the CPU time of every process of the run (each is waited
	// for by its parent, so the run's whole tree is counted): on a loaded
	// machine the wall clock swings with the other jobs, this much less.
	cpu := map[string][]time.Duration{}
	wall := map[string][]time.Duration{}
	// A project of its own where no placeholder is held: there each run
	// makes its placeholders and removes them after, as in a project
	// that has none of the agents' directories (a row of its own; the
	// bare bubblewrap cannot run there without them).
	fresh := filepath.Join(dir, "fresh")
	if err := os.MkdirAll(filepath.Join(fresh, ".git"), 0o755); err != nil {
		panic(err)
	}
	inDir := ""
	var extraEnv []string
	one := func(label, name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Env = append(plan.Env[:len(plan.Env):len(plan.Env)], extraEnv...)
		cmd.Dir = inDir
		c0 := childCPU()
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "runstart: %s: %v\n%s", name, err, out)
			undoAll() // os.Exit runs no deferred call
			os.Exit(1)
		}
		wall[label] = append(wall[label], time.Since(t0))
		cpu[label] = append(cpu[label], childCPU()-c0)
	}
	for _, t := range trees {
		one("warm-up", filepath.Join(t.bin, "airlock"), "run", "--", tru) // the CA is made once
	}
	delete(cpu, "warm-up")
	delete(wall, "warm-up")
	// The rows, in the order printed: airlock run through the airlock
	// CLI (which starts airlock-run) with its own door, then with a door
	// already running, airlock-run alone, and the plan as airlock-run
	// starts it (bridge included) without airlock-run's own process
	// around it, which splits the overhead between the bridge inside and
	// the runner outside.
	type row struct{ key, name string }
	var rows []row
	for i := 0; i < *n; i++ {
		for ti, t := range trees {
			airlock := filepath.Join(t.bin, "airlock")
			runner := filepath.Join(t.bin, "airlock-run")
			k := func(order int, name string) string {
				key := fmt.Sprintf("%d%d %s%s", order, ti, t.label, name)
				if i == 0 {
					rows = append(rows, row{key, t.label + name})
				}
				return key
			}
			one(k(1, "airlock run -- true (its own door)"), airlock, "run", "--", tru)
			one(k(3, "airlock-run --proxy-socket S -- true"), runner, "--proxy-socket", sock, "--", tru)
			if ti == len(trees)-1 {
				one(k(5, "bare bwrap, same mounts, true"), bwrap, bare...)
			}
			one(k(4, "bwrap with the bridge, no runner"), bwrap, t.plan.Args...)
			one(k(2, "airlock run --proxy-socket S -- true"), airlock, "run", "--proxy-socket", sock, "--", tru)
			inDir = fresh
			one(k(6, "airlock run -- true, placeholders made"), airlock, "run", "--", tru)
			inDir = ""
			if *get {
				extraEnv = getEnv
				one(k(7, "airlock run -- curl, one GET (its own door)"), airlock, append([]string{"run", "--"}, getArgs...)...)
				extraEnv = nil
			}
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.key, b.key) })
	med := func(x []time.Duration) time.Duration { return x[len(x)/2] }
	fmt.Printf("runs: %d each, alternating\n", *n)
	for _, r := range rows {
		x := wall[r.key]
		slices.Sort(x)
		fmt.Printf("%-47s median %8.2f ms  (p10 %8.2f, p90 %8.2f)\n", r.name, ms(med(x)), ms(x[len(x)/10]), ms(x[len(x)*9/10]))
	}
	fmt.Println("CPU time of the run's processes (user+system), medians:")
	for _, r := range rows {
		slices.Sort(cpu[r.key])
		fmt.Printf("  %-47s %8.2f ms\n", r.name, ms(med(cpu[r.key])))
	}
	var bareKey string
	for _, r := range rows {
		if strings.HasPrefix(r.key, "5") {
			bareKey = r.key
		}
	}
	bareCPU, bareWall := med(cpu[bareKey]), med(wall[bareKey])
	for _, r := range rows {
		if r.key[0] == '1' || r.key[0] == '2' || r.key[0] == '3' || r.key[0] == '6' || r.key[0] == '7' {
			fmt.Printf("ratio to bare bwrap, %-47s wall %.2fx  CPU %.2fx\n", r.name, float64(med(wall[r.key]))/float64(bareWall), float64(med(cpu[r.key]))/float64(bareCPU))
		}
	}
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
