package cli

import (
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
)

// journalDir is where the journal lives: $AIRLOCK_HOME/journal, by
// default $XDG_STATE_HOME/airlock/journal.
func journalDir(e *env) string {
	state := policy.PathsFrom(e.getenv).StateDir
	if state == "" {
		return ""
	}
	return filepath.Join(state, "journal")
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

// terminal reports whether standard input is a person at a terminal:
// the only channel "queue run" accepts a confirmation from.
func (e *env) terminal() bool {
	if e.isTerminal != nil {
		return e.isTerminal(e.stdin)
	}
	return isCharDevice(e.stdin)
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
