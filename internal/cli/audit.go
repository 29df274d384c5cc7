package cli

import (
	"fmt"

	"github.com/airlock-dev/airlock/internal/journal"
)

const auditHelp = `
The journal is a hash chain (docs/JOURNAL.md); the audit checks it.

Exit status: 0 the chain verifies, 1 it does not, 2 usage error.`

const auditVerifyHelp = `
Walk the journal's hash chain and name the first line that was edited,
removed or reordered (FILE:LINE). It prints the head: the last event's
number and hash. The chain cannot vouch for its own last line or for lines
cut off the end; keep the head somewhere the agent cannot write and
compare it later.

Exit status: 0 the chain verifies, 1 it does not, 2 usage error.`

const auditRepairHelp = `
Set aside a torn last line left by a crash (into a .torn file next to the
segment); every complete event stays. The next append does this too.`

const auditArchiveHelp = `
Move every segment but the newest --keep (default 4) into
journal/archive/, behind a checkpoint (journal/CHECKPOINT) that carries
the last archived event's seq and hash, the count, and each segment's
SHA-256 under the human key's MAC, so verify still proves the chain from
its first event. It refuses while an archived segment holds an open queue
item. The archived files may then be compressed, moved or deleted.`

func runAudit(e *env, sub string) int {
	fs := e.flags
	asJSON := fs.Bool("json")
	if fs.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "audit " + sub + " takes no operands"})
	}
	j, err := e.journal()
	if err != nil {
		return fail(e.stderr, err)
	}
	if sub == "archive" {
		keep := *fs.Int("keep")
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
			fmt.Fprintf(e.stdout, "ok: %s in %s verify\nhead: %d %s\n", plural(int(a.Entries), "event"), plural(a.Segments, "segment"), a.HeadSeq, a.Head)
		} else {
			fmt.Fprintf(e.stdout, "BROKEN: %s: %s: %s\n", p.Where(), p.Kind, p.Detail)
			fmt.Fprintf(e.stdout, "%s before it verify; journal in %s\n", plural(int(a.Entries), "event"), a.Dir)
			if p.Kind == journal.Torn {
				fmt.Fprintln(e.stdout, "run: airlock audit repair")
			}
		}
		for _, u := range a.Unauthenticated {
			fmt.Fprintf(e.stdout, "UNAUTHENTICATED: %s: %s\n", u.Where(), u.Detail)
		}
		for _, r := range a.TeamRefused {
			fmt.Fprintf(e.stdout, "REFUSED: %s: %s\n", r.Where(), r.Detail)
		}
		if a.SetAside > 0 {
			fmt.Fprintf(e.stdout, "%s from crashes set aside in .torn files\n", plural(a.SetAside, "torn line"))
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
