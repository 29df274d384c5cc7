package journal

import (
	"bufio"
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
	line int    // 1-based
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
	for _, s := range segs {
		if err := walkSegment(s.path, fn); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

func walkSegment(path string, fn func(l *rawLine) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	l := rawLine{seg: filepath.Base(path)}
	for {
		data, err := readLine(r)
		if len(data) > 0 || (err == nil) {
			l.line++
			l.data = data
			l.torn = err == io.EOF
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
	return j.walkLines(func(l *rawLine) error {
		if l.torn {
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
