package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
)

const queueHelp = `
Every action airlock deferred, and every outward action the scanner found
after the fact, waits in the queue (a view of the journal) until a human
settles it. Ids are short: show takes any unique prefix; approve, reject
and run need at least 4 characters, so a typo cannot settle the wrong item.

Agents cannot run these: airlock's self-protection denies them.

Exit status: 0 done, 2 usage error or unknown id.`

func runQueue(e *env, sub string) int {
	operands := e.flags.Args()
	switch {
	case sub == "list" && len(operands) != 0:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("queue list takes no id, got %d", len(operands)), Hints: e.cmd.usage})
	case sub != "list" && len(operands) != 1:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("queue %s takes one id, got %d", sub, len(operands)), Hints: e.cmd.usage})
	case sub == "approve" || sub == "reject" || sub == "run" || sub == "ack" || sub == "dismiss":
		if err := checkIDPrefix(sub, operands[0]); err != nil {
			return fail(e.stderr, err)
		}
	}
	if sub == "approve" {
		if err := journal.CheckExpiry(*e.flags.Duration("for")); err != nil {
			return fail(e.stderr, &usageError{Msg: "--for " + err.Error(), Hints: []string{"give a duration such as 30m, 2h or 24h, at most " + journal.MaxApprovalExpiry.String()}})
		}
	}
	asJSON := e.flags.Bool("json")
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	switch sub {
	case "list":
		return queueList(e, j, *e.flags.Bool("all"), *asJSON)
	case "show":
		return queueShow(e, j, operands[0], *asJSON)
	case "approve":
		if *e.flags.Bool("always") {
			if code := approveAlways(e, j, operands[0], *asJSON); code != ExitOK {
				return code
			}
		}
		return queueSettle(e, j, journal.EventApprove, operands[0], *e.flags.String("note"), *e.flags.Duration("for"), *asJSON)
	case "reject":
		return queueSettle(e, j, journal.EventReject, operands[0], *e.flags.String("note"), 0, *asJSON)
	case "ack":
		return queueSettle(e, j, journal.EventAck, operands[0], *e.flags.String("note"), 0, *asJSON)
	case "dismiss":
		return queueSettle(e, j, journal.EventDismiss, operands[0], *e.flags.String("note"), 0, *asJSON)
	}
	return queueRun(e, j, operands[0], *asJSON)
}

// approveAlways is the first half of "queue approve --always": the rule
// made of the item is shown with what else it lets through, and written
// once the human confirms. Only then is the item approved as well, so a
// declined rule approves nothing.
func approveAlways(e *env, j *journal.Journal, id string, asJSON bool) int {
	if asJSON {
		return fail(e.stderr, &usageError{Msg: "--always shows a rule to confirm and does not take --json", Hints: []string{"airlock rule add --json --from " + id}})
	}
	it, code := findItem(e, j, id)
	if it == nil {
		return code
	}
	if it.Detected || it.Kind != "shell" || it.Command == "" {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is not a held shell command (%s), so it cannot become a rule", it.ID, journal.What(it, 100)),
			Hints: []string{"airlock queue approve " + it.ID}})
	}
	written, code := proposeRule(e, it.Command, it.ID, *e.flags.Bool("yes"), false)
	if code != ExitOK {
		return code
	}
	if !written {
		fmt.Fprintf(e.stderr, "not approved either: to let this one run through, airlock queue approve %s\n", it.ID)
		return ExitHeld
	}
	return ExitOK
}

func queueList(e *env, j *journal.Journal, all, asJSON bool) int {
	list := j.Open
	if all {
		list = j.Queue
	}
	items, err := list(time.Now())
	if err != nil {
		return fail(e.stderr, err)
	}
	// Listing the queue also puts the status line's held counts right,
	// should its state file have fallen behind (internal/statusline).
	j.SyncStatus()
	shown := []*journal.Item{}
	for _, it := range items {
		if all || it.Status == journal.Pending || it.Status == journal.Approved || it.Status == journal.Expired {
			shown = append(shown, it)
		}
	}
	if asJSON {
		return writeJSON(e, shown)
	}
	if len(shown) == 0 {
		fmt.Fprintln(e.stdout, "nothing awaits review")
		return ExitOK
	}
	// tabwriter writes cell by cell: one write(2) each without a buffer
	// (a fifth of a 1,000-item list's time).
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	defer out.Flush()
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tWHEN\tWHERE\tEFFECT\tWHAT")
	for _, it := range shown {
		where := it.Story
		if where != "" {
			where = "story " + where
		} else if it.Session != "" {
			where = "session " + journal.ShortID(it.Session)
		}
		if it.Detected {
			where += " (found after)"
		}
		// Every cell the agent controls is rendered (internal/render): no
		// tab, line break or escape can shift the columns or the screen.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", render.Line(it.ID, 20), it.Status, it.Time.Local().Format("2006-01-02 15:04 MST"),
			render.Line(where, 40), journal.Effect(it), journal.What(it, 70))
	}
	tw.Flush()
	return ExitOK
}

func queueShow(e *env, j *journal.Journal, id string, asJSON bool) int {
	it, code := findItem(e, j, id)
	if it == nil {
		return code
	}
	if asJSON {
		return writeJSON(e, it)
	}
	var b strings.Builder
	it.WriteText(&b)
	fmt.Fprint(e.stdout, b.String())
	return ExitOK
}

func queueSettle(e *env, j *journal.Journal, event, id, note string, ttl time.Duration, asJSON bool) int {
	it, err := j.Settle(event, id, note, ttl)
	if err != nil {
		return failQueue(e, err)
	}
	if asJSON {
		return writeJSON(e, it)
	}
	switch event {
	case journal.EventApprove:
		fmt.Fprintf(e.stdout, "approved %s: %s\nthe agent's verbatim retry in %s runs once, until %s\n", it.ID, journal.What(it, 100), render.Line(it.Cwd, 0), it.Settled.Expires.Local().Format(time.RFC3339))
		if len(it.Files) > 0 {
			fmt.Fprintf(e.stdout, "while the %d path(s) its decision read (the files it runs) read as they did when held; a change holds the retry again\n", len(it.Files))
		}
	case journal.EventReject:
		fmt.Fprintf(e.stdout, "rejected %s: %s\n", it.ID, journal.What(it, 100))
	case journal.EventAck:
		fmt.Fprintf(e.stdout, "acknowledged %s: %s\n", it.ID, journal.What(it, 100))
	case journal.EventDismiss:
		fmt.Fprintf(e.stdout, "dismissed %s: %s\n", it.ID, journal.What(it, 100))
	}
	return ExitOK
}

// filesChangedSince says which file the held command runs reads
// differently now than when it was held ("" when none does, or when the
// item kept none).
func filesChangedSince(it *journal.Item, dir string) string {
	if len(it.Files) == 0 {
		return ""
	}
	var now []journal.FileState
	for _, f := range classify.CommandIn(it.Command, classify.DirFS(dir)).Read {
		now = append(now, journal.FileState{Path: f.Path, State: f.State})
	}
	return journal.FilesChanged(it.Entry, now)
}

// queueRun runs a held command for the human, from a terminal only. It
// shows the command as every other display does (internal/render), with
// its directory, effect and reasons, and runs it only when the human
// types the item's id: a reflexive "y" approves nothing, and an answer
// typed ahead for a different screen does not match.
func queueRun(e *env, j *journal.Journal, id string, asJSON bool) int {
	it, code := findItem(e, j, id)
	if it == nil {
		return code
	}
	switch {
	case it.Command == "" || it.Kind != "shell":
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is not a shell command (%s)", it.ID, journal.What(it, 100)), Hints: []string{"airlock queue approve " + it.ID}})
	case it.Status == journal.Rejected || it.Status == journal.Ran || it.Status == journal.Used ||
		it.Status == journal.Acknowledged || it.Status == journal.Dismissed:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is already %s", it.ID, it.Status)})
	case !e.terminal():
		return fail(e.stderr, &usageError{Msg: "queue run asks for confirmation and runs only from a terminal (standard input is not one)", Hints: []string{"run it yourself in a terminal: airlock queue run " + it.ID, "or let the agent retry it: airlock queue approve " + it.ID}})
	}
	if _, hidden := render.Block(it.Command, journal.ShowLimits); hidden > 0 {
		// What cannot be shown whole cannot be confirmed.
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is too long to show whole on a terminal (%d bytes would not be shown), so queue run does not run it", it.ID, hidden),
			Hints: []string{"read it in full: airlock queue show --json " + it.ID, "or let the agent retry it: airlock queue approve " + it.ID}})
	}
	dir := it.Cwd
	if dir == "" {
		dir = "."
	}
	shownDir, hiddenDir := render.LineHidden(dir, 0)
	if hiddenDir > 0 {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s runs in a directory too long to show whole (%d bytes would not be shown), so queue run does not run it", it.ID, hiddenDir),
			Hints: []string{"read it in full: airlock queue show --json " + it.ID, "or let the agent retry it: airlock queue approve " + it.ID}})
	}
	var b strings.Builder
	it.WriteText(&b)
	fmt.Fprintf(e.stderr, "about to run this command with bash, in %s:\n\n%s\nTo run it, type its id (%s) and press Enter; anything else does not run it: ", shownDir, b.String(), it.ID)
	answer, err := readAnswer(e.stdin, maxAnswer)
	if a := strings.ToLower(strings.TrimSpace(answer)); err != nil || a != it.ID {
		fmt.Fprintln(e.stderr, "not run: the answer was not the item's id")
		return ExitHeld
	}
	if changed := filesChangedSince(it, dir); changed != "" {
		// What the human read is what runs: the files the command runs
		// are read again now, after the answer, as a retry's are.
		fmt.Fprintf(e.stderr, "not run: %s; read it again: airlock queue show %s\n", changed, it.ID)
		return ExitHeld
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cmd := exec.CommandContext(ctx, "bash", "-c", it.Command)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = dir, e.stdin, e.stdout, e.stderr
	runErr := cmd.Run()
	status := 0
	var ee *exec.ExitError
	switch {
	case errors.As(runErr, &ee):
		status = ee.ExitCode()
	case runErr != nil:
		status = -1
	}
	note := fmt.Sprintf("exit status %d", status)
	if runErr != nil && ee == nil {
		note = "did not start: " + runErr.Error()
	}
	settled, err := j.Settle(journal.EventRun, it.ID, note, 0)
	if err != nil {
		return fail(e.stderr, fmt.Errorf("the command ran (%s) but could not be recorded: %w", note, err))
	}
	if asJSON {
		return writeJSON(e, settled)
	}
	fmt.Fprintf(e.stderr, "ran %s: %s\n", it.ID, note)
	if status != 0 {
		return ExitHeld
	}
	return ExitOK
}

func findItem(e *env, j *journal.Journal, id string) (*journal.Item, int) {
	it, err := j.Item(id, time.Now())
	if err != nil {
		return nil, failQueue(e, err)
	}
	return it, 0
}

func failQueue(e *env, err error) int {
	switch {
	case errors.Is(err, journal.ErrNotFound):
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock queue list --all"}})
	case errors.Is(err, journal.ErrAmbiguous):
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"give more characters of the id"}})
	case errors.Is(err, journal.ErrDetected):
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{
			"airlock queue ack ID: it happened and you know",
			"airlock queue dismiss ID: it is not an action (a mention, a false positive)"}})
	case errors.Is(err, journal.ErrNotDetected):
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{
			"airlock queue approve ID: let the agent's verbatim retry run once",
			"airlock queue reject ID: refuse it"}})
	}
	return fail(e.stderr, err)
}

// maxAnswer bounds what queue run reads for its answer: an id and a line
// feed fit, and a stream that never ends a line (/dev/zero) cannot grow
// memory.
const maxAnswer = 256

// readAnswer reads one line of at most max bytes, a byte at a time so
// that nothing after the line is consumed (the command inherits standard
// input). A longer line is an error.
func readAnswer(r io.Reader, max int) (string, error) {
	var buf [1]byte
	line := make([]byte, 0, 32)
	for len(line) <= max {
		n, err := r.Read(buf[:])
		if n == 1 {
			if buf[0] == '\n' {
				return string(line), nil
			}
			line = append(line, buf[0])
			continue
		}
		if err != nil {
			return string(line), err
		}
	}
	return "", fmt.Errorf("an answer longer than %d bytes", max)
}

// writeJSON prints v for scripts, with every invisible rune in its
// strings escaped (render.JSON): a terminal showing it shows no raw
// escape, bidi or zero-width character, and a program reads the same data.
func writeJSON(e *env, v any) int {
	if err := render.JSON(e.stdout, v); err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}
