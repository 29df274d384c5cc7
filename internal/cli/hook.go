package cli

import (
	"time"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/gate"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
)

const hookHelp = `
Read one hook event from standard input, as the agent sends it, and answer
it in the agent's wire format. "airlock install" sets this up; you do not
run it by hand except to test it.

Agents: claude-code.

A PreToolUse event that cannot be read is blocked (exit 2, the reason on
standard error). Other events never block; a malformed one exits 0 with a
message on standard error.

Example:
  echo '{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}' | airlock hook claude-code`

func runHook(e *env) int {
	event := e.flags.String("event")
	if e.flags.NArg() != 1 || e.flags.Arg(0) != claudecode.Name {
		// Fail closed: an agent calling this for a tool call must not get a
		// pass from a typo in its settings.
		fail(e.stderr, &usageError{Msg: "hook needs the agent name", Hints: []string{"airlock hook claude-code < event.json"}})
		return claudecode.ExitBlock
	}
	// An unopenable journal yields a recorder that fails every call, so
	// the hook refuses what it cannot record.
	rec, _ := e.recorder()
	h := newHook(e, rec)
	return h.Run(*event, e.stdin, e.stdout, e.stderr)
}

// newHook wires the Claude Code adapter to the policy, a recorder and the
// session report.
func newHook(e *env, rec agent.Recorder) *claudecode.Hook {
	load := func(cwd string) (*policy.Policy, error) { return loadPolicy(e, cwd) }
	h := &claudecode.Hook{
		Policy:   load,
		Snapshot: takeSnapshot(e, load),
		Recorder: rec,
		Story:    e.getenv("AIRLOCK_STORY"),
		Getenv:   e.getenv,
		// The gate is off unless the policy turns it on; wired, it costs
		// nothing until then (no file is read).
		Gate: gate.ClaudeCode{Gate: gate.New(e.getenv, nil)},
	}
	if j, ok := rec.(*journal.Journal); ok {
		h.Report = func(session string) (string, error) { return sessionReport(j, session) }
	}
	return h
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
