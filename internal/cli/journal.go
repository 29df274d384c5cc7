package cli

import (
	"fmt"
	"os"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/scan"
	"github.com/airlock-dev/airlock/internal/vocab"
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
func (e *env) recorder() (vocab.Recorder, error) {
	j, err := e.journal()
	if err != nil {
		return failingRecorder{err}, err
	}
	return j, nil
}

// failingRecorder refuses to keep anything, with the reason.
type failingRecorder struct{ err error }

func (f failingRecorder) Record(*vocab.Event) (vocab.Receipt, error) { return vocab.Receipt{}, f.err }

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
	// covered notes the findings not queued because of an approval, or
	// because a hook decided the same tool call already.
	covered []string
	// decided holds the hooks' decisions of the tool calls the findings
	// name, by session and tool_use id (hookDecided).
	decided map[[2]string]*journal.Entry
}

// hookDecided reads, in one pass over the lines that name them, the
// hooks' decisions of the tool calls the report's findings name.
func (f *findingsOnce) hookDecided(rep *scan.Report) error {
	var ids []string
	for _, res := range rep.Results {
		for i := range res.Findings {
			if id := res.Findings[i].ToolUseID; id != "" {
				ids = append(ids, id)
			}
		}
	}
	f.decided = map[[2]string]*journal.Entry{}
	return f.j.EachToolCallOf(ids, func(e *journal.Entry) error {
		f.decided[[2]string{e.Session, e.ToolUseID}] = e
		return nil
	})
}

// knownToHook says why a finding needs no review because a hook decided
// the same tool call (same session and tool_use id): it held it (it is
// in the queue already), it let it run after a snapshot (airlock undo
// brings the files back), or it saw it do what the scanner sees. When
// the output shows more than the hook saw (a script that pushed: local
// to the hook, external to the scanner), the finding is new.
func (f *findingsOnce) knownToHook(ev *vocab.Event, command string) string {
	if ev.ToolUseID == "" {
		return ""
	}
	e := f.decided[[2]string{ev.Session, ev.ToolUseID}]
	if e == nil {
		return ""
	}
	where := fmt.Sprintf("%s:%d: `%s`", ev.Finding.Source, ev.Finding.Line, command)
	switch id := e.SnapshotTaken(); {
	case id != "":
		return where + " ran after the hook took snapshot " + id + "; not queued (a human can restore it with: airlock undo " + id + ")"
	case e.Holds():
		return where + " was held by the hook already (" + e.Decision + "); not queued again"
	case ev.Verdict != nil && e.Effect == ev.Verdict.Effect:
		return where + " was decided by the hook already (" + e.Decision + ", " + e.Rule + "); not queued again"
	}
	return ""
}

func newFindingsOnce(j *journal.Journal) (*findingsOnce, error) {
	approved, err := j.ApprovedActions()
	return &findingsOnce{j: j, seen: map[string]bool{}, approved: approved}, err
}

// Record implements vocab.Recorder.
func (f *findingsOnce) Record(ev *vocab.Event) (vocab.Receipt, error) {
	if ev.Finding != nil {
		command := ""
		if ev.Action != nil {
			command = ev.Action.Command
		}
		k := journal.FindingKey(&journal.Entry{Finding: ev.Finding, Command: command, Session: ev.Session, Story: ev.Story})
		if f.seen[k] {
			return vocab.Receipt{}, nil
		}
		f.seen[k] = true
		// The index lists every finding recorded, refused ones too: one
		// look-up, not a walk of the journal.
		if had, err := f.j.HasFinding(k); err != nil || had {
			return vocab.Receipt{}, err
		}
		if why := f.knownToHook(ev, command); why != "" {
			f.covered = append(f.covered, why)
			return vocab.Receipt{}, nil
		}
		if ev.Finding.Status == "executed" && command != "" && ev.Cwd != "" {
			if ak := journal.ApprovalKey(command, ev.Cwd); f.approved[ak] > 0 {
				f.approved[ak]--
				f.covered = append(f.covered, fmt.Sprintf("%s:%d: `%s` ran after a human approved it; not queued again", ev.Finding.Source, ev.Finding.Line, command))
				return vocab.Receipt{}, nil
			}
		}
	}
	return f.j.Record(ev)
}
