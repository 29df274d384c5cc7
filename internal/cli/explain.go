package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/rulemake"
)

const explainHelp = `
Explain one decision: a queue item (its id, or a unique prefix of at
least 4 characters) or a journal line (its number, the "seq" of
"airlock audit verify" and of the JSON lines). airlock shows:

  - the action as it was recorded: session, agent, tool, directory, and
    the command, paths or URL, rendered safely;
  - the verdict the journal recorded then: decision, mode, rule, reasons;
  - the same action decided again now, by today's policy for that
    directory, in the recorded mode, beside the recorded verdict, flagged
    when the two differ (the policy, a trusted project file or airlock
    itself changed since; a write's content is not journaled, so a
    check of it is not repeated);
  - each program run found in a shell command, with its effect;
  - the rule that decided, and the layer it came from: built-in, user
    (its file and line) or project, a mode's table, self-protection, or
    another stage (the MCP firewall, the fact-forcing gate, an approval);
  - what each mode makes of the action (interactive, supervised,
    unattended), and what the mode changed here;
  - what would change it: approving it once, the "airlock rule add" that
    would allow it from now on with the rule it would write, or why no
    rule is proposed (self-protection, destruction, a command that cannot
    be read statically).

Nothing is written: explain reads the journal and the policy. A number of
up to 3 digits is a journal line; a longer operand is looked up as a
queue item first, then as a line number.

Examples:
  airlock explain 3f294bca
  airlock explain 42
  airlock explain --json 3f29`

// explainOutput is explain's JSON form (--json).
type explainOutput struct {
	Seq    int64  `json:"seq"`
	Time   string `json:"time"`
	Event  string `json:"event"`
	ItemID string `json:"item_id,omitempty"`
	Status string `json:"status,omitempty"`
	// The action as recorded.
	Session string   `json:"session,omitempty"`
	Agent   string   `json:"agent,omitempty"`
	Tool    string   `json:"tool,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Kind    string   `json:"kind,omitempty"`
	Command string   `json:"command,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	URL     string   `json:"url,omitempty"`
	// Journaled is the verdict recorded at the time.
	Journaled explainVerdict `json:"journaled"`
	// Today is the action decided again by today's policy in the
	// recorded mode; nil when it cannot be (RedecideNote says why).
	Today        *explainVerdict `json:"today,omitempty"`
	RedecideNote string          `json:"redecide_note,omitempty"`
	// Differs is set when today's decision or rule is not the journaled.
	Differs bool `json:"differs"`
	// Runs are the program runs of a shell command, as decided today.
	Runs []invocationOutput `json:"runs,omitempty"`
	// Layer is where the deciding rule came from.
	Layer explainLayer `json:"layer"`
	// Modes is what each mode makes of the action today.
	Modes map[string]string `json:"modes,omitempty"`
	// ModeChange says what the recorded mode changed, "" when nothing.
	ModeChange string `json:"mode_change,omitempty"`
	// Change lists what would change the decision.
	Change []explainChange `json:"change"`
}

type explainVerdict struct {
	Decision string            `json:"decision"`
	Mode     string            `json:"mode"`
	Rule     string            `json:"rule"`
	Effect   string            `json:"effect,omitempty"`
	Message  string            `json:"message,omitempty"`
	Reasons  []classify.Reason `json:"reasons"`
}

type explainLayer struct {
	// Kind: built-in, user, project (a rule), table, self-protection,
	// mcp, gate, approval, other.
	Kind string `json:"kind"`
	// File and Line locate a rule written in a policy file.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Text says it for a person.
	Text string `json:"text"`
}

type explainChange struct {
	// What the person would do, and the command that does it ("" when
	// there is none to run).
	What    string `json:"what"`
	Command string `json:"command,omitempty"`
	// Rule is the YAML rule "rule add" would write.
	Rule string `json:"rule,omitempty"`
}

func runExplain(e *env) int {
	if e.flags.NArg() != 1 {
		return fail(e.stderr, &usageError{Msg: "explain takes one queue id or journal line number", Hints: e.cmd.usage})
	}
	arg := strings.TrimSpace(e.flags.Arg(0))
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	ent, it, code := explainTarget(e, j, arg)
	if ent == nil {
		return code
	}
	if ent.Decision == "" {
		return explainNotDecision(e, ent)
	}
	out := explain(e, ent, it)
	if *e.flags.Bool("json") {
		if err := render.JSON(e.stdout, out); err != nil {
			return fail(e.stderr, err)
		}
		return ExitOK
	}
	// Every line goes through the terminal writer as well: what the agent
	// wrote is shown, never obeyed.
	tw := render.Terminal(e.stdout)
	printExplain(tw, out)
	tw.Close()
	return ExitOK
}

// explainTarget finds the line arg names: a queue item, else a line.
func explainTarget(e *env, j *journal.Journal, arg string) (*journal.Entry, *journal.Item, int) {
	seq, numErr := strconv.ParseInt(arg, 10, 64)
	if numErr != nil && len(arg) < minActionPrefix {
		return nil, nil, fail(e.stderr, &usageError{
			Msg:   fmt.Sprintf("explain needs at least %s of a queue id, or a journal line number; got %q", plural(minActionPrefix, "character"), arg),
			Hints: []string{"airlock queue list --all shows the ids"}})
	}
	if numErr != nil || len(arg) >= minActionPrefix {
		it, err := j.Item(arg, time.Now())
		switch {
		case err == nil:
			return it.Entry, it, ExitOK
		case numErr != nil || !errors.Is(err, journal.ErrNotFound):
			return nil, nil, failQueue(e, err)
		}
	}
	ent, err := j.EntryAt(seq)
	if err != nil {
		return nil, nil, fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock queue list --all shows the queue ids", "airlock blocked --json shows the line numbers (seq) of held and refused calls"}})
	}
	// A held line is a queue item: show its status too.
	if ent.ID != "" {
		if it, err := j.Item(ent.ID, time.Now()); err == nil {
			return ent, it, ExitOK
		}
	}
	return ent, nil, ExitOK
}

// explainNotDecision says what a line without a decision is.
func explainNotDecision(e *env, ent *journal.Entry) int {
	what := fmt.Sprintf("journal line %d is a %s event, not a decision", ent.Seq, render.Line(ent.Event, 60))
	if ent.Ref != "" {
		what += fmt.Sprintf(" about queue item %s (airlock explain %s)", render.Line(ent.Ref, 20), render.Line(ent.Ref, 20))
	}
	fmt.Fprintln(e.stdout, what)
	return ExitOK
}

// explain gathers the trace of one decision.
func explain(e *env, ent *journal.Entry, it *journal.Item) explainOutput {
	out := explainOutput{
		Seq: ent.Seq, Time: ent.Time.UTC().Format(time.RFC3339), Event: ent.Event, ItemID: ent.ID,
		Session: ent.Session, Agent: ent.Agent, Tool: ent.Tool, Cwd: ent.Cwd,
		Kind: ent.Kind, Command: ent.Command, Paths: ent.Paths, URL: ent.URL,
		Journaled: explainVerdict{Decision: ent.Decision, Mode: ent.Mode, Rule: ent.Rule, Effect: ent.Effect, Message: ent.Message, Reasons: []classify.Reason{}},
		Change:    []explainChange{},
	}
	if it != nil {
		out.Status = string(it.Status)
	}
	for _, r := range ent.Reasons {
		out.Journaled.Reasons = append(out.Journaled.Reasons, classify.Reason{Rule: r.Rule, Message: r.Message})
	}
	mode, modeErr := policy.ParseMode(ent.Mode)
	a, why := actionOf(ent)
	var p *policy.Policy
	if why == "" && modeErr != nil {
		why = "the journal line names no mode airlock knows (" + ent.Mode + ")"
	}
	if why == "" {
		var err error
		if p, err = loadPolicy(e, ent.Cwd); err != nil {
			why = "today's policy does not load: " + err.Error()
		}
	}
	if why != "" {
		out.RedecideNote = why
	} else {
		v := p.DecideIn(mode, a)
		tv := explainVerdict{Decision: v.Decision.String(), Mode: mode.String(), Rule: v.Rule, Effect: v.Effect.Label(), Message: v.Message, Reasons: v.Reasons}
		if tv.Reasons == nil {
			tv.Reasons = []classify.Reason{}
		}
		out.Today = &tv
		out.Differs = tv.Decision != ent.Decision || tv.Rule != ent.Rule
		if v.Shell != nil {
			for _, inv := range v.Shell.Invocations {
				out.Runs = append(out.Runs, invocationOutput{Argv: inv.Args, Effect: effectName(inv.Effect),
					Destructive: inv.Effect.Destructive, Opaque: inv.Effect.Opaque, NetworkRead: inv.Effect.NetworkRead,
					Via: inv.Via, Remote: inv.Remote, Reasons: inv.Effect.Reasons})
			}
		}
		out.Modes = map[string]string{}
		for _, m := range []policy.Mode{policy.Interactive, policy.Supervised, policy.Unattended} {
			out.Modes[m.String()] = p.DecideIn(m, a).Decision.String()
		}
	}
	out.Layer = layerOf(p, ent.Rule, mode)
	out.ModeChange = modeChange(ent)
	out.Change = changes(ent, it, out.Layer)
	return out
}

// actionOf rebuilds the action a journal line records, as the policy
// decides it, or says why it cannot be decided again by the policy alone.
func actionOf(ent *journal.Entry) (policy.Action, string) {
	a := policy.Action{Tool: ent.Tool, Command: ent.Command, Paths: ent.Paths, URL: ent.URL, Cwd: ent.Cwd}
	// The hook's flags, as far as the line says: an ask that became a
	// hold because nobody could answer, and the snapshot the hook takes.
	for _, r := range ent.Reasons {
		if r.Rule == policy.RuleNoHuman {
			a.NoHuman = true
		}
	}
	switch ent.Kind {
	case "shell":
		a.Kind, a.Snapshots = policy.Shell, true
	case "read":
		a.Kind = policy.Read
	case "write":
		a.Kind = policy.Write
	case "fetch":
		a.Kind = policy.Fetch
	case "local-tool":
		a.Kind = policy.LocalTool
	case "unknown-tool":
		if strings.HasPrefix(ent.Rule, "mcp.") || strings.HasPrefix(ent.Tool, "mcp__") {
			return a, "an MCP tool call is decided by the MCP firewall with its history (rates, contacts, pins), which a second decision would not see: the journaled verdict stands alone"
		}
		a.Kind = policy.UnknownTool
	case "net":
		return a, "a request through the egress proxy is decided on the request the proxy held, which the journal keeps only in part: the journaled verdict stands alone"
	default:
		return a, "the line records no action the policy decides (" + ent.Kind + ")"
	}
	return a, ""
}

// layerOf says where the rule that decided came from.
func layerOf(p *policy.Policy, rule string, mode policy.Mode) explainLayer {
	if p != nil {
		for _, r := range p.Rules {
			if r.ID != rule {
				continue
			}
			l := explainLayer{Kind: r.Origin.String(), File: r.File, Line: r.Line}
			switch r.Origin {
			case policy.Builtin:
				l.Text = "airlock's built-in rule " + rule
			default:
				l.Text = fmt.Sprintf("the %s rule %s at %s:%d", r.Origin, rule, r.File, r.Line)
			}
			return l
		}
	}
	switch {
	case strings.HasPrefix(rule, "table.") || rule == policy.RuleSnapshot || rule == "surface.task":
		l := explainLayer{Kind: "table", Text: "the " + mode.String() + " mode's decision table, by what the action does"}
		if p != nil {
			if p.Table(mode) == policy.DefaultTable(mode) {
				l.Text += " (airlock's built-in table)"
			} else {
				l.Text += " (as a policy file with your authority sets it: airlock policy show)"
			}
		}
		return l
	case strings.HasPrefix(rule, "self."):
		return explainLayer{Kind: "self-protection", Text: "self-protection: the agent may not change airlock, its state or its hooks; no rule relaxes it"}
	case strings.HasPrefix(rule, "mcp."):
		return explainLayer{Kind: "mcp", Text: "the MCP firewall (classes, contacts, rates, pins: the mcp: section)"}
	case strings.HasPrefix(rule, "gate."):
		return explainLayer{Kind: "gate", Text: "the fact-forcing gate (the gate: section)"}
	case strings.HasPrefix(rule, "queue."):
		return explainLayer{Kind: "approval", Text: "a human's approval in the queue"}
	case strings.HasPrefix(rule, "net.") || strings.HasPrefix(rule, "egress."):
		return explainLayer{Kind: "egress", Text: "the egress proxy's section of the policy (egress:)"}
	}
	return explainLayer{Kind: "other", Text: "rule " + rule + ", which today's policy does not list (removed since, or another stage's)"}
}

// modeChange says what the recorded mode did to the decision, from the
// reasons the pipeline recorded.
func modeChange(ent *journal.Entry) string {
	for _, r := range ent.Reasons {
		switch r.Rule {
		case policy.RuleInteractiveAsk:
			return "interactive mode: a human watches, so airlock's own refusal became an ask"
		case policy.RuleNoHuman:
			return "nobody could answer a prompt in the session, so the ask became a hold for review (defer)"
		}
	}
	switch {
	case ent.Decision == "defer" && ent.Mode != "interactive":
		return ent.Mode + " mode: nobody watches each call, so what interactive mode asks about is held for review (defer)"
	case ent.Decision == "ask":
		return "interactive mode: a human watches, so it was asked about in the agent's own prompt (unattended, it would be held for review)"
	}
	return ""
}

// changes lists what would change the decision.
func changes(ent *journal.Entry, it *journal.Item, layer explainLayer) []explainChange {
	var out []explainChange
	switch ent.Decision {
	case "allow":
		return append(out, explainChange{What: "nothing to change: it was allowed"})
	case "warn":
		out = append(out, explainChange{What: "it was allowed, with a warning"})
	}
	if layer.Kind == "self-protection" {
		return append(out, explainChange{What: "no rule changes self-protection: run it yourself, outside the agent, if it is what you want"})
	}
	if layer.Kind == "user" || layer.Kind == "project" {
		out = append(out, explainChange{What: fmt.Sprintf("edit or remove the %s rule %s in %s (line %d)", layer.Kind, ent.Rule, layer.File, layer.Line)})
	}
	if it != nil && it.Status == journal.Pending && !it.Detected {
		out = append(out, explainChange{What: "let the agent's verbatim retry run once", Command: "airlock queue approve " + it.ID})
	}
	if ent.Kind != "shell" || (ent.Decision != "ask" && ent.Decision != "defer" && ent.Decision != "deny") {
		if ent.Kind != "shell" && ent.Decision != "warn" {
			out = append(out, explainChange{What: "a rule by hand for this kind of action (match: tool, path or host): docs/POLICY.md"})
		}
		return out
	}
	p, err := rulemake.Propose(ent.Command, ent.ID)
	if err != nil {
		return append(out, explainChange{What: "no allow rule is proposed: " + strings.TrimPrefix(err.Error(), "rulemake: ")})
	}
	cmd := "airlock rule add -- " + shellQuote(ent.Command)
	if ent.ID != "" {
		cmd = "airlock rule add --from " + ent.ID
	}
	return append(out, explainChange{What: "allow it from now on with a rule of your policy file (shown, checked on the corpus, written once you confirm)", Command: cmd, Rule: p.YAML})
}

// shellQuote quotes a command for a POSIX shell, in single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// printExplain writes the text form. What the agent wrote (command,
// paths, URL, directory, session, reasons) is rendered on one line each.
func printExplain(w io.Writer, o explainOutput) {
	line := func(s string) string { return render.Line(s, render.LineMax) }
	head := fmt.Sprintf("journal line %d, %s", o.Seq, o.Time)
	if o.ItemID != "" {
		head += fmt.Sprintf(", queue item %s (%s)", o.ItemID, o.Status)
	}
	fmt.Fprintln(w, head)
	fmt.Fprintf(w, "  session %s · agent %s · tool %s\n", line(orDash(o.Session)), line(orDash(o.Agent)), line(orDash(o.Tool)))
	if o.Cwd != "" {
		fmt.Fprintf(w, "  in %s\n", line(o.Cwd))
	}
	switch {
	case o.Command != "":
		fmt.Fprintf(w, "  %s: %s\n", o.Kind, line(o.Command))
	case o.URL != "":
		fmt.Fprintf(w, "  %s: %s\n", o.Kind, line(o.URL))
	case len(o.Paths) > 0:
		for _, p := range o.Paths {
			fmt.Fprintf(w, "  %s: %s\n", o.Kind, line(p))
		}
	default:
		fmt.Fprintf(w, "  %s\n", o.Kind)
	}
	fmt.Fprintf(w, "\njournaled: %s (%s mode, rule %s)\n", strings.ToUpper(o.Journaled.Decision), line(o.Journaled.Mode), line(o.Journaled.Rule))
	printReasons(w, o.Journaled.Reasons)
	if o.Today != nil {
		same := "the same as journaled"
		if o.Differs {
			same = "DIFFERS from the journaled verdict: the policy or airlock changed since"
		}
		fmt.Fprintf(w, "decided again by today's policy, in the journaled mode: %s (rule %s): %s\n", strings.ToUpper(o.Today.Decision), line(o.Today.Rule), same)
		if o.Differs {
			printReasons(w, o.Today.Reasons)
		}
	} else {
		fmt.Fprintf(w, "not decided again: %s\n", line(o.RedecideNote))
	}
	if len(o.Runs) > 0 {
		fmt.Fprintln(w, "\nruns:")
		for _, inv := range o.Runs {
			argv := strings.Join(inv.Argv, " ")
			if argv == "" {
				argv = "(unknown)"
			}
			flags := ""
			if inv.Destructive {
				flags += " destructive"
			}
			if inv.Opaque {
				flags += " opaque"
			}
			fmt.Fprintf(w, "  %-12s %s%s\n", inv.Effect, line(argv), flags)
		}
	}
	fmt.Fprintf(w, "\nrule: %s\n  from %s\n", line(o.Journaled.Rule), line(o.Layer.Text))
	if len(o.Modes) > 0 {
		fmt.Fprintf(w, "\nmodes today: interactive %s · supervised %s · unattended %s\n", o.Modes["interactive"], o.Modes["supervised"], o.Modes["unattended"])
	}
	if o.ModeChange != "" {
		fmt.Fprintf(w, "the mode: %s\n", o.ModeChange)
	}
	fmt.Fprintln(w, "\nwhat would change it:")
	for _, c := range o.Change {
		fmt.Fprintf(w, "  - %s\n", line(c.What))
		if c.Command != "" {
			fmt.Fprintf(w, "      %s\n", line(c.Command))
		}
		if c.Rule != "" {
			fmt.Fprintln(w, "    the rule it would write:")
			for _, l := range strings.Split(strings.TrimRight(c.Rule, "\n"), "\n") {
				fmt.Fprintf(w, "      %s\n", line(l))
			}
		}
	}
}

func printReasons(w io.Writer, rs []classify.Reason) {
	for _, r := range rs {
		fmt.Fprintf(w, "  reason: %s: %s\n", render.Line(r.Rule, 80), render.Line(r.Message, render.LineMax))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
