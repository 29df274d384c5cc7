package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/snapshot"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// EventUndo is the journal's event for a human's airlock undo.
const EventUndo = "Undo"

const undoHelp = `
Restore a snapshot airlock took before a destructive command inside a
project (rm -rf build, git reset --hard, git clean -fdx, git checkout -- .):
its files come back byte for byte, with their modes. Files created since
are left alone.

A file that changed since the snapshot in a way the destructive command
does not explain (not the version git reset or checkout put back) would be
overwritten: undo then refuses and lists them, unless --force. It never
writes through a symbolic link that now stands where a directory was.

undo is for humans: an agent's "airlock undo" is denied.

Example:
  airlock snapshots list
  airlock undo 20261201-170512-a3f9c1`

const snapshotsHelp = `
List the snapshots airlock took before destruction inside a project, or
prune old ones. Retention is bounded by age and total size: the policy's
snapshots entry sets the defaults (keep_days, keep_mib), the flags of
prune override them.`

// snapshotStore is the store in airlock's state directory, bounded by the
// policy in effect.
func snapshotStore(e *env, p *policy.Policy) *snapshot.Store {
	st := &snapshot.Store{StateDir: policy.PathsFrom(e.getenv).StateDir}
	if p != nil {
		st.MaxBytes = p.Snapshots.MaxBytes()
	}
	return st
}

// takeSnapshot is the hook's Snapshot: it takes what the verdict's plan
// names.
func takeSnapshot(e *env, load func(cwd string) (*policy.Policy, error)) func(a *policy.Action, plan *policy.SnapshotPlan, session string) (string, string, error) {
	return func(a *policy.Action, plan *policy.SnapshotPlan, session string) (string, string, error) {
		p, err := load(a.Cwd)
		if err != nil {
			return "", "", err
		}
		m, err := snapshotStore(e, p).Take(context.Background(), snapshot.Request{
			Root: plan.Root, Git: plan.Git, Paths: plan.Paths, Ignored: plan.Ignored,
			Changes: plan.Changes, Untracked: plan.Untracked,
			Command: a.Command, Cwd: a.Cwd, Session: session,
		})
		if err != nil {
			return "", "", err
		}
		return m.ID, fmt.Sprintf("%d files, %s, of %s in %s", m.Files, sizeText(m.Size), strings.Join(m.Paths, " "), m.Root), nil
	}
}

func sizeText(n int64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func runUndo(e *env) int {
	ops := e.flags.Args()
	if len(ops) != 1 {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("undo takes one snapshot id, got %d", len(ops)), Hints: append([]string{"airlock snapshots list"}, e.cmd.usage...)})
	}
	st := snapshotStore(e, nil)
	res, err := st.Restore(context.Background(), ops[0], *e.flags.Bool("force"))
	var conflict *snapshot.ConflictError
	switch {
	case errors.Is(err, snapshot.ErrNotFound):
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock snapshots list"}})
	case errors.As(err, &conflict):
		return fail(e.stderr, &usageError{Msg: "undo " + res.Meta.ID + ": " + render.Line(err.Error(), 2000), Hints: []string{
			"look at those files: someone changed them after the snapshot",
			"save what you want to keep, then: airlock undo --force " + res.Meta.ID,
		}})
	case errors.Is(err, snapshot.ErrUnverified):
		return fail(e.stderr, &usageError{Msg: "undo " + ops[0] + ": " + render.Line(err.Error(), 2000), Hints: []string{
			"nothing was written: the snapshot is not what airlock took, so it may hold what someone else chose",
			"its objects are in " + render.Line(res.Meta.GitDir, 500) + " if you want to look at them by hand",
		}})
	case errors.Is(err, snapshot.ErrUnsafe):
		return fail(e.stderr, &usageError{Msg: "undo " + ops[0] + ": " + render.Line(err.Error(), 2000), Hints: []string{"nothing was written"}})
	case err != nil:
		return fail(e.stderr, fmt.Errorf("undo %s: %w", ops[0], err))
	}
	// The human's act is kept with the agent's: the journal shows the
	// destruction, its snapshot and its undo. The files are back already,
	// so a journal that cannot be written is reported, not fatal.
	if j, err := e.journal(); err != nil {
		fmt.Fprintf(e.stderr, "airlock: warning: the undo is done but not journaled: %v\n", err)
	} else if _, err := j.Record(&vocab.Event{Time: time.Now(), Agent: "airlock", Name: EventUndo, Cwd: res.Meta.Root,
		Ref: res.Meta.ID, Note: fmt.Sprintf("restored snapshot %s of `%s`: %d file(s) written, %d already as they were",
			res.Meta.ID, res.Meta.Command, len(res.Written), len(res.Unchanged))}); err != nil {
		fmt.Fprintf(e.stderr, "airlock: warning: the undo is done but not journaled: %v\n", err)
	}
	if *e.flags.Bool("json") {
		return printJSON(e, map[string]any{"id": res.Meta.ID, "root": res.Meta.Root, "written": nonNil(res.Written), "unchanged": nonNil(res.Unchanged)})
	}
	fmt.Fprintf(e.stdout, "restored snapshot %s in %s: %d file(s) written, %d already as they were\n",
		res.Meta.ID, render.Line(res.Meta.Root, 500), len(res.Written), len(res.Unchanged))
	return ExitOK
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func printJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}

func runSnapshots(e *env, sub string) int {
	if len(e.flags.Args()) != 0 {
		return fail(e.stderr, &usageError{Msg: "snapshots " + sub + " takes no operand", Hints: e.cmd.usage})
	}
	st := snapshotStore(e, nil)
	asJSON := *e.flags.Bool("json")
	if sub == "prune" {
		cwd, _ := e.getwd()
		p, err := loadPolicy(e, cwd)
		if err != nil {
			return fail(e.stderr, err)
		}
		r := snapshot.Retention{MaxAge: p.Snapshots.KeepAge(), MaxBytes: p.Snapshots.KeepBytes(), Now: *e.flags.Bool("now")}
		if d := *e.flags.Duration("older-than"); d > 0 {
			r.MaxAge = d
		}
		if n := *e.flags.Int("max-mib"); n > 0 {
			r.MaxBytes = int64(n) << 20
		}
		dropped, err := st.Prune(r)
		if err != nil {
			return fail(e.stderr, err)
		}
		if asJSON {
			return printJSON(e, metas(dropped))
		}
		fmt.Fprintf(e.stdout, "pruned %d snapshot(s) (kept: newer than %s, at most %d MiB in all)\n", len(dropped), shortDuration(r.MaxAge), r.MaxBytes>>20)
		return ExitOK
	}
	all, err := st.List()
	if err != nil {
		return fail(e.stderr, err)
	}
	if asJSON {
		return printJSON(e, metas(all))
	}
	if len(all) == 0 {
		fmt.Fprintln(e.stdout, "no snapshots")
		return ExitOK
	}
	tw := render.Terminal(e.stdout)
	defer tw.Close()
	for _, m := range all {
		fmt.Fprintf(tw, "%s  %s  %5d files %9s  %s\n    %s\n", m.ID, m.Time.Local().Format(time.DateTime), m.Files, sizeText(m.Size),
			render.Line(m.Root, 300), render.Line(m.Command, 300))
	}
	return ExitOK
}

func metas(m []snapshot.Meta) []snapshot.Meta {
	if m == nil {
		return []snapshot.Meta{}
	}
	return m
}
