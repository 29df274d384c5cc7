package loop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/scan"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Event names the loop writes to the journal.
const (
	// EventStoryStart marks a story's agent process starting.
	EventStoryStart = "StoryStart"
	// EventStoryEnd marks its end; Note says how it ended.
	EventStoryEnd = "StoryEnd"
)

// Agent kinds (Runner.Kind).
const (
	// KindClaude is Claude Code, whatever its program is called.
	KindClaude = "claude"
	// KindOther is any other agent: it gets no settings file, so its own
	// configuration must call airlock's hooks.
	KindOther = "other"
)

// PromptPlaceholder in the agent command is replaced by the prompt;
// without it the prompt goes to the agent's standard input.
const PromptPlaceholder = "{prompt}"

// DefaultGrace is how long an interrupted agent gets to exit after SIGINT
// before it is killed.
const DefaultGrace = 5 * time.Second

// Outcome is how a story ended.
type Outcome string

// The outcomes of a story.
const (
	// Done: the agent exited 0, and ran at least one of the tool calls it
	// tried (or tried none).
	Done Outcome = "done"
	// Blocked: the agent exited 0, but every tool call it tried was
	// refused, by airlock or by the agent's own permission settings, so
	// nothing it was asked to do happened.
	Blocked Outcome = "blocked"
	// Failed: the agent exited non-zero or could not start.
	Failed Outcome = "failed"
	// Interrupted: the loop was stopped while the story ran.
	Interrupted Outcome = "interrupted"
	// NotRun: the loop was stopped before the story started.
	NotRun Outcome = "not-run"
)

// Runner runs stories one after another.
type Runner struct {
	// Agent is the agent command's argv, e.g. ["claude", "--print"].
	Agent []string
	// Settings is a Claude Code settings file with airlock's hooks, passed
	// with --settings when the agent is claude; "" passes nothing.
	Settings string
	// Kind says what the agent is: KindClaude gets the Settings file,
	// KindOther does not; "" decides by the program's name (IsClaude).
	Kind string
	// Contain is the argv put before the agent's to contain it
	// (airlock-run and its flags, ending with "--"); nil runs the agent
	// as it is. Each story's result says which way it ran.
	Contain []string
	// Constraint is the prompt constraint put before every story's prompt.
	Constraint string
	// Env is the agent's environment; AIRLOCK_STORY and AIRLOCK_MODE are
	// added for each story.
	Env []string
	// Mode is the autonomy mode the hooks decide in.
	Mode string
	// Dir is the agent's working directory ("" for the current one).
	Dir string
	// OutDir receives each story's output (STORY.out, STORY.err).
	OutDir string
	// Recorder keeps the loop's events and the scanner's findings.
	Recorder vocab.Recorder
	// Scanner scans each story's output.
	Scanner *scan.Scanner
	// Held counts the actions held so far in the run, for progress.
	Held func() int
	// Known reports whether the hooks already decided what a finding
	// shows (the same tool call, or a mention of a command they held in
	// this story): the journal has it, so it is not recorded again as
	// detected after the fact.
	Known func(story string, f *scan.Finding) bool
	// Calls counts the tool calls a story's agent tried since a time, and
	// how many of them ran (the journal has the hook events): a story
	// whose agent exited 0 having run none of the calls it tried is
	// Blocked, not Done. Nil counts nothing.
	Calls func(story string, since time.Time) (tried, ran int)
	// Progress receives progress; Terminal makes it one live line.
	Progress io.Writer
	Terminal bool
	// Grace is how long an interrupted agent gets (DefaultGrace when 0).
	Grace time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Result is what became of one story.
type Result struct {
	Story   Story   `json:"story"`
	Outcome Outcome `json:"outcome"`
	// Tried and Ran count the story's tool calls, and those that ran.
	Tried    int    `json:"tool_calls"`
	Ran      int    `json:"tool_calls_run"`
	Exit     int    `json:"exit"`
	Error    string `json:"error,omitempty"`
	Output   string `json:"output,omitempty"`
	Findings int    `json:"findings"`
	// Contained: the agent ran inside airlock run's sandbox.
	Contained bool          `json:"contained"`
	Elapsed   time.Duration `json:"elapsed_ns"`
}

// Summary is the run.
type Summary struct {
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	Interrupted bool      `json:"interrupted"`
	Results     []Result  `json:"results"`
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Run runs every story in turn until they are done or ctx is cancelled
// (Ctrl-C). A story that fails is recorded and the loop goes on. The
// error is set only when the loop itself cannot go on (the journal cannot
// be written); the summary then holds what ran.
func (r *Runner) Run(ctx context.Context, stories []Story) (*Summary, error) {
	if len(r.Agent) == 0 {
		return nil, errors.New("no agent command")
	}
	if err := os.MkdirAll(r.OutDir, 0o700); err != nil {
		return nil, err
	}
	sum := &Summary{Started: r.now()}
	for i, s := range stories {
		if ctx.Err() != nil {
			sum.Interrupted = true
			sum.Results = append(sum.Results, Result{Story: s, Outcome: NotRun})
			continue
		}
		res, err := r.story(ctx, i, len(stories), sum.Started, s)
		sum.Results = append(sum.Results, res)
		if res.Outcome == Interrupted {
			sum.Interrupted = true
		}
		if err != nil {
			sum.Ended = r.now()
			return sum, err
		}
	}
	sum.Ended = r.now()
	return sum, nil
}

// story runs one story's agent process, then scans its output.
func (r *Runner) story(ctx context.Context, i, n int, runStart time.Time, s Story) (Result, error) {
	res := Result{Story: s, Contained: len(r.Contain) > 0}
	start := r.now()
	if err := r.record(&vocab.Event{Time: start, Agent: "loop", Name: EventStoryStart, Story: s.ID, Cwd: r.Dir, Note: s.Title}); err != nil {
		return res, err
	}
	stopProgress := r.progress(i, n, runStart, s)
	out := filepath.Join(r.OutDir, s.ID+".out")
	res.Output = out
	res.Exit, res.Error = r.exec(ctx, s, out, filepath.Join(r.OutDir, s.ID+".err"))
	res.Elapsed = r.now().Sub(start)
	stopProgress()
	switch {
	case ctx.Err() != nil:
		res.Outcome = Interrupted
	case res.Exit != 0 || res.Error != "":
		res.Outcome = Failed
	default:
		res.Outcome = Done
	}
	if r.Calls != nil {
		res.Tried, res.Ran = r.Calls(s.ID, start)
		if res.Outcome == Done && res.Tried > 0 && res.Ran == 0 {
			res.Outcome = Blocked
		}
	}
	found, scanErr := r.scan(out, s)
	res.Findings = found
	note := string(res.Outcome)
	switch {
	case res.Error != "":
		note += ": " + res.Error
	case res.Outcome == Blocked:
		note += fmt.Sprintf(": all %d tool call(s) it tried were refused", res.Tried)
	case res.Outcome != Done:
		note += fmt.Sprintf(": exit status %d", res.Exit)
	}
	if scanErr != nil {
		note += "; the output could not be scanned: " + scanErr.Error()
	}
	if err := r.record(&vocab.Event{Time: r.now(), Agent: "loop", Name: EventStoryEnd, Story: s.ID, Cwd: r.Dir, Note: note}); err != nil {
		return res, err
	}
	how := "not contained"
	if res.Contained {
		how = "contained"
	}
	r.line(fmt.Sprintf("[%d/%d] story %s %s (%s, %s, exit %d, %d found in its output)%s", i+1, n, s.ID, res.Outcome,
		how, res.Elapsed.Round(time.Second), res.Exit, res.Findings, heldNote(r.Held)))
	return res, nil
}

// exec runs the agent and returns its exit status, or a reason it did not
// run to the end.
func (r *Runner) exec(ctx context.Context, s Story, outPath, errPath string) (int, string) {
	outF, err := os.OpenFile(outPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return -1, err.Error()
	}
	defer outF.Close()
	errF, err := os.OpenFile(errPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return -1, err.Error()
	}
	defer errF.Close()

	prompt := s.Prompt
	if r.Constraint != "" {
		prompt = strings.TrimRight(r.Constraint, "\n") + "\n\n" + s.Prompt
	}
	argv, viaArg := []string{}, false
	for _, a := range r.Agent {
		if a == PromptPlaceholder {
			a, viaArg = prompt, true
		}
		argv = append(argv, a)
	}
	if r.Settings != "" && (r.Kind == KindClaude || r.Kind == "" && IsClaude(r.Agent[0])) {
		argv = append(argv[:1], append([]string{"--settings", r.Settings}, argv[1:]...)...)
	}
	if len(r.Contain) > 0 {
		argv = append(append([]string{}, r.Contain...), argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = r.Dir
	cmd.Env = append(append([]string{}, r.Env...), "AIRLOCK_STORY="+s.ID)
	if r.Mode != "" {
		cmd.Env = append(cmd.Env, "AIRLOCK_MODE="+r.Mode)
	}
	cmd.Stdout, cmd.Stderr = outF, errF
	if !viaArg {
		cmd.Stdin = strings.NewReader(prompt + "\n")
	}
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return -1, "could not start the agent: " + err.Error()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-ctx.Done():
		interruptGroup(cmd)
		grace := r.Grace
		if grace <= 0 {
			grace = DefaultGrace
		}
		select {
		case waitErr = <-done:
		case <-time.After(grace):
			killGroup(cmd)
			waitErr = <-done
		}
	}
	var ee *exec.ExitError
	switch {
	case waitErr == nil:
		return 0, ""
	case errors.As(waitErr, &ee):
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return -1, "killed by " + st.Signal().String()
		}
		return ee.ExitCode(), ""
	}
	return -1, waitErr.Error()
}

// IsClaude reports whether program, the agent command's first word, is
// Claude Code, which then gets the hooks through --settings. The npm
// package installs its native binary as bin/claude.exe, linked from
// node_modules/.bin/claude; people also call it through a path they
// resolved or a versioned copy (claude-2.1.3). So the file name, in any
// case, is "claude" or starts with "claude" and a separator. A name that
// merely contains the word (claudette, myclaude) is another program, and
// must not be handed a flag it does not know.
func IsClaude(program string) bool {
	name := strings.ToLower(filepath.Base(program))
	if name == "claude" {
		return true
	}
	rest, ok := strings.CutPrefix(name, "claude")
	return ok && rest != "" && strings.ContainsRune(".-_", rune(rest[0]))
}

// scan scans a story's output and records what it found. Actions the
// hooks refused are already in the journal; everything else found is
// recorded as detected after the fact.
func (r *Runner) scan(path string, s Story) (int, error) {
	if r.Scanner == nil {
		return 0, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	res, err := r.Scanner.Scan(f, filepath.Base(path))
	if res == nil {
		return 0, err
	}
	n := 0
	for i := range res.Findings {
		fd := &res.Findings[i]
		if fd.Status == scan.Denied {
			continue
		}
		if r.Known != nil && r.Known(s.ID, fd) {
			continue
		}
		if rerr := r.record(fd.Event("", s.ID, r.now())); rerr != nil {
			return n, rerr
		}
		n++
	}
	return n, err
}

func (r *Runner) record(ev *vocab.Event) error {
	if r.Recorder == nil {
		return nil
	}
	_, err := r.Recorder.Record(ev)
	return err
}

// progress shows the running story: on a terminal one line redrawn every
// second; in a pipe one plain line at the start.
func (r *Runner) progress(i, n int, runStart time.Time, s Story) (stop func()) {
	title := s.Title
	if title != "" {
		title = ": " + title
	}
	if !r.Terminal || r.Progress == nil {
		r.line(fmt.Sprintf("[%d/%d] story %s%s started", i+1, n, s.ID, title))
		return func() {}
	}
	var mu sync.Mutex
	quit := make(chan struct{})
	draw := func() {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(r.Progress, "\r\033[K[%d/%d] story %s%s · %s elapsed%s", i+1, n, s.ID, title,
			r.now().Sub(runStart).Round(time.Second), heldNote(r.Held))
	}
	draw()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				draw()
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		fmt.Fprint(r.Progress, "\r\033[K")
	}
}

func (r *Runner) line(s string) {
	if r.Progress != nil {
		fmt.Fprintln(r.Progress, s)
	}
}

func heldNote(held func() int) string {
	if held == nil {
		return ""
	}
	return fmt.Sprintf(" · %d held so far", held())
}
