package claudecode

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// ReadSettings reads a settings file; a missing file reads as empty.
func ReadSettings(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// WriteSettings replaces a settings file atomically, keeping its
// permissions: Claude Code reading it at the same moment sees the old or
// the new file, never half of one.
func WriteSettings(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return safefile.Replace(file, data, safefile.Options{Perm: 0o644, KeepPerm: true})
}
