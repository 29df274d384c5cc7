package journal

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// tailChunk is how much of a segment's end is read at a time while
// looking for its last line.
const tailChunk = 64 << 10

// scanTail returns the last complete line of f (without its newline), the
// offset just past it, and whether bytes follow it that do not end in a
// newline (a torn write). An empty file has no last line.
func scanTail(f *os.File) (last []byte, end int64, torn bool, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, false, fmt.Errorf("journal: %w", err)
	}
	size := st.Size()
	if size == 0 {
		return nil, 0, false, nil
	}
	// Walk back from the end, chunk by chunk, collecting bytes until two
	// newlines (or the start) bound the last complete line.
	var buf []byte
	off := size
	newlines := []int64{} // absolute offsets of newlines found, from the end
	for off > 0 && len(newlines) < 2 {
		n := int64(tailChunk)
		if n > off {
			n = off
		}
		off -= n
		chunk := make([]byte, n)
		if _, err := f.ReadAt(chunk, off); err != nil && err != io.EOF {
			return nil, 0, false, fmt.Errorf("journal: %w", err)
		}
		for i := len(chunk) - 1; i >= 0 && len(newlines) < 2; i-- {
			if chunk[i] == '\n' {
				newlines = append(newlines, off+int64(i))
			}
		}
		buf = append(chunk, buf...)
		if int64(len(buf)) > 2*MaxLine+tailChunk {
			return nil, 0, false, fmt.Errorf("journal: the end of %s holds no complete line within %d bytes; run airlock audit verify", f.Name(), len(buf))
		}
	}
	if len(newlines) == 0 {
		// No newline at all: the whole file is one torn line.
		return nil, 0, true, nil
	}
	end = newlines[0] + 1
	torn = end < size
	start := int64(0)
	if len(newlines) > 1 {
		start = newlines[1] + 1
	}
	last = buf[start-off : newlines[0]-off]
	return bytes.Clone(last), end, torn, nil
}

// lastLine is scanTail for a segment that is only read.
func lastLine(f *os.File) ([]byte, int64, error) {
	last, end, _, err := scanTail(f)
	return last, end, err
}

// repairTail sets aside a torn last line of the segment at path (opened
// read-write as f) into path+".torn" and truncates it, so that the next
// line starts clean. It returns the last complete line, the new size and
// how many bytes were set aside.
func repairTail(f *os.File, path string) (last []byte, size, moved int64, err error) {
	last, end, torn, err := scanTail(f)
	if err != nil {
		return nil, 0, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("journal: %w", err)
	}
	if !torn {
		return last, st.Size(), 0, nil
	}
	tornBytes := make([]byte, st.Size()-end)
	if _, err := f.ReadAt(tornBytes, end); err != nil && err != io.EOF {
		return nil, 0, 0, fmt.Errorf("journal: %w", err)
	}
	side, err := os.OpenFile(path+".torn", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("journal: setting aside a torn line: %w", err)
	}
	_, werr := side.Write(append(tornBytes, '\n'))
	serr := side.Sync()
	side.Close()
	if werr != nil || serr != nil {
		return nil, 0, 0, fmt.Errorf("journal: setting aside a torn line: %v", firstErr(werr, serr))
	}
	if err := f.Truncate(end); err != nil {
		return nil, 0, 0, fmt.Errorf("journal: truncating a torn line: %w", err)
	}
	if err := f.Sync(); err != nil {
		return nil, 0, 0, fmt.Errorf("journal sync: %w", err)
	}
	return last, end, int64(len(tornBytes)), nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
