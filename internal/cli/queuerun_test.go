package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// heldJournal makes a private state directory with one held command and
// returns its getenv and the item's id.
func heldJournal(t *testing.T, cmd, cwd string) (func(string) string, string) {
	t.Helper()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return home
		}
		return ""
	}
	j, err := journal.Open(filepath.Join(home, "airlock", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(&journal.Entry{Event: "PreToolUse", Kind: "shell", Tool: "Bash", Command: cmd, Cwd: cwd, Decision: "defer", Rule: "table.external", Effect: "external"}); err != nil {
		t.Fatal(err)
	}
	items, err := j.Queue(time.Now())
	if err != nil || len(items) != 1 {
		t.Fatalf("%d items: %v", len(items), err)
	}
	return getenv, items[0].ID
}

// Without the test seam, queue run asks the kernel whether standard input
// is a terminal: a file, /dev/null and /dev/zero are not, although the
// last two are character devices. /dev/zero once fed an unbounded read.
func TestQueueRunRefusesWhatIsNotATerminal(t *testing.T) {
	work := t.TempDir()
	getenv, id := heldJournal(t, "echo ran > marker", work)
	t.Setenv("XDG_STATE_HOME", getenv("XDG_STATE_HOME"))
	t.Setenv("AIRLOCK_HOME", "")
	file := filepath.Join(t.TempDir(), "answer")
	if err := os.WriteFile(file, []byte(id+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{file, os.DevNull, "/dev/zero"} {
		f, err := os.Open(name)
		if err != nil {
			t.Skipf("%s: %v", name, err)
		}
		var out, errb bytes.Buffer
		st := Main([]string{"queue", "run", id}, f, &out, &errb)
		f.Close()
		if st != ExitUsage || !strings.Contains(errb.String(), "only from a terminal") {
			t.Errorf("stdin %s: exit %d: %s", name, st, errb.String())
		}
		if strings.Contains(errb.String(), "about to run") {
			t.Errorf("stdin %s: queue run went on to ask", name)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "marker")); err == nil {
		t.Fatal("the command ran")
	}
}

// An endless answer is read only up to maxAnswer bytes.
func TestReadAnswerIsBounded(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if _, err := readAnswer(f, maxAnswer); err == nil {
		t.Fatal("an endless answer was accepted")
	}
	got, err := readAnswer(strings.NewReader("abc\nrest"), maxAnswer)
	if err != nil || got != "abc" {
		t.Fatalf("%q %v", got, err)
	}
}

// What the human is asked about is the rendering: the screen cannot be
// made to show another command, and the effect and reasons are beside it.
func TestQueueRunShowsTheRendering(t *testing.T) {
	work := t.TempDir()
	cmd := "echo ran > marker\x1b[1A\x1b[2K\r" + strings.Repeat("\n", 60) + "echo status"
	getenv, id := heldJournal(t, cmd, work)
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader("y\n"), stdout: &out, stderr: &errb, getenv: getenv,
		isTerminal: func(io.Reader) bool { return true }}
	if st := e.dispatch(commandTable(), []string{"queue", "run", id}); st != ExitHeld {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	shown := errb.String()
	for _, want := range []string{`$ echo ran > marker\x1b[1A\x1b[2K\r`, "⟨60 newlines⟩", "echo status", "effect external; defer by table.external", "type its id (" + id + ")"} {
		if !strings.Contains(shown, want) {
			t.Errorf("lacks %q:\n%s", want, shown)
		}
	}
	if strings.ContainsAny(shown, "\x1b\r") || strings.Count(shown, "\n") > 20 {
		t.Errorf("raw escapes or blank lines reach the terminal:\n%q", shown)
	}
	// A command too long to show whole is not run from the terminal.
	getenv, id = heldJournal(t, "echo "+strings.Repeat("a", 10000)+"; echo tail", work)
	errb.Reset()
	e = &env{stdin: strings.NewReader(id + "\n"), stdout: &out, stderr: &errb, getenv: getenv,
		isTerminal: func(io.Reader) bool { return true }}
	if st := e.dispatch(commandTable(), []string{"queue", "run", id}); st != ExitUsage || !strings.Contains(errb.String(), "too long to show whole") {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
}

// The check is not "always no": a pseudo-terminal's master answers it.
func TestIsTTYOnAPseudoTerminal(t *testing.T) {
	f, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer f.Close()
	if !isTTY(f) {
		t.Fatal("a pseudo-terminal is not seen as a terminal")
	}
}

// A directory too long to show whole is not run in from the terminal.
func TestQueueRunRefusesAHiddenDirectory(t *testing.T) {
	getenv, id := heldJournal(t, "echo ran", "/tmp/"+strings.Repeat("d", 400)+"/x")
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(id + "\n"), stdout: &out, stderr: &errb, getenv: getenv,
		isTerminal: func(io.Reader) bool { return true }}
	if st := e.dispatch(commandTable(), []string{"queue", "run", id}); st != ExitUsage || !strings.Contains(errb.String(), "directory too long to show whole") {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
}
