package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/hookline"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/vocab"
)

const doctorHelp = `
Show where airlock's Claude Code hooks are installed and which binary they
run, the policy in effect, and feed sample events through the hook (in
this process; nothing is recorded) to show that it answers as it should.

For every other agent airlock's hook is installed for (airlock install
AGENT), it checks that the configuration parses, that Codex trusts the
hook (Codex skips an untrusted hook silently), that Cursor's file names no
event Cursor does not know (one voids the file), and that the hook runs
this airlock by a path that exists. Then, when the hook's program is
this airlock (it never runs another), it runs the installed hook command
line as the agent would, on a recorded harmless call and on a
push, with a scratch state directory (nothing reaches the journal), and
checks that the first is allowed and the second refused. Each problem
comes with its fix.

Exit status: 0 when a pre-tool hook is installed and every check and
self-test passes, 1 otherwise, 2 on a usage error.`

type doctorOutput struct {
	Binary  string        `json:"binary"`
	Hooks   []doctorScope `json:"hooks"`
	Policy  doctorPolicy  `json:"policy"`
	Journal doctorJournal `json:"journal"`
	// Path is whether the airlock on PATH is this binary.
	Path pathCheck `json:"path"`
	// MCPProxy is the airlock-mcp binary next to this one, "" when absent.
	MCPProxy string         `json:"mcp_proxy"`
	SelfTest []doctorSample `json:"self_test"`
	// Agents are the other agents airlock's hook is installed for.
	Agents []doctorAgent `json:"agents"`
	// Service is the hook client, the resident service and the binaries
	// beside airlock.
	Service doctorService `json:"service"`
	// Containment is whether airlock run and Claude Code's sandbox can
	// run here (docs/CONTAIN.md).
	Containment doctorContain `json:"containment"`
	Problems    []string      `json:"problems"`
}

type doctorJournal struct {
	Dir      string `json:"dir"`
	Events   int64  `json:"events"`
	Verified bool   `json:"verified"`
	Broken   string `json:"broken,omitempty"`
	Pending  int    `json:"pending"`
	Error    string `json:"error,omitempty"`
}

type doctorScope struct {
	Scope    string              `json:"scope"`
	File     string              `json:"file"`
	Exists   bool                `json:"exists"`
	Error    string              `json:"error,omitempty"`
	Events   map[string][]string `json:"events"`
	Guarding bool                `json:"guarding"`
	RunsThis bool                `json:"runs_this_binary"`
	// Form is the PreToolUse line's form: "service" (airlock-hook) or
	// "in-process" (airlock hook).
	Form string `json:"hook_form,omitempty"`
	// Missing is a program a hook line runs that does not exist.
	Missing string `json:"missing_binary,omitempty"`
	// Untrusted is the client beside airlock that a hook line runs
	// although it fails the client's checks (hookline.Client), and
	// UntrustedWhy says which check.
	Untrusted    string `json:"untrusted_client,omitempty"`
	UntrustedWhy string `json:"untrusted_client_why,omitempty"`
}

type doctorPolicy struct {
	Mode   string        `json:"mode,omitempty"`
	Gate   *gateOutput   `json:"gate,omitempty"`
	Layers []layerOutput `json:"layers,omitempty"`
	Error  string        `json:"error,omitempty"`
}

type doctorSample struct {
	Name   string `json:"name"`
	Want   string `json:"want"`
	Got    string `json:"got"`
	OK     bool   `json:"ok"`
	Status int    `json:"exit_status"`
}

func runDoctor(e *env) int {
	asJSON := e.flags.Bool("json")
	cwd, err := e.getwd()
	if err != nil {
		return fail(e.stderr, err)
	}
	exe, _ := e.executable()
	out := doctorOutput{Binary: exe, Problems: []string{}}
	out.Service = doctorServiceOf(e, exe)
	guarded := false
	for _, s := range claudecode.Scopes {
		d := doctorHooks(e, s, exe, out.Service.Client)
		guarded = guarded || d.Guarding
		if d.Error != "" {
			out.Problems = append(out.Problems, d.File+": "+d.Error)
		}
		switch {
		case d.Missing != "":
			out.Problems = append(out.Problems, fmt.Sprintf("the %s hooks run %s, which does not exist: every tool call fails (airlock install claude-code --%s)", d.Scope, d.Missing, d.Scope))
		case d.Guarding && !d.RunsThis && d.Untrusted != "":
			out.Problems = append(out.Problems, fmt.Sprintf("the %s hooks run the client %s, which airlock does not trust: %s (airlock install claude-code --%s --no-hookd, or reinstall airlock-hook beside airlock: CGO_ENABLED=0 go install ./cmd/...)", d.Scope, d.Untrusted, d.UntrustedWhy, d.Scope))
		case d.Guarding && !d.RunsThis:
			out.Problems = append(out.Problems, fmt.Sprintf("the %s hooks run another binary than %s", d.Scope, exe))
		}
		out.Hooks = append(out.Hooks, d)
	}
	out.Agents = doctorAgents(e, cwd, exe)
	for _, d := range out.Agents {
		guarded = guarded || d.Installed
	}
	if !guarded {
		out.Problems = append(out.Problems, "no PreToolUse hook runs airlock: run \"airlock install claude-code\" (or airlock install AGENT for another agent)")
	}
	out.Problems = append(out.Problems, agentProblems(out.Agents)...)
	if p, err := loadPolicy(e, cwd); err != nil {
		out.Policy.Error = err.Error()
		out.Problems = append(out.Problems, "policy: "+err.Error())
	} else {
		out.Policy.Mode = p.Mode.String()
		out.Policy.Gate = &gateOutput{Enabled: p.Gate.Enabled}
		for _, l := range p.Layers {
			out.Policy.Layers = append(out.Policy.Layers, layerOutput{Origin: l.Origin.String(), File: l.File, Status: l.Status.String(), SHA256: l.Hash, Rules: l.Rules})
		}
		if msg := p.SecretValuesProblem(); msg != "" {
			out.Problems = append(out.Problems, "secrets: "+msg)
		}
	}
	out.Journal = doctorJournalOf(e)
	switch {
	case out.Journal.Error != "":
		out.Problems = append(out.Problems, "journal: "+out.Journal.Error+" (the hook refuses what it cannot record)")
	case out.Journal.Broken != "":
		out.Problems = append(out.Problems, "journal: "+out.Journal.Broken+" (airlock audit verify)")
	}
	if exe != "" {
		if p := filepath.Join(filepath.Dir(exe), ProxyBinary); fileExists(p) {
			out.MCPProxy = p
		}
	}
	out.Path = checkPath(e, exe)
	if out.Path.OnPath != "" && !out.Path.Same {
		// Another airlock answers the human than the hooks run: a stale
		// version approves and reports.
		out.Problems = append(out.Problems, "PATH: "+out.Path.Fix)
	}
	out.Containment = doctorContainOf(exe)
	for _, d := range out.Hooks {
		if data, err := os.ReadFile(d.File); err == nil && claudeSandboxOn(data) {
			out.Containment.ClaudeSandboxOn = append(out.Containment.ClaudeSandboxOn, d.File)
		}
	}
	containRecords(&out.Containment, policy.PathsFrom(e.getenv).StateDir)
	out.Problems = append(out.Problems, containProblems(out.Containment)...)
	out.SelfTest = selfTest(e, cwd)
	for _, s := range out.SelfTest {
		if !s.OK {
			out.Problems = append(out.Problems, "self-test: "+s.Name+": got "+s.Got+", want "+s.Want)
		}
	}
	if *asJSON {
		if st := writeJSON(e, out); st != ExitOK {
			return st
		}
	} else {
		printDoctor(e, out)
	}
	if len(out.Problems) > 0 {
		return ExitHeld
	}
	return ExitOK
}

// doctorHooks reads one scope's Claude Code hooks. client is the hook
// client beside exe that install would write, "" for none: a line
// running it is this airlock's as much as the in-process line.
func doctorHooks(e *env, s claudecode.Scope, exe, client string) doctorScope {
	file, err := settingsFor(e, s)
	d := doctorScope{Scope: s.String(), File: file, Events: map[string][]string{}}
	if err != nil {
		d.Error = err.Error()
		return d
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return d
	}
	d.Exists = true
	events, err := claudecode.Installed(data)
	if err != nil {
		d.Error = err.Error()
		return d
	}
	if events != nil {
		d.Events = events
	}
	cmds := events["PreToolUse"]
	d.Guarding = len(cmds) > 0
	d.RunsThis = d.Guarding
	for _, c := range cmds {
		own := c == claudecode.HookCommand(exe, "PreToolUse") || client != "" && c == claudecode.HookCommand(client, "PreToolUse")
		d.RunsThis = d.RunsThis && own
		if d.Form == "" {
			d.Form = lineForm(c, claudecode.Name)
		}
	}
	if !d.RunsThis {
		// A line that runs the client beside airlock, which the client's
		// checks refuse (a link, world-writable, another owner): name the
		// check instead of calling it another binary.
		beside := filepath.Join(filepath.Dir(exe), hookline.ClientName)
		if _, err := hookline.Client(exe); err != nil {
			for _, c := range cmds {
				if c == claudecode.HookCommand(beside, "PreToolUse") {
					d.Untrusted = beside
					var ce *hookline.ClientError
					if errors.As(err, &ce) {
						d.UntrustedWhy = ce.Why
					} else {
						d.UntrustedWhy = err.Error()
					}
					break
				}
			}
		}
	}
	for _, list := range events {
		for _, c := range list {
			if bin := hookline.Binary(c); bin != "" && !fileExists(bin) && d.Missing == "" {
				d.Missing = bin
			}
		}
	}
	return d
}

// selfTest feeds sample events through the hook in this process, with a
// recorder that keeps nothing, and checks the answers.
func selfTest(e *env, cwd string) []doctorSample {
	home := e.getenv("HOME")
	userFile := policy.PathsFrom(e.getenv).UserFile
	if userFile == "" {
		userFile = filepath.Join(home, ".config", "airlock", "policy.yaml")
	}
	ev := func(tool, input string) string {
		return fmt.Sprintf(`{"session_id":"airlock-doctor","cwd":%q,"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s,"tool_use_id":"doctor"}`, cwd, tool, input)
	}
	samples := []struct {
		name, event, input, want string
	}{
		{"local command passes silently", "PreToolUse", ev("Bash", `{"command":"ls"}`), "pass"},
		{"disguised push is held", "PreToolUse", ev("Bash", `{"command":"git -C . push origin main"}`), "held"},
		{"edit of the policy is denied", "PreToolUse", ev("Write", fmt.Sprintf(`{"file_path":%q,"content":"x"}`, userFile)), "deny"},
		{"agent running airlock trust is denied", "PreToolUse", ev("Bash", `{"command":"bash -c 'airlock trust'"}`), "deny"},
		{"malformed tool call fails closed", "PreToolUse", `{"hook_event_name":"PreToolUse","tool_name":`, "exit 2"},
		{"session start states the rules", "SessionStart", fmt.Sprintf(`{"session_id":"airlock-doctor","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, cwd), "context"},
	}
	h := newHook(e, vocab.Discard{}, nil)
	var out []doctorSample
	for _, s := range samples {
		var stdout, stderr bytes.Buffer
		status := h.Run(s.event, strings.NewReader(s.input), &stdout, &stderr)
		got := classifyReply(status, stdout.String())
		ok := got == s.want || s.want == "held" && (got == "ask" || got == "deny")
		out = append(out, doctorSample{Name: s.name, Want: s.want, Got: got, OK: ok, Status: status})
	}
	return out
}

// classifyReply names what a hook answer amounts to.
func classifyReply(status int, stdout string) string {
	switch {
	case status == claudecode.ExitBlock:
		return "exit 2"
	case status != 0:
		return fmt.Sprintf("exit %d", status)
	case stdout == "":
		return "pass"
	case strings.Contains(stdout, `"permissionDecision":"deny"`):
		return "deny"
	case strings.Contains(stdout, `"permissionDecision":"ask"`):
		return "ask"
	case strings.Contains(stdout, `"additionalContext"`):
		return "context"
	}
	return "other"
}

func printDoctor(e *env, out doctorOutput) {
	// Paths and the journal's errors may hold what an agent wrote (a
	// directory name, a broken line): rendered, never raw.
	w := render.Terminal(e.stdout)
	defer w.Close()
	fmt.Fprintf(w, "binary: %s\n\nClaude Code hooks:\n", out.Binary)
	for _, d := range out.Hooks {
		state := "no file"
		switch {
		case d.Error != "":
			state = "error: " + d.Error
		case d.Guarding:
			state = fmt.Sprintf("installed (%d events, %s)", len(d.Events), d.Form)
			if !d.RunsThis {
				state += ", runs another binary"
			}
		case d.Exists:
			state = "no airlock hooks"
		}
		fmt.Fprintf(w, "  %-8s %s: %s\n", d.Scope, d.File, state)
	}
	printDoctorAgents(w, out.Agents)
	printDoctorService(w, out.Service)
	printDoctorContain(w, out.Containment)
	fmt.Fprintln(w, "\npolicy:")
	if out.Policy.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", out.Policy.Error)
	} else {
		fmt.Fprintf(w, "  mode: %s\n", out.Policy.Mode)
		if out.Policy.Gate != nil {
			state := "off (airlock install claude-code --gate turns it on)"
			if out.Policy.Gate.Enabled {
				state = "on (docs/GATE.md)"
			}
			fmt.Fprintf(w, "  fact-forcing gate: %s\n", state)
		}
		for _, l := range out.Policy.Layers {
			if l.File != "" {
				fmt.Fprintf(w, "  %-8s %s: %s\n", l.Origin, l.File, l.Status)
			}
		}
	}
	fmt.Fprintln(w, "\njournal:")
	j := out.Journal
	switch {
	case j.Error != "":
		fmt.Fprintf(w, "  %s: error: %s\n", orNone(j.Dir), j.Error)
	case j.Broken != "":
		fmt.Fprintf(w, "  %s: %d events, chain BROKEN: %s\n", j.Dir, j.Events, j.Broken)
	default:
		fmt.Fprintf(w, "  %s: %d events, chain verifies\n", j.Dir, j.Events)
	}
	if j.Pending > 0 {
		fmt.Fprintf(w, "  %s review: airlock queue list\n", pluralVerb(j.Pending, "item awaits", "items await"))
	}
	fmt.Fprintln(w, "\nPATH:")
	switch pc := out.Path; {
	case pc.Same:
		fmt.Fprintf(w, "  airlock on PATH is this binary: %s\n", pc.OnPath)
	case pc.OnPath != "":
		fmt.Fprintf(w, "  airlock on PATH is ANOTHER binary: %s\n  fix: %s\n", pc.OnPath, pc.Fix)
	default:
		fmt.Fprintf(w, "  airlock is not on PATH (the hooks still run it by its absolute path)\n  fix: %s\n", pc.Fix)
	}
	if out.MCPProxy != "" {
		fmt.Fprintf(w, "\nMCP proxy: %s\n", out.MCPProxy)
	} else {
		fmt.Fprintf(w, "\nMCP proxy: no %s next to this binary (only needed for airlock mcp run|serve)\n  fix: go install ./cmd/... from the clone installs both binaries in one directory\n", ProxyBinary)
	}
	fmt.Fprintln(w, "\nself-test (in process, nothing recorded):")
	for _, s := range out.SelfTest {
		mark := "ok  "
		if !s.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %s %s: %s\n", mark, s.Name, s.Got)
	}
	if len(out.Problems) > 0 {
		fmt.Fprintln(w, "\nproblems:")
		for _, p := range out.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
	} else {
		fmt.Fprintln(w, "\nall good: airlock guards Claude Code")
	}
}

// doctorJournalOf opens the journal, verifies its chain and counts what
// awaits review.
func doctorJournalOf(e *env) doctorJournal {
	d := doctorJournal{Dir: journalDir(e)}
	j, err := e.journal()
	if err != nil {
		d.Error = err.Error()
		return d
	}
	a, err := j.Verify()
	if err != nil {
		d.Error = err.Error()
		return d
	}
	d.Events, d.Verified = a.Entries, a.OK()
	switch {
	case a.Problem != nil:
		d.Broken = a.Problem.Where() + ": " + string(a.Problem.Kind)
	case len(a.Unauthenticated) > 0:
		d.Broken = a.Unauthenticated[0].Where() + ": " + string(journal.Unauthenticated)
	}
	items, err := j.Open(time.Now())
	if err != nil {
		d.Error = err.Error()
		return d
	}
	for _, it := range items {
		if it.Status == journal.Pending || it.Status == journal.Expired {
			d.Pending++
		}
	}
	return d
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
