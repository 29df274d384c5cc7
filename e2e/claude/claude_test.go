package claude

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/journal"
)

// allowedTools lets the scripted tools run in -p mode without a prompt.
// airlock never answers "allow" itself (it only withholds), so without
// this Claude Code's own permission check would refuse them and the test
// would prove nothing about airlock.
var allowedTools = []string{"--allowedTools", "Bash,Write,Edit,Read"}

// call is a scripted tool call and whether airlock must hold it.
type call struct {
	step
	held bool
}

func bash(id, command string, held bool) call {
	return call{step: step{ID: id, Tool: "Bash", Input: map[string]any{"command": command, "description": id}}, held: held}
}

func script(calls []call) []step {
	var out []step
	for _, c := range calls {
		out = append(out, c.step)
	}
	return append(out, step{Text: "done"})
}

// TestClaudeCode runs the real Claude Code binary with airlock's hooks.
// The scenarios share one airlock build and run one claude process each.
func TestClaudeCode(t *testing.T) {
	claude := claudeBinary(t)
	airlock := buildAirlock(t, t.TempDir())
	t.Run("unattended", func(t *testing.T) { testUnattended(t, claude, airlock) })
	t.Run("interactive-user-rule", func(t *testing.T) { testInteractive(t, claude, airlock) })
	t.Run("print-mode-queues-ask", func(t *testing.T) { testPrintMode(t, claude, airlock) })
	t.Run("hook-missing-fails-closed", func(t *testing.T) { testFailClosed(t, claude, airlock) })
	t.Run("control-without-airlock", func(t *testing.T) { testControl(t, claude) })
	t.Run("loop-two-stories", func(t *testing.T) { testLoop(t, claude, airlock) })
	t.Run("loop-agent-cmd", func(t *testing.T) { testLoopAgentCmd(t, claude, airlock) })
}

// install runs `airlock install claude-code` (user scope) into the world.
func install(t *testing.T, w *world, airlock string) {
	t.Helper()
	if out, err := w.run(nil, airlock, "install", "claude-code"); err != nil {
		t.Fatalf("airlock install claude-code: %v\n%s", err, out)
	}
	settings, err := os.ReadFile(filepath.Join(w.home, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(settings), airlock) {
		t.Fatalf("install did not put airlock's hooks in the temporary HOME's settings: %v\n%s", err, settings)
	}
	// With the client beside airlock the hooks run it; without (the
	// fail-closed scenario's lone copy), airlock hook in process.
	client := filepath.Join(filepath.Dir(airlock), "airlock-hook")
	_, err = os.Stat(client)
	if runs := strings.Contains(string(settings), client+" claude-code --event PreToolUse"); runs != (err == nil) {
		t.Fatalf("client beside airlock: %v; the hooks run it: %v\n%s", err == nil, runs, settings)
	}
}

// testUnattended is the overnight-loop case: nobody watches, local work
// goes through, and every outward action is held whatever its disguise,
// including the three that pass Claude Code's own deny rules.
func testUnattended(t *testing.T, claude, airlock string) {
	w := newWorld(t)
	install(t, w, airlock)
	mode := []string{"AIRLOCK_MODE=unattended"}
	rules, err := w.run(mode, airlock, "prompt")
	if err != nil {
		t.Fatalf("airlock prompt: %v\n%s", err, rules)
	}

	notes := filepath.Join(w.project, "NOTES.md")
	calls := []call{
		{step: step{ID: "write", Tool: "Write", Input: map[string]any{"file_path": notes, "content": "# Notes\n\ndraft\n"}}},
		{step: step{ID: "read", Tool: "Read", Input: map[string]any{"file_path": notes}}},
		{step: step{ID: "edit", Tool: "Edit", Input: map[string]any{"file_path": notes, "old_string": "draft", "new_string": "final"}}},
		bash("commit", "git add NOTES.md && git commit -q -m 'notes: add'", false),
		bash("push", "git push origin main", true),
		bash("push-dash-c", "git -C "+w.project+" push origin main:refs/heads/via-dash-c", true),
		bash("push-bash-c", `bash -c "git push origin main:refs/heads/via-bash-c"`, true),
		bash("post", "curl -XPOST "+w.sink.srv.URL+"/collect -d notes=final", true),
		bash("get", "curl -s "+w.sink.srv.URL+"/ping", false),
	}
	api := newFakeAPI(t, script(calls))
	s := w.runClaude(claude, api, rules+"\n\nTask: write the release notes, commit them and publish them.", mode, allowedTools...)
	t.Logf("claude: %d stream messages, %d PreToolUse hook replies, %d permission denials", len(s.lines), len(s.hookReplies), len(s.denied()))

	checkCalls(t, s, api, calls, "airlock held this action for human review", "defer")

	// Side effects on disk: what must have happened did, what must not
	// did not.
	if b, err := os.ReadFile(notes); err != nil || string(b) != "# Notes\n\nfinal\n" {
		t.Errorf("the Write and Edit calls should have left NOTES.md with the edit: %q, %v", b, err)
	}
	head := w.git(w.project, "rev-parse", "HEAD")
	if head == w.base || w.git(w.project, "log", "-1", "--format=%s") != "notes: add" {
		t.Errorf("the allowed git commit did not take effect: HEAD %s (base %s)", head, w.base)
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the bare remote changed: %v, want only refs/heads/main at %s", refs, w.base)
	}
	if got := w.sink.requests(); !slices.Equal(got, []string{"GET /ping"}) {
		t.Errorf("loopback sink got %q, want only the allowed GET /ping (no POST)", got)
	}

	// The journal holds every held action for review, under the id the
	// model was told, and its hash chain verifies.
	items := queue(t, w, airlock)
	for _, c := range calls {
		it, ok := items[c.toolUseID()]
		switch {
		case !c.held && ok:
			t.Errorf("%s: allowed, yet queued as %s", c.ID, it.ID)
		case !c.held:
		case !ok:
			t.Errorf("%s: held, but not in airlock queue list (%d items)", c.ID, len(items))
		case it.Status != "pending" || it.Decision != "defer" || it.Mode != "unattended" || it.Command != c.Input["command"]:
			t.Errorf("%s: queue item %+v, want pending defer in unattended mode for %q", c.ID, it, c.Input["command"])
		default:
			if r, _ := api.result(c.step); !strings.Contains(r.Content, "queued for review by a human as "+it.ID) {
				t.Errorf("%s: the model was not told the queue id %s: %.300s", c.ID, it.ID, r.Content)
			}
		}
	}
	if out, err := w.run(nil, airlock, "audit", "verify"); err != nil {
		t.Errorf("airlock audit verify: %v\n%s", err, out)
	}

	// What the model was shown: the prompt from airlock prompt, and the
	// SessionStart context from the hook.
	if !api.sawText("AIRLOCK RULES FOR THIS SESSION (UNATTENDED MODE)") {
		t.Errorf("the airlock prompt did not reach the model")
	}
	if !api.sawText("airlock guards this session (unattended mode)") {
		t.Errorf("the SessionStart hook's context did not reach the model")
	}
}

// queueItem is the part of an `airlock queue list --json` item the tests
// read.
type queueItem struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	Decision  string `json:"decision"`
	Mode      string `json:"mode"`
	Command   string `json:"command"`
	ToolUseID string `json:"tool_use_id"`
	Story     string `json:"story"`
	Detected  bool   `json:"detected"`
}

// queue returns the review queue of the world's journal by tool_use id.
func queue(t *testing.T, w *world, airlock string) map[string]queueItem {
	t.Helper()
	out, err := w.run(nil, airlock, "queue", "list", "--json")
	if err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	var items []queueItem
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, out)
	}
	byTool := map[string]queueItem{}
	for _, it := range items {
		if _, dup := byTool[it.ToolUseID]; dup {
			t.Errorf("tool call %s queued twice", it.ToolUseID)
		}
		byTool[it.ToolUseID] = it
	}
	return byTool
}

// testFailClosed removes the airlock binary after installing its hooks:
// Claude Code cannot start the PreToolUse hook, and because install sets
// "onFailure": "block", every tool call is refused, a harmless local write
// included, instead of running unguarded.
func testFailClosed(t *testing.T, claude, airlock string) {
	w := newWorld(t)
	copyPath := filepath.Join(w.root, "bin", "airlock")
	data, err := os.ReadFile(airlock)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyPath, data, 0o755); err != nil {
		t.Fatal(err)
	}
	install(t, w, copyPath)
	if err := os.Remove(copyPath); err != nil {
		t.Fatal(err)
	}

	notes := filepath.Join(w.project, "NOTES.md")
	calls := []call{
		{step: step{ID: "write", Tool: "Write", Input: map[string]any{"file_path": notes, "content": "unguarded\n"}}, held: true},
		bash("push-dash-c", "git -C "+w.project+" push origin main:refs/heads/via-dash-c", true),
	}
	api := newFakeAPI(t, script(calls))
	w.runClaude(claude, api, "Task: write notes and publish.", nil, allowedTools...)
	for _, c := range calls {
		r, ok := api.result(c.step)
		if !ok || !r.IsError || !strings.Contains(r.Content, "onFailure") {
			t.Errorf("%s: want a tool error from the failed hook (onFailure block), got %v %+v", c.ID, ok, r)
		}
	}
	if _, err := os.Stat(notes); err == nil {
		t.Errorf("the Write ran although the hook could not start")
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the push ran although the hook could not start: %v", refs)
	}
}

// testInteractive runs in the default interactive mode with a user policy
// that allows pushes to a personal remote. That push goes through (the
// harness can push, so the held pushes above are not vacuous), and an
// external call, which airlock would ask about, is held for review: in -p
// mode nobody can answer (testPrintMode).
func testInteractive(t *testing.T, claude, airlock string) {
	w := newWorld(t)
	install(t, w, airlock)
	personal := filepath.Join(w.root, "personal.git")
	w.git(w.root, "init", "-q", "--bare", personal)
	w.git(w.project, "remote", "add", "personal", personal)
	w.writeFile(filepath.Join(w.home, ".config", "airlock", "policy.yaml"),
		"version: 1\nrules:\n  - id: personal-fork\n    match: {command: [\"git push personal\"]}\n    decision: allow\n    message: my own fork\n")

	calls := []call{
		bash("push-personal", "git -C "+w.project+" push -q personal main", false),
		bash("push-ask", `bash -c "git push origin main:refs/heads/via-ask"`, true),
	}
	api := newFakeAPI(t, script(calls))
	s := w.runClaude(claude, api, "Task: publish the branch.", nil, allowedTools...)

	checkCalls(t, s, api, calls, "airlock held this action for human review", "defer")
	if refs := w.git(personal, "for-each-ref", "--format=%(refname) %(objectname)"); refs != "refs/heads/main "+w.base {
		t.Errorf("the push the user's rule allows did not land in the personal remote: %q", refs)
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the asked-about push reached origin: %v", refs)
	}
	// Nothing is lost: both decisions are in the journal.
	got := map[string]string{}
	j, err := journal.Open(filepath.Join(w.home, ".local", "state", "airlock", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Each(func(e *journal.Entry) error {
		if e.Event == "PreToolUse" {
			got[e.ToolUseID] = e.Decision
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		want := "allow"
		if c.held {
			want = "defer"
		}
		if got[c.toolUseID()] != want {
			t.Errorf("%s: journal has decision %q, want %q (all: %v)", c.ID, got[c.toolUseID()], want, got)
		}
	}
}

// testPrintMode is a new user's first run: the default (interactive)
// policy under `claude -p`. Claude Code turns a hook's "ask" into a bare
// denial there, so airlock must queue the push instead of asking: the
// model is told the queue id and not to retry, the push never lands, and
// `airlock report --last` names it for review.
func testPrintMode(t *testing.T, claude, airlock string) {
	w := newWorld(t)
	install(t, w, airlock)
	calls := []call{
		bash("status", "git status --short", false),
		bash("push", "git push origin main", true),
	}
	api := newFakeAPI(t, script(calls))
	s := w.runClaude(claude, api, "Task: publish the branch.", nil, allowedTools...)

	checkCalls(t, s, api, calls, "airlock held this action for human review", "defer")
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the held push reached origin: %v", refs)
	}
	items := queue(t, w, airlock)
	it, ok := items[calls[1].toolUseID()]
	if !ok {
		t.Fatalf("the push is not in airlock queue list (%d items): the ask vanished", len(items))
	}
	if it.Status != "pending" || it.Decision != "defer" || it.Mode != "interactive" || it.Command != "git push origin main" {
		t.Errorf("queue item %+v, want a pending defer in interactive mode for the push", it)
	}
	r, _ := api.result(calls[1].step)
	for _, want := range []string{"queued for review by a human as " + it.ID, "Nobody can answer a prompt in this session", "Do not retry it"} {
		if !strings.Contains(r.Content, want) {
			t.Errorf("the model was not told %q: %.400s", want, r.Content)
		}
	}
	out, err := w.run(nil, airlock, "report", "--last")
	if code := exitCode(err); code != 1 {
		t.Errorf("airlock report --last: exit %d (%v), want 1 (something awaits review)\n%s", code, err, out)
	}
	for _, want := range []string{"DEFERRED ACTIONS REQUIRE REVIEW", it.ID, "git push origin main"} {
		if !strings.Contains(out, want) {
			t.Errorf("airlock report --last does not show %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "No actions await review") {
		t.Errorf("airlock report --last says nothing awaits review:\n%s", out)
	}
	// And the list of what was stopped today names it too.
	out, err = w.run(nil, airlock, "blocked")
	if err != nil || !strings.Contains(out, "defer ["+it.ID+"]") || !strings.Contains(out, "$ git push origin main") {
		t.Errorf("airlock blocked does not list the held push as %s: %v\n%s", it.ID, err, out)
	}
}

// exitCode is the exit status of a finished command's error (0 for nil,
// -1 when it did not run).
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

// testControl runs the disguises with Claude Code's own deny rules and no
// airlock (agent-hooks.md §2): the plain push is stopped, the disguises
// land. It shows that the scenario above is not vacuous on this pinned
// version: without airlock these calls do reach the remote and the sink.
func testControl(t *testing.T, claude string) {
	w := newWorld(t)
	w.writeFile(filepath.Join(w.home, ".claude", "settings.json"),
		`{"permissions": {"deny": ["Bash(git push *)", "Bash(curl -X POST *)"]}}`+"\n")
	calls := []call{
		bash("push", "git push origin main:refs/heads/plain", true),
		bash("push-dash-c", "git -C "+w.project+" push origin main:refs/heads/via-dash-c", false),
		bash("push-bash-c", `bash -c "git push origin main:refs/heads/via-bash-c"`, false),
		bash("post", "curl -XPOST "+w.sink.srv.URL+"/collect -d notes=final", false),
	}
	api := newFakeAPI(t, script(calls))
	s := w.runClaude(claude, api, "Task: publish.", nil, allowedTools...)
	if len(s.hookReplies) != 0 {
		t.Errorf("no hooks are installed, yet %d PreToolUse replies were seen", len(s.hookReplies))
	}
	denied := s.denied()
	for _, c := range calls {
		if _, ok := denied[c.toolUseID()]; ok != c.held {
			t.Errorf("%s: Claude Code denied=%v, want %v (its deny rules on this version)", c.ID, ok, c.held)
		}
	}
	refs := w.remoteRefs()
	if _, ok := refs["refs/heads/plain"]; ok {
		t.Errorf("Claude Code's deny rule did not stop the plain push")
	}
	for _, ref := range []string{"refs/heads/via-dash-c", "refs/heads/via-bash-c"} {
		if refs[ref] != w.base {
			t.Errorf("control: the disguised push did not land as %s (refs %v); if Claude Code now stops it, this version no longer shows the gap", ref, refs)
		}
	}
	if got := w.sink.requests(); !slices.Equal(got, []string{"POST /collect"}) {
		t.Errorf("control: sink got %q, want the disguised POST", got)
	}
}

// checkCalls checks each scripted call against what Claude Code sent back
// to the model, its result message and airlock's hook replies. A held
// call's tool result must be an error carrying airlock's reason (heldText,
// when given), be listed as a permission denial, and have a hook reply
// with the decision airlock gives (deny for defer; ask for ask).
func checkCalls(t *testing.T, s *session, api *fakeAPI, calls []call, heldText, decision string) {
	t.Helper()
	denied := s.denied()
	wantReply := map[string]string{"defer": "deny", "ask": "ask"}[decision]
	for _, c := range calls {
		r, ok := api.result(c.step)
		if !ok {
			t.Errorf("%s: Claude Code sent no tool result for %s\n%s", c.ID, c.toolUseID(), api.diagnostics())
			continue
		}
		_, wasDenied := denied[c.toolUseID()]
		switch {
		case c.held && (!r.IsError || !wasDenied):
			t.Errorf("%s: should be held, but is_error=%v denied=%v: %.300s", c.ID, r.IsError, wasDenied, r.Content)
		case c.held && heldText != "" && !strings.Contains(r.Content, heldText):
			t.Errorf("%s: the model was not given airlock's reason; tool result: %.300s", c.ID, r.Content)
		case !c.held && (r.IsError || wasDenied):
			t.Errorf("%s: should run, but is_error=%v denied=%v: %.300s", c.ID, r.IsError, wasDenied, r.Content)
		}
		if c.held {
			cmd, _ := c.Input["command"].(string)
			reply, ok := s.replyFor(cmd)
			switch {
			case !ok:
				t.Errorf("%s: no PreToolUse hook reply names %q", c.ID, cmd)
			case reply.Decision != wantReply:
				t.Errorf("%s: hook replied %q, want %q: %s", c.ID, reply.Decision, wantReply, reply.Raw)
			}
		}
	}
}
