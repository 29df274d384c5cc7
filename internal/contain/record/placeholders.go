package record

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Placeholders is the record of the placeholders one "airlock run" made
// (run.Placeholder: an empty read-only directory or file standing where a
// protected path did not exist, so that nothing can be created there
// inside). The runner removes them when the command ends; a runner
// killed with SIGKILL cannot, and the next start (CleanStale) or airlock
// doctor removes them, each only while it is still as made.
type Placeholders struct {
	Proc
	Made []Made `json:"made"`
	// Unfenced are protected paths that did not exist when the run
	// started and got no placeholder (.envrc, .mcp.json at the project's
	// top): the runner sets aside any the run made, when it can. After
	// a SIGKILL it could not, and CleanStale reports those that exist.
	Unfenced []string `json:"unfenced,omitempty"`
}

// Made is one path a runner made, and what makes it the one it made.
type Made struct {
	Path string `json:"path"`
	Dir  bool   `json:"dir,omitempty"`
	// Parent: a directory made to hold a placeholder; it was writable
	// inside, and is left when something was put in it.
	Parent bool `json:"parent,omitempty"`
	// Dev and Ino are its identity: a path replaced since is another.
	// Ctime (nanoseconds) tells a new file that got the same inode
	// number from the one made (file systems reuse them at once); a
	// parent's changes when its placeholder is removed, so it is not
	// compared for a parent.
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Ctime int64  `json:"ctime"`
	// Content is a file's whole content as made ("" or "{}\n").
	Content string `json:"content,omitempty"`
}

// maxContent bounds a placeholder file's content: airlock writes at most
// a few bytes.
const maxContent = 4096

// Identify records path, just made by this process, as it is now.
func Identify(path string, dir, parent bool) (Made, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return Made{}, err
	}
	dev, ino, ctime, ok := identity(st)
	if !ok {
		return Made{}, errors.New("record: no file identity on this system")
	}
	m := Made{Path: path, Dir: dir, Parent: parent, Dev: dev, Ino: ino, Ctime: ctime}
	if !dir {
		b, err := readSmall(path)
		if err != nil {
			return Made{}, err
		}
		m.Content = string(b)
	}
	return m, nil
}

// Same reports whether the path is still the placeholder as made: the
// same file (device and inode), an empty directory or a file holding
// exactly what was written. Anything else is someone's since, and is
// never removed.
func (m Made) Same() bool {
	st, err := os.Lstat(m.Path)
	if err != nil {
		return false
	}
	dev, ino, ctime, ok := identity(st)
	if !ok || dev != m.Dev || ino != m.Ino || st.IsDir() != m.Dir || !m.Parent && ctime != m.Ctime {
		return false
	}
	if m.Dir {
		f, err := os.Open(m.Path)
		if err != nil {
			return false
		}
		defer f.Close()
		names, err := f.Readdirnames(1)
		return len(names) == 0 && errors.Is(err, io.EOF)
	}
	if !st.Mode().IsRegular() || st.Size() != int64(len(m.Content)) {
		return false
	}
	b, err := readSmall(m.Path)
	return err == nil && string(b) == m.Content
}

func readSmall(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nofollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxContent+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxContent {
		return nil, errors.New("record: larger than a placeholder")
	}
	return b, nil
}

func placeholdersDir(stateDir string) string { return filepath.Join(stateDir, Dir, "placeholders") }

// WritePlaceholders records made as this process's placeholders and
// returns the record's path ("" when nothing was made): Forget removes
// it once the runner removed them.
func WritePlaceholders(stateDir string, made []Made, unfenced []string) (string, error) {
	if len(made) == 0 && len(unfenced) == 0 {
		return "", nil
	}
	if !filepath.IsAbs(stateDir) {
		return "", fmt.Errorf("record: no state directory")
	}
	self, err := Self()
	if err != nil {
		return "", err
	}
	path := filepath.Join(placeholdersDir(stateDir), strconv.Itoa(self.Pid)+"-"+strconv.FormatUint(self.Start, 10)+".json")
	// Not synced: it is written on every run's start, and a record lost
	// with a power cut costs only the clean-up after a SIGKILL.
	return path, writeOpt(path, Placeholders{Proc: self, Made: made, Unfenced: unfenced}, true)
}

// Forget removes a record WritePlaceholders wrote.
func Forget(path string) {
	if path != "" {
		os.Remove(path)
	}
}

// Stale is one placeholder a killed runner left.
type Stale struct {
	Path string `json:"path"`
	// Removed: it was still as made and is gone now; otherwise it was
	// left as it is (changed since, or it could not be removed), and Why
	// says so.
	Removed bool   `json:"removed"`
	Why     string `json:"why,omitempty"`
	// Pid is the runner that made it.
	Pid int `json:"pid"`
}

// CleanStale removes the placeholders of every recorded run whose runner
// no longer runs, innermost first, each only while it is still as made
// (Made.Same), and then the record. A directory made to hold a
// placeholder is removed without a word when empty and left without one
// otherwise. It returns what it found; a record it cannot read is
// skipped (and kept, for a human to look at).
func CleanStale(stateDir string) ([]Stale, error) {
	if !filepath.IsAbs(stateDir) {
		return nil, nil
	}
	dir := placeholdersDir(stateDir)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var out []Stale
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		var rec Placeholders
		if read(path, &rec) != nil || rec.Alive() {
			continue
		}
		for i := len(rec.Made) - 1; i >= 0; i-- {
			m := rec.Made[i]
			if _, err := os.Lstat(m.Path); errors.Is(err, fs.ErrNotExist) {
				continue // removed already (by a human, or another cleaner)
			}
			s := Stale{Path: m.Path, Pid: rec.Pid}
			switch {
			case !m.Same():
				s.Why = "it is no longer the empty placeholder airlock made"
			default:
				if err := os.Remove(m.Path); err != nil {
					s.Why = err.Error()
				} else {
					s.Removed = true
				}
			}
			if m.Parent && !s.Removed {
				continue // something of the agent's or the human's is in it
			}
			out = append(out, s)
		}
		for _, u := range rec.Unfenced {
			if _, err := os.Lstat(u); err == nil {
				out = append(out, Stale{Path: u, Pid: rec.Pid, Why: "it did not exist when a run that was killed started, so it may have been made inside; it is a file an agent or tool reads at its next start, outside the sandbox"})
			}
		}
		os.Remove(path)
	}
	return out, nil
}
