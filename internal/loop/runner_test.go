package loop

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/scan"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// memory is a Recorder that keeps events in memory.
type memory struct {
	mu     sync.Mutex
	events []*vocab.Event
}

func (m *memory) Record(ev *vocab.Event) (vocab.Receipt, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events = append(m.events, ev)
	return vocab.Receipt{}, nil
}

func (m *memory) named(name string) []*vocab.Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*vocab.Event
	for _, e := range m.events {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func runner(t *testing.T, rec vocab.Recorder, progress io.Writer) *Runner {
	t.Helper()
	script, err := filepath.Abs("testdata/agent.sh")
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{
		Agent: []string{"sh", script}, Constraint: "RULES-BLOCK", Env: os.Environ(), Mode: "unattended",
		OutDir: t.TempDir(), Recorder: rec, Scanner: &scan.Scanner{}, Progress: progress, Grace: 2 * time.Second,
	}
}

func TestStoriesRunScanAndGoOnAfterAFailure(t *testing.T) {
	rec := &memory{}
	var progress bytes.Buffer
	r := runner(t, rec, &progress)
	stories := []Story{{ID: "ok", Title: "edit"}, {ID: "fail", Title: "breaks"}, {ID: "leak", Title: "deploys"}}
	for i := range stories {
		stories[i].Prompt = "do story " + stories[i].ID
	}
	sum, err := r.Run(context.Background(), stories)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	for _, res := range sum.Results {
		got[res.Story.ID] = res.Outcome
	}
	if got["ok"] != Done || got["fail"] != Failed || got["leak"] != Done || sum.Interrupted {
		t.Fatalf("outcomes %v interrupted %v", got, sum.Interrupted)
	}
	if sum.Results[1].Exit != 3 {
		t.Fatalf("failing story exit %d", sum.Results[1].Exit)
	}
	out, _ := os.ReadFile(sum.Results[0].Output)
	if !strings.Contains(string(out), "saw the constraint") || !strings.Contains(string(out), "mode=unattended") {
		t.Fatalf("story output %q: the constraint or the mode did not reach the agent", out)
	}
	errOut, _ := os.ReadFile(filepath.Join(r.OutDir, "fail.err"))
	if !strings.Contains(string(errOut), "something broke") {
		t.Fatalf("stderr of the failing story: %q", errOut)
	}
	// The scanner found the executed POST in story "leak" and the
	// mentioned push in story "ok", each with its story id.
	found := map[string]string{}
	for _, ev := range rec.named("ScanFinding") {
		found[ev.Story+" "+ev.Finding.Status] = ev.Action.Command
	}
	if !strings.Contains(found["leak executed"], "curl -X POST") {
		t.Fatalf("findings %v: the executed POST of story leak is missing", found)
	}
	if !strings.Contains(found["ok mentioned"], "git push") {
		t.Fatalf("findings %v: the mentioned push of story ok is missing", found)
	}
	ends := rec.named(EventStoryEnd)
	if len(ends) != 3 || !strings.Contains(ends[1].Note, "failed: exit status 3") || ends[1].Story != "fail" {
		t.Fatalf("story ends: %+v", ends)
	}
	if len(rec.named(EventStoryStart)) != 3 {
		t.Fatal("story starts missing")
	}
	p := progress.String()
	for _, want := range []string{"[1/3] story ok: edit started", "[2/3] story fail failed", "[3/3] story leak done"} {
		if !strings.Contains(p, want) {
			t.Fatalf("progress lacks %q:\n%s", want, p)
		}
	}
}

func TestInterruptStopsTheAgentAndTheLoop(t *testing.T) {
	rec := &memory{}
	var progress bytes.Buffer
	r := runner(t, rec, &progress)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the slow story's agent has printed that it started.
	go func() {
		for {
			data, _ := os.ReadFile(filepath.Join(r.OutDir, "slow.out"))
			if strings.Contains(string(data), "started") {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	stories := []Story{{ID: "ok", Prompt: "p"}, {ID: "slow", Prompt: "p"}, {ID: "leak", Prompt: "p"}}
	sum, err := r.Run(ctx, stories)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Interrupted || sum.Results[0].Outcome != Done || sum.Results[1].Outcome != Interrupted || sum.Results[2].Outcome != NotRun {
		t.Fatalf("summary %+v", sum)
	}
	out, _ := os.ReadFile(filepath.Join(r.OutDir, "slow.out"))
	if !strings.Contains(string(out), "interrupted, stopping") {
		t.Fatalf("the agent did not get SIGINT: %q", out)
	}
	if _, err := os.Stat(filepath.Join(r.OutDir, "leak.out")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a story ran after the interrupt")
	}
}

func TestAnAgentThatCannotStartFailsItsStoryOnly(t *testing.T) {
	rec := &memory{}
	r := runner(t, rec, nil)
	r.Agent = []string{filepath.Join(t.TempDir(), "no-such-agent")}
	sum, err := r.Run(context.Background(), []Story{{ID: "a", Prompt: "p"}, {ID: "b", Prompt: "p"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range sum.Results {
		if res.Outcome != Failed || !strings.Contains(res.Error, "could not start") {
			t.Fatalf("result %+v", res)
		}
	}
}

func TestPromptPlaceholderAndSettings(t *testing.T) {
	rec := &memory{}
	r := runner(t, rec, nil)
	bin := filepath.Join(t.TempDir(), "claude")
	// A fake "claude" that prints its arguments.
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Agent, r.Settings = []string{bin, "-p", PromptPlaceholder}, "/tmp/settings.json"
	sum, err := r.Run(context.Background(), []Story{{ID: "x", Prompt: "fix it"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(sum.Results[0].Output)
	want := "arg:--settings\narg:/tmp/settings.json\narg:-p\narg:RULES-BLOCK\n\nfix it\n"
	if string(out) != want {
		t.Fatalf("argv:\n%s\nwant:\n%s", out, want)
	}
}

func TestParseStories(t *testing.T) {
	good := []struct{ name, src string }{
		{"yaml", "- id: \"1\"\n  title: a\n  prompt: do a\n- {id: b, prompt: do b}\n"},
		{"json", `[{"id":"1","title":"a","prompt":"do a"},{"id":"b","prompt":"do b"}]`},
		{"wrapped", "stories:\n  - {id: \"1\", prompt: do a}\n  - {id: b, prompt: do b}\n"},
	}
	for _, c := range good {
		s, err := ParseStories(c.name, []byte(c.src))
		if err != nil || len(s) != 2 || s[0].ID != "1" || s[1].Prompt != "do b" {
			t.Errorf("%s: %+v %v", c.name, s, err)
		}
	}
	bad := []struct{ name, src, want string }{
		{"unknown key", "- {id: a, prompt: p, promt: q}", `:1: unknown key "promt"`},
		{"no id", "- {prompt: p}", ":1: a story needs an id"},
		{"no prompt", "- {id: a}", `story "a" needs a prompt`},
		{"duplicate", "- {id: a, prompt: p}\n- {id: a, prompt: q}", `:2: story id "a" is used twice (first at line 1)`},
		{"slash", "- {id: a/b, prompt: p}", "must not contain spaces or slashes"},
		{"not a list", "id: a", "want a list"},
		{"empty", "", "no stories"},
		{"nested", "- {id: a, prompt: [x]}", `"prompt" must be a string`},
		{"broken", "[{", "not valid JSON or YAML"},
	}
	for _, c := range bad {
		_, err := ParseStories("s.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrStories) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestIsClaude(t *testing.T) {
	for _, tc := range []struct {
		program string
		want    bool
	}{
		{"claude", true},
		{"/usr/local/bin/claude", true},
		{"/x/node_modules/.bin/claude", true},
		{"/x/node_modules/@anthropic-ai/claude-code/bin/claude.exe", true},
		{"Claude", true},
		{"claude-2.1.3", true},
		{"claude_code", true},
		{"./claude", true},
		{"claudette", false},
		{"myclaude", false},
		{"/opt/claude/bin/agent", false},
		{"codex", false},
		{"sh", false},
		{"", false},
	} {
		if got := IsClaude(tc.program); got != tc.want {
			t.Errorf("IsClaude(%q) = %v, want %v", tc.program, got, tc.want)
		}
	}
}

// TestSettingsOnlyForClaude runs the same argument-printing agent under a
// name Claude Code's npm package uses (claude.exe) and under another name:
// only the first is handed --settings, which another program would reject.
func TestSettingsOnlyForClaude(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string
	}{
		{"claude.exe", "arg:--settings\narg:/tmp/settings.json\narg:-p\n"},
		{"agent", "arg:-p\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runner(t, &memory{}, nil)
			bin := filepath.Join(t.TempDir(), tc.name)
			if err := os.WriteFile(bin, []byte("#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			r.Agent, r.Settings = []string{bin, "-p"}, "/tmp/settings.json"
			sum, err := r.Run(context.Background(), []Story{{ID: "x", Prompt: "fix it"}})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := os.ReadFile(sum.Results[0].Output)
			if string(out) != tc.want {
				t.Fatalf("argv:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}

// On a terminal the running story is one line redrawn in place, with the
// elapsed time and what was held so far, cleared when the story ends.
func TestTerminalProgressRedrawsOneLine(t *testing.T) {
	var progress bytes.Buffer
	r := runner(t, &memory{}, &progress)
	r.Terminal = true
	held := 0
	r.Held = func() int { held++; return 2 }
	if _, err := r.Run(context.Background(), []Story{{ID: "ok", Title: "edit", Prompt: "p"}}); err != nil {
		t.Fatal(err)
	}
	p := progress.String()
	if !regexp.MustCompile(`^\r\033\[K\[1/1\] story ok: edit · \d+(m\d+)?s elapsed · 2 held so far`).MatchString(p) {
		t.Fatalf("progress starts %q", p)
	}
	if !strings.Contains(p, "\r\033[K[1/1] story ok done") || strings.Contains(p, " started\n") {
		t.Fatalf("progress %q: want the live line cleared, then the end line, and no plain start line", p)
	}
	if held == 0 {
		t.Fatal("the held count was never asked for")
	}
}
