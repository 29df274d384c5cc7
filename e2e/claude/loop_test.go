package claude

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/loop"
)

// loopTimeout bounds the whole loop: two claude runs.
const loopTimeout = 2 * claudeTimeout

// loopStory is one story of the loop scenario and the tool calls the fake
// model makes in it. key is a marker in the story's prompt that the fake
// API picks the story's script by.
type loopStory struct {
	id, title, key, prompt string
	calls                  []call
}

// testLoop runs `airlock loop` with two stories, each in a fresh real
// `claude -p`, as an overnight loop would: the hooks come only from the
// settings file the loop generates (the user's own settings have none and
// must not change), every held action is queued under its story, and the
// report names both stories. Side effects are judged on disk.
func testLoop(t *testing.T, claude, airlock string) {
	w := newWorld(t)

	// The user's own Claude Code settings, with no airlock hooks in them:
	// if the hooks fire, the loop's --settings file turned them on.
	userSettings := filepath.Join(w.home, ".claude", "settings.json")
	w.writeFile(userSettings, `{"includeCoAuthoredBy": false}`+"\n")
	settingsBefore := fileHash(t, userSettings)

	// A commit the remote does not have, so a push that got through would
	// move the remote's main: without it, "git push origin main" would be
	// a no-op and the remote's refs would prove nothing.
	w.writeFile(filepath.Join(w.project, "CHANGES.md"), "- loop e2e\n")
	w.git(w.project, "add", "CHANGES.md")
	w.git(w.project, "commit", "-q", "-m", "changes")
	ahead := w.git(w.project, "rev-parse", "HEAD")
	if ahead == w.base {
		t.Fatal("the project is not ahead of its remote")
	}

	rules, err := w.run(nil, airlock, "prompt", "--mode", "unattended")
	if err != nil || !strings.Contains(rules, "UNATTENDED MODE") {
		t.Fatalf("airlock prompt --mode unattended: %v\n%s", err, rules)
	}

	notes := filepath.Join(w.project, "NOTES.md")
	stories := []loopStory{{
		id: "e2e-1", title: "release notes", key: "[loop story one]",
		prompt: "[loop story one] Write the release notes to NOTES.md, then publish the branch.",
		calls: []call{
			{step: step{ID: "s1-write", Tool: "Write", Input: map[string]any{"file_path": notes, "content": "# Notes\n\nloop\n"}}},
			bash("s1-push", "git -C "+w.project+" push origin main", true),
		},
	}, {
		id: "e2e-2", title: "report", key: "[loop story two]",
		prompt: "[loop story two] Write the payload and send it to the collector.",
		calls: []call{
			bash("s2-payload", "printf 'note=final\\n' > payload.txt", false),
			bash("s2-post", "curl -XPOST "+w.sink.srv.URL+"/x -d @payload.txt", true),
		},
	}}
	scripts := map[string][]step{}
	var file []map[string]string
	for _, s := range stories {
		scripts[s.key] = script(s.calls)
		file = append(file, map[string]string{"id": s.id, "title": s.title, "prompt": s.prompt})
	}
	storiesFile := filepath.Join(w.root, "stories.json")
	data, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	w.writeFile(storiesFile, string(data))
	api := newFakeAPIByPrompt(t, scripts)

	// The agent command is the one a user would write, with --allowedTools
	// for the reason given at allowedTools; the loop adds --settings and
	// sends the prompt on standard input.
	agentCmd := shellQuote(claude) + " -p --output-format stream-json --verbose " + strings.Join(allowedTools, " ")
	outDir := filepath.Join(w.root, "runs")
	ctx, cancel := context.WithTimeout(context.Background(), loopTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, airlock, "loop", "--stories", storiesFile, "--agent-cmd", agentCmd,
		"--mode", "unattended", "--out", outDir, "--cwd", w.project)
	cmd.Dir = w.project
	cmd.Env = w.env(claudeEnv(api)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	report := stdout.String()
	diag := func() string {
		return "stdout:\n" + report + "\nstderr:\n" + stderr.String() + "\n" + storyOutputs(outDir, stories) + api.diagnostics()
	}
	var ee *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		t.Fatalf("airlock loop did not finish within %s\n%s", loopTimeout, diag())
	case !errors.As(runErr, &ee) || ee.ExitCode() != 1:
		t.Fatalf("airlock loop: %v, want exit status 1 (held actions await review)\n%s", runErr, diag())
	}
	t.Logf("airlock loop stderr:\n%s\nstdout:\n%s", stderr.String(), report)

	// Both claude processes ran to the end.
	for _, s := range stories {
		if !summarySays(report, s.id, loop.Done) {
			t.Errorf("the run summary does not say story %s is %s\n%s", s.id, loop.Done, diag())
		}
	}

	// Side effects on disk.
	if b, err := os.ReadFile(notes); err != nil || string(b) != "# Notes\n\nloop\n" {
		t.Errorf("story 1's Write should have created NOTES.md: %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "payload.txt")); err != nil || string(b) != "note=final\n" {
		t.Errorf("story 2's allowed local command should have written payload.txt: %q, %v", b, err)
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the bare remote changed: %v, want only refs/heads/main at %s (the project is at %s)", refs, w.base, ahead)
	}
	if got := w.sink.requests(); len(got) != 0 {
		t.Errorf("the loopback sink got %q, want nothing (the POST is held)", got)
	}
	if sum := fileHash(t, userSettings); sum != settingsBefore {
		b, _ := os.ReadFile(userSettings)
		t.Errorf("the loop changed the user's own settings file %s:\n%s", userSettings, b)
	}

	// What each story's model was shown and sent back: the constraint
	// from airlock prompt, then the story's prompt, in its first user
	// message; a tool error carrying the queue id for each held call.
	constraint := strings.TrimSpace(rules)
	for _, s := range stories {
		msg, ok := api.userMessage(s.key)
		if !ok {
			t.Errorf("story %s: no conversation reached the fake API", s.id)
			continue
		}
		ci, pi := strings.Index(msg, constraint), strings.Index(msg, s.prompt)
		if ci < 0 || pi < 0 || ci > pi {
			t.Errorf("story %s: the first user message should hold airlock prompt's block (at %d), then the story's prompt (at %d):\n%s",
				s.id, ci, pi, tail(msg, 1500))
		}
		out, err := os.ReadFile(filepath.Join(outDir, s.id+".out"))
		if err != nil {
			t.Errorf("story %s: its output was not kept: %v", s.id, err)
			continue
		}
		denied := parseStream(out).denied()
		for _, c := range s.calls {
			r, ok := api.result(c.step)
			_, wasDenied := denied[c.toolUseID()]
			switch {
			case !ok:
				t.Errorf("%s: Claude Code sent no tool result", c.ID)
			case c.held && (!r.IsError || !wasDenied || !strings.Contains(r.Content, "airlock held this action for human review")):
				t.Errorf("%s: should be held by airlock, but is_error=%v denied=%v: %.300s", c.ID, r.IsError, wasDenied, r.Content)
			case !c.held && (r.IsError || wasDenied):
				t.Errorf("%s: should run, but is_error=%v denied=%v: %.300s", c.ID, r.IsError, wasDenied, r.Content)
			}
		}
	}

	// The queue holds the two held calls, each under its story, and
	// nothing else (no duplicate found again in the output by the scanner).
	owner := map[string]string{} // tool_use id → story id
	for _, s := range stories {
		for _, c := range s.calls {
			owner[c.toolUseID()] = s.id
		}
	}
	items := queue(t, w, airlock)
	if len(items) != 2 {
		t.Errorf("airlock queue list has %d items, want the 2 held calls: %+v", len(items), items)
	}
	for _, s := range stories {
		for _, c := range s.calls {
			it, ok := items[c.toolUseID()]
			switch {
			case !c.held && ok:
				t.Errorf("%s: allowed, yet queued as %s", c.ID, it.ID)
			case !c.held:
			case !ok:
				t.Errorf("%s: held, but not in airlock queue list --json", c.ID)
			case it.Story != s.id || it.Status != "pending" || it.Decision != "defer" || it.Mode != "unattended" ||
				it.Detected || it.Command != c.Input["command"]:
				t.Errorf("%s: queue item %+v, want a pending defer of story %s for %q", c.ID, it, s.id, c.Input["command"])
			default:
				if r, _ := api.result(c.step); !strings.Contains(r.Content, it.ID) {
					t.Errorf("%s: the model was not told the queue id %s: %.300s", c.ID, it.ID, r.Content)
				}
				if !reportLists(report, s.id, it.Command) {
					t.Errorf("%s: the report has no line \"Story #%s [time, effect, id]: %s\"\n%s", c.ID, s.id, it.Command, report)
				}
			}
		}
	}
	n := 0
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, "  Story #") && strings.Contains(line, "]: ") {
			n++
		}
	}
	if n != 2 || !strings.Contains(report, "DEFERRED ACTIONS REQUIRE REVIEW") {
		t.Errorf("the report should list exactly the 2 held actions under DEFERRED ACTIONS REQUIRE REVIEW, has %d lines\n%s", n, report)
	}
	if out, err := w.run(nil, airlock, "audit", "verify"); err != nil {
		t.Errorf("airlock audit verify: %v\n%s", err, out)
	}

	checkLoopJournal(t, w, stories, owner)
}

// checkLoopJournal checks that every event of the run carries the story it
// belongs to: hook events by their tool call and their session (one
// claude session per story), the loop's own StoryStart and StoryEnd.
func checkLoopJournal(t *testing.T, w *world, stories []loopStory, owner map[string]string) {
	t.Helper()
	j, err := journal.Open(filepath.Join(w.home, ".local", "state", "airlock", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	sessionStory := map[string]string{}
	hooked := map[string]string{} // tool_use id → story of its PreToolUse
	loopEvents := map[string]int{}
	hookEvents := 0
	err = j.Each(func(e *journal.Entry) error {
		switch e.Agent {
		case "loop":
			if e.Event == loop.EventStoryStart || e.Event == loop.EventStoryEnd {
				loopEvents[e.Story+" "+e.Event]++
			}
		case claudecode.Name:
			hookEvents++
			if e.Session == "" {
				t.Errorf("journal entry %d (%s) has no session", e.Seq, e.Event)
			}
			if prev, ok := sessionStory[e.Session]; ok && prev != e.Story {
				t.Errorf("journal entry %d (%s): session %s has story %q, earlier %q", e.Seq, e.Event, e.Session, e.Story, prev)
			}
			sessionStory[e.Session] = e.Story
			if e.ToolUseID != "" {
				if want := owner[e.ToolUseID]; e.Story != want {
					t.Errorf("journal entry %d (%s %s): story %q, want %q", e.Seq, e.Event, e.ToolUseID, e.Story, want)
				}
				if e.Event == "PreToolUse" {
					hooked[e.ToolUseID] = e.Story
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("journal: %d hook events in %d sessions", hookEvents, len(sessionStory))
	byStory := map[string]int{}
	for _, st := range sessionStory {
		byStory[st]++
	}
	for _, s := range stories {
		if byStory[s.id] != 1 {
			t.Errorf("story %s: %d claude sessions in the journal, want 1 (sessions: %v)", s.id, byStory[s.id], sessionStory)
		}
		if loopEvents[s.id+" "+loop.EventStoryStart] != 1 || loopEvents[s.id+" "+loop.EventStoryEnd] != 1 {
			t.Errorf("story %s: want one StoryStart and one StoryEnd, got %v", s.id, loopEvents)
		}
		for _, c := range s.calls {
			if hooked[c.toolUseID()] != s.id {
				t.Errorf("%s: no PreToolUse with story %s in the journal", c.ID, s.id)
			}
		}
	}
	if len(sessionStory) != len(stories) {
		t.Errorf("hook events in %d sessions, want one per story: %v", len(sessionStory), sessionStory)
	}
}

// summarySays reports whether the run summary at the top of the loop's
// output gives the story that outcome: "  Story #ID OUTCOME", then the end
// of the line, a comma, a colon or a parenthesis that says why.
func summarySays(report, story string, outcome loop.Outcome) bool {
	for _, line := range strings.Split(report, "\n") {
		rest, ok := strings.CutPrefix(line, "  Story #"+story+" "+string(outcome))
		if ok && (rest == "" || rest[0] == ',' || rest[0] == ':' || strings.HasPrefix(rest, " (")) {
			return true
		}
	}
	return false
}

// reportLists reports whether the report has the line the report writes
// for a held action of a story: "Story #ID [TIME, EFFECT, QUEUE ID]:
// COMMAND", a long command cut in the middle ("⟨N bytes cut⟩") so that
// its start and end both show.
func reportLists(report, story, command string) bool {
	for _, line := range strings.Split(report, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Story #"+story+" [")
		if !ok {
			continue
		}
		_, shown, ok := strings.Cut(rest, "]: ")
		if !ok || shown == "" {
			continue
		}
		if shown == command {
			return true
		}
		if head, tail, cut := strings.Cut(shown, "⟨"); cut {
			if i := strings.Index(tail, " bytes cut⟩"); i >= 0 {
				tail = tail[i+len(" bytes cut⟩"):]
				if strings.HasPrefix(command, head) && strings.HasSuffix(command, tail) {
					return true
				}
			}
		}
	}
	return false
}

// storyOutputs is each story's kept output, for a failing test's log.
func storyOutputs(dir string, stories []loopStory) string {
	var b strings.Builder
	for _, s := range stories {
		for _, ext := range []string{".out", ".err"} {
			data, err := os.ReadFile(filepath.Join(dir, s.id+ext))
			if err != nil {
				continue
			}
			b.WriteString(s.id + ext + ":\n" + tail(string(data), 2000) + "\n")
		}
	}
	return b.String()
}

func fileHash(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// shellQuote quotes a path for --agent-cmd, which airlock splits like a
// shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// testLoopAgentCmd runs `airlock loop` the way docs/LOOP.md says, with the
// default agent command (the claude on PATH), and with plain
// `claude --print`. The default lets Write and Bash through to airlock's
// hook, so the story's files appear and it is done; plain print mode
// refuses both after airlock allowed them, so nothing is done and the
// story is reported as blocked, not done.
func testLoopAgentCmd(t *testing.T, claude, airlock string) {
	w := newWorld(t)
	// The claude a user would have on PATH.
	path := "PATH=" + filepath.Dir(claude) + string(os.PathListSeparator) + os.Getenv("PATH")
	run := func(id, key string, agentCmd []string) (string, string, *loopStory) {
		t.Helper()
		s := &loopStory{id: id, title: id, key: key, prompt: key + " Write the notes and record that the tests ran."}
		s.calls = []call{
			{step: step{ID: id + "-write", Tool: "Write", Input: map[string]any{"file_path": filepath.Join(w.project, id+".md"), "content": "notes\n"}}},
			bash(id+"-bash", "echo ran > "+id+".txt", false),
		}
		api := newFakeAPIByPrompt(t, map[string][]step{key: script(s.calls)})
		data, err := json.Marshal([]map[string]string{{"id": s.id, "title": s.title, "prompt": s.prompt}})
		if err != nil {
			t.Fatal(err)
		}
		storiesFile := filepath.Join(w.root, id+".json")
		w.writeFile(storiesFile, string(data))
		ctx, cancel := context.WithTimeout(context.Background(), loopTimeout)
		defer cancel()
		args := append([]string{"loop", "--stories", storiesFile, "--out", filepath.Join(w.root, "runs-"+id), "--cwd", w.project}, agentCmd...)
		cmd := exec.CommandContext(ctx, airlock, args...)
		cmd.Dir = w.project
		cmd.Env = append(w.env(claudeEnv(api)...), path)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("airlock loop did not finish within %s\n%s", loopTimeout, stderr.String())
		}
		status := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("airlock loop: %v\n%s", err, stderr.String())
		}
		return fmt.Sprint(status), stdout.String() + "\nstderr:\n" + stderr.String(), s
	}

	status, out, s := run("default-cmd", "[loop default cmd]", nil)
	if !summarySays(out, s.id, loop.Done) || status != "0" {
		t.Errorf("with the default agent command the story should be done, exit 0; got exit %s:\n%s", status, out)
	}
	for _, f := range []string{s.id + ".md", s.id + ".txt"} {
		if _, err := os.Stat(filepath.Join(w.project, f)); err != nil {
			t.Errorf("the default agent command should let the story's %s be written: %v\n%s", f, err, out)
		}
	}

	status, out, s = run("plain-print", "[loop plain print]", []string{"--agent-cmd", "claude --print"})
	if !summarySays(out, s.id, loop.Blocked) || status != "1" {
		t.Errorf("with plain claude --print every call is refused: the story should be blocked, exit 1; got exit %s:\n%s", status, out)
	}
	for _, f := range []string{s.id + ".md", s.id + ".txt"} {
		if _, err := os.Stat(filepath.Join(w.project, f)); err == nil {
			t.Errorf("plain claude --print wrote %s: print mode no longer refuses it, and the blocked check proves nothing", f)
		}
	}
}
