package policy

import (
	"errors"
	"fmt"
	"sort"
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

// inFile turns what decoding or compiling one file returned (a lineError,
// several joined, or a plain error) into FileErrors naming the file: one
// *FileError, or several joined in line order (errors.As finds the first).
func inFile(file string, err error) error {
	var out []error
	var walk func(error)
	walk = func(err error) {
		if m, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range m.Unwrap() {
				walk(e)
			}
			return
		}
		var fe *FileError
		var le *lineError
		switch {
		case errors.As(err, &fe):
			out = append(out, fe)
		case errors.As(err, &le):
			out = append(out, &FileError{File: file, Line: le.line, Err: le.err})
		default:
			out = append(out, &FileError{File: file, Err: err})
		}
	}
	walk(err)
	if len(out) == 1 {
		return out[0]
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].(*FileError).Line < out[j].(*FileError).Line })
	return errors.Join(out...)
}

// FileErrors lists every *FileError in err, which may join several
// (a file with more than one mistake, or mistakes in several files).
func FileErrors(err error) []*FileError {
	var out []*FileError
	var walk func(error)
	walk = func(err error) {
		if m, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range m.Unwrap() {
				walk(e)
			}
			return
		}
		var fe *FileError
		if errors.As(err, &fe) {
			out = append(out, fe)
		}
	}
	walk(err)
	return out
}
