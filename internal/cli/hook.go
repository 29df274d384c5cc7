package cli

import (
	"strconv"
	"time"

	"github.com/airlock-dev/airlock/internal/agent/antigravity"
	"github.com/airlock-dev/airlock/internal/agent/auggie"
	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agent/cline"
	"github.com/airlock-dev/airlock/internal/agent/codex"
	"github.com/airlock-dev/airlock/internal/agent/copilot"
	"github.com/airlock-dev/airlock/internal/agent/crush"
	"github.com/airlock-dev/airlock/internal/agent/cursor"
	"github.com/airlock-dev/airlock/internal/agent/factory"
	"github.com/airlock-dev/airlock/internal/agent/gemini"
	"github.com/airlock-dev/airlock/internal/agent/goose"
	"github.com/airlock-dev/airlock/internal/agent/hookrun"
	"github.com/airlock-dev/airlock/internal/agent/kiro"
	"github.com/airlock-dev/airlock/internal/agent/opencode"
	"github.com/airlock-dev/airlock/internal/agent/pi"
	"github.com/airlock-dev/airlock/internal/agent/qwen"
	"github.com/airlock-dev/airlock/internal/gate"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/vocab"
)

const hookHelp = `
Read one hook event from standard input, as the agent sends it, and answer
it in the agent's wire format. "airlock install" sets this up; you do not
run it by hand except to test it.

Agents: claude-code, codex, gemini, copilot, opencode, factory, qwen,
cursor, kiro, goose, cline, pi, auggie, antigravity, crush. An unknown agent name
is refused with exit status 2, which blocks the tool call in every agent
that reads exit codes.

A tool call that cannot be read is refused, in the agent's own reply
format (Kiro: exit 2, the reason on standard error; Crush: its JSON deny
and exit 2). Other events never block; a malformed one exits 0 with a
message on standard error.

Outside Claude Code nobody can answer an "ask": what would be asked about
is held for review instead, and the agent is told it was refused, with
the queue item and to go on with local work. A decision that takes longer
than 8 seconds, or a crash, is a refusal too: Codex and Gemini run the
command when a hook times out or crashes. Antigravity alone gets an
answer for a call airlock lets through, {"decision":"ask"}: it hands the
call to agy's own permission rules, as if no hook had spoken.

Examples:
  echo '{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}' | airlock hook claude-code
  echo '{"session_id":"s","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push"}}' | airlock hook gemini --event BeforeTool`

// adapters are the agents "airlock hook" answers besides Claude Code,
// each a wire format over the same decision: a map made on each call
// rather than a package-level one, which package initialisation would
// build in every process.
func adapters() map[string]func() hookrun.Adapter {
	return map[string]func() hookrun.Adapter{
		codex.Name: codex.New, gemini.Name: gemini.New, copilot.Name: copilot.New,
		opencode.Name: opencode.New, factory.Name: factory.New, qwen.Name: qwen.New,
		cursor.Name: cursor.New, kiro.Name: kiro.New, goose.Name: goose.New, cline.Name: cline.New,
		pi.Name: pi.New, auggie.Name: auggie.New,
		antigravity.Name: antigravity.New, crush.Name: crush.New,
	}
}

func runHook(e *env) int {
	event := e.flags.String("event")
	name := e.flags.Arg(0)
	var newAdapter func() hookrun.Adapter
	known := name == claudecode.Name
	if !known {
		newAdapter, known = adapters()[name]
	}
	if e.flags.NArg() != 1 || !known {
		// Fail closed: an agent calling this for a tool call must not get a
		// pass from a typo in its settings.
		msg := "hook needs the agent name"
		if e.flags.NArg() == 1 {
			msg = "hook: unknown agent " + strconv.Quote(name)
		}
		fail(e.stderr, &usageError{Msg: msg, Hints: []string{
			"airlock hook claude-code < event.json",
			"agents: claude-code, codex, gemini, copilot, opencode, factory, qwen, cursor, kiro, goose, cline, pi, auggie, antigravity, crush"}})
		return claudecode.ExitBlock
	}
	// An unopenable journal yields a recorder that fails every call, so
	// the hook refuses what it cannot record.
	rec, _ := e.recorder()
	sn := noteStatus(e, rec)
	if name == claudecode.Name {
		h := newHook(e, rec, sn)
		return h.Run(*event, e.stdin, e.stdout, e.stderr)
	}
	r := hookrun.Runner{Adapter: newAdapter(), Decide: hookrun.Pipeline(newPipeline(e, rec, sn), e.getenv("AIRLOCK_STORY"))}
	return r.Run(*event, e.stdin, e.stdout, e.stderr)
}

// newHook wires the Claude Code adapter to the policy, a recorder and the
// session report.
func newHook(e *env, rec vocab.Recorder, sn *statusNoter) *claudecode.Hook {
	load := policyLoader(e, sn)
	h := &claudecode.Hook{
		Policy:    load,
		Snapshot:  takeSnapshot(e, load),
		Recorder:  rec,
		Story:     e.getenv("AIRLOCK_STORY"),
		Getenv:    e.getenv,
		Caller:    e.caller,
		Contained: hookContained(e.getenv, e.contained),
		// The gate is off unless the policy turns it on; wired, it costs
		// nothing until then (no file is read).
		Gate: gate.Stage{Gate: gate.New(e.getenv, nil)},
	}
	if j, ok := rec.(*journal.Journal); ok {
		h.Report = func(session string) (string, error) { return sessionReport(j, session) }
	}
	return h
}

// newPipeline is the decision pipeline the other agents' adapters hand
// their calls to: the same policy, recorder and gate as Claude Code's.
func newPipeline(e *env, rec vocab.Recorder, sn *statusNoter) *pipeline.Pipeline {
	load := policyLoader(e, sn)
	return &pipeline.Pipeline{
		Policy:    load,
		Recorder:  rec,
		Gate:      gate.Stage{Gate: gate.New(e.getenv, nil)},
		Snapshot:  takeSnapshot(e, load),
		Caller:    e.caller,
		Contained: hookContained(e.getenv, e.contained),
	}
}

// sessionReport is the text report of one session when anything in it
// awaits review.
func sessionReport(j *journal.Journal, session string) (string, error) {
	// Usually nothing awaits review: find that out from the index alone.
	if awaits, err := j.SessionAwaits(session, time.Now()); err != nil || !awaits {
		return "", err
	}
	r, err := j.MakeReport(journal.Scope{Session: session}, time.Now())
	if err != nil || len(r.Review) == 0 {
		return "", err
	}
	return r.Text(), nil
}
