package journal

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// ErrNoLine: no complete line of the live journal has that sequence
// number (never written, torn, or archived).
var ErrNoLine = errors.New("no journal line with that number")

// errFound stops the walk at the line wanted.
var errFound = errors.New("found")

// EntryAt returns the journal line numbered seq. It walks the segments
// and decodes only the line whose bytes start with that number ("airlock
// explain" of a line, a human's command, never the hook's path).
func (j *Journal) EntryAt(seq int64) (*Entry, error) {
	if seq <= 0 {
		return nil, fmt.Errorf("%w: %d", ErrNoLine, seq)
	}
	prefix := []byte(`{"seq":` + strconv.FormatInt(seq, 10) + `,`)
	var found *Entry
	err := j.eachWhere(func(line []byte) bool { return bytes.HasPrefix(line, prefix) }, func(e *Entry) error {
		if e.Seq == seq {
			found = e
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("%w: %d", ErrNoLine, seq)
	}
	return found, nil
}
