package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// tailChunk is how much of a segment's end is read at a time while
// looking for its last line.
const tailChunk = 64 << 10

// tailOf is what the end of a segment holds.
type tailOf struct {
	// last is the last complete line (without its newline), nil when
	// there is none or when it is longer than any line the journal
	// writes (oversized is then set).
	last      []byte
	start     int64 // where the last complete line starts
	end       int64 // just past its newline: what follows is torn
	size      int64
	oversized bool
}

// findNewline returns the offset of the last newline in f before off, or
// -1. It gives up (ok false) after limit bytes, when limit > 0.
func findNewline(f *os.File, off, limit int64) (at int64, ok bool, err error) {
	buf := make([]byte, tailChunk)
	from := off
	for off > 0 {
		n := int64(tailChunk)
		if n > off {
			n = off
		}
		off -= n
		if _, err := f.ReadAt(buf[:n], off); err != nil && err != io.EOF {
			return 0, false, fmt.Errorf("journal: %w", err)
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				return off + i, true, nil
			}
		}
		if limit > 0 && from-off > limit {
			return 0, false, nil
		}
	}
	return -1, true, nil
}

// scanTail reads the end of a segment: its last complete line, and where
// torn bytes (a last line without a newline) start. It reads only the
// end, however long the segment, and however long its torn tail.
func scanTail(f *os.File) (*tailOf, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return scanTailAt(f, st.Size())
}

// scanTailAt is scanTail of the segment's first size bytes.
func scanTailAt(f *os.File, size int64) (*tailOf, error) {
	t := &tailOf{size: size}
	if t.size == 0 {
		return t, nil
	}
	// The usual case: the last line is short and whole; one read of the
	// end finds both newlines around it.
	if last, start, end, ok, err := quickTail(f, t.size); err != nil {
		return nil, err
	} else if ok {
		t.last, t.start, t.end = last, start, end
		return t, nil
	}
	nl, _, err := findNewline(f, t.size, 0)
	if err != nil {
		return nil, err
	}
	if nl < 0 {
		return t, nil // no newline at all: the whole file is torn
	}
	t.end = nl + 1
	prev, ok, err := findNewline(f, nl, 2*MaxLine)
	if err != nil {
		return nil, err
	}
	if !ok {
		// A complete line longer than the journal ever writes: not an
		// event. Its start is somewhere before; find it to set it aside.
		t.oversized = true
		if prev, _, err = findNewline(f, nl, 0); err != nil {
			return nil, err
		}
		t.start = prev + 1
		return t, nil
	}
	t.start = prev + 1
	t.last = make([]byte, nl-t.start)
	if _, err := f.ReadAt(t.last, t.start); err != nil && err != io.EOF {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return t, nil
}

// quickChunk is how much of a segment's end quickTail reads.
const quickChunk = 8 << 10

// quickTail reads the last quickChunk bytes and finds the last complete
// line there when the segment ends with a newline and that line is whole
// within them.
func quickTail(f *os.File, size int64) (last []byte, start, end int64, ok bool, err error) {
	n := int64(quickChunk)
	if n > size {
		n = size
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return nil, 0, 0, false, fmt.Errorf("journal: %w", err)
	}
	if buf[n-1] != '\n' {
		return nil, 0, 0, false, nil
	}
	i := bytes.LastIndexByte(buf[:n-1], '\n')
	if i < 0 && n < size {
		return nil, 0, 0, false, nil
	}
	return bytes.Clone(buf[i+1 : n-1]), size - n + int64(i+1), size, true, nil
}

// lastLine is the last complete line of a segment that is only read, and
// the offset just past it.
func lastLine(f *os.File) ([]byte, int64, error) {
	t, err := scanTail(f)
	if err != nil {
		return nil, 0, err
	}
	return t.last, t.end, nil
}

// isEvent reports whether a line can be an event: JSON with a sequence
// number.
func isEvent(line []byte) bool {
	var e struct {
		Seq int64 `json:"seq"`
	}
	return json.Unmarshal(line, &e) == nil && e.Seq > 0
}

// repairTail sets aside what ends the segment at path (opened read-write
// as f) but is not a complete event: a torn last line (a crash
// mid-write), a last line that is not an event (garbage), or one longer
// than the journal writes. Those bytes go to path+".torn" and the segment
// is truncated, so that the next line starts clean after the last
// complete event; a broken tail never stops the hook. It returns the last
// complete event line, the new size and how many bytes were set aside.
//
// When the bytes cannot be set aside because the disk is full or
// read-only, the segment is read as if cut, without changing it: kept
// reports that, and the caller may read but must not append (the next
// line would follow the torn bytes). Reading commands (queue list, show,
// report) then work on a full disk.
func repairTail(f *os.File, path string) (last []byte, size, moved int64, kept error, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, 0, nil, fmt.Errorf("journal: %w", err)
	}
	size = st.Size()
	for {
		t, err := scanTailAt(f, size)
		if err != nil {
			return nil, 0, 0, nil, err
		}
		cut := t.end
		if t.oversized || (t.last != nil && !isEvent(t.last)) {
			cut = t.start
		}
		if cut == t.size {
			return t.last, t.size, moved, kept, nil
		}
		if kept == nil {
			if err := setAside(f, path, cut, t.size); err != nil {
				if !noRoom(err) {
					return nil, 0, 0, nil, err
				}
				kept = err
			}
		}
		moved += t.size - cut
		size = cut
	}
}

// noRoom reports whether a write failed for want of space or of write
// access to the filesystem: errors a reader can work around.
func noRoom(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS)
}

// setAside moves the bytes [from, to) of the segment into its .torn file
// (one record, newline-terminated) and truncates the segment at from.
func setAside(f *os.File, path string, from, to int64) error {
	side, err := openFile(path+".torn", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: setting aside a torn line: %w", err)
	}
	_, cerr := io.Copy(side, io.NewSectionReader(f, from, to-from))
	var nerr error
	if cerr == nil {
		_, nerr = side.Write([]byte{'\n'})
	}
	serr := side.Sync()
	side.Close()
	if err := firstErr(cerr, nerr, serr); err != nil {
		return fmt.Errorf("journal: setting aside a torn line: %w", err)
	}
	if err := f.Truncate(from); err != nil {
		return fmt.Errorf("journal: truncating a torn line: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("journal sync: %w", err)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
