package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// ReadOptions say how a file that someone else may have planted (a
// project's policy, a checkout's settings) is read.
type ReadOptions struct {
	// Limit is the largest size read, in bytes; a larger file is an
	// error naming the limit (a link to /dev/zero or a huge file would
	// otherwise exhaust memory on every hook call).
	Limit int64
	// Within, when set, is a directory the file must stay inside once
	// every link is resolved: a project file may not be a link out of
	// the project.
	Within string
}

// ErrTooLarge says a file is larger than ReadOptions.Limit.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular says a file is a device, a FIFO, a socket or a directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrOutside says a file resolves to a place outside ReadOptions.Within.
var ErrOutside = errors.New("a link out of the directory it must stay in")

// ReadRegular reads a regular file within a size limit. It opens the file
// without blocking (a FIFO would otherwise hang every reader until a
// writer came), refuses anything but a regular file, and reads at most
// Limit bytes. A missing file is reported as fs.ErrNotExist, like
// os.ReadFile, so callers keep their "missing is empty" handling.
func ReadRegular(name string, o ReadOptions) ([]byte, error) {
	if o.Limit <= 0 {
		return nil, fmt.Errorf("%s: safefile: no read limit given", name)
	}
	if o.Within != "" {
		if err := within(name, o.Within); err != nil {
			return nil, err
		}
	}
	return readLimited(name, o.Limit)
}

// limitErr and notRegularErr are ReadRegular's errors for a file over the
// limit and a file that is not regular, shared by every readLimited.
func limitErr(name string, size, limit int64) error {
	if size < 0 {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: over the limit of %d bytes", ErrTooLarge, limit)}
	}
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, size, limit)}
}

func notRegularErr(name string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, fileType(m))}
}

// within checks that name, with every link resolved, stays under dir.
func within(name, dir string) error {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s resolves to %s, outside %s)", ErrOutside, name, real, root)}
	}
	return nil
}

func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file"
}
