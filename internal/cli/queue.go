package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
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
	case sub == "approve" || sub == "reject" || sub == "run":
		if err := checkIDPrefix(sub, operands[0]); err != nil {
			return fail(e.stderr, err)
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
		return queueSettle(e, j, journal.EventApprove, operands[0], *e.flags.String("note"), *e.flags.Duration("for"), *asJSON)
	case "reject":
		return queueSettle(e, j, journal.EventReject, operands[0], *e.flags.String("note"), 0, *asJSON)
	}
	return queueRun(e, j, operands[0], *asJSON)
}

func queueList(e *env, j *journal.Journal, all, asJSON bool) int {
	items, err := j.Queue(time.Now())
	if err != nil {
		return fail(e.stderr, err)
	}
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
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tWHEN\tWHERE\tEFFECT\tCOMMAND")
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", it.ID, it.Status, it.Time.Local().Format("01-02 15:04"), where, it.Effect, journal.OneLine(what(it), 70))
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
	r := &journal.Report{Items: []*journal.Item{it}}
	// The report's per-item section is the fullest rendering there is.
	text := r.Text()
	if i := strings.Index(text, "\n["); i >= 0 {
		text = text[i+1:]
	}
	if i := strings.Index(text, "\nCalls:"); i >= 0 {
		text = text[:i]
	}
	fmt.Fprint(e.stdout, strings.TrimRight(text, "\n")+"\n")
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
		fmt.Fprintf(e.stdout, "approved %s: %s\nthe agent's verbatim retry in %s runs once, until %s\n", it.ID, journal.OneLine(what(it), 100), it.Cwd, it.Settled.Expires.Local().Format(time.RFC3339))
	case journal.EventReject:
		fmt.Fprintf(e.stdout, "rejected %s: %s\n", it.ID, journal.OneLine(what(it), 100))
	}
	return ExitOK
}

// queueRun runs a held command for the human, from a terminal only.
func queueRun(e *env, j *journal.Journal, id string, asJSON bool) int {
	it, code := findItem(e, j, id)
	if it == nil {
		return code
	}
	switch {
	case it.Command == "" || it.Kind != "shell":
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is not a shell command (%s %s)", it.ID, it.Kind, it.Tool), Hints: []string{"airlock queue approve " + it.ID}})
	case it.Status == journal.Rejected || it.Status == journal.Ran || it.Status == journal.Used:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is already %s", it.ID, it.Status)})
	case !e.terminal():
		return fail(e.stderr, &usageError{Msg: "queue run asks for confirmation and runs only from a terminal", Hints: []string{"run it yourself in a terminal: airlock queue run " + it.ID, "or let the agent retry it: airlock queue approve " + it.ID}})
	}
	dir := it.Cwd
	if dir == "" {
		dir = "."
	}
	fmt.Fprintf(e.stderr, "about to run, in %s:\n\n%s\n\nRun it? [y/N] ", dir, it.Command)
	answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		fmt.Fprintln(e.stderr, "not run")
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
	items, err := j.Queue(time.Now())
	if err != nil {
		return nil, fail(e.stderr, err)
	}
	it, err := journal.Find(items, id)
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
	}
	return fail(e.stderr, err)
}

// what is the item's action in one line.
func what(it *journal.Item) string {
	switch {
	case it.Command != "":
		return it.Command
	case it.URL != "":
		return it.Tool + " " + it.URL
	case len(it.Paths) > 0:
		return it.Tool + " " + strings.Join(it.Paths, " ")
	}
	return it.Tool
}

func writeJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}
