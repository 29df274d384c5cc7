//go:build linux

// Command journaltime prints the journal's goals table (issue 14) as
// whole processes, the way a user waits for them, on journals of 0, 100k
// and 1M events (bench/genjournal), with each figure's ratio to the
// empty journal:
//
//   - the hook's allowed and deferred calls and the Stop hook, in process
//     (airlock hook) and through the resident decision service
//     (airlock-hook answered by an airlock hookd started per size);
//   - queue list with 1,000 pending items and one session's report;
//   - 200 deferred hooks started at once, p50 and p99 of their wall time,
//     in process and through the service;
//   - the floor program (bench/floor) fed the allowed call, the yardstick
//     of "within 1.5x the floor".
//
// Each run is one fork and exec of the binary, the event file as its
// standard input and /dev/null as its output: no shell or timing process
// sits around it. Cases and sizes are interleaved round by round, so that
// machine noise hits every size alike, and medians are reported: the wall
// time (what a user waits) and the CPU time of the process (user +
// system, from its rusage: steadier on a shared machine, since waiting
// for a core is not counted). Through the service only the client's CPU
// is the process's: read the wall time there.
//
//	go run ./bench/journaltime                         # 20 rounds, 0 / 100k / 1M
//	go run ./bench/journaltime -rounds 5 -sizes 0,100000
//
// A 1M-event journal and its index are about 360 MB: everything goes
// under one mktemp directory in /tmp, removed on exit.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Events as Claude Code sends them. The allowed and deferred calls are in
// their own session, so that the Stop hook's session keeps the same lines
// through every round: at 1M it is the 2,000-line session genjournal ends
// with (two held calls), on the empty journal one held call seeded before
// timing. Either way the Stop hook has something to report.
const (
	callFmt  = `{"session_id":"%s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"toolu_01"}`
	stopJSON = `{"session_id":"bench-session","cwd":"/tmp","hook_event_name":"Stop","stop_hook_active":false}`
)

// A testCase is one whole process a user waits for.
type testCase struct {
	name    string
	goal    string
	service bool // run through airlock-hook; needs the size's hookd
	args    []string
	stdin   string // a file name under the run's directory; "" for /dev/null
	// want is what its standard output must contain, checked once before
	// timing, so that a case that fails is reported instead of timed.
	want string
}

var cases = []testCase{
	{name: "hook, allowed call", goal: "within 1.5x the floor", args: []string{"hook", "claude-code"}, stdin: "allow.json"},
	{name: "hook, deferred call", goal: "<= 1.5x empty", args: []string{"hook", "claude-code"}, stdin: "defer.json", want: "queued as"},
	{name: "Stop hook", goal: "<= 30 ms", args: []string{"hook", "claude-code"}, stdin: "stop.json", want: "DEFERRED ACTIONS REQUIRE REVIEW"},
	{name: "queue list (1,000 pending at 100k, 1M)", goal: "<= 100 ms", args: []string{"queue", "list"}, want: "pending"},
	{name: "report --session (2,000 lines at 100k, 1M)", goal: "<= 100 ms", args: []string{"report", "--session", "bench-session"}, want: "DEFERRED"},
	{name: "hook, allowed call, service", service: true, args: []string{"claude-code"}, stdin: "allow.json"},
	{name: "hook, deferred call, service", goal: "<= 1.5x empty", service: true, args: []string{"claude-code"}, stdin: "defer.json", want: "queued as"},
	{name: "Stop hook, service", goal: "<= 30 ms", service: true, args: []string{"claude-code"}, stdin: "stop.json", want: "DEFERRED ACTIONS REQUIRE REVIEW"},
}

// size is one journal under test, with its private state and service.
type size struct {
	n     int
	root  string
	env   []string
	hookd *exec.Cmd
}

// sample is one run's wall and CPU time.
type sample struct{ wall, cpu time.Duration }

func main() {
	rounds := flag.Int("rounds", 20, "timed `rounds`; each runs every case on every size once")
	sizesFlag := flag.String("sizes", "0,100000,1000000", "journal sizes in events, comma-separated; the first is the one ratios are to")
	burst := flag.Int("burst", 200, "deferred hooks started at once per size and path; 0: none")
	service := flag.Bool("service", true, "also time airlock-hook through an airlock hookd per size")
	flag.Parse()
	var sizes []int
	for _, s := range strings.Split(*sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			fatal(fmt.Errorf("-sizes: %q is not a number of events", s))
		}
		sizes = append(sizes, n)
	}
	if err := run(*rounds, sizes, *burst, *service); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "journaltime:", err)
	os.Exit(1)
}

func run(rounds int, ns []int, burst int, withService bool) error {
	// A short root: a service's socket address must fit in 108 bytes.
	root, err := os.MkdirTemp("/tmp", "jt")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	bin := filepath.Join(root, "bin")
	for _, b := range []struct{ name, pkg string }{
		{"airlock", "./cmd/airlock"}, {"airlock-hook", "./cmd/airlock-hook"}, {"floor", "./bench/floor"}, {"genjournal", "./bench/genjournal"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, b.name), b.pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	for name, text := range map[string]string{
		"allow.json": fmt.Sprintf(callFmt, "work-session", "go test ./... && git status"),
		"defer.json": fmt.Sprintf(callFmt, "work-session", "git -C /tmp/repo push origin main"),
		"seed.json":  fmt.Sprintf(callFmt, "bench-session", "git -C /tmp/repo push origin main"),
		"stop.json":  stopJSON,
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o600); err != nil {
			return err
		}
	}

	var sizes []*size
	defer func() {
		for _, s := range sizes {
			s.stopService(bin)
		}
	}()
	for _, n := range ns {
		s := &size{n: n, root: filepath.Join(root, strconv.Itoa(n))}
		home := filepath.Join(s.root, "home")
		if err := os.MkdirAll(home, 0o700); err != nil {
			return err
		}
		s.env = append(os.Environ(), "HOME="+home, "AIRLOCK_HOME="+filepath.Join(s.root, "state"),
			"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_STATE_HOME="+filepath.Join(home, ".local/state"),
			"AIRLOCK_MODE=unattended")
		sizes = append(sizes, s)
		if n > 0 {
			cmd := exec.Command(filepath.Join(bin, "genjournal"), "-n", strconv.Itoa(n), "-dir", filepath.Join(s.root, "state", "journal"))
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("genjournal -n %d: %v\n%s", n, err, out)
			}
		} else if _, _, err := s.exec(filepath.Join(bin, "airlock"), []string{"hook", "claude-code"}, filepath.Join(root, "seed.json")); err != nil {
			return err
		}
		syscall.Sync()
		// First use indexes the journal, as after an upgrade.
		smp, _, err := s.exec(filepath.Join(bin, "airlock"), []string{"queue", "list"}, "")
		if err != nil {
			return err
		}
		fmt.Printf("size %d: first use (indexes the journal) %s, %s on disk\n", n, ms(smp.wall), diskSize(filepath.Join(s.root, "state")))
		if withService {
			if err := s.startService(bin); err != nil {
				return err
			}
		}
	}

	var active []testCase
	for _, c := range cases {
		if c.service && !withService {
			continue
		}
		active = append(active, c)
	}
	// Each case answers as it should before it is timed.
	for _, s := range sizes {
		for _, c := range active {
			_, out, err := s.exec(c.binary(bin), c.args, c.input(root))
			if err != nil {
				return fmt.Errorf("%s, %d events: %v", c.name, s.n, err)
			}
			if c.want != "" && !bytes.Contains(out, []byte(c.want)) {
				return fmt.Errorf("%s, %d events: the reply has no %q:\n%s", c.name, s.n, c.want, out)
			}
		}
	}

	got := map[string][]sample{}
	floor := filepath.Join(bin, "floor")
	for r := 0; r < rounds; r++ {
		smp, _, err := sizes[0].exec(floor, nil, filepath.Join(root, "allow.json"))
		if err != nil {
			return err
		}
		got["floor"] = append(got["floor"], smp)
		for k := range sizes {
			// Flip the order of the sizes every round, so that no size
			// always runs right after another's cache misses.
			s := sizes[k]
			if r%2 == 1 {
				s = sizes[len(sizes)-1-k]
			}
			for _, c := range active {
				smp, _, err := s.exec(c.binary(bin), c.args, c.input(root))
				if err != nil {
					return fmt.Errorf("%s, %d events: %v", c.name, s.n, err)
				}
				key := fmt.Sprintf("%s/%d", c.name, s.n)
				got[key] = append(got[key], smp)
			}
		}
	}

	var load [3]float64
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscan(string(b), &load[0], &load[1], &load[2])
	}
	fl := median(got["floor"])
	fmt.Printf("\n%d rounds, %s, load average %.2f %.2f %.2f; medians; floor program (bench/floor) %s wall / %s CPU\n\n",
		rounds, time.Now().UTC().Format("2006-01-02 15:04 UTC"), load[0], load[1], load[2], ms(fl.wall), ms(fl.cpu))
	head := "| what (wall / CPU) |"
	rule := "|---|"
	for _, s := range sizes {
		head += fmt.Sprintf(" %s |", events(s.n))
		rule += "---|"
	}
	fmt.Printf("%s ratio at %s (wall / CPU) | goal |\n%s---|---|\n", head, events(sizes[len(sizes)-1].n), rule)
	for _, c := range active {
		line := "| " + c.name + " |"
		var first, last sample
		for i, s := range sizes {
			m := median(got[fmt.Sprintf("%s/%d", c.name, s.n)])
			if i == 0 {
				first = m
			}
			last = m
			line += fmt.Sprintf(" %s / %s |", ms(m.wall), ms(m.cpu))
		}
		ratio := fmt.Sprintf(" %.2fx / %.2fx", float64(last.wall)/float64(first.wall), float64(last.cpu)/float64(first.cpu))
		if c.name == "hook, allowed call" {
			ratio += fmt.Sprintf(" (%s: %.2fx / %.2fx the floor)", events(sizes[len(sizes)-1].n), float64(last.wall)/float64(fl.wall), float64(last.cpu)/float64(fl.cpu))
		}
		fmt.Printf("%s%s | %s |\n", line, ratio, c.goal)
	}

	if burst <= 0 {
		return nil
	}
	fmt.Printf("\n%d deferred hooks started at once (wall time of each, from its start to its exit):\n\n", burst)
	fmt.Println("| path | events | p50 | p99 | max | goal |")
	fmt.Println("|---|---|---|---|---|---|")
	paths := []testCase{cases[1]}
	if withService {
		paths = append(paths, cases[6])
	}
	// The same burst of the floor program, which reads the event and
	// prints a fixed reply: what n process start-ups alone cost on this
	// machine, the bound no process-per-call hook can beat.
	{
		walls, err := sizes[0].burst(filepath.Join(bin, "floor"), nil, filepath.Join(root, cases[1].stdin), burst)
		if err != nil {
			return fmt.Errorf("burst, floor: %v", err)
		}
		p := func(q float64) string { return ms(walls[max(int(q*float64(len(walls)))-1, 0)]) }
		fmt.Printf("| floor program (decides nothing, journals nothing) | - | %s | %s | %s | the machine's bound |\n", p(0.5), p(0.99), ms(walls[len(walls)-1]))
	}
	for _, s := range sizes {
		for _, c := range paths {
			walls, err := s.burst(c.binary(bin), c.args, c.input(root), burst)
			if err != nil {
				return fmt.Errorf("burst, %s, %d events: %v", c.name, s.n, err)
			}
			p := func(q float64) string { return ms(walls[max(int(q*float64(len(walls)))-1, 0)]) }
			path := "in process (airlock hook)"
			if c.service {
				path = "airlock-hook + hookd"
			}
			fmt.Printf("| %s | %s | %s | %s | %s | p99 <= 1 s |\n", path, events(s.n), p(0.5), p(0.99), ms(walls[len(walls)-1]))
		}
	}
	return nil
}

func (c testCase) binary(bin string) string {
	if c.service {
		return filepath.Join(bin, "airlock-hook")
	}
	return filepath.Join(bin, "airlock")
}

func (c testCase) input(root string) string {
	if c.stdin == "" {
		return ""
	}
	return filepath.Join(root, c.stdin)
}

// exec runs one process in the size's environment and returns its times
// and its standard output. An exit status is not an error: a report
// with items to review exits 1, as does a queue list with pending items.
func (s *size) exec(path string, args []string, stdin string) (sample, []byte, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = s.env
	cmd.Dir = s.root
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return sample{}, nil, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return sample{}, nil, err
	}
	if exit != nil && exit.ExitCode() > 1 {
		return sample{}, nil, fmt.Errorf("%s %s: exit %d\n%s", filepath.Base(path), strings.Join(args, " "), exit.ExitCode(), out.Bytes())
	}
	return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, out.Bytes(), nil
}

// burst starts n processes at once and returns their wall times, sorted.
func (s *size) burst(path string, args []string, stdin string, n int) ([]time.Duration, error) {
	walls := make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			smp, _, err := s.exec(path, args, stdin)
			walls[i], errs[i] = smp.wall, err
		}()
	}
	close(gate)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	slices.Sort(walls)
	return walls, nil
}

// startService starts an airlock hookd on the size's state directory and
// waits for its socket.
func (s *size) startService(bin string) error {
	s.hookd = exec.Command(filepath.Join(bin, "airlock"), "hookd", "--idle", "1h")
	s.hookd.Env = s.env
	s.hookd.Dir = s.root
	if err := s.hookd.Start(); err != nil {
		return err
	}
	sock := filepath.Join(s.root, "state", "hookd.sock")
	for i := 0; ; i++ {
		if _, err := os.Stat(sock); err == nil {
			return nil
		}
		if i > 3000 {
			return errors.New("airlock hookd did not listen within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stopService asks the size's hookd to stop, and kills it if it does not.
func (s *size) stopService(bin string) {
	if s.hookd == nil {
		return
	}
	stop := exec.Command(filepath.Join(bin, "airlock"), "hookd", "--stop")
	stop.Env = s.env
	if stop.Run() != nil {
		s.hookd.Process.Kill()
	}
	s.hookd.Wait()
	s.hookd = nil
}

func median(ss []sample) sample {
	if len(ss) == 0 {
		return sample{}
	}
	w := make([]time.Duration, len(ss))
	c := make([]time.Duration, len(ss))
	for i, s := range ss {
		w[i], c[i] = s.wall, s.cpu
	}
	slices.Sort(w)
	slices.Sort(c)
	return sample{wall: w[len(w)/2], cpu: c[len(c)/2]}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func events(n int) string {
	switch {
	case n == 0:
		return "empty"
	case n%1000000 == 0:
		return fmt.Sprintf("%dM", n/1000000)
	case n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

// diskSize is the bytes under dir, in MB.
func diskSize(dir string) string {
	var total int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		return nil
	})
	return fmt.Sprintf("%.1f MB", float64(total)/1e6)
}
