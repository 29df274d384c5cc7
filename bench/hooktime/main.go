//go:build linux

// Command hooktime times airlock as a whole process against the floor
// program (bench/floor), the way an agent pays for it: one process per
// tool call, the event on standard input.
//
// Each run is one fork and exec of the binary itself, with the event file
// as its standard input and /dev/null as its output: no shell and no
// timing processes sit around either side, so the ratio is not compressed
// by a fixed cost added to both (the bias of the shell loop it replaces).
// The binaries alternate run by run, the order flips every round so that
// neither always runs on a cache warmed by the other, and the median and
// 90th percentile of many runs are reported, with the ratio of medians.
//
//	go run ./bench/hooktime                      # builds both, 300 rounds
//	go run ./bench/hooktime -n 500 -airlock before=/tmp/x/airlock-main
//
// Every -airlock binary gets its own private state directory (HOME,
// XDG_*, AIRLOCK_HOME), so the held case's journal is its own; before
// timing, each case is run once and its reply checked, so a binary that
// fails or answers wrongly is reported instead of timed.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A testCase is one way airlock is called, with what its reply must hold.
type testCase struct {
	name  string
	args  []string
	stdin string   // event given on standard input; empty: /dev/null
	env   []string // added to the binary's environment
	// want is a substring airlock's standard output must contain (empty:
	// the output must be empty, Claude Code's "no objection") and status
	// its exit status, checked once before timing.
	want   string
	status int
}

const eventFmt = `{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q,"description":"d"},"tool_use_id":"toolu_01"}`

// cases are the calls the floor is compared with: the hook's allowed call,
// a held one in interactive mode (ask: appended and fsynced) and in
// unattended mode (defer: queued, which also looks through the journal
// for a human's approval of it, then appended and fsynced), the check
// command, and --version (start-up alone).
var cases = []testCase{
	{name: "hook allowed", args: []string{"hook", "claude-code", "--event", "PreToolUse"},
		stdin: fmt.Sprintf(eventFmt, "go test ./... && git status")},
	// An attended interactive session, as Claude Code in a terminal says
	// it is one: a held call is an ask.
	{name: "hook held", args: []string{"hook", "claude-code", "--event", "PreToolUse"},
		env:   []string{"CLAUDE_CODE_SESSION_ATTENDED=1", "CLAUDE_CODE_ENTRYPOINT=cli"},
		stdin: fmt.Sprintf(eventFmt, "git -C /tmp/repo push origin main"), want: `"ask"`},
	{name: "hook deferred", args: []string{"hook", "claude-code", "--event", "PreToolUse"}, env: []string{"AIRLOCK_MODE=unattended"},
		stdin: fmt.Sprintf(eventFmt, "git -C /tmp/repo push origin main"), want: "queued as"},
	{name: "check allowed", args: []string{"check", "--json", "go test ./... && git status"}, want: `"allow"`},
	// The same allowed call in every other agent's wire format: the same
	// decision, different JSON (internal/agent/hookrun).
	agentCase("codex", "PreToolUse", `{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/tmp","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"call_1"}`, ""),
	agentCase("gemini", "BeforeTool", `{"session_id":"s1","transcript_path":"/tmp/t.json","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-12-01T16:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":%q,"description":"d"}}`, "{}"),
	agentCase("copilot", "preToolUse", `{"sessionId":"s1","timestamp":1764604800000,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":%q,"description":"d"}}`, ""),
	agentCase("opencode", "", `{"event":"tool.execute.before","tool":"bash","sessionID":"ses_1","callID":"call_1","args":{"command":%q,"description":"d"},"directory":"/tmp"}`, `"allow"`),
	agentCase("factory", "PreToolUse", `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":%q}}`, ""),
	agentCase("qwen", "PreToolUse", `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":%q}}`, ""),
	agentCase("cursor", "beforeShellExecution", `{"conversation_id":"c1","generation_id":"g1","hook_event_name":"beforeShellExecution","workspace_roots":["/tmp"],"command":%q,"cwd":"/tmp"}`, "{}"),
	agentCase("kiro", "preToolUse", `{"hook_event_name":"preToolUse","cwd":"/tmp","tool_name":"execute_bash","tool_input":{"command":%q}}`, ""),
	agentCase("goose", "PreToolUse", `{"event":"PreToolUse","session_id":"s1","tool_name":"developer__shell","tool_input":{"command":%q},"working_dir":"/tmp"}`, ""),
	agentCase("cline", "PreToolUse", `{"clineVersion":"3.0.65","hookName":"PreToolUse","taskId":"t1","workspaceRoots":["/tmp"],"preToolUse":{"toolName":"execute_command","parameters":{"command":%q}}}`, `"cancel":false`),
	{name: "--version", args: []string{"--version"}, want: "airlock"},
	// The status line, as Claude Code runs it every few hundred
	// milliseconds: its JSON on stdin, one small state file read
	// (statusState, which run writes and points AIRLOCK_HOME at). The
	// reply must show the held count: the file was read.
	{name: "statusline", args: []string{"statusline"}, want: "airlock ⏸ 3 held · unattended",
		stdin: `{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","model":{"id":"m","display_name":"M"},"workspace":{"current_dir":"/tmp","project_dir":"/tmp"},"version":"2.1.0","cost":{"total_cost_usd":0.01}}`},
}

// agentCase is the allowed hook call in another agent's format: eventFmt
// is that agent's event with a %q for the command, want its "no
// objection" reply.
func agentCase(agent, event, eventFmt, want string) testCase {
	args := []string{"hook", agent}
	if event != "" {
		args = append(args, "--event", event)
	}
	return testCase{name: "allowed, " + agent + " hook", args: args, stdin: fmt.Sprintf(eventFmt, "go test ./... && git status"), want: want}
}

// A binary is one program under test, with its own state directory.
type binary struct {
	label, path string
	env         []string
	// checked: an airlock, whose replies are checked; hookOnly: a hook
	// script that is timed only on the cases with an event on stdin.
	checked, hookOnly bool
	// svc: the -hookd or -hookd-bin service that answers it (its CPU is
	// not the client process's, so it is reported apart); nil: none.
	svc *service
	// hookClient: airlock-hook, which takes the hook's arguments without
	// the word "hook"; timed on the hook cases only, reply checked.
	hookClient bool
	// statusLine: airlock-statusline, "airlock statusline" in a binary of
	// its own; timed on the statusline case only, reply checked.
	statusLine bool
}

// args is how b is called for c, and whether it is called at all.
func (b binary) args(c testCase) ([]string, bool) {
	if b.hookOnly && c.stdin == "" {
		return nil, false
	}
	isHook := len(c.args) > 0 && c.args[0] == "hook"
	if b.svc != nil && !isHook {
		// Only the hook goes through the service.
		return nil, false
	}
	if b.statusLine {
		if c.name != "statusline" {
			return nil, false
		}
		return c.args[1:], true
	}
	if b.hookClient {
		return c.args[1:], true
	}
	return c.args, true
}

type labelled []string

func (l *labelled) String() string     { return strings.Join(*l, ",") }
func (l *labelled) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	n := flag.Int("n", 300, "timed `rounds`; each round runs every binary once per case")
	warm := flag.Int("warmup", 20, "untimed `rounds` first")
	floorPath := flag.String("floor", "", "floor `binary`; empty: build ./bench/floor")
	only := flag.String("case", "", "run only the cases whose name contains `text`")
	hookd := flag.Bool("hookd", false, "also time the resident decision service: airlock-hook and airlock hook, both answered by an airlock hookd this process starts (built from ./cmd/airlock and ./cmd/airlock-hook, its own state directory)")
	ipc := flag.Bool("ipc", false, "also time bench/ipcfloor, a client that asks a resident service on a unix socket (served by this process) for a fixed reply: the lower bound of that design")
	grep := flag.String("grep", "bench/grep-hook.sh", "plain grep hook `script` timed on the hook cases too; empty: none")
	shuffle := flag.Bool("shuffle", false, "run the binaries of each round in a shuffled order (never the last one of a round first in the next) instead of alternating forward and backward: alternating runs the last-listed binary twice in a row at every other round boundary, on caches it warmed itself, which favours it by several per cent")
	copyBins := flag.Bool("copy", false, "time copies of the floor and airlock binaries, written into the temporary directory as cp writes a file (read and write), instead of the files themselves: a binary the Go linker just wrote costs each process more per page of it touched than the same bytes written by cp (docs/BENCHMARKS.md, \"How the binary got into the page cache\")")
	var airlocks, hookdBins labelled
	flag.Var(&airlocks, "airlock", "airlock `[label=]path` to time, repeatable; none: build ./cmd/airlock")
	flag.Var(&hookdBins, "hookd-bin", "also time the airlock-hook in `[label=]dir`, answered by an airlock hookd started from the airlock beside it (its own state directory); repeatable, so that two builds' services are timed side by side in one run")
	flag.Parse()
	if err := run(*n, *warm, *floorPath, *grep, *ipc, *hookd, *copyBins, *shuffle, airlocks, hookdBins, *only); err != nil {
		fmt.Fprintln(os.Stderr, "hooktime: error:", err)
		os.Exit(1)
	}
}

func run(n, warm int, floorPath, grep string, ipc, hookd, copyBins, shuffle bool, airlocks, hookdBins []string, only string) error {
	dir, err := os.MkdirTemp("", "hooktime")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := writeStatusState(dir); err != nil {
		return err
	}
	if floorPath == "" {
		if floorPath, err = build(dir, "floor", "./bench/floor"); err != nil {
			return err
		}
	}
	if len(airlocks) == 0 {
		p, err := build(dir, "airlock", "./cmd/airlock")
		if err != nil {
			return err
		}
		airlocks = []string{"airlock=" + p}
	}
	if copyBins {
		if floorPath, err = copyBinary(dir, "floor.copy", floorPath); err != nil {
			return err
		}
	}
	floor := binary{label: "floor", path: floorPath, env: privateEnv(filepath.Join(dir, "floor"))}
	bins := []binary{floor}
	for i, a := range airlocks {
		label, path, ok := strings.Cut(a, "=")
		if !ok {
			label, path = fmt.Sprintf("airlock%d", i+1), a
		}
		if copyBins {
			if path, err = copyBinary(dir, fmt.Sprintf("airlock%d.copy", i), path); err != nil {
				return err
			}
		}
		bins = append(bins, binary{label: label, path: path, env: privateEnv(filepath.Join(dir, fmt.Sprintf("state%d", i))), checked: true})
	}
	if grep != "" {
		bins = append(bins, binary{label: "grep hook", path: grep, env: floor.env, hookOnly: true})
	}
	if ipc {
		client, err := build(dir, "ipcfloor", "./bench/ipcfloor")
		if err != nil {
			return err
		}
		sock := filepath.Join(dir, "ipc.sock")
		l, err := serveFixed(sock)
		if err != nil {
			return err
		}
		defer l.Close()
		bins = append(bins, binary{label: "ipc client", path: client, env: slices.Concat(floor.env, []string{"IPCFLOOR_SOCK=" + sock}), hookOnly: true})
	}
	var svcs []*service
	if hookd {
		svc, err := startService(dir)
		if err != nil {
			return err
		}
		defer svc.stop()
		svcs = append(svcs, svc)
		bins = append(bins,
			binary{label: "via hookd", path: svc.airlock, env: svc.env, checked: true, svc: svc},
			binary{label: "airlock-hook", path: svc.client, env: svc.env, checked: true, hookClient: true, svc: svc})
	}
	for i, hb := range hookdBins {
		label, bdir, ok := strings.Cut(hb, "=")
		if !ok {
			label, bdir = fmt.Sprintf("hookd%d", i+1), hb
		}
		svc, err := startServiceFrom(filepath.Join(bdir, "airlock"), filepath.Join(bdir, "airlock-hook"))
		if err != nil {
			return err
		}
		defer svc.stop()
		svc.label = label
		svcs = append(svcs, svc)
		bins = append(bins, binary{label: "airlock-hook " + label, path: svc.client, env: svc.env, checked: true, hookClient: true, svc: svc})
	}
	var selected []testCase
	for _, c := range cases {
		if strings.Contains(c.name, only) {
			selected = append(selected, c)
		}
	}
	if slices.ContainsFunc(selected, func(c testCase) bool { return c.name == "statusline" }) {
		// The status line's own binary reads the first airlock's state.
		p, err := build(dir, "airlock-statusline", "./cmd/airlock-statusline")
		if err != nil {
			return err
		}
		bins = append(bins, binary{label: "airlock-statusline", path: p, env: bins[1].env, checked: true, statusLine: true})
	}
	inputs := make([]*os.File, len(selected))
	for i, c := range selected {
		f := filepath.Join(dir, fmt.Sprintf("event%d.json", i))
		if err := os.WriteFile(f, []byte(c.stdin), 0o600); err != nil {
			return err
		}
		if inputs[i], err = os.Open(f); err != nil {
			return err
		}
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	// Check every reply once, so that a broken build is not timed.
	for i, c := range selected {
		for _, b := range bins {
			if _, ok := b.args(c); !ok || !b.checked {
				continue
			}
			if err := check(b, c, inputs[i]); err != nil {
				return err
			}
		}
	}
	// wall[case][binary], cpu and faults: one figure per round.
	wall := make([][][]time.Duration, len(selected))
	cpu := make([][][]time.Duration, len(selected))
	faults := make([][][]time.Duration, len(selected))
	for i := range selected {
		wall[i] = make([][]time.Duration, len(bins))
		cpu[i] = make([][]time.Duration, len(bins))
		faults[i] = make([][]time.Duration, len(bins))
	}
	order := make([]int, len(bins))
	rng := rand.New(rand.NewPCG(1, 2))
	for r := range warm + n {
		if r == warm {
			for _, svc := range svcs {
				svc.cpu0, svc.switches0, svc.run0 = svc.cpu(), svc.switches(), svc.runTime()
			}
		}
		last := -1
		if r > 0 {
			last = order[len(order)-1]
		}
		for j := range order {
			order[j] = j
		}
		switch {
		case shuffle:
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			if len(order) > 1 && order[0] == last {
				order[0], order[len(order)-1] = order[len(order)-1], order[0]
			}
		case r%2 == 1:
			slices.Reverse(order)
		}
		for i, c := range selected {
			for _, j := range order {
				if _, ok := bins[j].args(c); !ok {
					continue
				}
				w, u, f, err := once(bins[j], c, inputs[i], devnull)
				if err != nil {
					return err
				}
				if r >= warm {
					if bins[j].svc != nil {
						bins[j].svc.served++
					}
					wall[i][j] = append(wall[i][j], w)
					cpu[i][j] = append(cpu[i][j], u)
					faults[i][j] = append(faults[i][j], time.Duration(f))
				}
			}
		}
	}
	report(os.Stdout, n, warm, bins, selected, wall, cpu, faults)
	for _, svc := range svcs {
		svc.report(os.Stdout)
	}
	return nil
}

// serveFixed answers every connection on a unix socket at path, once the
// client has sent its whole event, with the floor's fixed reply: the
// resident half of the design bench/ipcfloor measures, at no cost of its
// own.
func serveFixed(path string) (net.Listener, error) {
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(io.Discard, c)
				c.Write([]byte(`{"decision":"allow"}` + "\n"))
			}()
		}
	}()
	return l, nil
}

// build compiles pkg the way it ships (no cgo) into dir.
func build(dir, name, pkg string) (string, error) {
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build %s: %w", pkg, err)
	}
	return out, nil
}

// copyBinary copies the program at path into dir as name, the way cp
// does, and returns the copy's path.
func copyBinary(dir, name, path string) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out := filepath.Join(dir, name)
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, in); err != nil {
		f.Close()
		return "", err
	}
	return out, f.Close()
}

// privateEnv is the environment with every directory airlock reads or
// writes moved under root, so no user's policy or journal is touched.
func privateEnv(root string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		// Nothing of the harness's own session (an agent running it, a
		// mode, a story) reaches the binaries: each case says what it sets.
		if k == "HOME" || k == "GODEBUG" || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "AIRLOCK_") || strings.HasPrefix(k, "CLAUDE_") {
			continue
		}
		env = append(env, kv)
	}
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o700)
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(root, "config"), "XDG_STATE_HOME="+filepath.Join(root, "state"))
}

// statusState is a status line state of a working day: three held
// actions in two sessions, and a dozen sessions with their marks (the
// format is internal/statusline's).
const statusState = `{"v":1,"held":3,"sessions":[` +
	`{"id":"s1","held":2,"mode":"unattended","marks":["gate-off"],"cwd":"/tmp","time":1800000000},` +
	`{"id":"s2","held":1,"mode":"unattended","marks":["gate-off"],"cwd":"/src/b","time":1800000001},` +
	`{"id":"s3","mode":"interactive","marks":["gate-off","loosened"],"cwd":"/src/c","time":1800000002},` +
	`{"id":"s4","mode":"interactive","marks":["gate-off"],"cwd":"/src/d","time":1800000003},` +
	`{"id":"s5","mode":"interactive","marks":["gate-off"],"cwd":"/src/e","time":1800000004},` +
	`{"id":"s6","mode":"supervised","marks":["contained","gate-off"],"cwd":"/src/f","time":1800000005},` +
	`{"id":"s7","mode":"interactive","marks":["gate-off"],"cwd":"/src/g","time":1800000006},` +
	`{"id":"s8","mode":"interactive","marks":["gate-off"],"cwd":"/src/h","time":1800000007},` +
	`{"id":"s9","mode":"interactive","marks":["gate-off"],"cwd":"/src/i","time":1800000008},` +
	`{"id":"s10","mode":"interactive","marks":["gate-off"],"cwd":"/src/j","time":1800000009}]}` + "\n"

// writeStatusState writes statusState under dir and points the
// statusline case at it.
func writeStatusState(dir string) error {
	home := filepath.Join(dir, "status-home")
	if err := os.MkdirAll(filepath.Join(home, "journal"), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, "journal", "STATUS"), []byte(statusState), 0o600); err != nil {
		return err
	}
	for i := range cases {
		if cases[i].name == "statusline" {
			cases[i].env = []string{"AIRLOCK_HOME=" + home}
		}
	}
	return nil
}

// check runs one case once and compares its reply and status.
func check(b binary, c testCase, in *os.File) error {
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return err
	}
	args, _ := b.args(c)
	cmd := exec.Command(b.path, args...)
	cmd.Env, cmd.Stdin = slices.Concat(b.env, c.env), in
	if c.stdin == "" {
		cmd.Stdin = nil
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	status := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		status = exit.ExitCode()
	} else if err != nil {
		return fmt.Errorf("%s %s: %w", b.label, c.name, err)
	}
	if status != c.status || !strings.Contains(out.String(), c.want) || c.want == "" && out.Len() > 0 {
		return fmt.Errorf("%s %s: exit %d, output %q, stderr %q; want exit %d and %s", b.label, c.name, status, out.String(), errb.String(), c.status, c.want)
	}
	return nil
}

// once starts the binary directly (os.StartProcess: fork and exec, no
// shell) and returns the wall time from just before the fork to the end
// of the wait, the process's user+system CPU time, and its minor page
// faults (a count that machine load does not change: pages of the binary
// and of fresh memory touched).
func once(b binary, c testCase, in, devnull *os.File) (wall, cpu time.Duration, faults int64, err error) {
	stdin := devnull
	if c.stdin != "" {
		if _, err := in.Seek(0, io.SeekStart); err != nil {
			return 0, 0, 0, err
		}
		stdin = in
	}
	args, _ := b.args(c)
	argv := append([]string{b.path}, args...)
	attr := &os.ProcAttr{Env: slices.Concat(b.env, c.env), Files: []*os.File{stdin, devnull, devnull}}
	start := time.Now()
	p, err := os.StartProcess(b.path, argv, attr)
	if err != nil {
		return 0, 0, 0, err
	}
	st, err := p.Wait()
	wall = time.Since(start)
	if err != nil {
		return 0, 0, 0, err
	}
	if b.checked && st.ExitCode() != c.status {
		return 0, 0, 0, fmt.Errorf("%s %s: exit %d", b.label, c.name, st.ExitCode())
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		faults = ru.Minflt
	}
	return wall, st.UserTime() + st.SystemTime(), faults, nil
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e6) }

// report prints, per case and binary, the median and 90th percentile of
// the wall time, the median CPU time and page faults, and the ratios of
// the medians to the floor's.
func report(w io.Writer, n, warm int, bins []binary, cs []testCase, wall, cpu, faults [][][]time.Duration) {
	host, _ := os.Hostname()
	var load []byte
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = bytes.TrimSpace(b)
	}
	fmt.Fprintf(w, "hooktime: %d rounds after %d warm-up, %d CPUs, %s/%s, %s, host %s, load %s\n",
		n, warm, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), host, load)
	fmt.Fprintf(w, "%-14s %-10s %8s %8s %8s %7s %8s %9s\n", "case", "binary", "p50 ms", "p90 ms", "cpu ms", "faults", "ratio", "cpu ratio")
	for i, c := range cs {
		fp50, fcpu := quantile(wall[i][0], 0.5), quantile(cpu[i][0], 0.5)
		for j, b := range bins {
			if len(wall[i][j]) == 0 {
				continue
			}
			p50, p90, u := quantile(wall[i][j], 0.5), quantile(wall[i][j], 0.9), quantile(cpu[i][j], 0.5)
			ratio, cratio := "1", "1"
			if j > 0 {
				ratio = fmt.Sprintf("%.2fx", float64(p50)/float64(fp50))
				cratio = fmt.Sprintf("%.2fx", float64(u)/float64(fcpu))
			}
			fmt.Fprintf(w, "%-14s %-10s %8s %8s %8s %7d %8s %9s\n", c.name, b.label, ms(p50), ms(p90), ms(u), int64(quantile(faults[i][j], 0.5)), ratio, cratio)
		}
	}
}
