package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// What the analysis read. A decision about a command is a decision about
// the files it runs as much as about its text: the script behind
// ./deploy.sh, the recipe of make deploy, the package script of npm run
// release, the remote git push sends to. A human who approves a held
// command approves what airlock read in those files; an approval that
// bound the text alone would let the agent rewrite the script (a local
// edit) and run the new one on the old approval. So the real filesystem
// (osFS) notes every file the classifier looked at, and what it found
// there: the content's digest, that it was absent, a directory's names,
// a file of another kind. Result.Read hands the list to the decision,
// which binds it to a held item (journal sameAction): a file that reads
// differently at the retry, or one that appeared or went, makes the
// retry another action.

// FileState is one file the classifier looked at and what it found.
type FileState struct {
	// Path is the file's absolute path as the command names it (links
	// not resolved: a link replaced by a file, or the reverse, changes
	// State).
	Path string
	// State is "sha256:HEX" of a regular file's content, "absent",
	// "dir:HEX" (a digest of a directory's names, when it was listed),
	// "dir", "link:TARGET;…" for a symbolic link, or "other:MODE".
	State string
}

// MaxReadStates bounds Result.Read: past it, the rest are folded into
// one last entry whose State digests them all ("(N more files)").
const MaxReadStates = 64

// readLog is what one classification read through an osFS. Every osFS
// made from the one a classification started with (within) shares it.
type readLog struct {
	mu    sync.Mutex
	state map[string]string
}

// note records what p held, once the classifier looked: a whole read's
// content outranks a read of its start, which outranks a stat's kind (a
// listing outranks a bare "dir").
func (l *readLog) note(p, state string) {
	if l == nil || strings.ContainsRune(p, 0) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state == nil {
		l.state = map[string]string{}
	}
	old, seen := l.state[p]
	if seen && rank(old) >= rank(state) {
		return
	}
	l.state[p] = state
}

// rank orders what a look can find: a content or listing digest says
// more than a kind.
func rank(state string) int {
	switch {
	case strings.Contains(state, "sha256:"):
		return 3
	case strings.Contains(state, "head:"), strings.Contains(state, "dir:"):
		return 2
	case strings.HasSuffix(state, "unreadable"):
		return 0
	}
	return 1
}

// withLink prefixes a state with where p leads when p is itself a
// symbolic link: a script swapped for a link to elsewhere is another
// file, even where the content read through it is the same.
func withLink(p, state string) string {
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		t, _ := os.Readlink(p)
		return "link:" + t + ";" + state
	}
	return state
}

func (l *readLog) read(p string, data []byte, err error) {
	if l == nil {
		return
	}
	l.note(p, withLink(p, contentState(data, err)))
}

func (l *readLog) stat(p string, fi fs.FileInfo, err error) {
	if l == nil {
		return
	}
	var st string
	switch {
	case err != nil:
		st = errState(err)
	case fi.IsDir():
		st = "dir"
	case fi.Mode().IsRegular():
		// The kind only: whether the content matters is the reader's
		// (a read notes it), and a size alone says nothing more.
		st = "file"
	default:
		st = "other:" + fi.Mode().Type().String()
	}
	l.note(p, withLink(p, st))
}

// head notes a file the classifier read the start of (to tell a compiled
// program from a script): its start, size and change time stand for the
// content, since a program can be large and is not read whole.
func (l *readLog) head(p string, data []byte, err error) {
	if l == nil {
		return
	}
	if err != nil {
		l.note(p, withLink(p, errState(err)))
		return
	}
	st := "head:" + digest(data)
	if fi, err := os.Stat(p); err == nil {
		st += ";size:" + strconv.FormatInt(fi.Size(), 10)
		if ct, ok := changeTime(fi); ok {
			st += ";ctime:" + strconv.FormatInt(ct.UnixNano(), 10)
		}
	}
	l.note(p, withLink(p, st))
}

func (l *readLog) dir(p string, ents []fs.DirEntry, err error) {
	if l == nil {
		return
	}
	if err != nil {
		l.note(p, errState(err))
		return
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	l.note(p, "dir:"+digest([]byte(strings.Join(names, "\x00"))))
}

func contentState(data []byte, err error) string {
	if err != nil {
		return errState(err)
	}
	return "sha256:" + digest(data)
}

func errState(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "absent"
	}
	return "unreadable"
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// list is what was noted, by path, at most MaxReadStates entries.
func (l *readLog) list() []FileState {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]FileState, 0, len(l.state))
	for p, s := range l.state {
		out = append(out, FileState{Path: p, State: s})
	}
	slices.SortFunc(out, func(a, b FileState) int { return strings.Compare(a.Path, b.Path) })
	if len(out) <= MaxReadStates {
		return out
	}
	rest := out[MaxReadStates-1:]
	var b strings.Builder
	for _, f := range rest {
		b.WriteString(f.Path)
		b.WriteByte(0)
		b.WriteString(f.State)
		b.WriteByte(0)
	}
	out = append(out[:MaxReadStates-1], FileState{
		Path:  "(" + strconv.Itoa(len(rest)) + " more files)",
		State: "sha256:" + digest([]byte(b.String())),
	})
	return out
}

// recording returns fsys noting what it reads into a fresh log, when it
// is the real filesystem (nil log otherwise: a test's map is not
// bound).
func recording(fsys FS) (FS, *readLog) {
	o, ok := fsys.(osFS)
	if !ok {
		return fsys, nil
	}
	o.log = &readLog{}
	return o, o.log
}
