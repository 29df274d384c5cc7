package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// errStop ends a walk early without an error.
var errStop = errors.New("stop")

// rawLine is one line of a segment as read, before decoding.
type rawLine struct {
	seg  string // the segment's file name
	segN int    // the segment's number
	off  int64  // where the line starts in the segment
	line int    // 1-based; counted from the walk's start
	data []byte // without the newline; reused between calls
	// torn is set for bytes after the last newline of a segment.
	torn bool
}

// walkLines calls fn for every line of every segment, in order.
func (j *Journal) walkLines(fn func(l *rawLine) error) error {
	segs, err := segments(j.dir)
	if err != nil {
		return err
	}
	// Segments a checkpoint lists were archived (a crash can leave one
	// in place between the checkpoint and its move): not live lines.
	archived := map[string]bool{}
	if cp, err := readCheckpoint(j.dir); err != nil {
		return err
	} else if cp != nil {
		for _, s := range cp.Segments {
			archived[s.Name] = true
		}
	}
	for _, s := range segs {
		if archived[filepath.Base(s.path)] {
			continue
		}
		if err := walkSegmentFrom(s.path, s.n, 0, fn); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

// walkSegmentFrom calls fn for every line of the segment from offset
// start (a line boundary) on.
func walkSegmentFrom(path string, n int, start int64, fn func(l *rawLine) error) error {
	f, err := openFile(path, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	if start > 0 {
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	r := bufio.NewReaderSize(f, 256<<10)
	l := rawLine{seg: filepath.Base(path), segN: n}
	next := start
	for {
		data, err := readLine(r)
		if len(data) > 0 || (err == nil) {
			l.line++
			l.data = data
			l.off = next
			l.torn = err == io.EOF
			next += int64(len(data)) + 1
			if ferr := fn(&l); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("journal: reading %s: %w", path, err)
		}
	}
}

// readLine reads up to a newline. It returns io.EOF with the bytes of a
// last line that has no newline (a torn write), and an error for a line
// longer than MaxLine plus slack, which the journal never writes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := r.ReadSlice('\n')
		out = append(out, chunk...)
		if err == nil {
			return out[:len(out)-1], nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(out) > 2*MaxLine {
				return nil, fmt.Errorf("a line longer than %d bytes", 2*MaxLine)
			}
			continue
		}
		return out, err
	}
}

// Each calls fn with every complete entry in order. Lines that cannot be
// decoded are skipped here (audit verify reports them); a torn last line
// is not an entry.
func (j *Journal) Each(fn func(e *Entry) error) error {
	return j.eachWhere(nil, fn)
}

// eachWhere is Each over the lines keep accepts (all when nil): a test on
// the raw bytes that spares decoding the lines a projection cannot use.
func (j *Journal) eachWhere(keep func(line []byte) bool, fn func(e *Entry) error) error {
	return j.walkLines(func(l *rawLine) error {
		if l.torn || (keep != nil && !keep(l.data)) {
			return nil
		}
		var e Entry
		if json.Unmarshal(l.data, &e) != nil {
			return nil
		}
		return fn(&e)
	})
}

// Entries returns every complete entry in order.
func (j *Journal) Entries() ([]*Entry, error) {
	var out []*Entry
	err := j.Each(func(e *Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// eachContaining is Each over the lines that contain at least one of
// needles as bytes (see field): a projection that needs few lines of a
// long journal decodes only those. It is a prefilter: fn still checks the
// fields it relies on.
func (j *Journal) eachContaining(needles [][]byte, fn func(e *Entry) error) error {
	return j.eachWhere(func(line []byte) bool {
		for _, n := range needles {
			if bytes.Contains(line, n) {
				return true
			}
		}
		return false
	}, fn)
}

// field is the bytes a string field has in a journal line, `"name":"value"`,
// encoded as marshalLine encodes it, for matching lines without decoding
// them.
func field(name, value string) []byte {
	return appendJSONString([]byte(`"`+name+`":`), value)
}
