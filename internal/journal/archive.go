package journal

import (
	"crypto/hmac"
	"crypto/sha256"
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

	"github.com/airlock-dev/airlock/internal/safefile"
)

// Retention: old segments leave the live journal behind a checkpoint.
// "airlock audit archive" moves every segment but the newest few into
// journal/archive/ and writes journal/CHECKPOINT: the last archived
// event's seq and hash, the number of events archived, and each archived
// segment's name, seq range and SHA-256, under the human key's MAC. The
// live chain then starts at the checkpoint's seq+1 with prev = its hash,
// so verify still proves continuity from the first event ever written to
// the last; the archived files can be compressed, copied elsewhere or
// deleted, and verify checks those still present against their hashes.

// checkpointFile is the checkpoint's name in the journal directory.
const checkpointFile = "CHECKPOINT"

// archiveDir is where archived segments go.
const archiveDir = "archive"

// Checkpoint is what the live journal continues from.
type Checkpoint struct {
	// Seq and Hash are the last archived event's; Count is how many
	// events were archived in all.
	Seq      int64             `json:"seq"`
	Hash     string            `json:"hash"`
	Count    int64             `json:"count"`
	Segments []ArchivedSegment `json:"segments"`
	Time     time.Time         `json:"time"`
	// MAC is the human key's MAC over the fields above: only the
	// human's "airlock audit archive" writes a checkpoint that counts.
	MAC string `json:"mac"`
}

// ArchivedSegment is one segment moved out of the live journal.
type ArchivedSegment struct {
	Name   string `json:"name"`
	First  int64  `json:"first"`
	Last   int64  `json:"last"`
	SHA256 string `json:"sha256"`
}

func (c *Checkpoint) mac(key []byte) string {
	m := hmac.New(sha256.New, key)
	var b strings.Builder
	b.WriteString("airlock-checkpoint-v1\x00" + strconv.FormatInt(c.Seq, 10) + "\x00" + c.Hash + "\x00" + strconv.FormatInt(c.Count, 10) + "\x00" + c.Time.UTC().Format(time.RFC3339Nano))
	for _, s := range c.Segments {
		b.WriteString("\x00" + s.Name + "/" + strconv.FormatInt(s.First, 10) + "/" + strconv.FormatInt(s.Last, 10) + "/" + s.SHA256)
	}
	io.WriteString(m, b.String())
	return macPrefix + hex.EncodeToString(m.Sum(nil))
}

// Errors of Archive.
var (
	// ErrNothingToArchive: fewer segments than the ones to keep.
	ErrNothingToArchive = errors.New("nothing to archive")
	// ErrOpenItems: a segment to archive holds items still awaiting a
	// human or a retry; they must be settled first.
	ErrOpenItems = errors.New("segments to archive hold open queue items")
	// ErrBadCheckpoint: CHECKPOINT is unreadable or its MAC does not
	// verify.
	ErrBadCheckpoint = errors.New("the journal's checkpoint does not verify")
)

// readCheckpoint reads CHECKPOINT: nil without error when there is none.
// Its MAC is checked by verify, not here: the writer continues from it
// either way, and verify reports a forged one.
func readCheckpoint(dir string) (*Checkpoint, error) {
	f, err := openFile(filepath.Join(dir, checkpointFile), os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	var c Checkpoint
	if err := json.NewDecoder(io.LimitReader(f, 16<<20)).Decode(&c); err != nil || c.Seq <= 0 {
		return nil, fmt.Errorf("%w: %s cannot be read", ErrBadCheckpoint, checkpointFile)
	}
	return &c, nil
}

// Archive moves every segment but the newest keep (at least 1) out of the
// live journal, behind a checkpoint. It refuses when one of them holds a
// queue item still open (pending, approved or expired unused), and when
// the chain of the segments it archives does not verify.
func (j *Journal) Archive(keep int) (*Checkpoint, error) {
	if keep < 1 {
		keep = 1
	}
	key, err := loadHumanKey(j.dir, true)
	if err != nil {
		return nil, err
	}
	var cp *Checkpoint
	err = j.locked(func(w *writer) error {
		segs, err := segments(j.dir)
		if err != nil {
			return err
		}
		if len(segs) <= keep {
			return fmt.Errorf("%w: %d segment(s), keeping %d", ErrNothingToArchive, len(segs), keep)
		}
		old := segs[:len(segs)-keep]
		lastOld := old[len(old)-1].n
		states, err := w.queueStates(j.now())
		if err != nil {
			return err
		}
		var open []string
		for _, q := range states {
			if q.awaits() && int(q.held.Seg) <= lastOld {
				open = append(open, q.id)
			}
		}
		if len(open) > 0 {
			sort.Strings(open)
			if len(open) > 10 {
				open = append(open[:10], "…")
			}
			return fmt.Errorf("%w: %s (settle them first, or keep more segments)", ErrOpenItems, strings.Join(open, ", "))
		}
		prev, err := readCheckpoint(j.dir)
		if err != nil {
			return err
		}
		next := &Checkpoint{Time: j.now().UTC()}
		expect, want := int64(1), ""
		if prev != nil {
			next.Segments, next.Count = append(next.Segments, prev.Segments...), prev.Count
			expect, want = prev.Seq+1, prev.Hash
		}
		for _, s := range old {
			as := ArchivedSegment{Name: filepath.Base(s.path)}
			sum := sha256.New()
			err := walkSegmentFrom(s.path, s.n, 0, func(l *rawLine) error {
				sum.Write(l.data)
				if !l.torn {
					sum.Write([]byte{'\n'})
				}
				var e struct {
					Seq  int64  `json:"seq"`
					Prev string `json:"prev"`
				}
				if l.torn || json.Unmarshal(l.data, &e) != nil || e.Seq != expect || e.Prev != want {
					return fmt.Errorf("journal: %s:%d does not continue the chain; run airlock audit verify before archiving", as.Name, l.line)
				}
				if as.First == 0 {
					as.First = e.Seq
				}
				as.Last = e.Seq
				expect, want = e.Seq+1, lineHash(l.data)
				next.Count++
				return nil
			})
			if err != nil {
				return err
			}
			as.SHA256 = hex.EncodeToString(sum.Sum(nil))
			next.Segments = append(next.Segments, as)
		}
		next.Seq, next.Hash = expect-1, want
		next.MAC = next.mac(key)
		// The checkpoint first, then the moves: a crash in between leaves
		// segments that verify both ways (the walk skips lines at or before
		// the checkpoint).
		if err := writeCheckpoint(j.dir, next); err != nil {
			return err
		}
		if err := safeDir(filepath.Join(j.dir, archiveDir)); err != nil {
			return err
		}
		for _, s := range old {
			dst := filepath.Join(j.dir, archiveDir, filepath.Base(s.path))
			if err := os.Rename(s.path, dst); err != nil {
				return fmt.Errorf("journal: archiving %s: %w", s.path, err)
			}
			if _, err := os.Lstat(s.path + ".torn"); err == nil {
				os.Rename(s.path+".torn", dst+".torn")
			}
		}
		if err := syncDir(j.dir); err != nil {
			return err
		}
		cp = next
		return w.rebuild()
	})
	return cp, err
}

func writeCheckpoint(dir string, c *Checkpoint) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.Replace(filepath.Join(dir, checkpointFile), append(b, '\n'), safefile.Options{}); err != nil {
		return fmt.Errorf("journal checkpoint: %w", err)
	}
	return nil
}

// checkCheckpoint verifies a checkpoint's MAC and the archived segments
// still present against their hashes; it returns a problem or nil, and
// how many archived segments are no longer on disk.
func (j *Journal) checkCheckpoint(c *Checkpoint) (*Problem, int) {
	key, _ := loadHumanKey(j.dir, false)
	if len(key) == 0 || !hmac.Equal([]byte(c.MAC), []byte(c.mac(key))) {
		return &Problem{Kind: Unauthenticated, Segment: checkpointFile, Line: 1,
			Detail: "the checkpoint has no valid human MAC: it was not written by airlock audit archive, so the chain's start is not vouched for"}, 0
	}
	gone := 0
	for _, s := range c.Segments {
		f, err := openFile(filepath.Join(j.dir, archiveDir, s.Name), os.O_RDONLY, 0)
		if err != nil {
			gone++
			continue
		}
		sum := sha256.New()
		_, err = io.Copy(sum, f)
		f.Close()
		if err != nil || hex.EncodeToString(sum.Sum(nil)) != s.SHA256 {
			return &Problem{Kind: Edited, Segment: archiveDir + "/" + s.Name, Line: 1,
				Detail: "the archived segment no longer matches the SHA-256 its checkpoint recorded"}, gone
		}
	}
	return nil, gone
}
