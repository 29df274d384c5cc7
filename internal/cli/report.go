package cli

import (
	"fmt"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

const reportHelp = `
Summarise what airlock held, denied and found after the fact, from the
journal. When anything awaits review the report opens with
"DEFERRED ACTIONS REQUIRE REVIEW" and one line per pending action, then
lists each action in full and counts how calls were decided.

Without --session, --story or --since the report covers the most recent
session (--last). --all covers the whole journal.

Exit status: 0 nothing awaits review, 1 something does, 2 usage error.`

func runReport(e *env) int {
	fs := e.flags
	session := fs.String("session")
	last := fs.Bool("last")
	all := fs.Bool("all")
	stories := fs.List("story")
	since := fs.String("since")
	format := fs.String("format")
	if fs.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "report takes no operands", Hints: []string{"airlock report --session ID"}})
	}
	switch *format {
	case journal.FormatText, journal.FormatMarkdown, journal.FormatJSON:
	default:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown format %q", *format), Hints: []string{"--format text, markdown or json"}})
	}
	selectors := 0
	for _, set := range []bool{*session != "", *last, *all, len(stories) > 0} {
		if set {
			selectors++
		}
	}
	if selectors > 1 {
		return fail(e.stderr, &usageError{Msg: "--session, --last, --story and --all choose different scopes; give one"})
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	scope := journal.Scope{Session: *session, Stories: stories}
	if *since != "" {
		t, err := time.Parse(time.RFC3339, *since)
		if err != nil {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("--since %q is not an RFC 3339 time", *since), Hints: []string{"--since 2026-02-23T08:00:00Z"}})
		}
		scope.Since = t
	}
	if selectors == 0 || *last {
		s, err := j.LastSession()
		if err != nil {
			return fail(e.stderr, err)
		}
		if s == "" && *last {
			return fail(e.stderr, &usageError{Msg: "the journal holds no session yet", Hints: []string{"airlock report --all"}})
		}
		scope.Session = s
	}
	r, err := j.MakeReport(scope, time.Now())
	if err != nil {
		return fail(e.stderr, err)
	}
	if err := r.Write(e.stdout, *format); err != nil {
		return fail(e.stderr, err)
	}
	if len(r.Review) > 0 {
		return ExitHeld
	}
	return ExitOK
}
