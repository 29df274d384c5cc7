//go:build unix

package statusline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stateWith writes a state with held items in sessions "mine" (2) and
// "other" (1), and marks on "mine".
func stateWith(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	now := time.Unix(1_800_000_000, 0)
	if err := Note(dir, "mine", "unattended", "/src/app", []string{MarkGateOff, MarkLoosened, MarkContained}, now); err != nil {
		t.Fatal(err)
	}
	if err := Note(dir, "quiet", "interactive", "/src/other", nil, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := Update(dir, func(st *State) bool { return st.SetHeld(3, map[string]int{"mine": 2, "other": 1}) }); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run is "airlock statusline" with stdin and the journal in dir.
func run(t *testing.T, dir, stdin string, env map[string]string) string {
	t.Helper()
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "AIRLOCK_HOME" {
			return filepath.Dir(dir)
		}
		return ""
	}
	var out bytes.Buffer
	if st := Run(strings.NewReader(stdin), &out, getenv, func() (string, error) { return "/nowhere", nil }); st != 0 {
		t.Fatalf("status %d", st)
	}
	if !strings.HasSuffix(out.String(), "\n") || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("not one line: %q", out.String())
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// journalIn makes dir/journal, the journal's directory under a state
// directory dir (AIRLOCK_HOME), with the state of stateWith.
func journalIn(t *testing.T) string {
	t.Helper()
	src := stateWith(t)
	home := t.TempDir()
	jd := filepath.Join(home, "journal")
	if err := os.MkdirAll(jd, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(Path(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(Path(jd), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return jd
}

func TestSegmentThisSessionAndOthers(t *testing.T) {
	jd := journalIn(t)
	// This session holds two: red, its mode and its marks, in order.
	got := run(t, jd, `{"session_id":"mine","cwd":"/src/app","model":{"id":"m"}}`, nil)
	want := red + "airlock ⏸ 3 held · unattended · contained · gate off · project loosens" + reset
	if got != want {
		t.Errorf("this session:\n got %q\nwant %q", got, want)
	}
	// Another session holds one, this one nothing: the count, not red.
	got = run(t, jd, `{"session_id":"quiet","cwd":"/src/other"}`, nil)
	if want := "airlock ⏸ 3 held · interactive"; got != want {
		t.Errorf("quiet session: got %q, want %q", got, want)
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("a session with nothing held is coloured: %q", got)
	}
	// A session airlock has not seen: the count alone.
	if got := run(t, jd, `{"session_id":"new"}`, nil); got != "airlock ⏸ 3 held" {
		t.Errorf("unknown session: %q", got)
	}
	// NO_COLOR: the same words, no colour.
	got = run(t, jd, `{"session_id":"mine"}`, map[string]string{"NO_COLOR": "1"})
	if got != "airlock ⏸ 3 held · unattended · contained · gate off · project loosens" {
		t.Errorf("NO_COLOR: %q", got)
	}
}

func TestNothingHeld(t *testing.T) {
	dir := t.TempDir()
	if err := Note(dir, "s", "interactive", "/x", nil, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	st, err := Read(Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := Segment(st, Input{Session: "s"}, Options{Color: true}); got != "airlock ✓ · interactive" {
		t.Errorf("got %q", got)
	}
	// Settling the last held item clears the count and the colour.
	Update(dir, func(st *State) bool { return st.SetHeld(1, map[string]int{"s": 1}) })
	st, _ = Read(Path(dir))
	if got := Segment(st, Input{Session: "s"}, Options{Color: true}); !strings.HasPrefix(got, red) {
		t.Errorf("held in this session but not red: %q", got)
	}
	Update(dir, func(st *State) bool { return st.SetHeld(0, nil) })
	st, _ = Read(Path(dir))
	if got := Segment(st, Input{Session: "s"}, Options{Color: true}); got != "airlock ✓ · interactive" {
		t.Errorf("after the last settle: %q", got)
	}
}

func TestChained(t *testing.T) {
	jd := journalIn(t)
	// Another status line's output: shown first, then the segment. The
	// session is found by the directory (the status line runs there).
	getwd := func() (string, error) { return "/src/app", nil }
	var out bytes.Buffer
	Run(strings.NewReader("\x1b[32mmain\x1b[0m ~/src/app\nsecond line\n"), &out, func(k string) string {
		if k == "AIRLOCK_HOME" {
			return filepath.Dir(jd)
		}
		return ""
	}, getwd)
	got := strings.TrimSuffix(out.String(), "\n")
	want := "\x1b[32mmain\x1b[0m ~/src/app" + reset + " | " + red + "airlock ⏸ 3 held · unattended · contained · gate off · project loosens" + reset
	if got != want {
		t.Errorf("chained:\n got %q\nwant %q", got, want)
	}
	// What the chained line holds beyond colours is rendered: no cursor
	// moves, no title, no bidi override reach the terminal.
	for _, evil := range []string{"\x1b]0;title\x07x", "a\x1b[2Jb", "\u202eevil", "a\rb"} {
		got := Chained(evil)
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\u202e", "\r", "\x07"} {
			if strings.Contains(got, bad) {
				t.Errorf("Chained(%q) = %q keeps %q", evil, got, bad)
			}
		}
	}
	if got := Chained("plain"); got != "plain" {
		t.Errorf("Chained(plain) = %q", got)
	}
}

func TestErrorsAreNeutral(t *testing.T) {
	for name, setup := range map[string]func(jd string){
		"missing":    func(jd string) {},
		"bad JSON":   func(jd string) { os.WriteFile(Path(jd), []byte("{not json"), 0o600) },
		"wrong v":    func(jd string) { os.WriteFile(Path(jd), []byte(`{"v":9,"held":1}`), 0o600) },
		"directory":  func(jd string) { os.MkdirAll(Path(jd), 0o700) },
		"too large":  func(jd string) { os.WriteFile(Path(jd), bytes.Repeat([]byte(" "), maxFile+10), 0o600) },
		"unreadable": func(jd string) { os.WriteFile(Path(jd), []byte(`{"v":1,"held":1}`), 0o000) },
	} {
		jd := filepath.Join(t.TempDir(), "journal")
		os.MkdirAll(jd, 0o700)
		setup(jd)
		if name == "unreadable" && os.Geteuid() == 0 {
			// root reads a mode 0 file: a FIFO with no writer, which
			// would hang a reader that waited for one.
			os.Remove(Path(jd))
			if err := syscall.Mkfifo(Path(jd), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if got := run(t, jd, `{"session_id":"s"}`, nil); got != Neutral {
			t.Errorf("%s: got %q, want %q", name, got, Neutral)
		}
		// Given another status line, it still chains, with the neutral segment.
		if got := run(t, jd, "theirs\n", nil); got != "theirs | "+Neutral {
			t.Errorf("%s, chained: got %q", name, got)
		}
	}
	// Inside airlock run's sandbox the state directory is absent: the
	// neutral segment still says the calls are contained.
	if got := run(t, filepath.Join(t.TempDir(), "journal"), `{"session_id":"s"}`, map[string]string{"AIRLOCK_CONTAINED": "run"}); got != Neutral+" · contained" {
		t.Errorf("contained, no state: %q", got)
	}
	// No state directory at all.
	var out bytes.Buffer
	if st := Run(strings.NewReader(""), &out, func(string) string { return "" }, func() (string, error) { return "", os.ErrNotExist }); st != 0 || out.String() != Neutral+"\n" {
		t.Errorf("no state directory: %d %q", st, out.String())
	}
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < maxSessions+10; i++ {
		Note(dir, "s"+string(rune('a'+i%26))+string(rune('a'+i/26)), "interactive", "/x", nil, time.Unix(int64(i+1), 0))
	}
	Update(dir, func(st *State) bool { return st.SetHeld(1, map[string]int{"aa": 0, "old": 1}) })
	st, err := Read(Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Sessions) != maxSessions+1 {
		t.Errorf("%d sessions kept, want %d and the one with a held item", len(st.Sessions), maxSessions)
	}
	if st.Session("old") == nil {
		t.Error("a session with a held item was pruned")
	}
	if st.Session("saa") != nil {
		t.Error("the oldest session without held items was kept")
	}
}

func TestChangedOnlyWhenMarksChange(t *testing.T) {
	dir := t.TempDir()
	if !Changed(dir, "s", "unattended", "/x", []string{MarkGateOff}) {
		t.Error("no file yet, but not changed")
	}
	Note(dir, "s", "unattended", "/x", []string{MarkGateOff}, time.Unix(5, 0))
	if Changed(dir, "s", "unattended", "/x", []string{MarkGateOff}) {
		t.Error("same facts reported as a change: the hook would write on every call")
	}
	for _, c := range []struct {
		mode, cwd string
		marks     []string
	}{{"interactive", "/x", []string{MarkGateOff}}, {"unattended", "/y", []string{MarkGateOff}}, {"unattended", "/x", nil},
		{"unattended", "/x", []string{MarkGateOff, MarkContained}}, {"unattended", "/x\"", []string{MarkGateOff}}} {
		if !Changed(dir, "s", c.mode, c.cwd, c.marks) {
			t.Errorf("%+v not seen as a change", c)
		}
	}
	// With held items the record carries its count: still unchanged.
	Update(dir, func(st *State) bool { return st.SetHeld(12, map[string]int{"s": 12}) })
	if Changed(dir, "s", "unattended", "/x", []string{MarkGateOff}) {
		t.Error("a session with held items reported as changed")
	}
	if !Changed(dir, "s", "interactive", "/x", []string{MarkGateOff}) {
		t.Error("a mode change of a session with held items not seen")
	}
	// Other sessions and look-alike ids do not count for this one; odd
	// characters in ids and directories are matched as written.
	Note(dir, "s2", "interactive", "/odd \"dir\" <&>", []string{MarkContained, MarkGateOff}, time.Unix(6, 0))
	if Changed(dir, "s2", "interactive", "/odd \"dir\" <&>", []string{MarkGateOff, MarkContained}) {
		t.Error("an unchanged session with odd characters reported as changed")
	}
	if !Changed(dir, "s3", "unattended", "/x", []string{MarkGateOff}) {
		t.Error("an unknown session not seen as a change")
	}
	if !Changed(dir, "", "unattended", "/x", []string{MarkGateOff}) {
		t.Error("the empty id matched another session")
	}
}
