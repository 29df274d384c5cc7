package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/demo"
	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/loop"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/scan"
	"github.com/airlock-dev/airlock/internal/snapshot"
	"github.com/airlock-dev/airlock/internal/vocab"
)

const demoHelp = `
Run airlock's main job on its built-in defaults, with no network and no API
key: make a throwaway git repository with a bare local remote, then run a
scripted fake agent through four stories with "airlock loop", unattended.
The agent edits files and commits (that goes through), and tries git push,
gh pr create, curl -X POST, npm publish and rm -rf in several disguises
(that is held). One story runs a project script that pushes to a second
local remote: airlock reads the script and holds it before it runs. The
same story runs a compiled program that pushes there too: airlock cannot
read it, so the hook lets it run, and the post-execution scanner finds
the push in its output afterwards (built only when Go is installed). Every
call goes through airlock's real hook, as Claude Code's would; the journal,
the queue and the report are real too.

At the end the demo shows each call's decision, checks on disk that no push
reached the remote, and prints the report. Your own policy, journal and
settings are not used or touched: the demo has its own home and state.
Nothing is left behind unless you ask with --keep DIR.

The fake agent never runs a call it is scripted to try as publication or
destruction, even if a hook were to allow it; the demo then fails.

Exit status: 0 everything was held that should be; 1 something was not;
2 usage error.`

func runDemo(e *env) int {
	fs := e.flags
	keep := fs.String("keep")
	if fs.NArg() != 0 {
		return fail(e.stderr, &usageError{Msg: "demo takes no operands", Hints: []string{"airlock demo --keep /tmp/airlock-demo"}})
	}
	root, err := demoRoot(*keep)
	if err != nil {
		return fail(e.stderr, err)
	}
	if *keep == "" {
		defer os.RemoveAll(root)
	}
	exe, err := e.executable()
	if err != nil {
		return fail(e.stderr, fmt.Errorf("finding airlock's own binary for the hooks: %w", err))
	}
	sb, err := demo.Setup(root)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: "setting up the demo repository: " + err.Error(), Hints: []string{"the demo needs git on PATH"}})
	}
	j, err := journal.Open(journal.DirIn(sb.State))
	if err != nil {
		return fail(e.stderr, err)
	}
	// The hooks start a decision service for the demo's state directory.
	// Removing the directory stops it within seconds; with --keep the
	// directory stays, so it is stopped here rather than idling for half
	// an hour.
	defer stopDemoService(sb.Env, exe)
	out := e.stdout
	fmt.Fprintf(out, "airlock demo: a scripted agent works through %s, unattended, in a throwaway git repository.\n", pluralVerb(len(demo.Stories()), "story", "stories"))
	fmt.Fprintf(out, "  project  %s (remote %s, main at %s)\n", sb.Project, sb.Remote, sb.Initial[:7])
	fmt.Fprintf(out, "  airlock  built-in policy, unattended mode; journal in %s\n\n", j.Dir())

	settings, err := writeLoopSettings(filepath.Join(root, "runs"), exe)
	if err != nil {
		return fail(e.stderr, err)
	}
	builtin := policy.Defaults()
	builtin.Mode = policy.Unattended
	stories := demo.Stories()
	started := time.Now()
	ids := make([]string, len(stories))
	for i, s := range stories {
		ids[i] = s.ID
	}
	scope := journal.Scope{Stories: ids, Since: started}
	r := &loop.Runner{
		Agent:      []string{exe, "demo", "agent", "--settings", settings, "--cwd", sb.Project},
		Constraint: builtin.Brief(policy.Unattended).Render(policy.Text),
		Env:        sb.Env, Mode: policy.Unattended.String(), Dir: sb.Project, OutDir: filepath.Join(root, "runs"),
		Recorder: j, Scanner: &scan.Scanner{Policy: builtin}, Known: hooksDecided(j, started),
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := r.Run(ctx, stories)
	if err != nil {
		return fail(e.stderr, err)
	}
	ok := demoCalls(out, j, sum, started, sb.Compiled)
	ok = demoDisk(out, sb) && ok
	rep, err := j.MakeReport(scope, time.Now())
	if err != nil {
		return fail(e.stderr, err)
	}
	fmt.Fprintln(out, "\nThe end-of-run report (airlock report), as the human reads it in the morning:")
	fmt.Fprintln(out, strings.Repeat("─", 72))
	fmt.Fprint(out, rep.Text())
	fmt.Fprintln(out, strings.Repeat("─", 72))
	if *keep != "" {
		fmt.Fprintf(out, "\nKept in %s. Look around:\n  AIRLOCK_HOME=%s airlock queue list\n  AIRLOCK_HOME=%s airlock audit verify\n  git -C %s log --oneline\n", root, sb.State, sb.State, sb.Project)
	} else {
		fmt.Fprintln(out, "\nNothing was left behind (airlock demo --keep DIR keeps the repository, the journal and the outputs).")
	}
	if !ok || sum.Interrupted {
		fmt.Fprintln(e.stderr, "airlock: error: the demo did not go as expected (see the lines marked !! above)")
		return ExitHeld
	}
	return ExitOK
}

// demoRoot is the directory the demo works in: a new temporary one, or
// the one the user asked to keep, which must be new or empty.
func demoRoot(keep string) (string, error) {
	if keep == "" {
		return os.MkdirTemp("", "airlock-demo-")
	}
	abs, err := filepath.Abs(keep)
	if err != nil {
		return "", err
	}
	ents, err := os.ReadDir(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return abs, os.MkdirAll(abs, 0o700)
	case err != nil:
		return "", err
	case len(ents) > 0:
		return "", &usageError{Msg: fmt.Sprintf("--keep %s is not empty", keep), Hints: []string{"give a new or empty directory"}}
	}
	return abs, nil
}

// demoCalls prints every call's decision, story by story, from the
// journal, and checks each against what the script expects.
func demoCalls(out io.Writer, j *journal.Journal, sum *loop.Summary, since time.Time, compiled bool) bool {
	decided := map[string][]*journal.Entry{}
	found := map[string][]*journal.Entry{} // scanner findings by tool_use id
	err := j.Each(func(en *journal.Entry) error {
		switch {
		case en.Time.Before(since):
		case en.ToolCall():
			decided[en.Story] = append(decided[en.Story], en)
		case en.Event == journal.EventScanFinding:
			found[en.ToolUseID] = append(found[en.ToolUseID], en)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(out, "!! reading the journal: %v\n", err)
		return false
	}
	ok := true
	for _, res := range sum.Results {
		fmt.Fprintf(out, "Story #%s %s\n", res.Story.ID, res.Story.Title)
		calls := demo.Calls(res.Story.ID)
		got := decided[res.Story.ID]
		for i, c := range calls {
			if i >= len(got) {
				fmt.Fprintf(out, "  !! no decision recorded for: %s\n", demoWhat(c))
				ok = false
				continue
			}
			en := got[i]
			why := ""
			if d, ok := en.Verdict(); !ok || d != vocab.Allow {
				why = "   " + demoReason(en)
			}
			mark := "  "
			if held := en.Holds(); held != c.Held {
				mark, ok = "!!", false
			}
			fmt.Fprintf(out, "%s %-6s %s%s\n", mark, strings.ToUpper(en.Decision), demoWhat(c), why)
			for _, f := range found[en.ToolUseID] {
				why := f.Command
				if len(f.Reasons) > 0 {
					why = f.Reasons[0].Message
				}
				fmt.Fprintf(out, "           └ found after the fact: %s [queued as %s]\n", journal.OneLine(why, 80), f.ID)
			}
			switch {
			case c.Slips && !compiled:
				fmt.Fprintln(out, "           └ (not built: Go is not installed, so there is no compiled program to run)")
			case c.Slips && len(found[en.ToolUseID]) == 0:
				fmt.Fprintln(out, "!!         └ the scanner did not find what this program published")
				ok = false
			}
		}
		if res.Outcome != loop.Done {
			fmt.Fprintf(out, "  !! the agent's run ended %s: see %s\n", res.Outcome, strings.TrimSuffix(res.Output, ".out")+".err")
			ok = false
		}
		fmt.Fprintln(out)
	}
	return ok
}

func demoWhat(c demo.Call) string {
	switch c.Tool {
	case "Bash":
		return c.Command
	case "Edit":
		return fmt.Sprintf("Edit %s (%q → %q)", c.Path, c.Old, c.New)
	}
	return c.Tool + " " + c.Path
}

func demoReason(en *journal.Entry) string {
	why := en.Message
	if len(en.Reasons) > 0 {
		why = en.Reasons[0].Message
	}
	if en.Rule == policy.RuleSnapshot {
		if id := snapshotOf(en); id != "" {
			why = "reversible: snapshot " + id + " taken first"
		}
	}
	if en.ID != "" {
		why += " [queued as " + en.ID + "]"
	}
	return journal.OneLine(why, 90)
}

// demoDisk shows what the side effects on disk say: the edit and the
// commits happened, no push reached the remote.
func demoDisk(out io.Writer, sb *demo.Sandbox) bool {
	fmt.Fprintln(out, "What the disk says:")
	ok := true
	remote, err := sb.RemoteHead()
	switch {
	case err != nil:
		fmt.Fprintf(out, "!! reading the remote: %v\n", err)
		ok = false
	case remote != sb.Initial:
		fmt.Fprintf(out, "!! the remote's main moved from %s to %s: a push got through\n", sb.Initial[:7], remote[:7])
		ok = false
	default:
		fmt.Fprintf(out, "   remote main still at %s: no push reached it\n", remote[:7])
	}
	if m := sb.MirrorHead(); m != "" {
		fmt.Fprintf(out, "   mirror main now at %s: a compiled program airlock cannot read pushed it; the scanner\n", m[:7])
		fmt.Fprintln(out, "   found it in the program's output and queued it for review (airlock is no sandbox: docs/THREAT-MODEL.md)")
	}
	if ahead, err := sb.Ahead(); err == nil {
		log, _ := sb.Git("-C", sb.Project, "log", "--format=%h %s", "origin/main..main")
		fmt.Fprintf(out, "   local main is %s commit(s) ahead, kept for review:\n", ahead)
		sc := bufio.NewScanner(strings.NewReader(log))
		for sc.Scan() {
			fmt.Fprintf(out, "     %s\n", sc.Text())
		}
	}
	ok = demoUndo(out, sb) && ok
	if data, err := os.ReadFile(filepath.Join(sb.Project, "hello.txt")); err == nil && string(data) == "Hello, world\n" {
		fmt.Fprintln(out, "   hello.txt now says \"Hello, world\": local work went through")
	} else {
		fmt.Fprintf(out, "!! hello.txt was not fixed (%q)\n", data)
		ok = false
	}
	return ok
}

// runDemoAgent is the demo's scripted agent, run by the loop as Claude
// Code would be: the story from AIRLOCK_STORY, the prompt on stdin.
func runDemoAgent(e *env) int {
	fs := e.flags
	settings := fs.String("settings")
	cwd := fs.String("cwd")
	story := e.getenv("AIRLOCK_STORY")
	if *settings == "" || *cwd == "" || story == "" {
		return fail(e.stderr, &usageError{Msg: "demo agent needs --settings, --cwd and AIRLOCK_STORY", Hints: []string{"it is run by airlock demo"}})
	}
	prompt, _ := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
	a := &demo.Agent{Settings: *settings, Dir: *cwd, Session: "demo-" + story + "-" + fmt.Sprint(os.Getpid()),
		Env: os.Environ(), Out: e.stdout, Log: e.stderr}
	if err := a.Run(story, string(prompt)); err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}

// snapshotOf returns the id of the snapshot a decision took ("" if none).
func snapshotOf(en *journal.Entry) string {
	for _, r := range en.Reasons {
		if r.Rule != "snapshot.taken" {
			continue
		}
		if _, rest, ok := strings.Cut(r.Message, "snapshot "); ok {
			id, _, _ := strings.Cut(rest, " ")
			return id
		}
	}
	return ""
}

// demoUndo plays the human's part for the clean-up story: the build
// output the agent deleted comes back with airlock undo.
func demoUndo(out io.Writer, sb *demo.Sandbox) bool {
	st := &snapshot.Store{StateDir: sb.State}
	all, err := st.List()
	if err != nil || len(all) == 0 {
		fmt.Fprintf(out, "!! no snapshot was taken before rm -rf build (%v)\n", err)
		return false
	}
	m := all[len(all)-1]
	if _, err := os.Lstat(filepath.Join(sb.Project, "build")); err == nil {
		fmt.Fprintln(out, "!! build/ is still there: rm -rf build did not run")
		return false
	}
	res, err := st.Restore(context.Background(), m.ID, false)
	data, rerr := os.ReadFile(filepath.Join(sb.Project, "build", "out.o"))
	if err != nil || rerr != nil || string(data) != "object\n" {
		fmt.Fprintf(out, "!! airlock undo %s did not bring build/ back: %v %v\n", m.ID, err, rerr)
		return false
	}
	fmt.Fprintf(out, "   build/ was deleted by the agent; airlock undo %s brought back %d file(s), byte for byte\n", m.ID, len(res.Written))
	return true
}

// stopDemoService stops the decision service the demo's hooks started
// for its state directory, if one runs and is this airlock binary.
func stopDemoService(env []string, exe string) {
	getenv := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
	sock := hookd.SocketPath(getenv)
	if sock == "" {
		return
	}
	c, err := hookd.Dial(sock, exe)
	if err != nil {
		return
	}
	defer c.Close()
	if pid, err := c.Peer(); err == nil {
		_ = terminate(pid)
	}
}
