package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/scan"
)

const scanHelp = `
Read what an agent left behind and find the outward actions no hook held:
pushes, publishes, deploys, HTTP writes, mail, transfers, destructive
commands. Each input's format is detected from its first line:

  text                anything else: "claude --print" output, a terminal or CI log
  stream-json         claude -p --output-format stream-json --verbose
  transcript          ~/.claude/projects/<dir>/<session>.jsonl
  codex-json          codex exec --json
  gemini-stream-json  gemini -o stream-json
  copilot-json        copilot --output-format json
  opencode-json       opencode run --format json

In the JSON formats every tool call is read through its agent's tool
table, decided by the built-in policy and paired with its result: a
finding is "executed" (it has a result that is not a refusal), "denied" (a
hook or permission rule refused it; only each agent's own refusal markers
count, never the result's text), or
"no-result" (the input ends before its result). Findings are calls the
policy would not simply allow (shared, external, destructive, opaque,
unknown and MCP tools, reads of secrets), fetches of URLs that carry a
query, and calls whose output shows a publication.

In plain text every program the classifier knows to reach outside or
destroy data is looked for; a line holding one is classified, and a
finding is "executed" when the text shows it ran (a shell prompt, a set -x
trace, the program's own output after it) and "mentioned" otherwise.
Recall comes first: a mention costs a reviewer seconds, a miss costs a
publication.

Findings are recorded in the journal as detected after the fact, where
"airlock queue" and "airlock report" show them, unless --no-record is
given. --session and --story set the session and story they are recorded
under (by default the session the input names, if any).

Exit status: 0 no findings, 1 findings, 2 usage error, an input that
cannot be read, or a finding the journal could not record.

Examples:
  claude -p "$TASK" --output-format stream-json --verbose | tee run.jsonl
  airlock scan run.jsonl
  airlock scan --no-record --format json ~/.claude/projects/-work-app/*.jsonl
  claude --print "$TASK" | airlock scan --story 7 -`

func runScan(e *env) int {
	fs := e.flags
	story := fs.String("story")
	session := fs.String("session")
	format := fs.String("format")
	noRecord := fs.Bool("no-record")
	maxLine := fs.Int("max-line")
	if *format != "text" && *format != "json" {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown format %q", *format), Hints: []string{"--format text or json"}})
	}
	if *maxLine < 1 {
		return fail(e.stderr, &usageError{Msg: "--max-line must be at least 1"})
	}
	files := fs.Args()
	if len(files) == 0 {
		if e.terminal() {
			return fail(e.stderr, &usageError{Msg: "no input: name files, or pipe agent output into airlock scan -",
				Hints: []string{"airlock scan session.jsonl", "claude --print \"$TASK\" | airlock scan -"}})
		}
		files = []string{"-"}
	}
	// The scanner's live heap is small (a block buffer, the findings) and
	// its garbage is the classifier's, so the default GC target collects
	// every few megabytes scanned. Trading some memory for fewer
	// collections is worth about a tenth of the throughput on one core
	// (docs/BENCHMARKS.md).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	s := &scan.Scanner{Policy: policy.Defaults(), MaxLine: *maxLine}
	rep := &scan.Report{}
	for _, name := range files {
		res, err := scanOne(e, s, name)
		if res != nil {
			rep.Results = append(rep.Results, res)
		}
		if err != nil {
			rep.Errors = append(rep.Errors, scan.InputError{Source: name, Error: err.Error()})
		}
	}
	status := ExitOK
	if rep.Findings() > 0 {
		status = ExitHeld
	}
	var recErr error
	if !*noRecord && rep.Findings() > 0 {
		j, err := e.journal()
		var once *findingsOnce
		if err == nil {
			once, err = newFindingsOnce(j)
		}
		if err == nil {
			err = once.hookDecided(rep)
		}
		if err == nil {
			err = rep.Record(once, *session, *story, time.Now())
		}
		recErr = err
		if once != nil {
			for _, c := range once.covered {
				// The note quotes the agent's command: rendered, so no
				// escape or bidi character of it reaches the terminal raw.
				fmt.Fprintf(e.stderr, "airlock: note: %s\n", render.Line(c, 2000))
			}
			if recErr == nil && len(once.covered) == rep.Findings() {
				// Everything found was approved by a human or decided by
				// a hook already: nothing to review.
				status = ExitOK
			}
		}
	}
	// Findings quote what the agent ran and printed: both formats go out
	// rendered (internal/render), so no escape, bidi or zero-width
	// character of theirs reaches the terminal raw.
	var err error
	if *format == "json" {
		var buf bytes.Buffer
		if err = rep.WriteJSON(&buf); err == nil {
			_, err = e.stdout.Write(render.EscapeJSON(buf.Bytes()))
		}
	} else {
		tw := render.Terminal(e.stdout)
		if err = rep.WriteText(tw); err == nil {
			err = tw.Close()
		}
	}
	if err != nil {
		return fail(e.stderr, err)
	}
	for _, ie := range rep.Errors {
		fmt.Fprintf(e.stderr, "airlock: error: %s: %s\n", render.Line(ie.Source, 0), render.Line(ie.Error, 0))
		status = ExitUsage
	}
	if recErr != nil {
		return fail(e.stderr, &usageError{Msg: "the findings were not all recorded: " + recErr.Error(),
			Hints: []string{"run \"airlock audit verify\" to check the journal", "rerun with --no-record to only print them"}})
	}
	return status
}

// scanOne scans one named input; "-" is standard input.
func scanOne(e *env, s *scan.Scanner, name string) (*scan.Result, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, pe.Err
			}
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, errors.New("is a directory")
		}
		r = f
	}
	return s.Scan(r, name)
}
