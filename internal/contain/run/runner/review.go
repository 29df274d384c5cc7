//go:build linux

package runner

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/contain/run"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// EventRunReview is the journal's event for what the review after a
// contained run set aside or names (run.ReviewRun).
const EventRunReview = journal.EventRunReview

// maxSummaryLines bounds the lines of each kind in the run's summary; the
// journal's note holds every path (clipped to its size).
const maxSummaryLines = 12

// reportReview says, after the run, what the review set aside (with the
// mv that keeps each) and what it names for the human to look at, and
// journals the same, so that it is still there when the terminal has
// scrolled. Every path is the agent's choice: each goes
// through clip.
func reportReview(project string, r run.Reviewed, stateDir string, stderr io.Writer) {
	if len(r.Found) == 0 && !r.Truncated {
		return
	}
	var aside, named, failed []run.Found
	for _, f := range r.Found {
		switch {
		case f.Err != nil:
			failed = append(failed, f)
		case f.AsideAs != "":
			aside = append(aside, f)
		default:
			named = append(named, f)
		}
	}
	var note strings.Builder
	for i, f := range aside {
		back := ""
		if f.Restored {
			back = "; what it held before the run is back in its place"
		}
		line := fmt.Sprintf("%s was made or changed during the run and is set aside as %s (%s)%s. Read it; to keep it: mv %s %s",
			clip(f.Path), clip(filepath.Base(f.AsideAs)), f.Why, back, shellWord(clip(f.AsideAs)), shellWord(clip(f.Path)))
		if i < maxSummaryLines {
			fmt.Fprintf(stderr, "airlock run: %s\n", line)
		}
		note.WriteString(line + "\n")
	}
	if len(aside) > maxSummaryLines {
		fmt.Fprintf(stderr, "airlock run: and %d more set aside (airlock report lists each)\n", len(aside)-maxSummaryLines)
	}
	for _, f := range failed {
		line := fmt.Sprintf("warning: %s was made or changed during the run and could not be set aside (%s): %s; review it before that tool starts here", clip(f.Path), clip(f.Err.Error()), f.Why)
		fmt.Fprintf(stderr, "airlock run: %s\n", line)
		note.WriteString(line + "\n")
	}
	// Named files, grouped by reason: a pip install names many scripts.
	byWhy := map[string][]string{}
	var order []string
	for _, f := range named {
		if _, ok := byWhy[f.Why]; !ok {
			order = append(order, f.Why)
		}
		byWhy[f.Why] = append(byWhy[f.Why], clip(relTo(project, f.Path)))
	}
	for _, why := range order {
		ps := byWhy[why]
		shown := ps
		more := ""
		if len(shown) > maxSummaryLines {
			shown, more = shown[:maxSummaryLines], fmt.Sprintf(" and %d more (airlock report lists each)", len(ps)-maxSummaryLines)
		}
		fmt.Fprintf(stderr, "airlock run: review before it runs: %s%s (%s)\n", strings.Join(shown, ", "), more, why)
		note.WriteString(fmt.Sprintf("review before it runs: %s (%s)\n", strings.Join(ps, ", "), why))
	}
	if r.Truncated {
		line := "warning: the project has too many files to review them all after the run; files past the limit were not looked at"
		fmt.Fprintf(stderr, "airlock run: %s\n", line)
		note.WriteString(line + "\n")
	}
	journalReview(project, note.String(), stateDir, stderr)
}

// journalReview records the review's note in airlock's journal. A journal
// that cannot be written is said, not fatal: the files are set aside
// already.
func journalReview(project, note, stateDir string, stderr io.Writer) {
	if !filepath.IsAbs(stateDir) {
		return
	}
	j, err := journal.Open(journal.DirIn(stateDir))
	if err == nil {
		_, err = j.Record(&vocab.Event{Time: time.Now(), Agent: "airlock", Name: EventRunReview, Cwd: project, Note: note})
	}
	if err != nil {
		fmt.Fprintf(stderr, "airlock run: warning: the review above is not journaled: %v\n", err)
	}
}

func relTo(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// clip makes an agent-chosen path safe and short for a terminal line
// and the journal (control characters shown escaped).
func clip(s string) string { return render.Line(s, 500) }

// StatusGitUndone is the run's exit status when the command succeeded but
// the review had to undo a change to git's configuration or hooks: a
// script that checks the status sees that something was held.
const StatusGitUndone = 3

// gitStatus is the run's status after the git review: the command's own
// when it failed, StatusGitUndone when it succeeded and the review undid
// anything.
func gitStatus(status int, undone []run.Found, stderr io.Writer) int {
	if len(undone) == 0 {
		return status
	}
	fmt.Fprintf(stderr, "airlock run: the run changed what git runs at the human's next git command (%d file(s) above); it is undone, and the run ends with status %d\n", len(undone), StatusGitUndone)
	if status != 0 {
		return status
	}
	return StatusGitUndone
}
