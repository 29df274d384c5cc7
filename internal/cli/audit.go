package cli

import (
	"fmt"

	"github.com/airlock-dev/airlock/internal/journal"
)

func init() {
	addCommand(&command{name: "audit", summary: "verify the journal's hash chain, repair a torn tail, or archive old segments", run: runAudit})
}

const auditHelp = `
The journal is a hash chain (docs/JOURNAL.md); the audit checks it.

  verify   walk the journal's hash chain and name the first line that was
           edited, removed or reordered (FILE:LINE). It prints the head:
           the last event's number and hash. The chain cannot vouch for
           its own last line or for lines cut off the end; keep the head
           somewhere the agent cannot write and compare it later.
  repair   set aside a torn last line left by a crash (into a .torn file
           next to the segment); every complete event stays. The next
           append does this too.
  archive  move every segment but the newest --keep (default 4) into
           journal/archive/, behind a checkpoint (journal/CHECKPOINT)
           that carries the last archived event's seq and hash, the
           count, and each segment's SHA-256 under the human key's MAC,
           so verify still proves the chain from its first event. It
           refuses while an archived segment holds an open queue item.
           The archived files may then be compressed, moved or deleted.

Exit status: 0 the chain verifies, 1 it does not, 2 usage error.`

func runAudit(e *env) int {
	if len(e.args) == 0 || (e.args[0] != "verify" && e.args[0] != "repair" && e.args[0] != "archive") {
		fs := newFlags(e, "audit", "airlock audit verify|repair|archive [--json]", auditHelp)
		if st, ok := parseFlags(e, fs, e.args); !ok {
			return st
		}
		return fail(e.stderr, &usageError{Msg: "audit needs verify or repair", Hints: []string{"airlock audit verify"}})
	}
	sub := e.args[0]
	fs := newFlags(e, "audit "+sub, "airlock audit "+sub+" [--json]", auditHelp)
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	keep := 4
	if sub == "archive" {
		fs.IntVar(&keep, "keep", 4, "how many of the newest segments stay live (at least 1)")
	}
	if st, ok := parseFlags(e, fs, e.args[1:]); !ok {
		return st
	}
	if fs.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "audit " + sub + " takes no operands"})
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	if sub == "archive" {
		if keep < 1 {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("--keep %d: at least the newest segment stays live", keep)})
		}
		cp, err := j.Archive(keep)
		if err != nil {
			return fail(e.stderr, err)
		}
		if *asJSON {
			return writeJSON(e, cp)
		}
		fmt.Fprintf(e.stdout, "archived %d event(s) in %d segment(s) into %s/archive\ncheckpoint: %d %s\n", cp.Count, len(cp.Segments), j.Dir(), cp.Seq, cp.Hash)
		return ExitOK
	}
	if sub == "repair" {
		moved, err := j.Repair()
		if err != nil {
			return fail(e.stderr, err)
		}
		if *asJSON {
			return writeJSON(e, map[string]int64{"set_aside_bytes": moved})
		}
		if moved == 0 {
			fmt.Fprintln(e.stdout, "nothing to repair: the journal ends with a complete line")
		} else {
			fmt.Fprintf(e.stdout, "set aside a torn last line of %d bytes; every complete event is kept\n", moved)
		}
		return ExitOK
	}
	a, err := j.Verify()
	if err != nil {
		return fail(e.stderr, err)
	}
	if *asJSON {
		if st := writeJSON(e, a); st != ExitOK {
			return st
		}
	} else {
		if p := a.Problem; p == nil {
			fmt.Fprintf(e.stdout, "ok: %d events in %d segment(s) verify\nhead: %d %s\n", a.Entries, a.Segments, a.HeadSeq, a.Head)
		} else {
			fmt.Fprintf(e.stdout, "BROKEN: %s: %s: %s\n", p.Where(), p.Kind, p.Detail)
			fmt.Fprintf(e.stdout, "%d events before it verify; journal in %s\n", a.Entries, a.Dir)
			if p.Kind == journal.Torn {
				fmt.Fprintln(e.stdout, "run: airlock audit repair")
			}
		}
		for _, u := range a.Unauthenticated {
			fmt.Fprintf(e.stdout, "UNAUTHENTICATED: %s: %s\n", u.Where(), u.Detail)
		}
		if a.SetAside > 0 {
			fmt.Fprintf(e.stdout, "%d torn line(s) from crashes were set aside in .torn files\n", a.SetAside)
		}
		if a.Archived > 0 {
			fmt.Fprintf(e.stdout, "%d earlier event(s) archived behind journal/CHECKPOINT", a.Archived)
			if a.ArchivedGone > 0 {
				fmt.Fprintf(e.stdout, " (%d archived segment(s) no longer in journal/archive)", a.ArchivedGone)
			}
			fmt.Fprintln(e.stdout)
		}
		if a.Index != "ok" {
			fmt.Fprintf(e.stdout, "index: %s\n", a.Index)
		}
	}
	if !a.OK() {
		return ExitHeld
	}
	return ExitOK
}
