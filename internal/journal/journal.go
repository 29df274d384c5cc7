package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/airlock-dev/airlock/internal/statefile"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// DefaultMaxSegment is the size past which a new segment is started.
const DefaultMaxSegment = 16 << 20

// MaxLine is the largest event line the journal writes or reads. An event
// bigger than this (a huge command) is cut down to fit: its command is
// kept to a prefix and Note says so.
const MaxLine = 1 << 20

// ErrNoJournal is returned by Open when the directory cannot be used.
var ErrNoJournal = errors.New("no journal")

// Journal is the event log in one directory. Its methods are safe to call
// from many processes at once; a Journal value itself is not meant to be
// shared between goroutines that append concurrently (each hook process
// has its own).
type Journal struct {
	dir string
	// MaxSegment is the size past which appends start a new segment.
	MaxSegment int64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// LockWait bounds the wait for the journal's lock (DefaultLockWait
	// when zero). Past it the append fails, naming the limit, and a hook
	// that cannot record refuses the action: a stopped holder (kill
	// -STOP of the service) must not stall every call without end.
	LockWait time.Duration
	// Recorded, when set, is called after Record kept an event, outside
	// the lock: the hook notes the session's status line there
	// (internal/statusline). It cannot change what was kept.
	Recorded func(ev *vocab.Event)
	// keepOff makes this value open the journal afresh on every call
	// even when KeepOpen is on (tests: another process's journal).
	keepOff bool
}

// DefaultLockWait is how long an append waits for the journal's lock. An
// append holds it for one write and, for held actions, one fsync: far
// less, even with a hundred hooks queued behind it.
const DefaultLockWait = 10 * time.Second

// DirIn is where the journal lives in airlock's state directory
// ($AIRLOCK_HOME, default $XDG_STATE_HOME/airlock): its "journal"
// subdirectory; "" when there is no state directory.
func DirIn(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "journal")
}

// Open returns the journal in dir, creating the directory (mode 0700) if
// needed.
func Open(dir string) (*Journal, error) {
	if dir == "" {
		return nil, fmt.Errorf("%w: no state directory (set AIRLOCK_HOME, XDG_STATE_HOME or HOME)", ErrNoJournal)
	}
	// The state directory above may be shared with other tools' files;
	// the journal's own directory is airlock's alone and must be safe.
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoJournal, err)
	}
	if err := safeDir(dir); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoJournal, err)
	}
	return &Journal{dir: dir, MaxSegment: DefaultMaxSegment}, nil
}

// Dir is the journal's directory.
func (j *Journal) Dir() string { return j.dir }

func (j *Journal) now() time.Time {
	if j.Now != nil {
		return j.Now()
	}
	return time.Now()
}

// Record appends an event, implementing vocab.Recorder. It stores and
// does not decide. An event with a Claim is appended under the same lock
// as the search for the approval it claims: the unused, unexpired human
// approval of the same action (sameAction), or the one Claim.Ref names.
// Claim.Settle, the caller's code, turns what was found into the event's
// verdict before the entry is written; when it spends the approval, the
// entry links to it (Ref) and the receipt names it. So one approval lets
// exactly one event through, for every kind of action.
func (j *Journal) Record(ev *vocab.Event) (vocab.Receipt, error) {
	var rec vocab.Receipt
	var err error
	if c := j.committer(); c != nil {
		rec, err = c.record(j, ev)
	} else {
		err = j.locked(func(w *writer) error {
			var err error
			rec, err = w.record(ev)
			return err
		})
	}
	if err == nil && j.Recorded != nil {
		j.Recorded(ev)
	}
	return rec, err
}

// record appends one event under the lock w holds (Record's work).
func (w *writer) record(ev *vocab.Event) (vocab.Receipt, error) {
	var rec vocab.Receipt
	e := entryOf(ev)
	if c := ev.Claim; c != nil && ev.Action != nil && ev.Verdict != nil {
		spent, err := w.claim(e, ev, c)
		if err != nil {
			return rec, err
		}
		rec.Approval = spent
	}
	if !e.queued() && e.Decision != "ask" && e.Rule != RuleApproved {
		// What a decision read is kept where an approval is given or
		// spent, not on every allowed call.
		e.Files = nil
	}
	if err := w.append(e); err != nil {
		return rec, err
	}
	rec.QueueID = e.ID
	return rec, nil
}

// claim finds the approval c asks for, lets c.Settle decide what it
// means, and writes the verdict it settled on into e. It returns the
// approval spent ("" for none).
func (w *writer) claim(e *Entry, ev *vocab.Event, c *vocab.Claim) (string, error) {
	var id string
	var err error
	if c.Ref != "" {
		id, err = w.approvalByID(e, c.Ref, e.Time)
	} else {
		id, c.Changed, err = w.approvalFor(e, e.Time)
	}
	if err != nil {
		return "", err
	}
	spend, err := c.Settle(id)
	if err != nil {
		return "", err
	}
	e.setVerdict(ev.Verdict)
	if !spend {
		return "", nil
	}
	if id == "" || ev.Verdict.Rule != RuleApproved {
		// The queue counts an approval as spent by an entry with its id
		// in Ref and RuleApproved: anything else would let it be spent
		// again.
		return "", fmt.Errorf("journal: an event may spend only an approval that is there to use, with rule %s (approval %q, rule %q)", RuleApproved, id, ev.Verdict.Rule)
	}
	e.Ref = id
	return id, nil
}

// Append writes an entry the caller built (a human's approval, say),
// filling in its sequence, chain and, for a held action, its queue id.
// A human act appended this way carries no MAC and does not count: only
// Settle writes human acts that count.
func (j *Journal) Append(e *Entry) error {
	if e.Time.IsZero() {
		e.Time = j.now().UTC()
	}
	return j.locked(func(w *writer) error { return w.append(e) })
}

// writer appends under the lock.
type writer struct {
	// tornKept is set when a torn tail could not be set aside (a full or
	// read-only disk): the segment is read as if cut there, and nothing
	// may be appended after the torn bytes.
	tornKept error
	j        *Journal
	seg      segment
	f        *os.File
	size     int64
	seq      int64
	prev     string
	// head is the anchored head as it will be after the next append.
	head head
	// repaired counts the torn bytes open set aside.
	repaired int64
	// lost is set when the journal is behind its anchored head: lines
	// were deleted or cut off. Appends continue the chain from the
	// anchored head, so the gap stays visible to audit verify.
	lost string
	// humanKey, when set, signs the human acts appended.
	humanKey []byte
	// macOK checks human acts' MACs while indexing.
	macOK func(e *Entry) bool
	// deferSync, set by a group commit, leaves a durable line's fsync to
	// the end of the batch (needSync says one is owed).
	deferSync, needSync bool
	// headF, when set, is journal/HEAD kept open by the service (keep.go),
	// checked to be the file its path names before this writer was handed
	// out: append rewrites it without opening it again.
	headF *os.File
}

// locked runs fn with the journal's lock held, its tail read and its
// index brought up to date.
func (j *Journal) locked(fn func(w *writer) error) error {
	if k := j.keeper(); k != nil {
		// The resident service keeps the lock file and the writer open
		// between calls (keep.go).
		return k.locked(j, fn)
	}
	unlock, err := j.lockFile(j.lockWait())
	if err != nil {
		return err
	}
	defer unlock()

	w := &writer{j: j, macOK: j.macChecker()}
	if err := w.open(); err != nil {
		if w.f != nil {
			w.f.Close()
		}
		return err
	}
	defer w.f.Close()
	return w.run(fn)
}

func (j *Journal) lockWait() time.Duration {
	if j.LockWait <= 0 {
		return DefaultLockWait
	}
	return j.LockWait
}

// lockFile opens the journal's lock file and takes its lock, waiting at
// most wait.
func (j *Journal) lockFile(wait time.Duration) (unlock func(), err error) {
	lock, err := openFile(filepath.Join(j.dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	unlock, err = statefile.LockWithin(lock, wait)
	if err != nil {
		if errors.Is(err, statefile.ErrNoLock) {
			// Without a lock, concurrent hook processes could interleave
			// or lose events (invariant 4), so nothing is recorded here,
			// and a hook that cannot record refuses the action: it fails
			// closed.
			return nil, fmt.Errorf("journal lock: %w, so airlock records nothing here and refuses every action it would have to record", err)
		}
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	return unlock, nil
}

// lockFile is the name of the journal's lock file in its directory.
const lockFile = "lock"

// run calls fn with the lock held and w open.
func (w *writer) run(fn func(w *writer) error) error {
	err := fn(w)
	if errors.Is(err, errIndex) {
		// The index does not match the journal (edited, cut or stale in a
		// way its head did not show): rebuild it and answer from that.
		if err := w.rebuild(); err != nil {
			return err
		}
		err = fn(w)
	}
	return err
}

// open finds the last segment, sets aside a torn or garbage tail, reads
// the last complete line's sequence number and hash, checks them against
// the anchored head, and brings the index up to date.
func (w *writer) open() error {
	segs, err := segments(w.j.dir)
	if err != nil {
		return err
	}
	anchor, herr := readHead(w.j.dir)
	if herr != nil && !errors.Is(herr, errBadHead) {
		return herr
	}
	if len(segs) == 0 {
		segs = []segment{{n: 1, path: filepath.Join(w.j.dir, segmentName(1))}}
	}
	w.seg = segs[len(segs)-1]
	if anchor != nil && anchor.Segment > w.seg.n {
		// The anchored head is in a segment that is gone: write there
		// again rather than on the end of an older one.
		w.seg = segment{n: anchor.Segment, path: filepath.Join(w.j.dir, segmentName(anchor.Segment))}
		segs = append(segs, w.seg)
	}
	f, err := openFile(w.seg.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	w.f = f
	last, size, moved, kept, err := repairTail(f, w.seg.path)
	if err != nil {
		return err
	}
	w.size, w.repaired, w.tornKept = size, moved, kept
	end := size
	lastSeg := w.seg.n
	for i := len(segs) - 2; last == nil && i >= 0; i-- {
		// A fresh segment: the chain continues from the one before.
		pf, err := openFile(segs[i].path, os.O_RDONLY, 0)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		last, end, err = lastLine(pf)
		pf.Close()
		if err != nil {
			return err
		}
		lastSeg = segs[i].n
	}
	if last == nil {
		// Nothing live yet after an archive: the chain continues from the
		// checkpoint.
		cp, err := readCheckpoint(w.j.dir)
		if err != nil {
			return err
		}
		if cp != nil {
			w.seq, w.prev = cp.Seq, cp.Hash
		}
	}
	if last != nil {
		var tail struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(last, &tail); err != nil {
			return fmt.Errorf("journal: the last line of %s is not an event (%v); run airlock audit repair", w.seg.path, err)
		}
		w.seq, w.prev = tail.Seq, lineHash(last)
	}
	w.head = head{Seq: w.seq, Hash: w.prev, Segment: lastSeg, End: end}
	if anchor != nil {
		w.head.Count, w.head.Queue = anchor.Count, anchor.Queue
	}
	return w.reconcile(anchor, herr != nil)
}

// reconcile compares the journal's tail with the anchored head: a journal
// behind it lost lines (reported, and the chain continues from the
// anchor); an index behind it is brought up to date; a missing, bad or
// mismatched index is rebuilt.
func (w *writer) reconcile(anchor *head, badHead bool) error {
	dir := w.j.dir
	switch {
	case anchor != nil && (anchor.Seq > w.seq || (anchor.Seq == w.seq && anchor.Hash != w.prev)):
		w.lost = fmt.Sprintf("the journal ends at event %d but its anchored head (journal/HEAD) is event %d %s: events were deleted or cut off", w.seq, anchor.Seq, anchor.Hash)
		if _, err := w.j.rebuildIndex(w.macOK); err != nil {
			return err
		}
		w.seq, w.prev = anchor.Seq, anchor.Hash
		w.head = *anchor
		return nil
	case anchor != nil && anchor.Seq == w.seq:
		if st, err := os.Lstat(filepath.Join(dir, indexDir)); err == nil && st.IsDir() {
			return nil
		}
	case anchor != nil && anchor.Seq < w.seq:
		if st, err := os.Lstat(filepath.Join(dir, indexDir)); err == nil && st.IsDir() {
			h, err := w.j.catchUp(anchor, w.macOK)
			if err == nil {
				w.head = *h
				return writeHead(dir, h, false)
			}
			if !errors.Is(err, errIndex) {
				return err
			}
		}
	}
	_ = badHead
	h, err := w.j.rebuildIndex(w.macOK)
	if err != nil {
		return err
	}
	if h.Seq != w.seq {
		// The journal was read while it changed: cannot be under the
		// lock; refuse rather than write a wrong anchor.
		return fmt.Errorf("journal: the index was built to event %d but the journal ends at %d", h.Seq, w.seq)
	}
	w.head = *h
	return writeHead(dir, h, false)
}

// rebuild replaces the index under the lock (after errIndex).
func (w *writer) rebuild() error {
	if w.lost != "" {
		_, err := w.j.rebuildIndex(w.macOK)
		return err
	}
	h, err := w.j.rebuildIndex(w.macOK)
	if err != nil {
		return err
	}
	w.head = *h
	return writeHead(w.j.dir, h, false)
}

// append writes e as the next line, with one write call, syncs it when
// it must be durable, indexes it and moves the anchored head.
func (w *writer) append(e *Entry) error {
	if w.tornKept != nil {
		return fmt.Errorf("journal: the torn end of %s could not be set aside (%w), so nothing can be appended until there is room; reading still works", w.seg.path, w.tornKept)
	}
	if w.size >= w.j.MaxSegment && w.size > 0 {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	e.Seq, e.Prev = w.seq+1, w.prev
	if e.queued() {
		e.ID = queueID(e.Prev, e.Seq)
	}
	e.MAC = ""
	if humanAct(e.Event) && w.humanKey != nil {
		e.MAC = humanMAC(w.humanKey, e)
	}
	line, err := marshalLine(e)
	if err != nil {
		return err
	}
	off := w.size
	if _, err := w.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal write: %w", err)
	}
	durable := e.durable()
	if durable && w.deferSync {
		w.needSync = true
	} else if durable {
		if err := w.f.Sync(); err != nil {
			return fmt.Errorf("journal sync: %w", err)
		}
	}
	w.seq, w.prev = e.Seq, lineHash(line)
	w.size += int64(len(line) + 1)
	// The line is written: from here an error says the index or the
	// anchor could not follow; the next open catches them up from the
	// journal.
	if err := appendPostings(w.j.dir, indexLine(e, w.seg.n, off, len(line), func(e *Entry) bool { return e.MAC != "" }, w.j.heldActionKey)); err != nil {
		return err
	}
	w.head = head{Seq: w.seq, Hash: w.prev, Count: w.head.Count + 1, Segment: w.seg.n, End: w.size}
	w.lost = ""
	// HEAD is not fsynced: after a power loss it can only be behind a
	// durable line (the index catches up from it), and one fsync per held
	// call is what keeps parallel hooks moving through the lock.
	if err := writeHeadVia(w.headF, w.j.dir, &w.head, false); err != nil {
		return err
	}
	if changesQueue(e) {
		w.syncStatus()
	}
	return nil
}

// rotate starts the next segment.
func (w *writer) rotate() error {
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal sync: %w", err)
	}
	w.f.Close()
	next := segment{n: w.seg.n + 1, path: filepath.Join(w.j.dir, segmentName(w.seg.n+1))}
	f, err := openFile(next.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	w.seg, w.f, w.size = next, f, 0
	return syncDir(w.j.dir)
}

// marshalLine encodes an entry as one line, cutting an oversized command.
func marshalLine(e *Entry) ([]byte, error) {
	if line, ok := appendEntry(make([]byte, 0, 512), e); ok && len(line) <= MaxLine {
		return line, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("journal: encoding event: %w", err)
	}
	line := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(line) <= MaxLine {
		return line, nil
	}
	cut := *e
	cut.Detail, cut.Prompt = nil, ""
	if len(cut.Command) > MaxLine/2 {
		cut.Command = cut.Command[:MaxLine/2]
	}
	cut.Note = strings.TrimSpace(cut.Note + " (event cut to fit the journal's line limit)")
	buf.Reset()
	if err := enc.Encode(&cut); err != nil {
		return nil, fmt.Errorf("journal: encoding event: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// lineHash is the chain's hash of one line (without its newline).
func lineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// queueID derives a held action's short id from its place in the chain:
// stable (it is written in the line) and unguessable in advance.
func queueID(prev string, seq int64) string {
	sum := sha256.Sum256([]byte(prev + "/" + strconv.FormatInt(seq, 10)))
	return hex.EncodeToString(sum[:4])
}

// segment is one journal file.
type segment struct {
	n    int
	path string
}

func segmentName(n int) string { return fmt.Sprintf("journal-%06d.jsonl", n) }

// segments lists the journal's segment files in order.
func segments(dir string) ([]segment, error) {
	names, err := statefile.ReadDirNames(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("journal: %w", err)
	}
	var out []segment
	for _, name := range names {
		if !strings.HasPrefix(name, "journal-") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "journal-"), ".jsonl"))
		if err != nil || n <= 0 {
			continue
		}
		out = append(out, segment{n: n, path: filepath.Join(dir, name)})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].n < out[b].n })
	return out, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir) // a directory: opened only to sync it
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal sync: %w", err)
	}
	return nil
}
