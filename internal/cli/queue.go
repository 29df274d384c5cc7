package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

func init() {
	addCommand(&command{name: "queue", summary: "review held actions: list, show, approve, reject, run, ack, dismiss", run: runQueue})
}

const queueHelp = `
Every action airlock deferred, and every outward action the scanner found
after the fact, waits in the queue (a view of the journal) until a human
settles it. Ids are short; any unique prefix works.

  list            items awaiting review (--all: every item, settled too)
  show ID         one item in full: command, directory, effect, reasons
  approve ID      let the agent's verbatim retry (same command, same
                  directory) run once, until --for has passed
  reject ID       settle it as refused; a retry stays held
  ack ID          settle an item found after the fact: it happened and
                  you know (there is no retry to approve)
  dismiss ID      settle an item found after the fact as not an action
                  (a mention, a false positive)
  run ID          run exactly the held command in its recorded directory,
                  after printing it and asking you to confirm; only from a
                  terminal, never from a pipe or an agent

Agents cannot run these: airlock's self-protection denies them.

Exit status: 0 done, 2 usage error or unknown id.`

func runQueue(e *env) int {
	if len(e.args) == 0 || strings.HasPrefix(e.args[0], "-") {
		fs := newFlags(e, "queue", "airlock queue list|show|approve|reject|run|ack|dismiss [flags] [ID]", queueHelp)
		if st, ok := parseFlags(e, fs, e.args); !ok {
			return st
		}
		return fail(e.stderr, &usageError{Msg: "queue needs a subcommand", Hints: []string{"airlock queue list"}})
	}
	sub, args := e.args[0], e.args[1:]
	synopsis := map[string]string{
		"list":    "airlock queue list [--all] [--json]",
		"show":    "airlock queue show [--json] ID",
		"approve": "airlock queue approve [--for DURATION] [--note TEXT] [--json] ID",
		"reject":  "airlock queue reject [--note TEXT] [--json] ID",
		"run":     "airlock queue run [--json] ID",
		"ack":     "airlock queue ack [--note TEXT] [--json] ID",
		"dismiss": "airlock queue dismiss [--note TEXT] [--json] ID",
	}[sub]
	if synopsis == "" {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown queue subcommand %q", sub), Hints: []string{"airlock queue -h"}})
	}
	fs := newFlags(e, "queue "+sub, synopsis, queueHelp)
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	all := fs.Bool("all", false, "list settled items too")
	ttl := fs.Duration("for", journal.DefaultApprovalExpiry, "how long an approval lets the agent's retry through")
	note := fs.String("note", "", "a note kept with your decision")
	operands, st, ok := parseInterspersed(e, fs, args)
	if !ok {
		return st
	}
	want := 1
	if sub == "list" {
		want = 0
	}
	if len(operands) != want {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("queue %s takes %d id(s), got %d", sub, want, len(operands)), Hints: []string{synopsis}})
	}
	if sub == "approve" {
		if err := journal.CheckExpiry(*ttl); err != nil {
			return fail(e.stderr, &usageError{Msg: "--for " + err.Error(), Hints: []string{"give a duration such as 30m, 2h or 24h, at most " + journal.MaxApprovalExpiry.String()}})
		}
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	switch sub {
	case "list":
		return queueList(e, j, *all, *asJSON)
	case "show":
		return queueShow(e, j, operands[0], *asJSON)
	case "approve":
		return queueSettle(e, j, journal.EventApprove, operands[0], *note, *ttl, *asJSON)
	case "reject":
		return queueSettle(e, j, journal.EventReject, operands[0], *note, 0, *asJSON)
	case "ack":
		return queueSettle(e, j, journal.EventAck, operands[0], *note, 0, *asJSON)
	case "dismiss":
		return queueSettle(e, j, journal.EventDismiss, operands[0], *note, 0, *asJSON)
	}
	return queueRun(e, j, operands[0], *asJSON)
}

// parseInterspersed parses flags that may come before or after operands.
func parseInterspersed(e *env, fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var operands []string
	for {
		if st, ok := parseFlags(e, fs, args); !ok {
			return nil, st, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return operands, 0, true
		}
		if args[0] == "--" {
			return append(operands, args[1:]...), 0, true
		}
		operands, args = append(operands, args[0]), args[1:]
	}
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
	case journal.EventAck:
		fmt.Fprintf(e.stdout, "acknowledged %s: %s\n", it.ID, journal.OneLine(what(it), 100))
	case journal.EventDismiss:
		fmt.Fprintf(e.stdout, "dismissed %s: %s\n", it.ID, journal.OneLine(what(it), 100))
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
	case it.Status == journal.Rejected || it.Status == journal.Ran || it.Status == journal.Used ||
		it.Status == journal.Acknowledged || it.Status == journal.Dismissed:
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
