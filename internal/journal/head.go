package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// headFile is the anchored head: the chain's last sequence number, hash
// and event count, and where the last line ends, written after every
// append. It is a second place that remembers how long the journal was,
// so that a deleted segment or a truncated tail is reported instead of
// looking like a fresh install, and it is the watermark of the derived
// index (the index covers the journal up to the head it names).
const headFile = "HEAD"

// headSize is the HEAD file's fixed size: it is rewritten in place with
// one write, never truncated, so a crash leaves either the old record,
// the new one, or a mix that its checksum rejects.
const headSize = 256

// head is the anchored head.
type head struct {
	Seq     int64  `json:"seq"`
	Hash    string `json:"hash"`
	Count   int64  `json:"count"`
	Segment int    `json:"segment"`
	End     int64  `json:"end"`
	// Queue is the size of index/queue when this head was written (0:
	// unknown, a head written by a release before it). The queue's
	// postings are what a deferred call, a retry and queue list answer
	// from; a file shorter or longer than its head says lost or gained
	// records outside airlock's appends (a power loss that kept HEAD and
	// not the index's last record, an edit) and is rebuilt, where a
	// reader trusting it would miss an approval's use and let the
	// approved action through again.
	Queue int64 `json:"queue,omitempty"`
	// QSum checks Queue with the rest. Sum keeps the formula of the
	// release before Queue, so that release still reads this head
	// instead of taking it for a bad one and rebuilding the index on
	// every call (an older airlock left on the PATH, during an upgrade).
	QSum string `json:"qsum,omitempty"`
	Sum  string `json:"sum"`
}

func (h *head) sum() string {
	s := sha256.Sum256([]byte(strconv.FormatInt(h.Seq, 10) + "/" + h.Hash + "/" + strconv.FormatInt(h.Count, 10) + "/" +
		strconv.Itoa(h.Segment) + "/" + strconv.FormatInt(h.End, 10)))
	return hex.EncodeToString(s[:8])
}

func (h *head) qsum() string {
	s := sha256.Sum256([]byte(h.sum() + "/q" + strconv.FormatInt(h.Queue, 10)))
	return hex.EncodeToString(s[:8])
}

// errBadHead is wrapped when HEAD exists but cannot be read as a head.
var errBadHead = errors.New("the anchored head (journal/HEAD) is unreadable")

// readHead reads HEAD: nil without error when there is none.
func readHead(dir string) (*head, error) {
	f, err := openFile(filepath.Join(dir, headFile), os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, headSize+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	var h head
	if unmarshalHead(buf[:n], &h) != nil || h.Sum != h.sum() {
		return nil, errBadHead
	}
	if h.Queue != 0 && h.QSum != h.qsum() {
		// The head is good; only the queue's size is not vouched for.
		h.Queue = 0
	}
	h.QSum = ""
	return &h, nil
}

// writeHead rewrites HEAD in place; sync makes it durable (after a
// durable append). It records the queue postings' size as it is now:
// every caller has just brought the index up to the head it writes.
func writeHead(dir string, h *head, sync bool) error {
	return writeHeadVia(nil, dir, h, sync)
}

// writeHeadVia is writeHead through kept, HEAD already open read-write
// (the service's kept writer, keep.go), or by its path when kept is nil.
func writeHeadVia(kept *os.File, dir string, h *head, sync bool) error {
	h.Queue = 0
	if st, err := os.Lstat(filepath.Join(dir, indexDir, keyQueue)); err == nil {
		h.Queue = st.Size()
	}
	h.Sum, h.QSum = h.sum(), ""
	if h.Queue != 0 {
		h.QSum = h.qsum()
	}
	b, err := marshalHead(h)
	if err != nil {
		return err
	}
	if len(b) >= headSize {
		return fmt.Errorf("journal: head record too long (%d bytes)", len(b))
	}
	rec := make([]byte, headSize)
	copy(rec, b)
	for i := len(b); i < headSize-1; i++ {
		rec[i] = ' '
	}
	rec[headSize-1] = '\n'
	f := kept
	if f == nil {
		var err error
		f, err = openFile(filepath.Join(dir, headFile), os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("journal head: %w", err)
		}
	}
	_, werr := f.WriteAt(rec, 0)
	var serr error
	if sync && werr == nil {
		serr = f.Sync()
	}
	var cerr error
	if kept == nil {
		cerr = f.Close()
	}
	if err := firstErr(werr, serr, cerr); err != nil {
		return fmt.Errorf("journal head: %w", err)
	}
	return nil
}
