package policy

import "github.com/airlock-dev/airlock/internal/strictyaml"

// The mistakes of a policy file are internal/strictyaml's, which every
// package owning a section of the file decodes with; these names let the
// policy's callers match them without knowing that.

// FileError is a mistake in a policy file, with the line it is on.
type FileError = strictyaml.FileError

// ErrUnknownKey is wrapped by a FileError for a key the format does not
// have, usually a typo.
var ErrUnknownKey = strictyaml.ErrUnknownKey

// ErrBadValue is wrapped by a FileError for a value of the wrong kind or
// outside its allowed set.
var ErrBadValue = strictyaml.ErrBadValue

// FileErrors lists every *FileError in err, which may join several
// (a file with more than one mistake, or mistakes in several files).
func FileErrors(err error) []*FileError { return strictyaml.FileErrors(err) }
