//go:build linux

package runner

import (
	"fmt"
	"io"

	"github.com/airlock-dev/airlock/internal/contain/record"
)

// The placeholders a run makes are recorded in airlock's state directory
// (record.Placeholders, with the runner's pid and start time) for as
// long as they exist: a runner killed with SIGKILL cannot remove them,
// and the next run (cleanStale, before its plan, which would otherwise
// take a stale placeholder for the protected path itself) or airlock
// doctor removes each that is still as made.

// cleanStale removes the placeholders of runs whose runner was killed,
// and says what it did and what it left.
func cleanStale(stateDir string, stderr io.Writer) {
	found, err := record.CleanStale(stateDir)
	if err != nil {
		fmt.Fprintf(stderr, "airlock run: warning: cannot read the placeholders a killed run may have left: %v\n", err)
		return
	}
	for _, s := range found {
		if s.Removed {
			fmt.Fprintf(stderr, "airlock run: removed %s, an empty placeholder a killed run (pid %d) left\n", s.Path, s.Pid)
		} else {
			fmt.Fprintf(stderr, "airlock run: warning: %s was made empty by a run that was killed (pid %d), and is left: %s; review it\n", s.Path, s.Pid, s.Why)
		}
	}
}

// recordMade records what makePlaceholders made, in its own goroutine:
// the record matters only if this runner is killed, so its write is kept
// off the run's start-up path (a kill in the moment before it lands
// leaves the placeholders unrecorded, as a kill before they were made
// would). The returned function waits for the write and removes the
// record (after the placeholders were removed). A record that cannot be
// written costs only the clean-up after a SIGKILL, so the run goes on
// with a warning.
func recordMade(stateDir string, made []madePath, unfenced []string, stderr io.Writer) (forget func()) {
	written := make(chan string, 1)
	go func() {
		var ms []record.Made
		for _, m := range made {
			r, err := record.Identify(m.path, m.dir, m.parent)
			if err != nil {
				continue
			}
			ms = append(ms, r)
		}
		path, err := record.WritePlaceholders(stateDir, ms, unfenced)
		if err != nil {
			fmt.Fprintf(stderr, "airlock run: warning: cannot record the run's placeholders (%v): if this run is killed, remove them by hand\n", err)
		}
		written <- path
	}()
	return func() { record.Forget(<-written) }
}

// removeRecorded removes the placeholders, then their record.
func removeRecorded(made []madePath, forget func(), stderr io.Writer) {
	removePlaceholders(made, stderr)
	forget()
}
