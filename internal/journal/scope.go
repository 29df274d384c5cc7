package journal

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"time"
)

// scoped returns what a report over scope reads: the queue items held or
// detected in scope (with their status at now, whatever session settled
// them) and a walk over the scope's entries. A session or a story is read
// from its postings, so its report costs its own lines; a report over
// everything walks the journal.
func (j *Journal) scoped(scope Scope, now time.Time) ([]*Item, func(fn func(e *Entry) error) error, error) {
	if scope.Session == "" && len(scope.Stories) == 0 {
		items, err := j.Queue(now)
		if err != nil {
			return nil, nil, err
		}
		return items, j.Each, nil
	}
	var items []*Item
	var lines []scopeLine
	err := j.locked(func(w *writer) error {
		items, lines = nil, nil
		var keys []string
		if scope.Session != "" {
			keys = append(keys, sessionKey(scope.Session))
		} else {
			for _, st := range scope.Stories {
				keys = append(keys, storyKey(st))
			}
		}
		var ps []posting
		var from []string // the story each posting was listed under
		for i, k := range keys {
			kp, err := w.j.postings(k, w.head.Seq)
			if err != nil {
				return err
			}
			ps = append(ps, kp...)
			for range kp {
				if scope.Session == "" {
					from = append(from, scope.Stories[i])
				} else {
					from = append(from, "")
				}
			}
		}
		order := make([]int, len(ps))
		for i := range order {
			order[i] = i
		}
		if len(keys) > 1 {
			// One file's postings are in chain order already.
			sort.SliceStable(order, func(a, b int) bool { return ps[order[a]].Seq < ps[order[b]].Seq })
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		var err error
		lines, err = scopeEntries(r, ps, from, order)
		if err != nil {
			return err
		}
		held := map[string]bool{}
		for _, l := range lines {
			if l.e != nil && l.e.ID != "" {
				held[l.e.ID] = true
			}
		}
		if len(held) == 0 {
			items = []*Item{}
			return nil
		}
		items, err = w.items(now, func(q *qstate) bool { return held[q.id] })
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	each := func(fn func(e *Entry) error) error {
		// A counted line is handed over in one reused entry: it is
		// counted, never kept (MakeReport keeps only refused calls,
		// which are read lines), and a fresh process pays for every
		// byte of heap it touches (2,000 entries are about 1 MB).
		var counted Entry
		for _, l := range lines {
			e := l.e
			if e == nil {
				counted = Entry{Seq: l.seq, Time: time.Unix(0, l.time).UTC(), Session: scope.Session, Story: l.story}
				switch l.fact {
				case factAllow:
					counted.Decision = "allow"
				case factAllowApproved:
					counted.Decision, counted.Rule = "allow", RuleApproved
				}
				e = &counted
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
	return items, each, nil
}

// scopeLine is one line of a scope: read and decoded (e), or counted from
// its posting alone (e nil: its seq, time, story and fact).
type scopeLine struct {
	e     *Entry
	seq   int64
	time  int64
	story string
	fact  uint8
}

// scopeEntries returns the lines of a scope's postings (ps, in the chain
// order given by order; from names the story each was listed under),
// reading only the lines a report shows: a line whose posting says it is
// a plain allowed call, or has no decision, is counted from its posting
// (its decision, rule, time and scope) without being read. The postings
// say so from the line's own fields when it was indexed, and audit verify
// compares them with the journal.
func scopeEntries(r *lineReader, ps []posting, from []string, order []int) ([]scopeLine, error) {
	out := make([]scopeLine, 0, len(ps))
	var read []posting
	var at []int // where each read line goes in out
	var last int64
	for _, i := range order {
		p := ps[i]
		if p.Seq == last {
			continue // a line of two of the scope's stories
		}
		last = p.Seq
		switch p.Fact {
		case factAllow, factAllowApproved, factNoDecision:
		default:
			read = append(read, p)
			at = append(at, len(out))
		}
		out = append(out, scopeLine{seq: p.Seq, time: p.Time, story: from[i], fact: p.Fact})
	}
	r.light = true // a report counts these lines; its items are read in full afterwards
	defer func() { r.light = false }()
	got, err := r.entries(read)
	if err != nil {
		return nil, err
	}
	for k, e := range got {
		out[at[k]].e = e
	}
	return out, nil
}

// lastSession reads the journal backwards from its end for the newest
// entry written by an agent (not by a human or the scanner) that names a
// session: it costs the lines since that entry.
func (j *Journal) lastSession() (string, error) {
	segs, err := segments(j.dir)
	if err != nil {
		return "", err
	}
	for i := len(segs) - 1; i >= 0; i-- {
		s, err := lastSessionIn(segs[i].path)
		if err != nil || s != "" {
			return s, err
		}
	}
	return "", nil
}

func lastSessionIn(path string) (string, error) {
	f, err := openFile(path, os.O_RDONLY, 0)
	if err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	var carry []byte // the start of a line whose beginning is further back
	end := st.Size()
	for end > 0 {
		n := int64(tailChunk)
		if n > end {
			n = end
		}
		end -= n
		chunk := make([]byte, n, n+int64(len(carry)))
		if _, err := f.ReadAt(chunk, end); err != nil && err != io.EOF {
			return "", err
		}
		buf := append(chunk, carry...)
		stop := len(buf)
		for i := len(buf) - 1; i >= -1; i-- {
			if i >= 0 && buf[i] != '\n' {
				continue
			}
			if i < 0 && end > 0 {
				break // the line starts in an earlier chunk
			}
			line := buf[i+1 : stop]
			stop = i
			if len(line) == 0 {
				continue
			}
			var e struct {
				Session string `json:"session"`
				Agent   string `json:"agent"`
			}
			if json.Unmarshal(line, &e) == nil && e.Session != "" && e.Agent != "" && e.Agent != "scan" {
				return e.Session, nil
			}
		}
		if stop > 2*MaxLine {
			return "", fmt.Errorf("journal: %s has a line longer than %d bytes", path, 2*MaxLine)
		}
		carry = append([]byte(nil), buf[:max(stop, 0)]...)
	}
	return "", nil
}

// SessionAwaits reports whether anything held or detected in a session
// still awaits a human (pending, or approved and expired unused): what
// the Stop hook asks before it builds a report. It reads the session's
// postings and the queue's, and no journal line.
func (j *Journal) SessionAwaits(session string, now time.Time) (bool, error) {
	found := false
	err := j.locked(func(w *writer) error {
		ps, err := w.j.postings(sessionKey(session), w.head.Seq)
		if err != nil || len(ps) == 0 {
			return err
		}
		states, err := w.queueStates(now)
		if err != nil {
			return err
		}
		for _, q := range states {
			if q.status != Pending && q.status != Expired {
				continue
			}
			// One posting file is in chain order (postings drops
			// repeats): a binary search, not a set of the session.
			if _, in := slices.BinarySearchFunc(ps, q.held.Seq, func(p posting, seq int64) int { return cmp.Compare(p.Seq, seq) }); in {
				found = true
				return nil
			}
		}
		return nil
	})
	return found, err
}
