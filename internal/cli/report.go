package cli

import (
	"errors"
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
session (--last). --since alone covers every session since then; with
--session, --story or --last it narrows that scope. --all covers the whole
journal. --session takes a full session id or the start of one (the report
prints the first 8 characters); a session or story the journal does not
hold is an error.

--since takes an RFC 3339 time (2026-02-23T08:00:00Z) or a duration back
from now (24h, 90m).

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
	now := time.Now()
	scope := journal.Scope{Stories: stories}
	if *since != "" {
		t, err := parseSince(*since, now)
		if err != nil {
			return fail(e.stderr, err)
		}
		scope.Since = t
	}
	if *session != "" {
		s, err := j.ResolveSession(*session)
		if err != nil {
			return fail(e.stderr, scopeHint(err))
		}
		scope.Session = s
	}
	if err := j.CheckStories(stories); err != nil {
		return fail(e.stderr, scopeHint(err))
	}
	// --since alone reports across sessions; nothing at all means the
	// last session.
	if selectors == 0 && *since == "" || *last {
		s, err := j.LastSession()
		if err != nil {
			return fail(e.stderr, err)
		}
		if s == "" && *last {
			return fail(e.stderr, &usageError{Msg: "the journal holds no session yet", Hints: []string{"airlock report --all"}})
		}
		scope.Session = s
	}
	r, err := j.MakeReport(scope, now)
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

// parseSince reads a --since value: an RFC 3339 time, or a duration back
// from now.
func parseSince(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, &usageError{Msg: fmt.Sprintf("--since %q is neither an RFC 3339 time nor a duration", v),
		Hints: []string{"--since 2026-02-23T08:00:00Z", "--since 24h"}}
}

// scopeHint adds what to do to a session or story the journal does not
// hold.
func scopeHint(err error) error {
	var se *journal.ScopeError
	if !errors.As(err, &se) {
		return err
	}
	switch {
	case errors.Is(err, journal.ErrAmbiguousSession):
		return &usageError{Msg: err.Error(), Hints: []string{"give more of the session id"}}
	case errors.Is(err, journal.ErrNoStory):
		return &usageError{Msg: err.Error(), Hints: []string{"a story id is the id in the stories file of an airlock loop run", "airlock report --all lists every story's held actions"}}
	}
	return &usageError{Msg: err.Error(), Hints: []string{"airlock report --all shows every session; reports print the first 8 characters of a session id, which --session accepts"}}
}
