package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The index is derived from the journal and never the source of truth.
// It is a directory of posting files, one per key, each a sequence of
// fixed-size records that point at journal lines (segment, offset,
// length) in chain order:
//
//	index/queue       every held item and every line that refers to one
//	                  (approval, rejection, run, approved retry)
//	index/detail      every line with an entry point's detail (the MCP
//	                  firewall's sends, results and quarantines)
//	index/s-HASH      the lines of one session
//	index/findings    every scanner finding, with the start of its
//	                  FindingKey's digest (what de-duplicating a scan
//	                  looks up)
//	index/sessions    the first line of every session, with the first 4
//	                  bytes of its id (what a short session id is
//	                  looked up in)
//	index/t-HASH      the lines of one story
//	index/a-XXX       the queue postings of the actions whose hash starts
//	                  with XXX (actionKey: what journal.sameAction
//	                  compares; 4,096 files at most): their held items,
//	                  the human acts about them and the retries that
//	                  used their approvals, so that finding the approval
//	                  of a retry reads one such file, about 1/4096 of
//	                  the queue, not the whole queue
//	index/actions     empty: made by every index build, it says the
//	                  a-XXX files are complete (an index built before
//	                  them is rebuilt when an approval is looked up)
//
// An append adds one record to each file its line belongs to (an allowed
// call: its session's, and its story's when it has one), so appending
// costs the same on a year-old journal as on an empty one, and queries
// read only the postings they need. HEAD names the head the index was
// built up to: when it is behind the journal (a crash between the line
// and the index, or a journal written by a release without an index) the
// next locked open indexes the missing lines; when it is missing or its
// records do not point at the lines they claim, the index is rebuilt from
// the journal. audit verify rebuilds it in memory and compares.
const indexDir = "index"

// Posting file keys.
const (
	keyQueue  = "queue"
	keyDetail = "detail"
	// keySessions lists each session once, at its first line. The file
	// is made by every index build, even empty: an index without it was
	// built by a release before it, whose later appends do not list the
	// sessions it already had.
	keySessions = "sessions"
	// keyFindings lists every scanner finding line, held or not. Like
	// keySessions it is made by every index build and only appended to
	// when it exists.
	keyFindings = "findings"
	// keyActions marks an index whose a-HASH files are complete: made
	// empty by every index build; an a-HASH file is created only when it
	// exists.
	keyActions = "actions"
)

// recordSize is the size of one posting record.
const recordSize = 48

// Kinds of queue postings.
const (
	kindLine     uint8 = iota // a line in a session, story or detail list
	kindHeld                  // a held action (Entry.ID)
	kindDetected              // a scanner finding (Entry.ID)
	kindApprove               // a human's approval of Ref
	kindReject                // a human's rejection of Ref
	kindRun                   // a human's run of Ref
	kindUsed                  // an approved retry that used Ref's approval
	kindAck                   // a human's acknowledgement of a detected Ref
	kindDismiss               // a human's dismissal of a detected Ref
)

// posting is one record: where a line is and what the queue needs to know
// about it without reading it.
type posting struct {
	Seq  int64
	Time int64 // unix nanoseconds
	Off  int64
	Exp  int64 // an approval's expiry, unix nanoseconds; 0 for none
	Seg  uint32
	Len  uint32
	Kind uint8
	ID   [4]byte // the item's id (held, detected) or the id it refers to
	Auth bool    // a human act whose MAC verified when it was indexed
	Fact uint8   // what a report counts of the line without reading it (factRead: read it)
}

// Facts a posting carries about its line, so that a session's or a
// story's report reads only the lines it shows. A line a report shows
// (held, denied, warned, detected, anything but a plain decision) is
// factRead: it is read and decoded. So is every line indexed by a
// release before facts (the byte was 0), so an old index stays correct.
const (
	factRead          uint8 = iota // read the line
	factAllow                      // an allowed call, not an approved retry, with no id
	factAllowApproved              // an approved retry (allow by RuleApproved), with no id
	factNoDecision                 // a line with no decision and no id: a report counts nothing of it
)

// factOf is what a posting says of e for a report.
func factOf(e *Entry) uint8 {
	if e.ID != "" || e.Event == EventScanFinding {
		return factRead
	}
	switch {
	case e.Decision == "":
		return factNoDecision
	case e.Decision == "allow" && e.Rule == RuleApproved:
		return factAllowApproved
	case e.Decision == "allow":
		return factAllow
	}
	return factRead
}

func (p *posting) encode(b []byte) {
	binary.LittleEndian.PutUint64(b[0:], uint64(p.Seq))
	binary.LittleEndian.PutUint64(b[8:], uint64(p.Time))
	binary.LittleEndian.PutUint64(b[16:], uint64(p.Off))
	binary.LittleEndian.PutUint64(b[24:], uint64(p.Exp))
	binary.LittleEndian.PutUint32(b[32:], p.Seg)
	binary.LittleEndian.PutUint32(b[36:], p.Len)
	b[40] = p.Kind
	copy(b[41:45], p.ID[:])
	b[45] = 0
	if p.Auth {
		b[45] = 1
	}
	b[46], b[47] = p.Fact, 0
}

func decodePosting(b []byte) posting {
	var p posting
	p.Seq = int64(binary.LittleEndian.Uint64(b[0:]))
	p.Time = int64(binary.LittleEndian.Uint64(b[8:]))
	p.Off = int64(binary.LittleEndian.Uint64(b[16:]))
	p.Exp = int64(binary.LittleEndian.Uint64(b[24:]))
	p.Seg = binary.LittleEndian.Uint32(b[32:])
	p.Len = binary.LittleEndian.Uint32(b[36:])
	p.Kind = b[40]
	copy(p.ID[:], b[41:45])
	p.Auth = b[45] == 1
	p.Fact = b[46]
	return p
}

// idString is the hex form of a posting's id.
func (p *posting) idString() string { return hex.EncodeToString(p.ID[:]) }

// errIndex is wrapped when the index does not match the journal: a
// posting that points at the wrong line, a short or disordered file.
var errIndex = errors.New("the journal's index does not match the journal")

// sessionKey and storyKey name a session's and a story's posting files:
// hashed, so that no agent-chosen text becomes a file name.
func sessionKey(s string) string { return "s-" + keyHash(s) }
func storyKey(s string) string   { return "t-" + keyHash(s) }

// actionKey names the posting file of an action: a bucket of the hash of
// everything sameAction compares, so that two entries sameAction takes
// for one action share it. A file per action would be a file per held
// call; 4,096 buckets keep the directory bounded and a bucket small.
func actionKey(e *Entry) string {
	var b strings.Builder
	b.WriteString(e.Kind)
	b.WriteByte(0)
	b.WriteString(e.Cwd)
	b.WriteByte(0)
	b.WriteString(e.Command)
	if e.Kind != "shell" {
		for _, f := range []string{e.Tool, e.URL, strconv.Itoa(len(e.Paths))} {
			b.WriteByte(0)
			b.WriteString(f)
		}
		for _, p := range e.Paths {
			b.WriteByte(0)
			b.WriteString(p)
		}
		b.WriteByte(0)
		b.WriteString(e.InputDigest)
		b.WriteByte(0)
		b.WriteString(argsDigest(e.Detail))
	}
	return "a-" + keyHash(b.String())[:3]
}

// isActionKey reports whether k names an action's posting file.
func isActionKey(k string) bool { return strings.HasPrefix(k, "a-") }

func keyHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// indexed is one journal line with what the index records about it.
type indexed struct {
	keys    []string
	p       posting
	session string  // the line's session, listed in keySessions at its first line
	finding [4]byte // a scanner finding's digest (findingDigest)
}

// indexLine works out the postings of a line at (seg, off). macOK checks
// a human act's MAC; heldKey names the action file of held item id (""
// when unknown), for a human act about it.
func indexLine(e *Entry, seg int, off int64, length int, macOK func(e *Entry) bool, heldKey func(id string) string) indexed {
	x := indexed{p: posting{Seq: e.Seq, Time: e.Time.UnixNano(), Off: off, Seg: uint32(seg), Len: uint32(length), Fact: factOf(e)}}
	if e.Session != "" {
		x.keys = append(x.keys, sessionKey(e.Session))
		x.session = e.Session
	}
	if e.Story != "" {
		x.keys = append(x.keys, storyKey(e.Story))
	}
	if len(e.Detail) > 0 {
		x.keys = append(x.keys, keyDetail)
	}
	if e.Event == EventScanFinding && e.Finding != nil {
		x.keys = append(x.keys, keyFindings)
		x.finding = findingDigest(FindingKey(e))
	}
	id, kind := "", kindLine
	switch {
	case e.ID != "":
		id, kind = e.ID, kindHeld
		if e.Event == EventScanFinding {
			kind = kindDetected
		}
	case e.Ref != "" && e.Event == EventApprove:
		id, kind = e.Ref, kindApprove
	case e.Ref != "" && e.Event == EventReject:
		id, kind = e.Ref, kindReject
	case e.Ref != "" && e.Event == EventRun:
		id, kind = e.Ref, kindRun
	case e.Ref != "" && e.Rule == RuleApproved:
		id, kind = e.Ref, kindUsed
	case e.Ref != "" && e.Event == EventAck:
		id, kind = e.Ref, kindAck
	case e.Ref != "" && e.Event == EventDismiss:
		id, kind = e.Ref, kindDismiss
	}
	if raw, err := hex.DecodeString(id); kind != kindLine && err == nil && len(raw) == 4 {
		x.keys = append(x.keys, keyQueue)
		x.p.Kind = kind
		copy(x.p.ID[:], raw)
		if e.Expires != nil {
			x.p.Exp = e.Expires.UnixNano()
		}
		if humanAct(e.Event) && macOK != nil {
			x.p.Auth = macOK(e)
		}
		switch kind {
		case kindHeld, kindUsed:
			// A retry that used an approval is the same action as the
			// item it used.
			x.keys = append(x.keys, actionKey(e))
		case kindApprove, kindReject, kindRun:
			if heldKey != nil {
				if k := heldKey(id); k != "" {
					x.keys = append(x.keys, k)
				}
			}
		}
	}
	return x
}

// indexFields is the part of a line indexLine uses: decoding only it
// spares allocating commands, reasons and messages while indexing.
type indexFields struct {
	Seq      int64           `json:"seq"`
	Time     time.Time       `json:"time"`
	Event    string          `json:"event"`
	Session  string          `json:"session"`
	Story    string          `json:"story"`
	Decision string          `json:"decision"`
	Rule     string          `json:"rule"`
	ID       string          `json:"id"`
	Ref      string          `json:"ref"`
	Expires  *time.Time      `json:"expires"`
	Detail   json.RawMessage `json:"detail"`
	Prev     string          `json:"prev"`
}

// decodeForIndex decodes what indexing a line needs; a human act in
// full, for its MAC, and a scanner finding, for its FindingKey.
func decodeForIndex(line []byte) (*Entry, bool) {
	var f indexFields
	if json.Unmarshal(line, &f) != nil || f.Seq == 0 {
		return nil, false
	}
	// A held line and an approved retry in full too: their action names
	// their action file (actionKey). Both are few.
	if humanAct(f.Event) || f.Event == EventScanFinding || f.ID != "" || f.Ref != "" && f.Rule == RuleApproved {
		var e Entry
		if json.Unmarshal(line, &e) != nil {
			return nil, false
		}
		return &e, true
	}
	return &Entry{Seq: f.Seq, Time: f.Time, Event: f.Event, Session: f.Session, Story: f.Story, Rule: f.Rule,
		Decision: f.Decision, ID: f.ID, Ref: f.Ref, Expires: f.Expires, Detail: f.Detail, Prev: f.Prev}, true
}

// keyRecord is the record of line p in file k: only the queue's records
// carry queue facts, and the sessions list the start of the session's
// id; the others stay uniform so that verify can compare them.
func keyRecord(k string, x *indexed) posting {
	p := x.p
	if k != keyQueue && !isActionKey(k) {
		p.Kind, p.ID, p.Exp, p.Auth = kindLine, [4]byte{}, 0, false
	}
	if k == keySessions {
		copy(p.ID[:], x.session)
	}
	if k == keyFindings {
		p.ID = x.finding
	}
	return p
}

// appendPostings adds a line's records to their files. A session's file
// is opened without O_CREATE first: only a session's first line finds
// it missing, and that line is listed in keySessions before the
// session's file exists (a crash in between repeats the listing, which
// postings skips), so an append of a known session costs nothing more.
func appendPostings(dir string, x indexed) error {
	var rec [recordSize]byte
	for _, k := range x.keys {
		p := keyRecord(k, &x)
		p.encode(rec[:])
		path := filepath.Join(dir, indexDir, k)
		f, err := openFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if errors.Is(err, fs.ErrNotExist) && k == keyFindings {
			continue // an index built before the list (see keyFindings)
		}
		if errors.Is(err, fs.ErrNotExist) && isActionKey(k) {
			if _, serr := os.Lstat(filepath.Join(dir, indexDir, keyActions)); serr != nil {
				continue // an index built before them (see keyActions)
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			if x.session != "" && k == sessionKey(x.session) {
				if err := listSession(dir, &x); err != nil {
					return err
				}
			}
			f, err = openFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		}
		if err != nil {
			return fmt.Errorf("journal index: %w", err)
		}
		_, werr := f.Write(rec[:])
		cerr := f.Close()
		if err := firstErr(werr, cerr); err != nil {
			return fmt.Errorf("journal index: %w", err)
		}
	}
	return nil
}

// listSession adds a session's first line to keySessions, when the file
// exists (see keySessions).
func listSession(dir string, x *indexed) error {
	var rec [recordSize]byte
	p := keyRecord(keySessions, x)
	p.encode(rec[:])
	f, err := openFile(filepath.Join(dir, indexDir, keySessions), os.O_WRONLY|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("journal index: %w", err)
	}
	_, werr := f.Write(rec[:])
	if err := firstErr(werr, f.Close()); err != nil {
		return fmt.Errorf("journal index: %w", err)
	}
	return nil
}

// buildIndex computes the whole index from the journal in memory: each
// file's bytes by key. It also returns the head of the chain it read.
func (j *Journal) buildIndex(macOK func(e *Entry) bool) (map[string][]byte, *head, error) {
	files := map[string][]byte{keySessions: {}, keyFindings: {}, keyActions: {}}
	// The action of each held item, for the human acts about it.
	held := map[string]string{}
	heldKey := func(id string) string { return held[id] }
	h := &head{}
	if cp, err := readCheckpoint(j.dir); err != nil {
		return nil, nil, err
	} else if cp != nil {
		h.Seq, h.Hash, h.Count = cp.Seq, cp.Hash, cp.Count
	}
	var rec [recordSize]byte
	err := j.walkLines(func(l *rawLine) error {
		if l.torn {
			return nil
		}
		e, ok := decodeForIndex(l.data)
		if !ok {
			return nil
		}
		x := indexLine(e, l.segN, l.off, len(l.data), macOK, heldKey)
		if x.p.Kind == kindHeld {
			if _, seen := held[e.ID]; !seen {
				held[e.ID] = actionKey(e)
			}
		}
		for _, k := range x.keys {
			if _, seen := files[k]; !seen && x.session != "" && k == sessionKey(x.session) {
				p := keyRecord(keySessions, &x)
				p.encode(rec[:])
				files[keySessions] = append(files[keySessions], rec[:]...)
			}
			p := keyRecord(k, &x)
			p.encode(rec[:])
			files[k] = append(files[k], rec[:]...)
		}
		h.Seq, h.Hash, h.Segment, h.End = e.Seq, lineHash(l.data), l.segN, l.off+int64(len(l.data))+1
		h.Count++
		return nil
	})
	return files, h, err
}

// rebuildIndex replaces the index with one built from the journal.
func (j *Journal) rebuildIndex(macOK func(e *Entry) bool) (*head, error) {
	files, h, err := j.buildIndex(macOK)
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(j.dir, indexDir+".new")
	if err := os.RemoveAll(tmp); err != nil {
		return nil, fmt.Errorf("journal index: %w", err)
	}
	if err := safeDir(tmp); err != nil {
		return nil, fmt.Errorf("journal index: %w", err)
	}
	for k, b := range files {
		f, err := openFile(filepath.Join(tmp, k), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("journal index: %w", err)
		}
		_, werr := f.Write(b)
		cerr := f.Close()
		if err := firstErr(werr, cerr); err != nil {
			return nil, fmt.Errorf("journal index: %w", err)
		}
	}
	final := filepath.Join(j.dir, indexDir)
	if err := os.RemoveAll(final); err != nil {
		return nil, fmt.Errorf("journal index: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return nil, fmt.Errorf("journal index: %w", err)
	}
	return h, nil
}

// catchUp indexes the lines after h (the head the index was built to)
// and returns the new head; errIndex when the line after h does not
// continue h's chain (the index then has to be rebuilt).
func (j *Journal) catchUp(h *head, macOK func(e *Entry) bool) (*head, error) {
	segs, err := segments(j.dir)
	if err != nil {
		return nil, err
	}
	nh := *h
	first := true
	for _, s := range segs {
		if s.n < h.Segment {
			continue
		}
		start := int64(0)
		if s.n == h.Segment {
			start = h.End
		}
		err := walkSegmentFrom(s.path, s.n, start, func(l *rawLine) error {
			if l.torn {
				return nil
			}
			e, ok := decodeForIndex(l.data)
			if !ok {
				return nil
			}
			if first && (e.Seq != h.Seq+1 || e.Prev != h.Hash) {
				return errIndex
			}
			first = false
			if err := appendPostings(j.dir, indexLine(e, l.segN, l.off, len(l.data), macOK, j.heldActionKey)); err != nil {
				return err
			}
			nh.Seq, nh.Hash, nh.Segment, nh.End = e.Seq, lineHash(l.data), l.segN, l.off+int64(len(l.data))+1
			nh.Count++
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return &nh, nil
}

// postings reads one posting file, oldest first. Records that repeat a
// sequence number already read (a crash between the index and HEAD,
// then a catch-up) are skipped; records past head, out of order, or a
// file that is not whole records, are errIndex.
func (j *Journal) postings(key string, headSeq int64) ([]posting, error) {
	f, err := openFile(filepath.Join(j.dir, indexDir, key), os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	// One read of the file's size, not io.ReadAll's doubling buffers: a
	// session's postings are read twice by every Stop hook.
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errIndex, key, err)
	}
	if len(data)%recordSize != 0 {
		return nil, fmt.Errorf("%w: %s is not whole records", errIndex, key)
	}
	out := make([]posting, 0, len(data)/recordSize)
	var last int64
	for off := 0; off < len(data); off += recordSize {
		p := decodePosting(data[off : off+recordSize])
		switch {
		case p.Seq <= 0 || p.Seq > headSeq || p.Len == 0 || p.Len > 2*MaxLine:
			return nil, fmt.Errorf("%w: %s has a record for event %d", errIndex, key, p.Seq)
		case p.Seq <= last:
			continue
		}
		last = p.Seq
		out = append(out, p)
	}
	return out, nil
}

// postingsSince reads one posting file backwards from its end and returns
// the records whose time is at or after floor (unix nanoseconds), oldest
// first: it costs the records in the window, not the file.
func (j *Journal) postingsSince(key string, headSeq, floor int64) ([]posting, error) {
	return j.postingsBack(key, headSeq, func(p posting) bool { return p.Time >= floor })
}

// postingsBack reads one posting file backwards from its end while keep
// says yes, and returns the records it kept, oldest first: it costs the
// records kept, not the file.
func (j *Journal) postingsBack(key string, headSeq int64, keep func(posting) bool) ([]posting, error) {
	f, err := openFile(filepath.Join(j.dir, indexDir, key), os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size()%recordSize != 0 {
		return nil, fmt.Errorf("%w: %s is not whole records", errIndex, key)
	}
	var rev []posting
	buf := make([]byte, 256*recordSize)
	for end := st.Size(); end > 0; {
		n := min(int64(len(buf)), end)
		end -= n
		if _, err := f.ReadAt(buf[:n], end); err != nil && err != io.EOF {
			return nil, err
		}
		for off := n - recordSize; off >= 0; off -= recordSize {
			p := decodePosting(buf[off : off+recordSize])
			if p.Seq <= 0 || p.Seq > headSeq || p.Len == 0 || p.Len > 2*MaxLine {
				return nil, fmt.Errorf("%w: %s has a record for event %d", errIndex, key, p.Seq)
			}
			if !keep(p) {
				end = 0
				break
			}
			if len(rev) > 0 && p.Seq >= rev[len(rev)-1].Seq {
				continue // a repeat from a catch-up
			}
			rev = append(rev, p)
		}
	}
	out := make([]posting, len(rev))
	for i, p := range rev {
		out[len(rev)-1-i] = p
	}
	return out, nil
}

// lineReader reads the lines postings point at, keeping segments open.
type lineReader struct {
	dir   string
	files map[uint32]*os.File
	// light decodes only the fields a report counts (see lightEntry).
	light bool
	// span is a run of a segment read at once (see entries).
	span    []byte
	spanSeg uint32
	spanOff int64
}

// file is segment n, opened once.
func (r *lineReader) file(n uint32) (*os.File, bool, error) {
	if r.files == nil {
		r.files = map[uint32]*os.File{}
	}
	if f := r.files[n]; f != nil {
		return f, false, nil
	}
	f, err := openFile(filepath.Join(r.dir, segmentName(int(n))), os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, fmt.Errorf("%w: segment %d is gone", errIndex, n)
		}
		return nil, false, err
	}
	r.files[n] = f
	return f, true, nil
}

func (r *lineReader) close() {
	for _, f := range r.files {
		f.Close()
	}
}

// entry reads and decodes the line p points at, and checks it is the
// line p claims (errIndex otherwise).
func (r *lineReader) entry(p posting) (*Entry, []byte, error) {
	f, _, err := r.file(p.Seg)
	if err != nil {
		return nil, nil, err
	}
	var buf []byte
	if r.span != nil && r.spanSeg == p.Seg && p.Off >= r.spanOff && p.Off+int64(p.Len)+1 <= r.spanOff+int64(len(r.span)) {
		buf = r.span[p.Off-r.spanOff : p.Off-r.spanOff+int64(p.Len)+1]
	} else {
		buf = make([]byte, int(p.Len)+1)
		if _, err := f.ReadAt(buf, p.Off); err != nil {
			return nil, nil, fmt.Errorf("%w: event %d: %v", errIndex, p.Seq, err)
		}
	}
	// The record's seq must be the line's: a record pointing into the
	// middle of a line cannot decode to it (the rest of the line would
	// not be one JSON value).
	if buf[p.Len] != '\n' {
		return nil, nil, fmt.Errorf("%w: event %d is not where the index says", errIndex, p.Seq)
	}
	line := buf[:p.Len]
	var e Entry
	if r.light {
		var l lightEntry
		if err := json.Unmarshal(line, &l); err != nil || l.Seq != p.Seq {
			return nil, nil, fmt.Errorf("%w: event %d is not where the index says", errIndex, p.Seq)
		}
		// A line whose action ran after a snapshot is read in full too:
		// the report names the snapshot and its undo. Such lines are few.
		if (l.ID != "" || l.Decision != "deny" && l.Decision != "ask") && !bytes.Contains(line, snapshotTakenNeedle) {
			e = Entry{Seq: l.Seq, Time: l.Time, Event: l.Event, Agent: l.Agent, Session: l.Session, Story: l.Story,
				Decision: l.Decision, Rule: l.Rule, ID: l.ID, Ref: l.Ref}
			return &e, line, nil
		}
		// A refusal that was not queued is listed by the report with its
		// command, effect and reason ("Asked and denied"), so it is read
		// in full; such lines are few.
	}
	if err := json.Unmarshal(line, &e); err != nil || e.Seq != p.Seq {
		return nil, nil, fmt.Errorf("%w: event %d is not where the index says", errIndex, p.Seq)
	}
	return &e, line, nil
}

// spanGap is the largest gap between two wanted lines that entries reads
// through rather than seeking over, and spanMax the largest single read.
// A session's lines sit close together and read as a few runs; held
// items spread over a journal are read one by one.
const (
	spanGap = 4 << 10
	spanMax = 1 << 20
)

// entries reads the lines of ps (in chain order), reading runs of nearby
// lines with one call: a session's lines mostly sit together.
func (r *lineReader) entries(ps []posting) ([]*Entry, error) {
	out := make([]*Entry, 0, len(ps))
	for i := 0; i < len(ps); {
		// The run of postings from i that one read can cover.
		k := i + 1
		end := ps[i].Off + int64(ps[i].Len) + 1
		for k < len(ps) && ps[k].Seg == ps[i].Seg && ps[k].Off >= end && ps[k].Off-end <= spanGap &&
			ps[k].Off+int64(ps[k].Len)+1-ps[i].Off <= spanMax {
			end = ps[k].Off + int64(ps[k].Len) + 1
			k++
		}
		r.span = nil
		if k-i > 1 {
			if err := r.readSpan(ps[i].Seg, ps[i].Off, end); err != nil {
				return nil, err
			}
		}
		for ; i < k; i++ {
			e, _, err := r.entry(ps[i])
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		r.span = nil
	}
	return out, nil
}

func (r *lineReader) readSpan(seg uint32, from, to int64) error {
	if _, _, err := r.file(seg); err != nil {
		return err
	}
	buf := make([]byte, to-from)
	n, err := r.files[seg].ReadAt(buf, from)
	if err != nil && n < len(buf) {
		return fmt.Errorf("%w: %v", errIndex, err)
	}
	r.span, r.spanSeg, r.spanOff = buf, seg, from
	return nil
}

// snapshotTakenNeedle is how a line that records a snapshot taken looks
// in its bytes (Entry.SnapshotTaken reads it decoded).
var snapshotTakenNeedle = []byte(`"rule":"` + RuleSnapshotTaken + `"`)

// lightEntry is the part of an entry a report's counts use: decoding
// only it skips the allocations of commands, reasons and details.
type lightEntry struct {
	Seq      int64     `json:"seq"`
	Time     time.Time `json:"time"`
	Event    string    `json:"event"`
	Agent    string    `json:"agent"`
	Session  string    `json:"session"`
	Story    string    `json:"story"`
	Decision string    `json:"decision"`
	Rule     string    `json:"rule"`
	ID       string    `json:"id"`
	Ref      string    `json:"ref"`
}

// indexPrefixMatches compares the index on disk with one built from the
// journal up to headSeq, and names the first file that differs. Records
// after headSeq (appended since) may follow.
func (j *Journal) indexPrefixMatches(want map[string][]byte, headSeq int64) (bool, string) {
	ents, err := os.ReadDir(filepath.Join(j.dir, indexDir))
	if err != nil {
		return false, "the index directory cannot be read: " + err.Error()
	}
	have := map[string]bool{}
	for _, de := range ents {
		have[de.Name()] = true
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !have[k] {
			return false, "index/" + k + " is missing"
		}
		f, err := openFile(filepath.Join(j.dir, indexDir, k), os.O_RDONLY, 0)
		if err != nil {
			return false, "index/" + k + ": " + err.Error()
		}
		got, err := io.ReadAll(f)
		f.Close()
		if err != nil || len(got) < len(want[k]) || !bytes.Equal(got[:len(want[k])], want[k]) || len(got)%recordSize != 0 {
			return false, "index/" + k + " does not match the journal"
		}
		for off := len(want[k]); off < len(got); off += recordSize {
			if decodePosting(got[off:off+recordSize]).Seq <= headSeq {
				return false, "index/" + k + " has records the journal does not"
			}
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			// A file for lines appended since the walk is fine; any other
			// is not the journal's.
			ps, err := j.postings(name, 1<<62)
			if err != nil || len(ps) == 0 || ps[0].Seq <= headSeq {
				return false, "index/" + name + " indexes no journal line"
			}
		}
	}
	return true, ""
}
