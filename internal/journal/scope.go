package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	var entries []*Entry
	err := j.locked(func(w *writer) error {
		items, entries = nil, nil
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
		sort.SliceStable(order, func(a, b int) bool { return ps[order[a]].Seq < ps[order[b]].Seq })
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		held := map[string]bool{}
		var err error
		entries, err = scopeEntries(r, scope, ps, from, order)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.ID != "" {
				held[e.ID] = true
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
		for _, e := range entries {
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
	return items, each, nil
}

// scopeEntries returns the entries of a scope's postings (ps, in the
// chain order given by order; from names the story each was listed
// under), reading only the lines a report shows: a line whose posting
// says it is a plain allowed call, or has no decision, becomes the entry
// the report counts (its decision, rule, time and scope) without being
// read. The postings say so from the line's own fields when it was
// indexed, and audit verify compares them with the journal.
func scopeEntries(r *lineReader, scope Scope, ps []posting, from []string, order []int) ([]*Entry, error) {
	out := make([]*Entry, 0, len(ps))
	var read []posting
	var at []int // where each read line goes in out
	var last int64
	for _, i := range order {
		p := ps[i]
		if p.Seq == last {
			continue // a line of two of the scope's stories
		}
		last = p.Seq
		var e *Entry
		switch p.Fact {
		case factAllow, factAllowApproved:
			e = &Entry{Seq: p.Seq, Time: time.Unix(0, p.Time).UTC(), Session: scope.Session, Story: from[i], Decision: "allow"}
			if p.Fact == factAllowApproved {
				e.Rule = RuleApproved
			}
		case factNoDecision:
			e = &Entry{Seq: p.Seq, Time: time.Unix(0, p.Time).UTC(), Session: scope.Session, Story: from[i]}
		default:
			read = append(read, p)
			at = append(at, len(out))
		}
		out = append(out, e)
	}
	r.light = true // a report counts these lines; its items are read in full afterwards
	defer func() { r.light = false }()
	got, err := r.entries(read)
	if err != nil {
		return nil, err
	}
	for k, e := range got {
		out[at[k]] = e
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
		in := make(map[int64]bool, len(ps))
		for _, p := range ps {
			in[p.Seq] = true
		}
		states, _, err := w.queueState(now)
		if err != nil {
			return err
		}
		for _, q := range states {
			if (q.status == Pending || q.status == Expired) && in[q.held.Seq] {
				found = true
				return nil
			}
		}
		return nil
	})
	return found, err
}
