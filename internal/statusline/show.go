package statusline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/safefile"
)

// Neutral is the segment shown when the state cannot be read: it claims
// nothing, neither that something is held nor that nothing is.
const Neutral = "airlock ?"

// maxStdin bounds what is read of standard input: Claude Code's status
// JSON is a few kilobytes, and another status line's output one line.
const maxStdin = 256 << 10

// maxChained bounds the chained status line shown before the segment.
const maxChained = 500

// ANSI colours: red when this session has something held.
const (
	red   = "\x1b[31m"
	reset = "\x1b[0m"
)

// Input is what the agent said about the session, from its status JSON.
type Input struct {
	// Session is the agent's session id ("" when not told).
	Session string
	// Cwd is the session's directory ("" when not told).
	Cwd string
	// Chained is the first line of another status line's output, when
	// standard input was not JSON: it is shown before the segment.
	Chained string
	// Given reports whether Chained was given (it may be empty).
	Given bool
}

// ReadInput reads standard input: the agent's status JSON (session_id,
// cwd, workspace.current_dir), or another status line's output, whose
// first line is kept. A terminal or nothing gives an empty Input.
func ReadInput(stdin io.Reader) Input {
	if stdin == nil {
		return Input{}
	}
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice != 0 {
			return Input{}
		}
	}
	b, _ := io.ReadAll(io.LimitReader(stdin, maxStdin))
	trimmed := strings.TrimSpace(string(b))
	if trimmed == "" {
		return Input{}
	}
	if strings.HasPrefix(trimmed, "{") {
		var v struct {
			Session   string `json:"session_id"`
			Cwd       string `json:"cwd"`
			Workspace struct {
				Dir string `json:"current_dir"`
			} `json:"workspace"`
		}
		if json.Unmarshal([]byte(trimmed), &v) == nil {
			in := Input{Session: v.Session, Cwd: v.Cwd}
			if in.Cwd == "" {
				in.Cwd = v.Workspace.Dir
			}
			return in
		}
		if len(b) >= maxStdin {
			// The agent's JSON, cut at the bound: not another status
			// line to show.
			return Input{}
		}
	}
	line, _, _ := bufio.NewReader(strings.NewReader(string(b))).ReadLine()
	return Input{Chained: strings.TrimRight(string(line), "\r"), Given: true}
}

// Options say how the segment is shown.
type Options struct {
	// Color allows the ANSI colour.
	Color bool
	// Contained says the status line itself runs inside airlock run's
	// sandbox, where the state directory is absent: the neutral segment
	// then still says the session is contained.
	Contained bool
}

// Segment is the status segment for the session in, from st (Neutral
// when st is nil). Every word in it is airlock's own: nothing the agent
// wrote reaches it.
func Segment(st *State, in Input, o Options) string {
	if st == nil {
		if o.Contained {
			return Neutral + " · " + markText(MarkContained)
		}
		return Neutral
	}
	ss := st.Session(in.Session)
	if ss == nil && in.Session == "" && in.Cwd != "" {
		// Not told the session (chained behind another status line):
		// the most recent session in this directory.
		for i := range st.Sessions {
			if st.Sessions[i].Cwd != "" && filepath.Clean(st.Sessions[i].Cwd) == filepath.Clean(in.Cwd) {
				ss = &st.Sessions[i]
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("airlock ")
	if st.Held > 0 {
		b.WriteString("⏸ " + strconv.Itoa(st.Held) + " held")
	} else {
		b.WriteString("✓")
	}
	if ss != nil {
		if ss.Mode != "" {
			b.WriteString(" · " + safeWord(ss.Mode))
		}
		for _, m := range ss.Marks {
			b.WriteString(" · " + markText(m))
		}
	}
	seg := b.String()
	if o.Color && ss != nil && ss.Held > 0 {
		seg = red + seg + reset
	}
	return seg
}

// markText is how a mark is shown; a mark this version does not know is
// shown by its name, made safe.
func markText(m string) string {
	switch m {
	case MarkLoosened:
		return "project loosens"
	case MarkGateOff:
		return "gate off"
	case MarkContained:
		return "contained"
	}
	return safeWord(m)
}

// safeWord shows a word of the state file: airlock wrote it, but the
// file is only advisory, so it is rendered like agent text and bounded.
func safeWord(s string) string { return render.Line(s, 40) }

// Line is the whole line: the chained status line, if any, then the
// segment.
func Line(st *State, in Input, o Options) string {
	seg := Segment(st, in, o)
	if !in.Given {
		return seg
	}
	return Chained(in.Chained) + " | " + seg
}

// Chained shows another status line's output safely: its colours (SGR
// sequences, ESC [ digits and semicolons m) are kept, everything else is
// rendered like agent text (internal/render), so a branch name or a
// title in it cannot move the cursor, retitle the terminal or reorder
// the line. It is bounded to maxChained bytes of input.
func Chained(s string) string {
	if len(s) > maxChained {
		s = s[:maxChained]
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			b.WriteString(render.Line(s, maxChained))
			break
		}
		if i > 0 {
			b.WriteString(render.Line(s[:i], maxChained))
		}
		s = s[i:]
		if n := sgrLen(s); n > 0 {
			b.WriteString(s[:n])
			s = s[n:]
			continue
		}
		b.WriteString(render.Line(s[:1], 8))
		s = s[1:]
	}
	// Whatever colour the chained line left on, the segment starts plain.
	if strings.Contains(b.String(), "\x1b[") {
		b.WriteString(reset)
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence s starts with, or 0.
func sgrLen(s string) int {
	for i := 2; i < len(s) && i < 64; i++ {
		c := s[i]
		switch {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9' || c == ';':
		default:
			return 0
		}
	}
	return 0
}

// Run is "airlock statusline": it reads the agent's status JSON (or
// another status line's output) on stdin and the state file, and prints
// one line. It always returns 0: a status line that fails shows the
// neutral segment.
func Run(stdin io.Reader, stdout io.Writer, getenv func(string) string, getwd func() (string, error)) int {
	in := ReadInput(stdin)
	if in.Cwd == "" && in.Session == "" {
		if wd, err := getwd(); err == nil {
			in.Cwd = wd
		}
	}
	var st *State
	if dir := JournalDir(getenv); dir != "" {
		var err error
		if st, err = Read(Path(dir)); errors.Is(err, fs.ErrNotExist) {
			// Inside airlock run's sandbox the journal's directory is
			// absent; the runner shows the state file's copy instead.
			st, _ = Read(ViewPath(dir))
		}
	}
	line := Line(st, in, Options{Color: getenv("NO_COLOR") == "", Contained: getenv("AIRLOCK_CONTAINED") != ""})
	io.WriteString(stdout, line+"\n")
	return 0
}

// JournalDir is the journal's directory as policy.PathsFrom and
// journal.DirIn find it, repeated here so that the status line links
// neither (a test in internal/cli checks that they agree).
func JournalDir(getenv func(string) string) string {
	state := getenv("AIRLOCK_HOME")
	if state == "" {
		xdg := getenv("XDG_STATE_HOME")
		if xdg == "" {
			home := getenv("HOME")
			if home == "" {
				return ""
			}
			xdg = filepath.Join(home, ".local", "state")
		}
		state = filepath.Join(xdg, "airlock")
	}
	return filepath.Join(state, "journal")
}

// Changed reports whether noting a session's mode, marks and directory
// would change the state file at journalDir, reading it without the
// lock: the hook calls it on every decision, and writes (Note) only when
// it reports true.
//
// It looks for the session's record as Update writes it, byte for byte,
// instead of decoding the file: the hook pays this on every call. A
// record it does not find exactly so (another order, an older format, a
// damaged file) counts as a change, and Note then decides under the lock.
func Changed(journalDir, id, mode, cwd string, marks []string) bool {
	b, err := safefile.ReadRegular(Path(journalDir), safefile.ReadOptions{Limit: maxFile})
	if err != nil {
		return true
	}
	head, tail, ok := recordBytes(id, mode, cwd, marks)
	if !ok {
		return true
	}
	i := bytes.Index(b, head)
	if i < 0 {
		return true
	}
	rest := b[i+len(head):]
	// The held count sits between the id and the mode when not zero.
	if r, ok := bytes.CutPrefix(rest, []byte(`"held":`)); ok {
		n := 0
		for n < len(r) && r[n] >= '0' && r[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(r) || r[n] != ',' {
			return true
		}
		rest = r[n+1:]
	}
	return !bytes.HasPrefix(rest, tail)
}

// recordBytes are a session record's bytes as json.Marshal writes them
// in the state file: head is {"id":ID, and tail the mode, marks and
// directory up to the time, which follows them. They are put together
// field by field, in Session's order and with its omitempty rules, each
// value encoded by json.Marshal: marshalling the Session struct itself
// would cost the hook process, on every call, encoding/json's first
// look at the struct's fields (TestRecordBytes holds the two equal).
func recordBytes(id, mode, cwd string, marks []string) (head, tail []byte, ok bool) {
	marks = slices.Clone(marks)
	slices.Sort(marks)
	field := func(b []byte, name string, v any) ([]byte, bool) {
		enc, err := json.Marshal(v)
		if err != nil {
			return nil, false
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		return append(append(b, enc...), ','), true
	}
	head, ok = field([]byte{'{'}, "id", id)
	if !ok {
		return nil, nil, false
	}
	if mode != "" {
		if tail, ok = field(tail, "mode", mode); !ok {
			return nil, nil, false
		}
	}
	if len(marks) > 0 {
		if tail, ok = field(tail, "marks", marks); !ok {
			return nil, nil, false
		}
	}
	if cwd != "" {
		if tail, ok = field(tail, "cwd", cwd); !ok {
			return nil, nil, false
		}
	}
	return head, append(tail, `"time":`...), true
}

// Note records a session's mode, marks and directory in the state file
// at journalDir, under its lock, when they changed.
func Note(journalDir, id, mode, cwd string, marks []string, now time.Time) error {
	return Update(journalDir, func(st *State) bool { return st.Note(id, mode, cwd, marks, now) })
}
