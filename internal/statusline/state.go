// Package statusline keeps and shows airlock's status line: one short
// segment an agent's own status line shows ("airlock ⏸ 2 held ·
// unattended"), read from one small state file so that showing it costs
// one file read, never a scan of the journal, never the network.
//
// The state file is STATUS in the journal's directory. Two writers keep
// it current, each under the file's own lock (STATUS.lock) and each only
// when what it owns changed:
//
//   - the journal, under its own lock, right after appending an entry
//     that changes the review queue (a held action, a scanner finding, a
//     human's approval, rejection, run, acknowledgement or dismissal), and
//     whenever it lists the open items: the held counts, in total and per
//     session. Every settle goes through the journal, so the dashboard's,
//     the phone's and the command line's acts all update it. Pending items
//     do not expire (only approvals do, and an approved item is not held),
//     so no clock is needed to keep the counts true.
//   - the hook (in process or in the service), after it recorded a
//     decision: the session's mode and its marks (a project policy that
//     loosens the user's, the fact-forcing gate off, a contained session).
//
// The file is replaced atomically (a temporary file renamed over it), so
// a reader sees the old state or the new one. A reader that finds no
// file, a file it cannot read or JSON it cannot decode shows a neutral
// segment and exits 0: the status line informs, it decides nothing.
package statusline

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/airlock-dev/airlock/internal/safefile"
	"github.com/airlock-dev/airlock/internal/statefile"
)

// FileName is the state file's name in the journal's directory.
const FileName = "STATUS"

// maxFile bounds what a reader reads of the state file: it stays far
// smaller (at most maxSessions sessions besides those with held items).
const maxFile = 256 << 10

// maxSessions bounds the sessions kept for their marks alone (without a
// held item): the most recently changed are kept.
const maxSessions = 32

// lockWait bounds the wait for the state file's lock: a writer that
// cannot get it leaves the file as it is (the status line is advisory).
// Writers hold it for one small read and write; the journal takes it
// while it holds its own lock, so a stopped holder (SIGSTOP) costs a held
// call at most this long, and an allowed one only when its session's
// mode or marks changed.
const lockWait = 500 * time.Millisecond

// The marks a session can carry, as stored and as shown.
const (
	// MarkLoosened: a project policy file the user trusted loosens the
	// user's policy (an allow rule of its own, or its own mode).
	MarkLoosened = "loosened"
	// MarkGateOff: the fact-forcing gate is off.
	MarkGateOff = "gate-off"
	// MarkContained: the session's calls run contained (airlock run).
	MarkContained = "contained"
)

// State is the state file's content.
type State struct {
	// V is the format's version (1).
	V int `json:"v"`
	// Held counts the held actions no human has answered yet, in every
	// session.
	Held int `json:"held"`
	// Sessions are the sessions with held actions or with marks, most
	// recently changed first.
	Sessions []Session `json:"sessions,omitempty"`
}

// Session is one agent session's part of the state.
type Session struct {
	ID string `json:"id"`
	// Held counts this session's held actions.
	Held int `json:"held,omitempty"`
	// Mode is the mode its last decision was made in.
	Mode string `json:"mode,omitempty"`
	// Marks are the marks of its last decision, sorted.
	Marks []string `json:"marks,omitempty"`
	// Cwd is the directory of its last decision: a status line that is
	// not told the session (chained behind another one) finds it by its
	// working directory.
	Cwd string `json:"cwd,omitempty"`
	// Time is when its marks last changed (Unix seconds).
	Time int64 `json:"time,omitempty"`
}

// Path is the state file's path in the journal's directory dir.
func Path(journalDir string) string { return filepath.Join(journalDir, FileName) }

// ViewDir is where, inside "airlock run"'s sandbox, a read-only copy of
// the state file is shown, in the state directory (journalDir's parent):
// the journal's directory is not there at all, and this directory holds
// the state file alone. The runner keeps the copy current from outside.
const ViewDir = "status-view"

// ViewPath is the state file's read-only copy in the state directory of
// the journal's directory journalDir, as a sandbox shows it.
func ViewPath(journalDir string) string {
	return filepath.Join(filepath.Dir(journalDir), ViewDir, FileName)
}

// Read reads the state file at path.
func Read(path string) (*State, error) {
	// Without blocking on a FIFO, a regular file only, bounded: a status
	// line that hangs would hang the agent's screen.
	b, err := safefile.ReadRegular(path, safefile.ReadOptions{Limit: maxFile})
	if err != nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	if st.V != 1 || st.Held < 0 {
		return nil, errors.New("status file of an unknown version")
	}
	return &st, nil
}

// Session returns the session named id, or nil.
func (s *State) Session(id string) *Session {
	for i := range s.Sessions {
		if s.Sessions[i].ID == id {
			return &s.Sessions[i]
		}
	}
	return nil
}

// Update applies change to the state in the journal's directory under
// the state file's lock, and replaces the file when change reports that
// it changed something. A missing or unreadable file starts empty.
func Update(journalDir string, change func(*State) bool) error {
	lock, err := os.OpenFile(filepath.Join(journalDir, FileName+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	unlock, err := statefile.LockWithin(lock, lockWait)
	if err != nil {
		return err
	}
	defer unlock()
	path := Path(journalDir)
	st, err := Read(path)
	if err != nil {
		st = &State{}
	}
	st.V = 1
	if !change(st) {
		return nil
	}
	st.prune()
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	// No sync: the file is rewritten on the next change, and a stale one
	// after a power loss is advisory only.
	return safefile.Replace(path, append(b, '\n'), safefile.Options{Perm: 0o600, NoSync: true})
}

// SetHeld sets the held counts: total, and per session (sessions not in
// bySession hold nothing). It reports whether anything changed.
func (s *State) SetHeld(total int, bySession map[string]int) bool {
	changed := s.Held != total
	s.Held = total
	for i := range s.Sessions {
		n := bySession[s.Sessions[i].ID]
		if s.Sessions[i].Held != n {
			s.Sessions[i].Held, changed = n, true
		}
	}
	for id, n := range bySession {
		if n > 0 && s.Session(id) == nil {
			s.Sessions = append(s.Sessions, Session{ID: id, Held: n})
			changed = true
		}
	}
	return changed
}

// Note records a session's mode, marks and directory, and reports
// whether anything changed. now stamps a change.
func (s *State) Note(id, mode, cwd string, marks []string, now time.Time) bool {
	marks = slices.Clone(marks)
	slices.Sort(marks)
	if ss := s.Session(id); ss != nil {
		if ss.Mode == mode && ss.Cwd == cwd && slices.Equal(ss.Marks, marks) {
			return false
		}
		ss.Mode, ss.Cwd, ss.Marks, ss.Time = mode, cwd, marks, now.Unix()
	} else {
		s.Sessions = append(s.Sessions, Session{ID: id, Mode: mode, Cwd: cwd, Marks: marks, Time: now.Unix()})
	}
	return true
}

// prune orders the sessions, most recently changed first, and keeps
// every session with held items and the maxSessions most recent others.
func (s *State) prune() {
	slices.SortStableFunc(s.Sessions, func(a, b Session) int {
		switch {
		case a.Time > b.Time:
			return -1
		case a.Time < b.Time:
			return 1
		}
		return 0
	})
	kept, others := s.Sessions[:0], 0
	for _, ss := range s.Sessions {
		if ss.Held > 0 {
			kept = append(kept, ss)
			continue
		}
		if others < maxSessions && (ss.Mode != "" || len(ss.Marks) > 0) {
			kept = append(kept, ss)
			others++
		}
	}
	s.Sessions = kept
}
