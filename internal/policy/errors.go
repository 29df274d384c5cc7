package policy

import (
	"errors"
	"fmt"
)

// FileError is a mistake in a policy file, with the line it is on.
type FileError struct {
	// File is the path of the policy file ("" for built-in text).
	File string
	// Line is the 1-based line, or 0 when the error is about the whole file.
	Line int
	// Err says what is wrong.
	Err error
}

func (e *FileError) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	default:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
}

func (e *FileError) Unwrap() error { return e.Err }

// ErrUnknownKey is wrapped by a FileError for a key the format does not
// have, usually a typo.
var ErrUnknownKey = errors.New("unknown key")

// ErrBadValue is wrapped by a FileError for a value of the wrong kind or
// outside its allowed set.
var ErrBadValue = errors.New("bad value")

// lineError is an error found at a line of the file being decoded; the
// loader turns it into a FileError naming the file.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %v", e.line, e.err) }
func (e *lineError) Unwrap() error { return e.err }

func errAt(line int, kind error, format string, args ...any) error {
	return &lineError{line: line, err: fmt.Errorf("%w: "+format, append([]any{kind}, args...)...)}
}
