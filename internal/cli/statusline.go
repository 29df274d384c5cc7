package cli

import (
	"errors"

	"github.com/airlock-dev/airlock/internal/agentinstall"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/statusline"
	"github.com/airlock-dev/airlock/internal/vocab"
)

const statuslineHelp = `
Print airlock's segment of an agent's status line: how many actions are
held for review, the mode of this session, and marks for what a human
should know at a glance:

  airlock ✓                              nothing is held
  airlock ⏸ 2 held · unattended          two actions wait for review
  ... · project loosens                  a trusted project policy file adds
                                         allow or warn rules or sets the mode
  ... · gate off                         the fact-forcing gate is off
  ... · contained                        the session runs under airlock run
  airlock ?                              the state could not be read

The segment is red when something of this session is held (NO_COLOR
turns colour off). With Claude Code's status JSON on standard input it
knows the session (session_id) and its directory (cwd); given another
status line's output instead, it prints "<that line> | <segment>", so it
chains after it ("theirs | airlock statusline"), and finds the session by
the current directory.

It reads one small state file that the journal and the hook keep current
(STATUS in the journal's directory); it reads no journal, opens no
network connection, changes nothing, and exits 0 on any error, with the
neutral segment. "airlock install claude-code --statusline" and "airlock
install qwen --statusline" set it up, after your own status line if you
have one ("airlock uninstall" takes exactly that part out again); they
run airlock-statusline, the same reader in a small binary of its own that
starts faster, when it sits beside airlock.

Examples:
  echo '{"session_id":"s1","cwd":"/src/app"}' | airlock statusline
  echo 'main* ~/src/app' | airlock statusline`

func runStatusline(e *env) int {
	return statusline.Run(e.stdin, e.stdout, e.getenv, e.getwd)
}

// statusNoter notes a session's mode and marks in the status line's
// state file after the hook recorded a decision, when they changed
// (statusline.Changed reads the small file; nothing is written on an
// unchanged call). It hangs on the journal (Journal.Recorded), so the
// recorder the stages see is still the journal itself.
type statusNoter struct {
	e   *env
	dir string
	// policy is the policy the hook loaded for the call (policyLoader).
	policy *policy.Policy
}

// noteStatus sets the status noter on the hook's recorder when it is a
// journal that opened (a failing recorder keeps nothing to show), and
// returns it for policyLoader.
func noteStatus(e *env, rec vocab.Recorder) *statusNoter {
	j, ok := rec.(*journal.Journal)
	if !ok {
		return nil
	}
	s := &statusNoter{e: e, dir: journalDir(e)}
	j.Recorded = s.note
	return s
}

// policyLoader loads the policy for a call, and hands it to the status
// noter sn (nil: none).
func policyLoader(e *env, sn *statusNoter) func(string) (*policy.Policy, error) {
	return func(cwd string) (*policy.Policy, error) {
		p, err := loadPolicy(e, cwd)
		if sn != nil && err == nil {
			sn.policy = p
		}
		return p, err
	}
}

// note notes the session of a recorded decision. The status line is
// advisory: its errors are not the decision's.
func (s *statusNoter) note(ev *vocab.Event) {
	if ev.Verdict == nil || ev.Session == "" || s.dir == "" {
		return
	}
	marks := s.marks()
	mode := ev.Verdict.Mode.String()
	if statusline.Changed(s.dir, ev.Session, mode, ev.Cwd, marks) {
		statusline.Note(s.dir, ev.Session, mode, ev.Cwd, marks, time.Now())
	}
}

// marks are the status line's marks for the call just decided.
func (s *statusNoter) marks() []string {
	var m []string
	if p := s.policy; p != nil {
		if p.ProjectLoosens() {
			m = append(m, statusline.MarkLoosened)
		}
		if !p.Gate.Enabled {
			m = append(m, statusline.MarkGateOff)
		}
	}
	if s.e.getenv("AIRLOCK_CONTAINED") != "" {
		m = append(m, statusline.MarkContained)
	}
	return m
}

// agentStatusLine adds airlock's status line segment to an agent's plan
// with install --statusline, and takes it out on every uninstall (an
// agent without a command status line has nothing to take out).
func agentStatusLine(e *env, a *agentinstall.Agent, p *agentinstall.Plan, env agentinstall.Env, s agentinstall.Scope, verb string) error {
	install := verb == "install"
	if install && !*e.flags.Bool("statusline") {
		return nil
	}
	err := a.StatusLine(p, env, s, install)
	if errors.Is(err, agentinstall.ErrNoStatusLine) && !install {
		return nil
	}
	return err
}
