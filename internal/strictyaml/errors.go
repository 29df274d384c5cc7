package strictyaml

import (
	"errors"
	"fmt"
	"sort"
)

// FileError is a mistake in a configuration file, with the line it is on.
type FileError struct {
	// File is the path of the file ("" for built-in text).
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

// LineError is an error found at a line of the node being decoded, before
// anyone has said which file the node came from; InFile turns it into a
// FileError naming the file. A decoder returns LineErrors so that it can
// be handed a node without its file name.
type LineError struct {
	// Line is the 1-based line.
	Line int
	// Err says what is wrong.
	Err error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// At is a mistake of the given kind (ErrUnknownKey, ErrBadValue) at a
// line, worded by format and args.
func At(line int, kind error, format string, args ...any) error {
	return &LineError{Line: line, Err: fmt.Errorf("%w: "+format, append([]any{kind}, args...)...)}
}

// BadValue is err, from a parser of one value (a rate, a mode), as an
// ErrBadValue at a line.
func BadValue(line int, err error) error {
	return &LineError{Line: line, Err: fmt.Errorf("%w: %v", ErrBadValue, err)}
}

// InFile turns what decoding or compiling one file returned (a LineError,
// several joined, or a plain error) into FileErrors naming the file: one
// *FileError, or several joined in line order (errors.As finds the first).
// FileErrors already in err keep the file they name.
func InFile(file string, err error) error {
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
		var le *LineError
		switch {
		case errors.As(err, &fe):
			out = append(out, fe)
		case errors.As(err, &le):
			out = append(out, &FileError{File: file, Line: le.Line, Err: le.Err})
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
