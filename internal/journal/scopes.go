package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Errors of resolving a scope's names.
var (
	// ErrNoSession: no entry of the journal belongs to that session.
	ErrNoSession = errors.New("no such session")
	// ErrNoStory: no entry of the journal belongs to that story.
	ErrNoStory = errors.New("no such story")
	// ErrAmbiguousSession: a short id is the start of several sessions.
	ErrAmbiguousSession = errors.New("ambiguous session id")
)

// ScopeError says which name of a scope did not resolve.
type ScopeError struct {
	// Name is what the user wrote.
	Name string
	// Err is ErrNoSession, ErrNoStory or ErrAmbiguousSession.
	Err error
	// Matches are the sessions an ambiguous id starts (at most a few).
	Matches []string
}

func (e *ScopeError) Error() string {
	msg := fmt.Sprintf("%v %q", e.Err, e.Name)
	if len(e.Matches) > 0 {
		msg += " (it starts " + strings.Join(e.Matches, ", ") + ")"
	}
	return msg
}

func (e *ScopeError) Unwrap() error { return e.Err }

// ResolveSession finds the session a user named: its full id, or the
// start of exactly one session's id (reports print the first 8
// characters, ShortID). A name no session has, or one several start, is
// a *ScopeError: an empty report for a typo would read as "nothing
// happened".
func (j *Journal) ResolveSession(name string) (string, error) {
	// A full id is answered from the index, at the cost of one posting
	// file; only a short id needs the walk below.
	if ok, err := j.hasPostings(sessionKey(name)); err == nil && ok && name != "" {
		return name, nil
	}
	if name == "" {
		return "", &ScopeError{Name: name, Err: ErrNoSession}
	}
	matches, listed, err := j.sessionsStarting(name)
	if err != nil {
		return "", err
	}
	if !listed {
		return j.resolveSessionByWalk(name)
	}
	return pickSession(name, matches, false)
}

// pickSession is the one session of matches, or a *ScopeError.
func pickSession(name string, matches []string, exact bool) (string, error) {
	switch {
	case exact:
		return name, nil
	case len(matches) == 0:
		return "", &ScopeError{Name: name, Err: ErrNoSession}
	case len(matches) > 1:
		sort.Strings(matches)
		if len(matches) > 5 {
			matches = matches[:5]
		}
		return "", &ScopeError{Name: name, Err: ErrAmbiguousSession, Matches: matches}
	}
	return matches[0], nil
}

// sessionsStarting returns the sessions whose id starts with name, from
// the index's list of sessions: it reads the list (48 bytes a session)
// and only the first lines of the sessions whose first 4 bytes match.
// listed is false for an index built before the list (see keySessions).
func (j *Journal) sessionsStarting(name string) (matches []string, listed bool, err error) {
	err = j.locked(func(w *writer) error {
		matches = nil
		if _, err := os.Lstat(filepath.Join(w.j.dir, indexDir, keySessions)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		listed = true
		ps, err := w.j.postings(keySessions, w.head.Seq)
		if err != nil {
			return err
		}
		want := []byte(name)[:min(len(name), 4)]
		var cand []posting
		for _, p := range ps {
			if bytes.Equal(p.ID[:len(want)], want) {
				cand = append(cand, p)
			}
		}
		r := &lineReader{dir: w.j.dir, light: true}
		defer r.close()
		es, err := r.entries(cand)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, e := range es {
			if !seen[e.Session] && strings.HasPrefix(e.Session, name) {
				seen[e.Session] = true
				matches = append(matches, e.Session)
			}
		}
		return nil
	})
	return matches, listed, err
}

// resolveSessionByWalk is ResolveSession on an index without the list of
// sessions: it walks the journal's lines that name a session.
func (j *Journal) resolveSessionByWalk(name string) (string, error) {
	seen := map[string]bool{}
	var matches []string
	err := j.eachWhere(sessionLine, func(e *Entry) error {
		if e.Session == "" || seen[e.Session] {
			return nil
		}
		seen[e.Session] = true
		if strings.HasPrefix(e.Session, name) {
			matches = append(matches, e.Session)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return pickSession(name, matches, seen[name])
}

// CheckStories returns a *ScopeError for the first story no entry of the
// journal belongs to.
func (j *Journal) CheckStories(stories []string) error {
	if len(stories) == 0 {
		return nil
	}
	needles := make([][]byte, len(stories))
	for i, s := range stories {
		needles[i] = field("story", s)
	}
	found := map[string]bool{}
	missing := false
	for _, s := range stories {
		if ok, err := j.hasPostings(storyKey(s)); err != nil || !ok {
			missing = true
		} else {
			found[s] = true
		}
	}
	if !missing {
		return nil
	}
	if err := j.eachContaining(needles, func(e *Entry) error {
		found[e.Story] = true
		return nil
	}); err != nil {
		return err
	}
	for _, s := range stories {
		if !found[s] {
			return &ScopeError{Name: s, Err: ErrNoStory}
		}
	}
	return nil
}

// sessionLine keeps the journal lines that name a session.
func sessionLine(line []byte) bool { return bytes.Contains(line, []byte(`"session":"`)) }

// Blocked returns every tool call airlock refused or held at or after
// since, oldest first: asked, deferred and denied calls, whatever their
// queue status. It is what "what did airlock stop today" needs; the
// review queue holds only the deferred ones.
func (j *Journal) Blocked(since time.Time) ([]*Entry, error) {
	var out []*Entry
	err := j.eachContaining([][]byte{field("decision", "ask"), field("decision", "defer"), field("decision", "deny")}, func(e *Entry) error {
		if e.Time.Before(since) || e.Event == EventScanFinding {
			return nil
		}
		switch e.Decision {
		case "ask", "defer", "deny":
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// hasPostings reports whether the index holds any record under key: a
// session or story the journal has lines of. The index is brought up to
// date under the lock first; a record is checked against the chain when
// it is read, not here, so a forged posting file can only make a name
// look known, never add lines to a report.
func (j *Journal) hasPostings(key string) (bool, error) {
	var ok bool
	err := j.locked(func(w *writer) error {
		ps, err := w.j.postings(key, w.head.Seq)
		ok = len(ps) > 0
		return err
	})
	return ok, err
}
