package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/shell"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/loop"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/scan"
)

const loopHelp = `
Run an autonomous story loop: one fresh agent process per story, with
airlock's prompt constraint (airlock prompt) put before each story's prompt
and airlock's hooks active for the run. For Claude Code the hooks come
from a generated --settings file; your own settings files are not touched.
Each agent gets AIRLOCK_STORY=<id> and AIRLOCK_MODE=<mode>, so every
decision is journaled with its story. An agent command whose program is not
named claude is refused unless --agent-kind says what it is: airlock does
not run an unguarded loop by accident.

--agent NAME runs one of the agent CLIs airlock knows in its
non-interactive mode, letting it use its tools without asking (nobody can
answer a prompt in a loop; airlock's hook is the gate):
  claude    claude --print --allowedTools Bash,Edit,Write,Read,Glob,Grep
  codex     codex exec --json --skip-git-repo-check -
  gemini    gemini --approval-mode yolo -o stream-json -p {prompt}
  copilot   copilot --allow-all-tools --output-format json -p {prompt}
  opencode  opencode run --format json {prompt}
Only Claude Code gets airlock's hooks for the run alone; the others must
have them in their own configuration (airlock install AGENT, then airlock
doctor), or only the after-the-fact scan guards them.

Stories are a JSON or YAML list of {id, title, prompt}. The prompt goes to
the agent's standard input, or in place of a {prompt} word in --agent-cmd.

Each story's output is kept in --out (STORY.out, STORY.err) and scanned
after the fact; what the scanner finds that the hooks did not hold goes to
the queue as detected. A story that fails is recorded and the loop goes
on. Ctrl-C stops the running agent (SIGINT, then SIGKILL after a grace
period) and still prints the report.

At the end the report lists the held and detected actions by story.

A story whose agent exited 0 but had every tool call it tried refused (by
airlock, or by the agent's own permissions) is "blocked", not "done". The
default agent command allows Claude Code's tools so that they reach
airlock's hook: plain "claude --print" refuses every tool that needs a
permission prompt, so it can edit nothing.

Exit status: 0 every story done and nothing awaits review; 1 something
awaits review or a story failed or was blocked; 2 usage error; 130
interrupted.`

func runLoop(e *env) int {
	fs := e.flags
	storiesFile := fs.String("stories")
	agentCmd := fs.String("agent-cmd")
	modeName := fs.String("mode")
	outDir := fs.String("out")
	cwd := fs.String("cwd")
	format := fs.String("format")
	noConstraint := fs.Bool("no-constraint")
	grace := fs.Duration("grace")
	kind := fs.String("agent-kind")
	if name := *fs.String("agent"); name != "" {
		preset, ok := loop.LookupAgent(name)
		if !ok {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown --agent %q", name), Hints: []string{"--agent " + strings.Join(loop.AgentNames(), ", ")}})
		}
		if fs.Changed("agent-cmd") || fs.Changed("agent-kind") {
			// Two answers to one question: refuse rather than pick one.
			return fail(e.stderr, &usageError{Msg: "--agent already sets the agent command and its kind",
				Hints: []string{"--agent " + name + " alone, or --agent-cmd COMMAND --agent-kind KIND without --agent"}})
		}
		*agentCmd, *kind = preset.Command, preset.Kind
	}
	if *storiesFile == "" || fs.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "loop needs --stories FILE and no operands", Hints: []string{`airlock loop --stories stories.yaml --agent-cmd "` + DefaultAgentCmd + `"`}})
	}
	mode, err := policy.ParseMode(*modeName)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"--mode interactive, supervised or unattended"}})
	}
	switch *format {
	case journal.FormatText, journal.FormatMarkdown, journal.FormatJSON:
	default:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown format %q", *format), Hints: []string{"--format text, markdown or json"}})
	}
	stories, err := loop.LoadStories(*storiesFile)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"a list of {id, title, prompt}, e.g. - {id: \"1\", title: fix, prompt: \"Fix the failing test\"}"}})
	}
	argv, err := shell.Fields(*agentCmd, func(string) string { return "" })
	if err != nil || len(argv) == 0 {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("cannot read --agent-cmd %q", *agentCmd), Hints: []string{`--agent-cmd "` + DefaultAgentCmd + `"`}})
	}
	switch *kind {
	case "auto":
		if !loop.IsClaude(argv[0]) {
			// Running an agent without hooks would leave only the
			// after-the-fact scan between it and the world: say so
			// rather than guess.
			return fail(e.stderr, &usageError{
				Msg: fmt.Sprintf("%q is not recognised as Claude Code, so airlock cannot put its hooks on it for this run", argv[0]),
				Hints: []string{"--agent-kind claude if it is Claude Code under another name (it then gets --settings)",
					"--agent-kind other if the agent's own configuration calls airlock's hooks; otherwise only the after-the-fact scan guards it"},
			})
		}
		*kind = loop.KindClaude
	case loop.KindClaude, loop.KindOther:
	default:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown --agent-kind %q", *kind), Hints: []string{"--agent-kind auto, claude or other"}})
	}
	dir, err := workdir(e, *cwd)
	if err != nil {
		return fail(e.stderr, err)
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	p, err := loadPolicy(e, dir)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock policy check"}})
	}
	started := time.Now()
	if *outDir == "" {
		*outDir = filepath.Join(filepath.Dir(j.Dir()), "runs", started.UTC().Format("20060102T150405Z"))
	}
	exe, err := e.executable()
	if err != nil {
		return fail(e.stderr, fmt.Errorf("finding airlock's own binary for the hooks: %w", err))
	}
	settings, err := writeLoopSettings(*outDir, exe)
	if err != nil {
		return fail(e.stderr, err)
	}
	contain, containNote := []string(nil), "not contained (--no-contain)"
	if !*fs.Bool("no-contain") {
		contain, containNote = loopContain(exe, settings)
	}
	constraint := ""
	if !*noConstraint {
		constraint = p.Brief(mode).Render(policy.Text)
	}
	// Findings are judged as the hooks judge in this run's mode.
	scanPolicy := new(policy.Policy)
	*scanPolicy = *p
	scanPolicy.Mode = mode
	ids := make([]string, len(stories))
	for i, s := range stories {
		ids[i] = s.ID
	}
	scope := journal.Scope{Stories: ids, Since: started}
	r := &loop.Runner{
		Agent: argv, Kind: *kind, Settings: settings, Contain: contain, Constraint: constraint, Env: os.Environ(), Mode: mode.String(),
		Dir: dir, OutDir: *outDir, Recorder: j, Scanner: &scan.Scanner{Policy: scanPolicy},
		Progress: e.stderr, Terminal: isCharDevice(e.stderr), Grace: *grace,
		Known: hooksDecided(j, started),
		Calls: storyCalls(j),
		Held: func() int {
			rep, err := j.MakeReport(scope, time.Now())
			if err != nil {
				return 0
			}
			return len(rep.Review)
		},
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(e.stderr, "airlock loop: %s, agent %q, %s mode; outputs in %s\n", pluralVerb(len(stories), "story", "stories"), *agentCmd, mode, *outDir)
	fmt.Fprintf(e.stderr, "airlock loop: each story's agent runs %s\n", containNote)
	if *kind == loop.KindClaude && !claudeMayUseTools(argv) {
		fmt.Fprintln(e.stderr, "airlock: note: in print mode Claude Code refuses tools that need permission unless they are allowed; "+
			"if the stories need Bash or edits, add e.g. --allowedTools Bash,Write,Edit,Read to --agent-cmd (airlock stays the gate for what they do)")
	}
	sum, runErr := r.Run(ctx, stories)
	stop()
	rep, err := j.MakeReport(scope, time.Now())
	if err != nil {
		return fail(e.stderr, err)
	}
	if *format == journal.FormatJSON {
		out := struct {
			Run    *loop.Summary   `json:"run"`
			Report *journal.Report `json:"report"`
		}{sum, rep}
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail(e.stderr, err)
		}
	} else {
		writeLoopSummary(e, sum)
		if err := rep.Write(e.stdout, *format); err != nil {
			return fail(e.stderr, err)
		}
	}
	if runErr != nil {
		return fail(e.stderr, fmt.Errorf("the loop stopped: %w", runErr))
	}
	switch {
	case sum.Interrupted:
		return 130
	case len(rep.Review) > 0:
		return ExitHeld
	}
	for _, res := range sum.Results {
		if res.Outcome != loop.Done {
			return ExitHeld
		}
	}
	return ExitOK
}

// writeLoopSettings writes the Claude Code settings file that turns
// airlock's hooks on for the run's agents only.
func writeLoopSettings(dir, exe string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	// The same line install writes: the service's client when a usable
	// one sits beside airlock, a loop's many calls being where its
	// start-up saving adds up most.
	data, _, err := claudecode.Install([]byte("{}"), chooseHookForm(exe, false).Bin)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "claude-settings.json")
	return path, os.WriteFile(path, data, 0o600)
}

func writeLoopSummary(e *env, sum *loop.Summary) {
	fmt.Fprintf(e.stdout, "Loop: %s in %s", pluralVerb(len(sum.Results), "story", "stories"), sum.Ended.Sub(sum.Started).Round(time.Second))
	if sum.Interrupted {
		fmt.Fprint(e.stdout, ", interrupted")
	}
	fmt.Fprintln(e.stdout)
	for _, r := range sum.Results {
		line := fmt.Sprintf("  Story #%s %s", r.Story.ID, r.Outcome)
		switch r.Outcome {
		case loop.Failed:
			if r.Error != "" {
				line += " (" + r.Error + ")"
			} else {
				line += fmt.Sprintf(" (exit status %d)", r.Exit)
			}
		case loop.Blocked:
			line += fmt.Sprintf(" (all %d tool call(s) it tried were refused, by airlock or by the agent's own permissions: nothing was done)", r.Tried)
		}
		if r.Findings > 0 {
			line += fmt.Sprintf(", %d found in its output", r.Findings)
		}
		if r.Story.Title != "" {
			line += ": " + r.Story.Title
		}
		if r.Outcome != loop.NotRun {
			if r.Contained {
				line += " [contained]"
			} else {
				line += " [not contained]"
			}
		}
		fmt.Fprintln(e.stdout, line)
	}
	fmt.Fprintln(e.stdout)
}

// hooksDecided reports whether the hooks already decided what a scanner
// finding shows, since the run started: the same tool call (by its
// tool_use id) when they held it or saw the effect the scanner sees, or a
// mention of a command they held in the same story.
// Prose often follows a mentioned command ("git push origin main was
// held"), so a mention that starts with a held command counts as it.
func hooksDecided(j *journal.Journal, since time.Time) func(story string, f *scan.Finding) bool {
	return func(story string, f *scan.Finding) bool {
		known := false
		command := f.Action.Command
		j.Each(func(en *journal.Entry) error {
			if en.Time.Before(since) || !en.ToolCall() {
				return nil
			}
			held := en.Holds()
			// The same tool call, judged already: held, or seen by the
			// hook as doing what the scanner says it did. When its output
			// shows more (a script that pushed: local to the hook,
			// external to the scanner), that is new.
			if f.ToolUseID != "" && en.ToolUseID == f.ToolUseID && (held || en.Effect == f.Verdict.Effect.Label()) {
				known = true
				return nil
			}
			same := en.Command != "" && (command == en.Command || strings.HasPrefix(command, en.Command+" "))
			if f.Status == scan.Mentioned && held && same && en.Story == story {
				known = true
			}
			return nil
		})
		return known
	}
}

// DefaultAgentCmd is the loop's agent command when neither --agent nor
// --agent-cmd says otherwise: Claude Code (loop.DefaultClaudeCmd).
const DefaultAgentCmd = loop.DefaultClaudeCmd

// storyCalls counts, from the journal, the tool calls a story's agent
// tried since a time (PreToolUse) and those that ran (a PostToolUse or
// PostToolUseFailure for the same tool_use id). A call airlock held, or
// one the agent's own permission layer refused after airlock allowed it,
// has neither.
func storyCalls(j *journal.Journal) func(story string, since time.Time) (int, int) {
	return func(story string, since time.Time) (int, int) {
		tried := map[string]bool{}
		ran := map[string]bool{}
		// passed are the calls airlock let through for an agent other than
		// Claude Code. Those agents' hooks are installed for the pre-tool
		// event only (airlock install codex, gemini, copilot, opencode), so
		// nothing says whether a call let through ran: it counts as run,
		// and only a story whose every call airlock held is blocked.
		// Counting them as not run called a story whose local write ran
		// "blocked: nothing was done" (observed with Codex). Claude Code
		// reports PostToolUse, and its own permission layer may refuse a
		// call airlock let through, so there a missing result counts.
		passed := map[string]bool{}
		n := 0
		j.EachInStory(story, func(en *journal.Entry) error {
			if en.Time.Before(since) {
				return nil
			}
			switch en.Event {
			case "PreToolUse":
				n++
				if en.ToolUseID != "" {
					tried[en.ToolUseID] = true
					if en.Agent != claudecode.Name && !en.Holds() {
						passed[en.ToolUseID] = true
					}
				}
			case "PostToolUse", "PostToolUseFailure":
				ran[en.ToolUseID] = true
			}
			return nil
		})
		r := 0
		for id := range tried {
			if ran[id] || passed[id] {
				r++
			}
		}
		return n, r
	}
}

// claudeMayUseTools reports whether a Claude Code command line says which
// tools may run without a prompt; without that, print mode refuses them.
func claudeMayUseTools(argv []string) bool {
	for _, a := range argv[1:] {
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "--allowedTools", "--allowed-tools", "--permission-mode", "--dangerously-skip-permissions":
			return true
		}
	}
	return false
}
