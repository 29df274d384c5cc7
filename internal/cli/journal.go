package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
)

// journalDir is where the journal lives: $AIRLOCK_HOME/journal, by
// default $XDG_STATE_HOME/airlock/journal.
func journalDir(e *env) string {
	return journal.DirIn(policy.PathsFrom(e.getenv).StateDir)
}

// journal opens the user's journal.
func (e *env) journal() (*journal.Journal, error) {
	return journal.Open(journalDir(e))
}

// recorder is the journal as the hooks, the scanner and the proxy record
// into it. When the journal cannot be opened the recorder fails every
// call, so that the hook refuses what it would have allowed (nothing
// airlock decides is lost).
func (e *env) recorder() (agent.Recorder, error) {
	j, err := e.journal()
	if err != nil {
		return failingRecorder{err}, err
	}
	return j, nil
}

// failingRecorder refuses to keep anything, with the reason.
type failingRecorder struct{ err error }

func (f failingRecorder) Record(*agent.Event) (agent.Receipt, error) { return agent.Receipt{}, f.err }

// terminal reports whether standard input is a terminal (the kernel's
// terminal ioctl answers for it): the only channel "queue run" accepts a
// confirmation from. A file, a pipe, /dev/null or /dev/zero is not one.
func (e *env) terminal() bool {
	if e.isTerminal != nil {
		return e.isTerminal(e.stdin)
	}
	f, ok := e.stdin.(*os.File)
	return ok && isTTY(f)
}

// isCharDevice reports whether a stream is a terminal.
func isCharDevice(stream any) bool {
	f, ok := stream.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// findingsOnce records scanner findings into the journal once: a finding
// with the same source, line, status, command, session and story as one
// already recorded is skipped, so scanning a file twice adds nothing.
//
// Nor does it queue again what a human already let run: a finding of a
// shell command that ran, in the same directory as a held item a human
// approved or ran with "queue run", uses up that item and is not
// recorded. Each such item covers one run, so a second run of the same
// command is queued. A finding without a directory (plain text) matches
// nothing: the same words run elsewhere are another action.
type findingsOnce struct {
	j    *journal.Journal
	seen map[string]bool
	// approved counts, by command and directory, the held items a human
	// approved or ran.
	approved map[string]int
	// covered notes the findings not queued because of an approval.
	covered []string
}

func newFindingsOnce(j *journal.Journal) (*findingsOnce, error) {
	f := &findingsOnce{j: j, seen: map[string]bool{}, approved: map[string]int{}}
	held := map[string]string{}  // queue id → command and directory
	settled := map[string]bool{} // queue ids a human approved or ran
	err := j.Each(func(en *journal.Entry) error {
		switch {
		case en.Event == journal.EventScanFinding && en.Finding != nil:
			f.seen[findingKey(en.Finding, en.Command, en.Session, en.Story)] = true
		case en.Event == journal.EventApprove || en.Event == journal.EventRun:
			settled[en.Ref] = true
		case en.ID != "" && en.Command != "" && en.Cwd != "":
			held[en.ID] = approvalKey(en.Command, en.Cwd)
		}
		return nil
	})
	for id := range settled {
		if k, ok := held[id]; ok {
			f.approved[k]++
		}
	}
	return f, err
}

func findingKey(f *agent.Finding, command, session, story string) string {
	return strings.Join([]string{f.Source, strconv.Itoa(f.Line), f.Status, command, session, story}, "\x00")
}

func approvalKey(command, cwd string) string { return command + "\x00" + cwd }

// Record implements agent.Recorder.
func (f *findingsOnce) Record(ev *agent.Event) (agent.Receipt, error) {
	if ev.Finding != nil {
		command := ""
		if ev.Action != nil {
			command = ev.Action.Command
		}
		k := findingKey(ev.Finding, command, ev.Session, ev.Story)
		if f.seen[k] {
			return agent.Receipt{}, nil
		}
		f.seen[k] = true
		if ev.Finding.Status == "executed" && command != "" && ev.Cwd != "" {
			if ak := approvalKey(command, ev.Cwd); f.approved[ak] > 0 {
				f.approved[ak]--
				f.covered = append(f.covered, fmt.Sprintf("%s:%d: `%s` ran after a human approved it; not queued again", ev.Finding.Source, ev.Finding.Line, command))
				return agent.Receipt{}, nil
			}
		}
	}
	return f.j.Record(ev)
}
