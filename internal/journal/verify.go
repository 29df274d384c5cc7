package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ProblemKind says how the chain is broken.
type ProblemKind string

// The ways a journal can be broken.
const (
	// Edited: a line's content no longer matches the hash the next line
	// recorded for it, or it is not an event at all.
	Edited ProblemKind = "edited"
	// Removed: sequence numbers jump, so lines are missing.
	Removed ProblemKind = "removed"
	// Reordered: a sequence number goes backwards or repeats.
	Reordered ProblemKind = "reordered"
	// Torn: the last line has no newline, as a crash mid-write leaves it.
	// "airlock audit repair" (or the next append) sets it aside.
	Torn ProblemKind = "torn"
	// Truncated: the journal ends before its anchored head (journal/HEAD):
	// events at its end, or a whole segment, were deleted.
	Truncated ProblemKind = "truncated"
	// Unauthenticated: a human act (approve, reject, run) without a valid
	// MAC: not written by airlock's human path. It does not count.
	Unauthenticated ProblemKind = "unauthenticated"
	// TeamRefused: a team decision this machine refused (team.go). Not a
	// break of the chain: a record the audit lists for the human.
	TeamRefused ProblemKind = "team-refused"
)

// Problem is the first break found in the chain.
type Problem struct {
	Kind    ProblemKind `json:"kind"`
	Segment string      `json:"segment"`
	Line    int         `json:"line"`
	Detail  string      `json:"detail"`
}

// Where names the line as FILE:LINE.
func (p *Problem) Where() string { return fmt.Sprintf("%s:%d", p.Segment, p.Line) }

// Audit is what verification found.
type Audit struct {
	Dir      string `json:"dir"`
	Segments int    `json:"segments"`
	Entries  int64  `json:"entries"`
	// HeadSeq and Head are the last event's sequence number and hash:
	// record them elsewhere to detect later truncation of the tail, which
	// the chain alone cannot show.
	HeadSeq int64  `json:"head_seq"`
	Head    string `json:"head"`
	// SetAside counts torn lines earlier repairs moved to .torn files.
	SetAside int      `json:"set_aside"`
	Problem  *Problem `json:"problem,omitempty"`
	// Anchored is the anchored head (journal/HEAD) the journal was
	// checked against.
	Anchored *AnchoredHead `json:"anchored,omitempty"`
	// Unauthenticated lists the human acts without a valid MAC, which
	// the queue ignores.
	Unauthenticated []*Problem `json:"unauthenticated,omitempty"`
	// TeamRefused lists the team decisions this machine refused (the
	// first maxUnauthenticated): forged, for another machine, or about an
	// item that changed or was settled here first. They settle nothing.
	TeamRefused []*Problem `json:"team_refused,omitempty"`
	// Archived is how many events an archive moved out of the live
	// journal behind its checkpoint; ArchivedGone, how many archived
	// segments are no longer in journal/archive (moved elsewhere or
	// deleted: the checkpoint still vouches for the chain's start).
	Archived     int64 `json:"archived,omitempty"`
	ArchivedGone int   `json:"archived_gone,omitempty"`
	// Index says whether the derived index matched the journal; when it
	// did not, verify rebuilt it and says what differed.
	Index string `json:"index"`
}

// AnchoredHead is the head kept in journal/HEAD.
type AnchoredHead struct {
	Seq   int64  `json:"seq"`
	Hash  string `json:"hash"`
	Count int64  `json:"count"`
}

// OK reports whether the chain verified and every human act in it is a
// human's.
func (a *Audit) OK() bool { return a.Problem == nil && len(a.Unauthenticated) == 0 }

// Verify walks the whole chain and stops at the first problem.
func (j *Journal) Verify() (*Audit, error) {
	a := &Audit{Dir: j.dir}
	// The anchored head remembers how far the journal went: an edited
	// last line or a cut-off end shows against it.
	anchor, herr := readHead(j.dir)
	if herr != nil && !errors.Is(herr, errBadHead) {
		return nil, herr
	}
	if anchor != nil {
		a.Anchored = &AnchoredHead{Seq: anchor.Seq, Hash: anchor.Hash, Count: anchor.Count}
	}
	var lastSeg string
	var lastLine int
	macOK := j.macChecker()
	segs, err := segments(j.dir)
	if err != nil {
		return nil, err
	}
	a.Segments = len(segs)
	a.SetAside = countTorn(segs)

	type seen struct {
		seg  string
		line int
		hash string
		// before is how many events verified before this line: what
		// Entries says when this line is the one at fault.
		before int64
	}
	var prev *seen          // the last line read
	var suspect *Problem    // a hash mismatch waiting for the next line to say which side changed
	var suspectHash string  // the hash of the line after the mismatch
	var suspectBefore int64 // the events before the suspect line
	expect := int64(1)
	stop := func(p *Problem) error { a.Problem = p; return errStop }
	// After an archive the live chain starts at the checkpoint.
	cp, err := readCheckpoint(j.dir)
	if err != nil {
		return nil, err
	}
	first := ""
	if cp != nil {
		expect, first = cp.Seq+1, cp.Hash
		a.Archived = cp.Count
		a.Problem, a.ArchivedGone = j.checkCheckpoint(cp)
		if a.Problem != nil {
			return a, nil
		}
	}

	err = j.walkLines(func(l *rawLine) error {
		if l.torn {
			return stop(&Problem{Kind: Torn, Segment: l.seg, Line: l.line,
				Detail: fmt.Sprintf("the last line has no newline (%d bytes): a write was cut short by a crash; airlock audit repair sets it aside", len(l.data))})
		}
		var e struct {
			Seq  int64  `json:"seq"`
			Prev string `json:"prev"`
		}
		if err := json.Unmarshal(l.data, &e); err != nil || e.Seq == 0 {
			return stop(&Problem{Kind: Edited, Segment: l.seg, Line: l.line, Detail: "the line is not a journal event (edited or corrupted)"})
		}
		h := lineHash(l.data)
		if len(a.Unauthenticated) < maxUnauthenticated {
			var act Entry
			if json.Unmarshal(l.data, &act) == nil && humanAct(act.Event) && !macOK(&act) {
				a.Unauthenticated = append(a.Unauthenticated, &Problem{Kind: Unauthenticated, Segment: l.seg, Line: l.line,
					Detail: strings.ToLower(act.Event) + " of " + act.Ref + " without a valid human MAC: not written by airlock's human path (airlock queue approve|reject|run); it does not count"})
			}
		}
		if len(a.TeamRefused) < maxUnauthenticated && bytes.Contains(l.data, teamRefusedNeedle) {
			var r Entry
			if json.Unmarshal(l.data, &r) == nil && r.Event == EventTeamRefused {
				a.TeamRefused = append(a.TeamRefused, &Problem{Kind: TeamRefused, Segment: l.seg, Line: l.line, Detail: refusalDetail(&r)})
			}
		}
		if suspect != nil {
			// The line before this one failed to match its predecessor's
			// hash. If this line does not match it either, that line
			// itself changed (its prev field); otherwise its predecessor
			// did.
			a.Entries = suspectBefore
			if e.Prev != suspectHash {
				suspect.Segment, suspect.Line = prev.seg, prev.line
				suspect.Detail = "the line changed after it was written: its hash no longer matches the next line's prev, and its own prev does not match the line before"
				a.Entries = prev.before
			}
			return stop(suspect)
		}
		switch {
		case e.Seq > expect:
			return stop(&Problem{Kind: Removed, Segment: l.seg, Line: l.line,
				Detail: fmt.Sprintf("%d event(s) missing before this line: sequence jumps from %d to %d", e.Seq-expect, expect-1, e.Seq)})
		case e.Seq < expect:
			return stop(&Problem{Kind: Reordered, Segment: l.seg, Line: l.line,
				Detail: fmt.Sprintf("sequence %d comes after %d", e.Seq, expect-1)})
		}
		want := first
		if prev != nil {
			want = prev.hash
		}
		if e.Prev != want {
			if prev == nil && cp != nil {
				return stop(&Problem{Kind: Edited, Segment: l.seg, Line: l.line, Detail: "the first live event's prev is not the checkpoint's hash"})
			}
			if prev == nil {
				return stop(&Problem{Kind: Edited, Segment: l.seg, Line: l.line, Detail: "the first event's prev is not empty"})
			}
			suspect = &Problem{Kind: Edited, Segment: prev.seg, Line: prev.line,
				Detail: "the line changed after it was written: its hash no longer matches the prev recorded by the next line"}
			suspectHash, suspectBefore = h, prev.before
		}
		prev = &seen{seg: l.seg, line: l.line, hash: h, before: a.Entries}
		lastSeg, lastLine = l.seg, l.line
		expect++
		a.Entries++
		a.HeadSeq, a.Head = e.Seq, h
		return nil
	})
	if err != nil {
		return nil, err
	}
	if a.Problem == nil && suspect != nil {
		// The mismatch is on the last line: either it or the one before
		// changed; name the earlier, whose hash the last line vouched for.
		a.Problem = suspect
		a.Problem.Detail += " (or the last line's prev was changed)"
		a.Entries = suspectBefore
	}
	switch {
	case a.Problem != nil || anchor == nil:
	case anchor.Seq > a.HeadSeq:
		seg := headFile
		if lastSeg != "" {
			seg = lastSeg
		}
		a.Problem = &Problem{Kind: Truncated, Segment: seg, Line: lastLine + 1,
			Detail: fmt.Sprintf("the journal ends at event %d but its anchored head (journal/HEAD) is event %d: %d event(s) at its end, or a whole segment, were deleted", a.HeadSeq, anchor.Seq, anchor.Seq-a.HeadSeq)}
	case anchor.Seq == a.HeadSeq && anchor.Hash != a.Head:
		a.Entries-- // the last line itself is the one at fault
		a.Problem = &Problem{Kind: Edited, Segment: lastSeg, Line: lastLine,
			Detail: "the last line changed after it was written: its hash no longer matches the anchored head (journal/HEAD)"}
	}
	a.Index, err = j.checkIndex(a.HeadSeq, macOK)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// maxUnauthenticated bounds the list verify keeps.
const maxUnauthenticated = 100

// checkIndex compares the index on disk with one built from the journal
// up to headSeq (records a writer added since may follow), and rebuilds
// it under the lock when they differ.
func (j *Journal) checkIndex(headSeq int64, macOK func(e *Entry) bool) (string, error) {
	want, _, err := j.buildIndex(macOK)
	if err != nil {
		return "", err
	}
	for k, b := range want {
		// Only what the walk saw: a concurrent append may have added
		// lines after headSeq.
		n := 0
		for n < len(b) && decodePosting(b[n:n+recordSize]).Seq <= headSeq {
			n += recordSize
		}
		want[k] = b[:n]
	}
	ok, why := j.indexPrefixMatches(want, headSeq)
	if ok {
		return "ok", nil
	}
	err = j.locked(func(w *writer) error { return w.rebuild() })
	if err != nil {
		return "", err
	}
	return "rebuilt: " + why, nil
}

// Repair sets aside a torn last line of the newest segment, as the next
// append would. It returns the number of bytes moved to the .torn file.
func (j *Journal) Repair() (int64, error) {
	var moved int64
	err := j.locked(func(w *writer) error {
		moved = w.repaired
		return nil
	})
	return moved, err
}

func countTorn(segs []segment) int {
	n := 0
	for _, s := range segs {
		data, err := os.ReadFile(s.path + ".torn")
		if err != nil {
			continue
		}
		for _, b := range data {
			if b == '\n' {
				n++
			}
		}
	}
	return n
}
