package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/airlock-dev/airlock/internal/agent"
	"github.com/airlock-dev/airlock/internal/policy"
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
}

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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoJournal, err)
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

// Record appends an event, implementing agent.Recorder. A deferred shell
// command that a human approved (same command, same directory, approval
// not expired and not yet used) is let through once: Record changes
// ev.Verdict to allow with rule RuleApproved, links the entry to the
// approval, and returns the approval's id in the receipt.
func (j *Journal) Record(ev *agent.Event) (agent.Receipt, error) {
	e := entryOf(ev)
	var rec agent.Receipt
	err := j.locked(func(w *writer) error {
		if v := ev.Verdict; v != nil && ev.Action != nil && (v.Decision == policy.Defer || v.Decision == policy.Ask) && ev.Action.Kind == policy.Shell {
			id, err := j.approvalFor(e.Command, e.Cwd, e.Time)
			if err != nil {
				return err
			}
			if id != "" {
				v.Decision, v.Rule = policy.Allow, RuleApproved
				v.Message = "a human approved this exact command in this directory (queue item " + id + "); it runs once"
				e.Decision, e.Rule, e.Message, e.Ref = v.Decision.String(), v.Rule, v.Message, id
				rec.Approval = id
			}
		}
		if err := w.append(e); err != nil {
			return err
		}
		rec.QueueID = e.ID
		return nil
	})
	return rec, err
}

// Append writes an entry the caller built (a human's approval, say),
// filling in its sequence, chain and, for a held action, its queue id.
func (j *Journal) Append(e *Entry) error {
	if e.Time.IsZero() {
		e.Time = j.now().UTC()
	}
	return j.locked(func(w *writer) error { return w.append(e) })
}

// writer appends under the lock.
type writer struct {
	j    *Journal
	seg  segment
	f    *os.File
	size int64
	seq  int64
	prev string
	// repaired counts the torn bytes open set aside.
	repaired int64
}

// locked runs fn with the journal's lock held and its tail read.
func (j *Journal) locked(fn func(w *writer) error) error {
	lock, err := os.OpenFile(filepath.Join(j.dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("journal lock: %w", err)
	}
	defer lock.Close()
	for {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("journal lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)

	w := &writer{j: j}
	if err := w.open(); err != nil {
		return err
	}
	defer w.f.Close()
	return fn(w)
}

// open finds the last segment, repairs a torn tail, and reads the last
// complete line's sequence number and hash.
func (w *writer) open() error {
	segs, err := segments(w.j.dir)
	if err != nil {
		return err
	}
	if len(segs) == 0 {
		segs = []segment{{n: 1, path: filepath.Join(w.j.dir, segmentName(1))}}
	}
	w.seg = segs[len(segs)-1]
	f, err := os.OpenFile(w.seg.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	w.f = f
	last, size, moved, err := repairTail(f, w.seg.path)
	if err != nil {
		return err
	}
	w.size, w.repaired = size, moved
	if last == nil && len(segs) > 1 {
		// A fresh segment: the chain continues from the one before.
		pf, err := os.Open(segs[len(segs)-2].path)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		last, _, err = lastLine(pf)
		pf.Close()
		if err != nil {
			return err
		}
	}
	if last != nil {
		var head struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(last, &head); err != nil {
			return fmt.Errorf("journal: the last line of %s is not an event (%v); run airlock audit verify", w.seg.path, err)
		}
		w.seq, w.prev = head.Seq, lineHash(last)
	}
	return nil
}

// append writes e as the next line, with one write call, and syncs it when
// it must be durable.
func (w *writer) append(e *Entry) error {
	if w.size >= w.j.MaxSegment && w.size > 0 {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	e.Seq, e.Prev = w.seq+1, w.prev
	if e.queued() {
		e.ID = queueID(e.Prev, e.Seq)
	}
	line, err := marshalLine(e)
	if err != nil {
		return err
	}
	if _, err := w.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal write: %w", err)
	}
	if e.durable() {
		if err := w.f.Sync(); err != nil {
			return fmt.Errorf("journal sync: %w", err)
		}
	}
	w.seq, w.prev = e.Seq, lineHash(line)
	w.size += int64(len(line) + 1)
	return nil
}

// rotate starts the next segment.
func (w *writer) rotate() error {
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal sync: %w", err)
	}
	w.f.Close()
	next := segment{n: w.seg.n + 1, path: filepath.Join(w.j.dir, segmentName(w.seg.n+1))}
	f, err := os.OpenFile(next.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	w.seg, w.f, w.size = next, f, 0
	return syncDir(w.j.dir)
}

// marshalLine encodes an entry as one line, cutting an oversized command.
func marshalLine(e *Entry) ([]byte, error) {
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
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("journal: %w", err)
	}
	var out []segment
	for _, de := range ents {
		name := de.Name()
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
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal sync: %w", err)
	}
	return nil
}
