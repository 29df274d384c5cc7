package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
)

const checkHelp = `
Classify a shell command by what it will do (local, shared or external;
destructive; opaque) and print the decision airlock would make in the given
mode. The decision comes from the policy in effect (see "airlock policy
show"): the built-in defaults, the user's file and the project's file.
Nothing is executed.

Exit status: 0 when the command would be allowed or warned, 1 when it would
be held (ask, defer or deny), 2 on a usage or internal error.

With --jsonl, read JSON lines {"command": "...", "cwd": "..."} on standard
input and write one JSON result per line, in order.

Examples:
  airlock check 'git -C ../repo push origin main'
  airlock check --mode unattended --json -- 'curl -XPOST https://api.example.com -d @data.json'
  printf '%s\n' '{"command":"ls -la"}' | airlock check --jsonl`

// checkOutput is the JSON form of one check result.
type checkOutput struct {
	Command     string             `json:"command"`
	Cwd         string             `json:"cwd,omitempty"`
	Mode        policy.Mode        `json:"mode"`
	Decision    policy.Decision    `json:"decision"`
	Rule        string             `json:"rule"`
	Message     string             `json:"message,omitempty"`
	Tier        classify.Tier      `json:"tier"`
	Destructive bool               `json:"destructive"`
	Opaque      bool               `json:"opaque"`
	NetworkRead bool               `json:"network_read"`
	Reasons     []classify.Reason  `json:"reasons"`
	Invocations []invocationOutput `json:"invocations"`
	// Snapshot is what the hook would snapshot before allowing it.
	Snapshot *policy.SnapshotPlan `json:"snapshot,omitempty"`
	Error    string               `json:"error,omitempty"`
}

type invocationOutput struct {
	Argv        []string          `json:"argv"`
	Effect      string            `json:"effect"`
	Destructive bool              `json:"destructive"`
	Opaque      bool              `json:"opaque"`
	NetworkRead bool              `json:"network_read"`
	Via         []string          `json:"via,omitempty"`
	Remote      string            `json:"remote,omitempty"`
	Reasons     []classify.Reason `json:"reasons,omitempty"`
}

func runCheck(e *env) int {
	fs := e.flags
	modeName := fs.String("mode")
	asJSON := fs.Bool("json")
	jsonl := fs.Bool("jsonl")
	cwd := fs.String("cwd")
	if *jsonl && fs.NArg() > 0 {
		return fail(e.stderr, &usageError{Msg: "--jsonl reads commands from standard input and takes no TEXT argument"})
	}
	if !*jsonl && fs.NArg() == 0 {
		return fail(e.stderr, &usageError{Msg: "no command to check", Hints: []string{"airlock check 'git push origin main'", "use -- before a command that starts with a dash"}})
	}
	dir, err := workdir(e, *cwd)
	if err != nil {
		return fail(e.stderr, err)
	}
	p, err := loadPolicy(e, dir)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"fix the policy file, then run \"airlock policy check\""}})
	}
	mode := p.Mode
	if *modeName != "" {
		if mode, err = policy.ParseMode(*modeName); err != nil {
			return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"pass --mode interactive, supervised or unattended"}})
		}
	}
	if *jsonl {
		return checkLines(e, p, mode, dir)
	}
	out := checkWith(p, strings.Join(fs.Args(), " "), *cwd, dir, mode)
	if *asJSON {
		if err := json.NewEncoder(e.stdout).Encode(out); err != nil {
			return fail(e.stderr, err)
		}
	} else {
		// The command may be pasted from an agent's output: its escapes
		// are shown, not obeyed.
		tw := render.Terminal(e.stdout)
		printCheck(tw, out)
		tw.Close()
	}
	if out.Decision.Holds() {
		return ExitHeld
	}
	return ExitOK
}

// checkWith classifies one command and decides it with the policy. cwd is
// the directory recorded in the result ("" when not given); dir is where
// relative paths resolve.
func checkWith(p *policy.Policy, text, cwd, dir string, mode policy.Mode) checkOutput {
	if cwd != "" {
		dir = cwd
	}
	// As the hook decides: destruction inside the project is allowed once
	// the hook has snapshotted it (check itself runs nothing).
	v := p.DecideIn(mode, policy.Action{Kind: policy.Shell, Tool: "Bash", Command: text, Cwd: dir, Snapshots: true})
	r := v.Shell
	out := checkOutput{
		Command: text, Cwd: cwd, Mode: mode,
		Decision: v.Decision, Rule: v.Rule, Message: v.Message,
		Tier: r.Tier, Destructive: r.Destructive, Opaque: r.Opaque, NetworkRead: r.NetworkRead,
		Reasons:     v.Reasons,
		Invocations: []invocationOutput{},
		Snapshot:    v.Snapshot,
	}
	if out.Reasons == nil {
		out.Reasons = []classify.Reason{}
	}
	for _, inv := range r.Invocations {
		out.Invocations = append(out.Invocations, invocationOutput{
			Argv: inv.Args, Effect: effectName(inv.Effect),
			Destructive: inv.Effect.Destructive, Opaque: inv.Effect.Opaque, NetworkRead: inv.Effect.NetworkRead,
			Via: inv.Via, Remote: inv.Remote, Reasons: inv.Effect.Reasons,
		})
	}
	return out
}

// effectName is the one-word effect of an invocation, in DESIGN.md's
// vocabulary.
func effectName(e classify.Effect) string {
	switch {
	case e.Tier == classify.Local && e.Opaque:
		return "opaque"
	case e.Tier == classify.Local && e.NetworkRead:
		return "network-read"
	}
	return e.Tier.String()
}

func printCheck(w io.Writer, out checkOutput) {
	flags := ""
	if out.Destructive {
		flags += " destructive"
	}
	if out.Opaque {
		flags += " opaque"
	}
	if out.NetworkRead {
		flags += " network-read"
	}
	fmt.Fprintf(w, "%s: %s%s (%s mode, %s)\n", strings.ToUpper(out.Decision.String()), out.Tier, flags, out.Mode, out.Rule)
	for _, r := range out.Reasons {
		fmt.Fprintf(w, "  reason: %s: %s\n", r.Rule, r.Message)
	}
	for _, inv := range out.Invocations {
		via := ""
		if len(inv.Via) > 0 {
			via = "  (via " + strings.Join(inv.Via, " > ") + ")"
		}
		argv := strings.Join(inv.Argv, " ")
		if argv == "" {
			argv = "(unknown)"
		}
		fmt.Fprintf(w, "  run: %-12s %s%s\n", inv.Effect, argv, via)
	}
}

// checkLine is one input line of --jsonl.
type checkLine struct {
	Command *string `json:"command"`
	Cwd     string  `json:"cwd"`
}

func checkLines(e *env, p *policy.Policy, mode policy.Mode, dir string) int {
	sc := bufio.NewScanner(e.stdin)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	enc := json.NewEncoder(e.stdout)
	status := ExitOK
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var in checkLine
		var out checkOutput
		if err := json.Unmarshal([]byte(line), &in); err != nil || in.Command == nil {
			msg := fmt.Sprintf("line %d: want a JSON object with a \"command\" string", n)
			if err != nil {
				msg += ": " + err.Error()
			}
			// A line that cannot be read is never allowed.
			out = checkOutput{Mode: mode, Decision: policy.Deny, Rule: "input.invalid", Error: msg, Reasons: []classify.Reason{}, Invocations: []invocationOutput{}}
			status = ExitUsage
		} else {
			out = checkWith(p, *in.Command, in.Cwd, dir, mode)
			if out.Decision.Holds() && status == ExitOK {
				status = ExitHeld
			}
		}
		if err := enc.Encode(out); err != nil {
			return fail(e.stderr, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fail(e.stderr, fmt.Errorf("reading standard input: %w", err))
	}
	return status
}
